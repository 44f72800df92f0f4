import type { IndicatorGroup, indicatorGroupCreate, indicatorGroupPatch } from '@crdp/core';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { auditTrail } from '../audit/audit.js';
import { appRowOf, appRows, deleteAppRow, nameTaken, ownedIds, updateAppRow } from '../db/app-rows.js';
import type { Tx } from '../db/client.js';
import {
  dataModels,
  formulas,
  dataModelIndicatorGroups as groups,
  dataModelIndicatorGroupMembers as members,
} from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { invalidField } from '../http/errors.js';

/**
 * Indicator groups (指标组): the app's computed indicators (the formulas of the indicator area,
 * apps/server/src/formulas) grouped in order, optionally for one data model, so a model's derived
 * values are found together. The indicators themselves are never copied.
 */

type Row = typeof groups.$inferSelect;

export const indicatorGroupRow = appRowOf(groups, 'indicator_group');
export const ownedIndicatorGroupIds = ownedIds(groups);
const trail = auditTrail('indicator_group', 'indicatorGroup');

async function viewsOf(db: Tx, rows: Row[]): Promise<IndicatorGroup[]> {
  const ids = rows.map((r) => r.id);
  const list = ids.length
    ? await db
        .select({
          groupId: members.groupId,
          id: formulas.id,
          name: formulas.name,
          unit: formulas.unit,
          expression: formulas.expression,
        })
        .from(members)
        .innerJoin(formulas, eq(formulas.id, members.formulaId))
        .where(inArray(members.groupId, ids))
        .orderBy(asc(members.position))
    : [];
  const modelIds = rows.map((r) => r.modelId).filter((m): m is number => m !== null);
  const models = modelIds.length
    ? await db
        .select({ id: dataModels.id, name: dataModels.name, version: dataModels.version })
        .from(dataModels)
        .where(inArray(dataModels.id, modelIds))
    : [];
  return rows.map((r) => {
    const m = models.find((x) => x.id === r.modelId);
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      modelId: r.modelId,
      modelName: m ? `${m.name} v${m.version}` : '',
      indicators: list.filter((x) => x.groupId === r.id).map(({ groupId: _, ...x }) => x),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}

export async function listIndicatorGroups(db: Tx, appId: number) {
  const rows = await appRows(db, groups, appId, asc(groups.name));
  return { items: await viewsOf(db, rows) };
}

async function check(
  tx: Tx,
  appId: number,
  name: string,
  modelId: number | null,
  ids: number[],
  id: number | null,
) {
  if (await nameTaken(tx, groups, appId, name, id))
    throw invalidField('body.name', `指标组 ${name} 已存在`, `indicator group ${name} exists`);
  if (modelId !== null) {
    const [m] = await tx
      .select({ id: dataModels.id })
      .from(dataModels)
      .where(and(eq(dataModels.id, modelId), eq(dataModels.appId, appId)));
    if (!m) throw invalidField('body.modelId', `没有编号为 ${modelId} 的模型`, `no data model ${modelId}`);
  }
  if (new Set(ids).size !== ids.length)
    throw invalidField('body.formulaIds', '同一指标只能出现一次', 'an indicator may appear once');
  if (!ids.length) return;
  const found = await tx
    .select({ id: formulas.id })
    .from(formulas)
    .where(and(eq(formulas.appId, appId), inArray(formulas.id, ids)));
  const missing = ids.find((v) => !found.some((f) => f.id === v));
  if (missing !== undefined)
    throw invalidField('body.formulaIds', `没有编号为 ${missing} 的指标`, `no indicator ${missing}`);
}

async function setMembers(tx: Tx, appId: number, groupId: number, ids: number[]) {
  await tx.delete(members).where(eq(members.groupId, groupId));
  if (ids.length)
    await tx
      .insert(members)
      .values(ids.map((formulaId, position) => ({ groupId, formulaId, appId, position })));
}

export async function addIndicatorGroup(ctx: SignedIn, input: z.output<typeof indicatorGroupCreate>) {
  return ctx.db.transaction(async (tx) => {
    await check(tx, ctx.appId, input.name, input.modelId, input.formulaIds, null);
    const [row] = await tx
      .insert(groups)
      .values({
        appId: ctx.appId,
        name: input.name,
        description: input.description,
        modelId: input.modelId,
        createdBy: ctx.userId,
      })
      .returning();
    await setMembers(tx, ctx.appId, row!.id, input.formulaIds);
    const [after] = await viewsOf(tx, [row!]);
    return trail.added(tx, ctx, row!.id, after!);
  });
}

export async function editIndicatorGroup(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof indicatorGroupPatch>,
) {
  return ctx.db.transaction(async (tx) => {
    const row = await indicatorGroupRow(tx, ctx.appId, id);
    const [before] = await viewsOf(tx, [row]);
    const name = input.name ?? row.name;
    const modelId = input.modelId === undefined ? row.modelId : input.modelId;
    const ids = input.formulaIds ?? before!.indicators.map((v) => v.id);
    await check(tx, ctx.appId, name, modelId, ids, id);
    const next = await updateAppRow(tx, groups, ctx.appId, id, {
      name,
      description: input.description ?? row.description,
      modelId,
      updatedAt: new Date(),
    });
    if (input.formulaIds) await setMembers(tx, ctx.appId, id, ids);
    const [after] = await viewsOf(tx, [next!]);
    return trail.edited(tx, ctx, id, before, after!);
  });
}

export async function deleteIndicatorGroup(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const [before] = await viewsOf(tx, [await indicatorGroupRow(tx, ctx.appId, id)]);
    await deleteAppRow(tx, groups, ctx.appId, id);
    await trail.deleted(tx, ctx, id, before);
    return true as const;
  });
}
