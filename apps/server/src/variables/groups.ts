import type { VariableGroup, VariableGroupList, variableGroupCreate, variableGroupPatch } from '@crdp/core';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { appRowOf, deleteAppRow, nameTaken, ownedIds, updateAppRow } from '../db/app-rows.js';
import type { Tx } from '../db/client.js';
import { variableGroupMembers, variableGroups, variables } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { invalidField } from '../http/errors.js';

/** Variable groups (变量组): an app's variables collected, in order, for a study. */

type Row = typeof variableGroups.$inferSelect;

export const variableGroupRow = appRowOf(variableGroups, 'variable_group');
export const ownedVariableGroupIds = ownedIds(variableGroups);

async function viewsOf(db: Tx, rows: Row[]): Promise<VariableGroup[]> {
  const ids = rows.map((r) => r.id);
  const members = ids.length
    ? await db
        .select({
          groupId: variableGroupMembers.groupId,
          id: variables.id,
          code: variables.code,
          labelZh: variables.labelZh,
          labelEn: variables.labelEn,
          type: variables.type,
        })
        .from(variableGroupMembers)
        .innerJoin(variables, eq(variables.id, variableGroupMembers.variableId))
        .where(inArray(variableGroupMembers.groupId, ids))
        .orderBy(asc(variableGroupMembers.position))
    : [];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    variables: members
      .filter((m) => m.groupId === r.id)
      .map(({ groupId: _, ...m }) => ({ ...m, type: m.type as VariableGroup['variables'][number]['type'] })),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export async function listVariableGroups(db: Tx, appId: number): Promise<VariableGroupList> {
  const rows = await db
    .select()
    .from(variableGroups)
    .where(eq(variableGroups.appId, appId))
    .orderBy(asc(variableGroups.name));
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
  await audit(tx, ctx, { action: 'variableGroup.add', entity: 'variable_group', entityId: row!.id, after });
  return after!;
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
    await audit(tx, ctx, {
      action: 'variableGroup.edit',
      entity: 'variable_group',
      entityId: id,
      before,
      after,
    });
    return after!;
  });
}

export async function deleteVariableGroup(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const [before] = await viewsOf(tx, [await variableGroupRow(tx, ctx.appId, id)]);
    await deleteAppRow(tx, variableGroups, ctx.appId, id);
    await audit(tx, ctx, { action: 'variableGroup.delete', entity: 'variable_group', entityId: id, before });
    return true as const;
  });
}
