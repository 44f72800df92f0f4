import type { QcRuleKind, QcSeverity, qcPlan } from '@crdp/core';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditSwitched } from '../audit/audit.js';
import { appRowOf, deleteAppRow, updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { qcPlanRules, qcPlans, qcRules } from '../db/schema/index.js';
import { invalidField } from '../http/errors.js';
import { type Actor, type ListQuery, namedPage, type PlanInput, type QcPageOf } from './inputs.js';

/**
 * QC plans (DataQcPlan): a named, ordered set of the app's own rules. A plan is saved only with
 * enabled rules; a rule disabled later stays in the plan and is skipped when the plan runs (the
 * task's report lists it as skipped), so disabling a rule never silently changes a plan.
 */
type PlanRow = typeof qcPlans.$inferSelect;

async function planRules(db: Tx, planIds: number[]) {
  if (!planIds.length) return [];
  return db
    .select({
      planId: qcPlanRules.planId,
      id: qcRules.id,
      name: qcRules.name,
      kind: qcRules.kind,
      table: qcRules.tableKey,
      column: qcRules.columnKey,
      severity: qcRules.severity,
      enabled: qcRules.enabled,
    })
    .from(qcPlanRules)
    .innerJoin(qcRules, eq(qcRules.id, qcPlanRules.ruleId))
    .where(inArray(qcPlanRules.planId, planIds))
    .orderBy(asc(qcPlanRules.planId), asc(qcPlanRules.position));
}

/** A plan as the API answers it (the `qcPlan` contract). */
export type PlanView = z.input<typeof qcPlan>;

async function withRules(db: Tx, rows: PlanRow[]): Promise<PlanView[]> {
  const rules = await planRules(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((p) => {
    const mine = rules
      .filter((r) => r.planId === p.id)
      .map(({ planId: _p, ...r }) => ({
        ...r,
        kind: r.kind as QcRuleKind,
        severity: r.severity as QcSeverity,
      }));
    return {
      id: p.id,
      name: p.name,
      description: p.description,
      enabled: p.enabled,
      ruleIds: mine.map((r) => r.id),
      rules: mine,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
    };
  });
}

export const planRow = appRowOf(qcPlans, 'qc_plan');

export async function planOf(db: Tx, appId: number, id: number): Promise<PlanView> {
  return (await withRules(db, [await planRow(db, appId, id)]))[0]!;
}

export async function listPlans(db: Db, appId: number, q: ListQuery): Promise<QcPageOf<PlanView>> {
  const { total, rows } = await namedPage(db, qcPlans, appId, q);
  return { total, page: q.page, size: q.size, items: await withRules(db, rows) };
}

/** Every rule must be one of the app's own, enabled, and named once; 400 names the entry. */
async function checkRuleIds(db: Tx, appId: number, ids: number[]) {
  const found = await db
    .select({ id: qcRules.id, name: qcRules.name, enabled: qcRules.enabled })
    .from(qcRules)
    .where(and(eq(qcRules.appId, appId), inArray(qcRules.id, ids)));
  const byId = new Map(found.map((r) => [r.id, r]));
  const seen = new Set<number>();
  ids.forEach((id, i) => {
    const rule = byId.get(id);
    if (!rule)
      throw invalidField(
        `body.ruleIds.${i}`,
        `本应用没有质控规则 ${id}`,
        `there is no QC rule ${id} in this app`,
      );
    if (!rule.enabled)
      throw invalidField(
        `body.ruleIds.${i}`,
        `规则「${rule.name}」已停用，不能加入方案`,
        `rule “${rule.name}” is disabled and cannot join a plan`,
      );
    if (seen.has(id))
      throw invalidField(
        `body.ruleIds.${i}`,
        `规则「${rule.name}」重复`,
        `rule “${rule.name}” is listed twice`,
      );
    seen.add(id);
  });
}

async function writeRules(tx: Tx, planId: number, ids: number[]) {
  await tx.delete(qcPlanRules).where(eq(qcPlanRules.planId, planId));
  await tx.insert(qcPlanRules).values(ids.map((ruleId, position) => ({ planId, ruleId, position })));
}

export async function createPlan(db: Db, actor: Actor, input: PlanInput) {
  return db.transaction(async (tx) => {
    await checkRuleIds(tx, actor.appId, input.ruleIds);
    const [row] = await tx
      .insert(qcPlans)
      .values({
        appId: actor.appId,
        name: input.name,
        description: input.description,
        enabled: input.enabled,
        createdBy: actor.userId,
      })
      .returning();
    await writeRules(tx, row!.id, input.ruleIds);
    const view = await planOf(tx, actor.appId, row!.id);
    await audit(tx, actor, { action: 'create', entity: 'qc_plan', entityId: row!.id, after: view });
    return view;
  });
}

export async function updatePlan(db: Db, actor: Actor, id: number, input: PlanInput) {
  return db.transaction(async (tx) => {
    const before = await planOf(tx, actor.appId, id);
    await checkRuleIds(tx, actor.appId, input.ruleIds);
    await updateAppRow(tx, qcPlans, actor.appId, id, {
      name: input.name,
      description: input.description,
      enabled: input.enabled,
      updatedAt: new Date(),
    });
    await writeRules(tx, id, input.ruleIds);
    const after = await planOf(tx, actor.appId, id);
    await audit(tx, actor, { action: 'update', entity: 'qc_plan', entityId: id, before, after });
    return after;
  });
}

/** Deletes a plan; its past tasks and reports stay (they keep the plan's name). */
export async function deletePlan(db: Db, actor: Actor, id: number) {
  return db.transaction(async (tx) => {
    const before = await planOf(tx, actor.appId, id);
    await deleteAppRow(tx, qcPlans, actor.appId, id);
    await audit(tx, actor, { action: 'delete', entity: 'qc_plan', entityId: id, before });
    return { id };
  });
}

export async function setPlanEnabled(db: Db, actor: Actor, id: number, enabled: boolean) {
  return db.transaction(async (tx) => {
    const before = await planRow(tx, actor.appId, id);
    await updateAppRow(tx, qcPlans, actor.appId, id, { enabled, updatedAt: new Date() });
    await auditSwitched(tx, actor, 'qc_plan', id, before.enabled, enabled);
    return planOf(tx, actor.appId, id);
  });
}

export async function ownedPlanIds(db: Db, appId: number) {
  const rows = await db.select({ id: qcPlans.id }).from(qcPlans).where(eq(qcPlans.appId, appId));
  return rows.map((r) => ({ planId: r.id }));
}
