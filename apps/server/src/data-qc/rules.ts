import type { QcRuleKind, QcSeverity, qcRule } from '@crdp/core';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditSwitched } from '../audit/audit.js';
import { appRowOf, deleteAppRow, updateAppRow } from '../db/app-rows.js';
import type { Db } from '../db/client.js';
import { qcRules } from '../db/schema/index.js';
import type { Actor, ListQuery, QcPageOf, RuleInput } from './inputs.js';
import { namedPage } from './inputs.js';
import { checkPatternInDatabase, checkRule, type RuleParams } from './rule-check.js';

/**
 * QC rules (DataQcRule) of one app: create, change, delete, enable and disable, each audited in
 * its transaction. A rule names a whitelisted table and column and its kind's settings.
 */
type RuleRow = typeof qcRules.$inferSelect;

/** A rule as the API answers it (the `qcRule` contract). */
export type RuleView = z.input<typeof qcRule>;

export function ruleView(r: RuleRow): RuleView {
  const p = r.params as RuleParams;
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    table: r.tableKey,
    kind: r.kind as QcRuleKind,
    column: r.columnKey,
    severity: r.severity as QcSeverity,
    enabled: r.enabled,
    min: p.min ?? null,
    max: p.max ?? null,
    pattern: p.pattern ?? null,
    values: p.values ?? null,
    otherColumn: p.otherColumn ?? null,
    filterColumn: p.filterColumn ?? null,
    filterValue: p.filterValue ?? null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export const ruleOf = appRowOf(qcRules, 'qc_rule');

export async function listRules(db: Db, appId: number, q: ListQuery): Promise<QcPageOf<RuleView>> {
  const { total, rows } = await namedPage(db, qcRules, appId, q);
  return { total, page: q.page, size: q.size, items: rows.map(ruleView) };
}

export async function createRule(db: Db, actor: Actor, input: RuleInput) {
  const checked = checkRule(input);
  await checkPatternInDatabase(db, checked.params.pattern);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(qcRules)
      .values({
        appId: actor.appId,
        name: input.name,
        description: input.description,
        ...checked,
        severity: input.severity,
        enabled: input.enabled,
        createdBy: actor.userId,
      })
      .returning();
    const view = ruleView(row!);
    await audit(tx, actor, { action: 'create', entity: 'qc_rule', entityId: row!.id, after: view });
    return view;
  });
}

export async function updateRule(db: Db, actor: Actor, id: number, input: RuleInput) {
  await ruleOf(db, actor.appId, id);
  const checked = checkRule(input);
  await checkPatternInDatabase(db, checked.params.pattern);
  return db.transaction(async (tx) => {
    const before = ruleView(await ruleOf(tx, actor.appId, id));
    const row = await updateAppRow(tx, qcRules, actor.appId, id, {
      name: input.name,
      description: input.description,
      ...checked,
      severity: input.severity,
      enabled: input.enabled,
      updatedAt: new Date(),
    });
    const after = ruleView(row!);
    await audit(tx, actor, { action: 'update', entity: 'qc_rule', entityId: id, before, after });
    return after;
  });
}

/** Deletes a rule; plans lose it, past tasks keep their copy of it. */
export async function deleteRule(db: Db, actor: Actor, id: number) {
  return db.transaction(async (tx) => {
    const before = ruleView(await ruleOf(tx, actor.appId, id));
    await deleteAppRow(tx, qcRules, actor.appId, id);
    await audit(tx, actor, { action: 'delete', entity: 'qc_rule', entityId: id, before });
    return { id };
  });
}

export async function setRuleEnabled(db: Db, actor: Actor, id: number, enabled: boolean) {
  return db.transaction(async (tx) => {
    const before = ruleView(await ruleOf(tx, actor.appId, id));
    const row = await updateAppRow(tx, qcRules, actor.appId, id, { enabled, updatedAt: new Date() });
    const after = ruleView(row!);
    await auditSwitched(tx, actor, 'qc_rule', id, before.enabled, enabled);
    return after;
  });
}

export async function ownedRuleIds(db: Db, appId: number) {
  const rows = await db.select({ id: qcRules.id }).from(qcRules).where(eq(qcRules.appId, appId));
  return rows.map((r) => ({ ruleId: r.id }));
}
