import type { AuditAction, OmopRule, OmopRuleInput, OmopRuleList, OmopRulePatch } from '@crdp/core';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { audit } from '../audit/audit.js';
import { updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { omopRules } from '../db/schema/index.js';
import { invalidField, notFound } from '../http/errors.js';
import { type CdmTable, pairOf, RULE_CATALOGUE, type SourceTable } from './cdm.js';
import type { Actor } from './mappings.js';

/**
 * Which clinical tables go to which CDM tables (OmopActiveMappingRule). Until an app changes a
 * rule it uses the built-in set (every pair of the catalogue, enabled), which the list shows
 * with `stored: false`; the first write writes the built-in set for the app, in the same
 * transaction and audited. Reading never writes.
 */
const view = (r: typeof omopRules.$inferSelect): RuleView => ({
  id: r.id,
  name: r.name,
  sourceTable: r.sourceTable as SourceTable,
  targetTable: r.targetTable as CdmTable,
  enabled: r.enabled,
  builtin: r.builtin,
  note: r.note,
  updatedAt: r.updatedAt.toISOString(),
});
export type RuleView = OmopRule;

const defaultName = (zh: boolean, s: string, t: string) => {
  const p = pairOf(s, t);
  return p ? (zh ? p.name.zh : p.name.en) : `${s} → ${t}`;
};

async function storedRules(db: Tx, appId: number) {
  return db
    .select()
    .from(omopRules)
    .where(and(eq(omopRules.appId, appId), isNull(omopRules.deletedAt)))
    .orderBy(asc(omopRules.id));
}

/** True once the app has written its rules (deleted ones count: a deletion is a choice). */
async function isStored(db: Tx, appId: number) {
  const [r] = await db
    .select({ id: omopRules.id })
    .from(omopRules)
    .where(eq(omopRules.appId, appId))
    .limit(1);
  return !!r;
}

/** Writes the built-in rules for an app that has none yet; audited. Returns whether it wrote. */
async function ensureDefaults(tx: Tx, actor: Actor) {
  const appId = actor.appId;
  if (await isStored(tx, appId)) return false;
  const zh = actor.locale === 'zh-CN';
  const rows = await tx
    .insert(omopRules)
    .values(
      RULE_CATALOGUE.map((p) => ({
        appId,
        name: zh ? p.name.zh : p.name.en,
        sourceTable: p.sourceTable,
        targetTable: p.targetTable,
        enabled: true,
        builtin: true,
      })),
    )
    .returning();
  await audit(tx, actor, {
    action: 'omop.rule.defaults',
    entity: 'omop_rule',
    after: rows.map(view),
  });
  return true;
}

/** The rules in effect for an app: its own, or the built-in set while it has none. */
export async function effectiveRules(db: Tx, appId: number, zh = true): Promise<RuleView[]> {
  if (await isStored(db, appId)) return (await storedRules(db, appId)).map(view);
  return RULE_CATALOGUE.map((p) => ({
    id: null,
    name: zh ? p.name.zh : p.name.en,
    sourceTable: p.sourceTable,
    targetTable: p.targetTable,
    enabled: true,
    builtin: true,
    note: '',
    updatedAt: null,
  }));
}

export async function listRules(db: Db, actor: Actor): Promise<OmopRuleList> {
  const zh = actor.locale === 'zh-CN';
  // A built-in rule that kept its default name is named in the reader's language.
  const named = (r: RuleView) => {
    const p = pairOf(r.sourceTable, r.targetTable);
    return p && (r.name === p.name.zh || r.name === p.name.en)
      ? { ...r, name: zh ? p.name.zh : p.name.en }
      : r;
  };
  return {
    stored: await isStored(db, actor.appId),
    items: (await effectiveRules(db, actor.appId, zh)).map(named),
    catalogue: RULE_CATALOGUE.map((p) => ({
      sourceTable: p.sourceTable,
      targetTable: p.targetTable,
      name: zh ? p.name.zh : p.name.en,
    })),
  };
}

export async function writeDefaults(db: Db, actor: Actor): Promise<OmopRuleList> {
  await db.transaction((tx) => ensureDefaults(tx, actor));
  return listRules(db, actor);
}

async function ruleOf(db: Tx, actor: Actor, id: number) {
  const [row] = await db
    .select()
    .from(omopRules)
    .where(and(eq(omopRules.id, id), eq(omopRules.appId, actor.appId), isNull(omopRules.deletedAt)));
  if (!row) throw notFound('omop rule');
  return row;
}

export async function loadRule(db: Tx, actor: Actor, id: number): Promise<OmopRule> {
  return view(await ruleOf(db, actor, id));
}

export async function createRule(db: Db, actor: Actor, input: OmopRuleInput): Promise<OmopRule> {
  if (!pairOf(input.sourceTable, input.targetTable))
    throw invalidField(
      'targetTable',
      `不支持从 ${input.sourceTable} 映射到 ${input.targetTable}`,
      `${input.sourceTable} cannot be mapped to ${input.targetTable}`,
    );
  return db.transaction(async (tx) => {
    await ensureDefaults(tx, actor);
    const [dup] = await tx
      .select({ id: omopRules.id })
      .from(omopRules)
      .where(
        and(
          eq(omopRules.appId, actor.appId),
          eq(omopRules.sourceTable, input.sourceTable),
          eq(omopRules.targetTable, input.targetTable),
          isNull(omopRules.deletedAt),
        ),
      );
    if (dup)
      throw invalidField(
        'targetTable',
        `已有从 ${input.sourceTable} 到 ${input.targetTable} 的规则`,
        `a rule from ${input.sourceTable} to ${input.targetTable} already exists`,
      );
    const [row] = await tx
      .insert(omopRules)
      .values({
        appId: actor.appId,
        name: input.name || defaultName(actor.locale === 'zh-CN', input.sourceTable, input.targetTable),
        sourceTable: input.sourceTable,
        targetTable: input.targetTable,
        enabled: input.enabled ?? true,
        builtin: false,
        note: input.note ?? '',
      })
      .returning();
    const v = view(row!);
    await audit(tx, actor, { action: 'omop.rule.create', entity: 'omop_rule', entityId: v.id!, after: v });
    return v;
  });
}

async function change(
  db: Db,
  actor: Actor,
  id: number,
  action: AuditAction,
  set: Partial<typeof omopRules.$inferInsert>,
): Promise<OmopRule> {
  return db.transaction(async (tx) => {
    const before = view(await ruleOf(tx, actor, id));
    const row = await updateAppRow(tx, omopRules, actor.appId, id, { ...set, updatedAt: new Date() });
    const after = view(row!);
    await audit(tx, actor, { action, entity: 'omop_rule', entityId: id, before, after });
    return after;
  });
}

export const updateRule = (db: Db, actor: Actor, id: number, p: OmopRulePatch) =>
  change(db, actor, id, 'omop.rule.update', { name: p.name, note: p.note ?? '' });
export const enableRule = (db: Db, actor: Actor, id: number, enabled: boolean) =>
  change(db, actor, id, enabled ? 'omop.rule.enable' : 'omop.rule.disable', { enabled });
export const deleteRule = async (db: Db, actor: Actor, id: number): Promise<null> => {
  await change(db, actor, id, 'omop.rule.delete', { deletedAt: new Date(), enabled: false });
  return null;
};

export async function ownedRuleIds(db: Db, appId: number) {
  const rows = await db
    .select({ id: omopRules.id })
    .from(omopRules)
    .where(and(eq(omopRules.appId, appId), isNull(omopRules.deletedAt)))
    .orderBy(desc(omopRules.id))
    .limit(3);
  return rows.map((r) => ({ ruleId: r.id }));
}
