import type {
  RuleAction,
  RuleRegression,
  RuleSample,
  RuleTestResult,
  ruleRegressionBody,
  ruleSampleDeleteBody,
  ruleSampleSaveBody,
  ruleTestBody,
} from '@crdp/core';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import type { Tx } from '../db/client.js';
import { patients, ruleSamples } from '../db/schema/index.js';
import { patientsBase } from '../disease-library/template-sql.js';
import type { RequestContext, SignedIn } from '../http/context.js';
import { invalidField, notFound } from '../http/errors.js';
import { conditionText, evaluate, planRule, type RulePlan } from './compile.js';
import { actionsOf, ruleOf, samplesOf, whenOf } from './rules.js';

/**
 * Test samples of a rule: a patient of the app or hand-made attribute values, with the outcome
 * the rule should give. Every run goes through the one evaluator (`compile.ts`), a sample being a
 * base set of one.
 */

const trail = auditTrail('rule_sample', 'rule.sample');

const HAND_MADE = sql`select 0 as patient_id, current_date as filing_date`;

async function checkPatient(db: Tx, appId: number, id: number, field: string) {
  const [p] = await db
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.id, id), eq(patients.appId, appId)));
  if (!p) throw invalidField(field, `没有编号为 ${id} 的患者`, `no patient ${id} in this app`);
}

async function sampleOf(db: Tx, appId: number, ruleId: number, id: number) {
  const [s] = await db
    .select()
    .from(ruleSamples)
    .where(and(eq(ruleSamples.id, id), eq(ruleSamples.ruleId, ruleId), eq(ruleSamples.appId, appId)));
  if (!s) throw notFound('rule_sample');
  return s;
}

/** One sample through the evaluator: a patient, or the hand-made values. */
async function runOne(
  db: Tx,
  appId: number,
  plan: RulePlan,
  sample: { patientId: number | null; attributes: Record<string, unknown> | null },
) {
  const [row] =
    sample.patientId !== null
      ? await evaluate(db, plan, appId, patientsBase(appId, [sample.patientId]))
      : await evaluate(db, plan, appId, HAND_MADE, sample.attributes ?? {});
  return row;
}

/** `rule/executethe_test_sample`: runs the rule (or the draft) on one sample and explains each condition. */
export async function testSample(
  ctx: SignedIn,
  input: z.output<typeof ruleTestBody>,
): Promise<RuleTestResult> {
  const db = ctx.db;
  const saved = input.rule_id ? await ruleOf(db, ctx.appId, input.rule_id) : null;
  const when = input.when ?? (saved ? whenOf(saved) : null);
  if (!when)
    throw invalidField('body.when', '请给出规则或规则的条件', 'give a rule_id or the conditions (when)');
  const actions: RuleAction[] = input.actions ?? (saved ? actionsOf(saved) : []);
  const plan = await planRule(db, ctx.appId, when);
  let sample: { patientId: number | null; attributes: Record<string, unknown> | null };
  let expectedFired: boolean | null = null;
  if (input.sample_id) {
    if (!saved)
      throw invalidField(
        'body.rule_id',
        '运行已保存的样本需要给出规则',
        'a saved sample runs with its rule_id',
      );
    const s = await sampleOf(db, ctx.appId, saved.id, input.sample_id);
    sample = { patientId: s.patientId, attributes: (s.attributes as Record<string, unknown> | null) ?? null };
    expectedFired = s.expectedFired;
  } else if (input.patient_id) {
    await checkPatient(db, ctx.appId, input.patient_id, 'body.patient_id');
    sample = { patientId: input.patient_id, attributes: null };
  } else if (input.attributes) sample = { patientId: null, attributes: input.attributes };
  else
    throw invalidField(
      'body.patient_id',
      '请选择一个患者，或填写属性值',
      'give a sample_id, a patient_id or hand-made attributes',
    );
  const row = await runOne(db, ctx.appId, plan, sample);
  const fired = row?.fired ?? false;
  const handMade = sample.patientId === null;
  return {
    fired,
    conditions: plan.conditions.map((c, i) => {
      const actual = row?.values[i] ?? null;
      const kind = c.kind === 'attribute' ? c.valueKind : 'text';
      return {
        path: c.path,
        text: conditionText(c, ctx.locale),
        actual: actual !== null && kind === 'number' ? Number(actual) : actual,
        holds: row?.holds[i] ?? false,
        note:
          c.kind === 'criterion' && handMade
            ? ctx.locale === 'zh-CN'
              ? '手工样本没有病历，无法判断该条件'
              : 'a hand-made sample has no record to check this criterion against'
            : null,
      };
    }),
    groups: plan.groups.map((g, i) => ({ path: g.path, holds: row?.groups[i] ?? false })),
    actions: fired ? actions : [],
    expectedFired,
  };
}

