import type { VariableGroupList, variableGroupCreate, variableGroupPatch } from '@crdp/core';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { auditTrail } from '../audit/audit.js';
import { appRowOf, appRows, deleteAppRow, nameTaken, ownedIds, updateAppRow } from '../db/app-rows.js';
import type { Tx } from '../db/client.js';
import { variableGroupMembers, variableGroups, variables } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { invalidField } from '../http/errors.js';
import { collectionViews } from './members.js';

/** Variable groups (变量组): an app's variables collected, in order, for a study. */

type Row = typeof variableGroups.$inferSelect;

export const variableGroupRow = appRowOf(variableGroups, 'variable_group');
export const ownedVariableGroupIds = ownedIds(variableGroups);
const trail = auditTrail('variable_group', 'variableGroup');

const viewsOf = (db: Tx, rows: Row[]) => collectionViews(db, 'group', rows);

export async function listVariableGroups(db: Tx, appId: number): Promise<VariableGroupList> {
  const rows = await appRows(db, variableGroups, appId, asc(variableGroups.name));
  return { items: await viewsOf(db, rows) };
}

/** Checks the name is free in the app and every variable is the app's. */
async function check(tx: Tx, appId: number, name: string, ids: number[], id: number | null) {
  if (await nameTaken(tx, variableGroups, appId, name, id))
    throw invalidField('body.name', `变量组 ${name} 已存在`, `variable group ${name} exists`);
  if (!ids.length) return;
  const found = await tx
    .select({ id: variables.id })
    .from(variables)
    .where(and(eq(variables.appId, appId), inArray(variables.id, ids)));
  const missing = ids.find((v) => !found.some((f) => f.id === v));
  if (missing !== undefined)
    throw invalidField('body.variableIds', `没有编号为 ${missing} 的变量`, `no variable ${missing}`);
}

async function setMembers(tx: Tx, appId: number, groupId: number, ids: number[]) {
  await tx.delete(variableGroupMembers).where(eq(variableGroupMembers.groupId, groupId));
  if (ids.length)
    await tx
      .insert(variableGroupMembers)
      .values(ids.map((variableId, position) => ({ groupId, variableId, appId, position })));
}

/** Checks, inserts and audits one group inside the caller's transaction (group templates make many). */
export async function insertVariableGroup(
  tx: Tx,
  ctx: SignedIn,
  input: z.output<typeof variableGroupCreate>,
) {
  await check(tx, ctx.appId, input.name, input.variableIds, null);
  const [row] = await tx
    .insert(variableGroups)
    .values({ appId: ctx.appId, name: input.name, description: input.description, createdBy: ctx.userId })
    .returning();
  await setMembers(tx, ctx.appId, row!.id, input.variableIds);
  const [after] = await viewsOf(tx, [row!]);
  return trail.added(tx, ctx, row!.id, after!);
}

export async function addVariableGroup(ctx: SignedIn, input: z.output<typeof variableGroupCreate>) {
  return ctx.db.transaction((tx) => insertVariableGroup(tx, ctx, input));
}

export async function editVariableGroup(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof variableGroupPatch>,
) {
  return ctx.db.transaction(async (tx) => {
    const row = await variableGroupRow(tx, ctx.appId, id);
    const [before] = await viewsOf(tx, [row]);
    const name = input.name ?? row.name;
    const ids = input.variableIds ?? before!.variables.map((v) => v.id);
    await check(tx, ctx.appId, name, ids, id);
    const next = await updateAppRow(tx, variableGroups, ctx.appId, id, {
      name,
      description: input.description ?? row.description,
      updatedAt: new Date(),
    });
    if (input.variableIds) await setMembers(tx, ctx.appId, id, ids);
    const [after] = await viewsOf(tx, [next!]);
    return trail.edited(tx, ctx, id, before, after!);
  });
}

export async function deleteVariableGroup(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const [before] = await viewsOf(tx, [await variableGroupRow(tx, ctx.appId, id)]);
    await deleteAppRow(tx, variableGroups, ctx.appId, id);
    await trail.deleted(tx, ctx, id, before);
    return true as const;
  });
}
