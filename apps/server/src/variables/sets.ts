import type { Variable, VariableSetList, variableSetCreate, variableSetPatch } from '@crdp/core';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { auditTrail } from '../audit/audit.js';
import { appRowOf, appRows, deleteAppRow, nameTaken, ownedIds, updateAppRow } from '../db/app-rows.js';
import type { Tx } from '../db/client.js';
import {
  variableGroupMembers,
  variableGroups,
  variableSetMembers,
  variableSets,
  variables,
} from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { invalidField } from '../http/errors.js';
import { collectionViews } from './members.js';
import { variableView } from './variables.js';

/**
 * Variable sets (变量集): the variables a study's dataset is built from, in order. A set is saved
 * as its variables: groups named on saving add their variables (after the ones named one by one,
 * each once), so a later change of a group does not change a set a dataset was built from.
 * Other areas read a set with `variablesOfSet`.
 */

type Row = typeof variableSets.$inferSelect;

export const variableSetRow = appRowOf(variableSets, 'variable_set');
export const ownedVariableSetIds = ownedIds(variableSets);
const trail = auditTrail('variable_set', 'variableSet');

/**
 * A set's variables in the set's order, each with its full definition and derivation (what a
 * transform task compiles). 404 when the set is not the app's.
 */
export async function variablesOfSet(db: Tx, appId: number, setId: number): Promise<Variable[]> {
  await variableSetRow(db, appId, setId);
  const rows = await db
    .select({ v: variables })
    .from(variableSetMembers)
    .innerJoin(variables, eq(variables.id, variableSetMembers.variableId))
    .where(and(eq(variableSetMembers.setId, setId), eq(variableSetMembers.appId, appId)))
    .orderBy(asc(variableSetMembers.position));
  return rows.map((r) => variableView(r.v));
}

const viewsOf = (db: Tx, rows: Row[]) => collectionViews(db, 'set', rows);

export async function listVariableSets(db: Tx, appId: number): Promise<VariableSetList> {
  const rows = await appRows(db, variableSets, appId, asc(variableSets.name));
  return { items: await viewsOf(db, rows) };
}

/** The set's variables: those named, then the groups' (in the groups' order), each once; all the app's. */
async function membersOf(tx: Tx, appId: number, variableIds: number[], groupIds: number[]) {
  const out = [...variableIds];
  if (variableIds.length) {
    const found = await tx
      .select({ id: variables.id })
      .from(variables)
      .where(and(eq(variables.appId, appId), inArray(variables.id, variableIds)));
    const i = variableIds.findIndex((v) => !found.some((f) => f.id === v));
    if (i >= 0)
      throw invalidField(
        `body.variableIds.${i}`,
        `没有编号为 ${variableIds[i]} 的变量`,
        `no variable ${variableIds[i]}`,
      );
  }
  for (const [i, g] of groupIds.entries()) {
    const rows = await tx
      .select({ id: variableGroupMembers.variableId })
      .from(variableGroupMembers)
      .where(and(eq(variableGroupMembers.groupId, g), eq(variableGroupMembers.appId, appId)))
      .orderBy(asc(variableGroupMembers.position));
    if (!rows.length) {
      const [exists] = await tx
        .select({ id: variableGroups.id })
        .from(variableGroups)
        .where(and(eq(variableGroups.id, g), eq(variableGroups.appId, appId)));
      if (!exists)
        throw invalidField(`body.groupIds.${i}`, `没有编号为 ${g} 的变量组`, `no variable group ${g}`);
    }
    for (const r of rows) if (!out.includes(r.id)) out.push(r.id);
  }
  return out;
}

async function nameFree(tx: Tx, appId: number, name: string, id: number | null) {
  if (await nameTaken(tx, variableSets, appId, name, id))
    throw invalidField('body.name', `变量集 ${name} 已存在`, `variable set ${name} exists`);
}

async function setMembers(tx: Tx, appId: number, setId: number, ids: number[]) {
  await tx.delete(variableSetMembers).where(eq(variableSetMembers.setId, setId));
  if (ids.length)
    await tx
      .insert(variableSetMembers)
      .values(ids.map((variableId, position) => ({ setId, variableId, appId, position })));
}

export async function addVariableSet(ctx: SignedIn, input: z.output<typeof variableSetCreate>) {
  return ctx.db.transaction(async (tx) => {
    await nameFree(tx, ctx.appId, input.name, null);
    const ids = await membersOf(tx, ctx.appId, input.variableIds, input.groupIds);
    const [row] = await tx
      .insert(variableSets)
      .values({ appId: ctx.appId, name: input.name, description: input.description, createdBy: ctx.userId })
      .returning();
    await setMembers(tx, ctx.appId, row!.id, ids);
    const [after] = await viewsOf(tx, [row!]);
    return trail.added(tx, ctx, row!.id, after!);
  });
}

export async function editVariableSet(ctx: SignedIn, id: number, input: z.output<typeof variableSetPatch>) {
  return ctx.db.transaction(async (tx) => {
    const row = await variableSetRow(tx, ctx.appId, id);
    const [before] = await viewsOf(tx, [row]);
    const name = input.name ?? row.name;
    await nameFree(tx, ctx.appId, name, id);
    const changed = input.variableIds !== undefined || input.groupIds !== undefined;
    const ids = changed
      ? await membersOf(
          tx,
          ctx.appId,
          input.variableIds ?? before!.variables.map((v) => v.id),
          input.groupIds ?? [],
        )
      : null;
    const next = await updateAppRow(tx, variableSets, ctx.appId, id, {
      name,
      description: input.description ?? row.description,
      updatedAt: new Date(),
    });
    if (ids) await setMembers(tx, ctx.appId, id, ids);
    const [after] = await viewsOf(tx, [next!]);
    return trail.edited(tx, ctx, id, before, after!);
  });
}

export async function deleteVariableSet(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const [before] = await viewsOf(tx, [await variableSetRow(tx, ctx.appId, id)]);
    await deleteAppRow(tx, variableSets, ctx.appId, id);
    await trail.deleted(tx, ctx, id, before);
    return true as const;
  });
}
