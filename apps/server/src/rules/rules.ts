import {
  type RuleAction,
  type RuleDetail,
  type RuleList,
  type RuleSample,
  type RuleStatus,
  type RuleSummary,
  ruleAction,
  type ruleListBody,
  type ruleSaveBody,
  ruleWhen,
} from '@crdp/core';
import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import { appRowOf } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { containsPattern } from '../db/like.js';
import { pageOf } from '../db/paging.js';
import { clinicalRules, patients, ruleSamples } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { AppError, bilingual } from '../http/errors.js';
import { planRule } from './compile.js';
import { regression } from './samples.js';

type Row = typeof clinicalRules.$inferSelect;
const actionList = z.array(ruleAction);

export const ruleOf = appRowOf(clinicalRules, 'clinical_rule');
const trail = auditTrail('clinical_rule', 'rule');

export const whenOf = (r: Row) => ruleWhen.parse(r.when);
export const actionsOf = (r: Row): RuleAction[] => actionList.parse(r.actions);

function countConditions(r: Row) {
  const w = whenOf(r);
  return w.conditions.length + w.groups.reduce((n, g) => n + g.conditions.length, 0);
}

function summary(r: Row, samples: number): RuleSummary {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    status: r.status as RuleStatus,
    version: r.version,
    conditions: countConditions(r),
    actions: [...new Set(actionsOf(r).map((a) => a.kind))],
    samples,
    updatedAt: r.updatedAt.toISOString(),
    publishedAt: r.publishedAt ? r.publishedAt.toISOString() : null,
  };
}

export async function samplesOf(db: Tx, appId: number, ruleId: number): Promise<RuleSample[]> {
  const rows = await db
    .select({ s: ruleSamples, patientName: patients.name })
    .from(ruleSamples)
    .leftJoin(patients, eq(patients.id, ruleSamples.patientId))
    .where(and(eq(ruleSamples.ruleId, ruleId), eq(ruleSamples.appId, appId)))
    .orderBy(asc(ruleSamples.id));
  return rows.map(({ s, patientName }) => ({
    id: s.id,
    name: s.name,
    patientId: s.patientId,
    patientName: patientName ?? null,
    attributes: (s.attributes as Record<string, string | number | null> | null) ?? null,
    expectedFired: s.expectedFired,
    updatedAt: s.updatedAt.toISOString(),
  }));
}

export async function ruleDetail(db: Tx, appId: number, id: number): Promise<RuleDetail> {
  const r = await ruleOf(db, appId, id);
  const sampleList = await samplesOf(db, appId, id);
  return { ...summary(r, sampleList.length), when: whenOf(r), actions: actionsOf(r), sampleList };
}

/** `rule/rule_info_list`: the app's rules, newest change first, by name or description. */
export async function listRules(db: Db, appId: number, q: z.output<typeof ruleListBody>): Promise<RuleList> {
  const parts: SQL[] = [eq(clinicalRules.appId, appId)];
  if (q.keyword)
    parts.push(
      or(
        ilike(clinicalRules.name, containsPattern(q.keyword)),
        ilike(clinicalRules.description, containsPattern(q.keyword)),
      )!,
    );
  if (q.status) parts.push(eq(clinicalRules.status, q.status));
  const where = and(...parts);
  const { total, rows } = await pageOf(db, clinicalRules, where, q, ({ limit, offset }) =>
    db
      .select()
      .from(clinicalRules)
      .where(where)
      .orderBy(desc(clinicalRules.updatedAt), desc(clinicalRules.id))
      .limit(limit)
      .offset(offset),
  );
  const counts = rows.length
    ? await db
        .select({ ruleId: ruleSamples.ruleId, n: count() })
        .from(ruleSamples)
        .where(
          inArray(
            ruleSamples.ruleId,
            rows.map((r) => r.id),
          ),
        )
        .groupBy(ruleSamples.ruleId)
    : [];
  const n = new Map(counts.map((c) => [c.ruleId, c.n]));
  return { total, items: rows.map((r) => summary(r, n.get(r.id) ?? 0)) };
}

/**
 * `rule/saverule`: creates or changes a rule (its conditions checked and compiled first). With
 * `publish`, its saved samples are rerun: if some now disagree the answer is 409 listing them,
 * unless `confirm` says to publish anyway.
 */
export async function saveRule(ctx: SignedIn, input: z.output<typeof ruleSaveBody>): Promise<RuleDetail> {
  return ctx.db.transaction(async (tx) => {
    const plan = await planRule(tx, ctx.appId, input.when);
    const before = input.rule_id ? await ruleDetail(tx, ctx.appId, input.rule_id) : null;
    if (input.publish && before) {
      const check = await regression(tx, ctx.appId, input.rule_id!, plan);
      if (check.disagreeing && !input.confirm)
        throw new AppError(409, 'request.conflict', {
          detail: bilingual(
            `${check.disagreeing} 个测试样本的结果与预期不一致：${check.items
              .filter((i) => !i.agrees)
              .map((i) => i.name)
              .join('、')}。确认后仍可发布`,
            `${check.disagreeing} test sample(s) now disagree with their expected outcome: ${check.items
              .filter((i) => !i.agrees)
              .map((i) => i.name)
              .join(', ')}. Confirm to publish anyway`,
          ),
        });
    }
    const values = {
      name: input.name,
      description: input.description,
      when: input.when,
      actions: input.actions,
      updatedAt: new Date(),
      ...(input.publish
        ? { status: 'published', version: (before?.version ?? 0) + 1, publishedAt: new Date() }
        : {}),
    };
    let id = input.rule_id;
    if (id) await tx.update(clinicalRules).set(values).where(eq(clinicalRules.id, id));
    else {
      const [row] = await tx
        .insert(clinicalRules)
        .values({ appId: ctx.appId, createdBy: ctx.userId, ...values })
        .returning({ id: clinicalRules.id });
      id = row!.id;
    }
    const after = await ruleDetail(tx, ctx.appId, id);
    await audit(tx, ctx, {
      action: input.publish ? 'rule.publish' : 'rule.save',
      entity: 'clinical_rule',
      entityId: id,
      before,
      after,
      ...(input.publish && input.confirm ? { reason: 'published with disagreeing samples confirmed' } : {}),
    });
    return after;
  });
}

export async function deleteRule(ctx: SignedIn, id: number): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    const before = await ruleDetail(tx, ctx.appId, id);
    await tx.delete(clinicalRules).where(eq(clinicalRules.id, id));
    await trail.deleted(tx, ctx, id, before);
    return true as const;
  });
}