/** Every saved sample of a rule rerun against a plan (the saved rule's, or a draft's). */
export async function regression(
  db: Tx,
  appId: number,
  ruleId: number,
  plan: RulePlan,
): Promise<RuleRegression> {
  const samples = await samplesOf(db, appId, ruleId);
  const items: RuleRegression['items'] = [];
  for (const s of samples) {
    const row = await runOne(db, appId, plan, { patientId: s.patientId, attributes: s.attributes });
    const fired = row?.fired ?? false;
    items.push({
      sampleId: s.id,
      name: s.name,
      expectedFired: s.expectedFired,
      fired,
      agrees: fired === s.expectedFired,
    });
  }
  return { items, disagreeing: items.filter((i) => !i.agrees).length };
}

export async function regressionOf(
  ctx: RequestContext & { appId: number },
  input: z.output<typeof ruleRegressionBody>,
) {
  const rule = await ruleOf(ctx.db, ctx.appId, input.rule_id);
  const plan = await planRule(ctx.db, ctx.appId, input.when ?? whenOf(rule));
  return regression(ctx.db, ctx.appId, rule.id, plan);
}

/** A sample as the rule's sample list shows it; 404 when the rule has no such sample in the app. */
async function sampleView(db: Tx, appId: number, ruleId: number, id: number): Promise<RuleSample> {
  await sampleOf(db, appId, ruleId, id);
  return (await samplesOf(db, appId, ruleId)).find((s) => s.id === id)!;
}

/** `rule/save_sample_result`: keeps a sample with the outcome the rule should give (new or changed). */
export async function saveSample(
  ctx: SignedIn,
  input: z.output<typeof ruleSampleSaveBody>,
): Promise<RuleSample> {
  return ctx.db.transaction(async (tx) => {
    await ruleOf(tx, ctx.appId, input.rule_id);
    if (input.patient_id !== null) await checkPatient(tx, ctx.appId, input.patient_id, 'body.patient_id');
    const values = {
      name: input.name,
      patientId: input.patient_id,
      attributes: input.attributes,
      expectedFired: input.expected_fired,
      updatedAt: new Date(),
    };
    let id = input.sample_id;
    let before: RuleSample | null = null;
    if (id) {
      before = await sampleView(tx, ctx.appId, input.rule_id, id);
      await tx.update(ruleSamples).set(values).where(eq(ruleSamples.id, id));
    } else {
      const [row] = await tx
        .insert(ruleSamples)
        .values({ appId: ctx.appId, ruleId: input.rule_id, createdBy: ctx.userId, ...values })
        .returning({ id: ruleSamples.id });
      id = row!.id;
    }
    const after = (await samplesOf(tx, ctx.appId, input.rule_id)).find((s) => s.id === id)!;
    await audit(tx, ctx, {
      action: 'rule.sample.save',
      entity: 'rule_sample',
      entityId: id,
      before,
      after: { ruleId: input.rule_id, ...after },
    });
    return after;
  });
}

/** `rule/delete_sample_result`. */
export async function deleteSample(
  ctx: SignedIn,
  input: z.output<typeof ruleSampleDeleteBody>,
): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    await ruleOf(tx, ctx.appId, input.rule_id);
    const before = await sampleView(tx, ctx.appId, input.rule_id, input.sample_id);
    await tx.delete(ruleSamples).where(eq(ruleSamples.id, input.sample_id));
    await trail.deleted(tx, ctx, input.sample_id, { ruleId: input.rule_id, ...before });
    return true as const;
  });
}
