import {
  type JobStatus,
  type Locale,
  type VariableTransferMapping,
  type VariableTransferRule,
  type VariableTransferRun,
  variableTransferMapping,
  type variableTransferRuleCreate,
  type variableTransferRulePatch,
} from '@crdp/core';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import { appRowOf, appRows, deleteAppRow, nameTaken, ownedIds, updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import {
  jobs,
  patients,
  variables,
  variableTransferRules,
  variableTransferRuns,
  variableTransferValues,
} from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { invalidField } from '../http/errors.js';
import { jobFailureText } from '../jobs/failure.js';
import { queueJobFor } from '../jobs/request.js';
import type { JobContext } from '../jobs/runner.js';
import { valuesSql, variableView } from './variables.js';

/**
 * Transfer rules (转换规则) map variables of this library to the codes of another model or
 * version (SDTM LB, a disease model v2), each with a value transform: as it is, linear
 * (`value × factor + offset`, a unit change) or a code table. A run (转换列表) is a
 * `variable.transfer` job: it works out each source variable over the app's patients with the
 * library's own query, transforms the values and stores one row per patient and target code.
 */
export const VARIABLE_TRANSFER_JOB = 'variable.transfer';

type RuleRow = typeof variableTransferRules.$inferSelect;
type Mapping = VariableTransferMapping;

export const transferRuleRow = appRowOf(variableTransferRules, 'variable_transfer_rule');
export const ownedTransferRuleIds = ownedIds(variableTransferRules);
export const transferRunRow = appRowOf(variableTransferRuns, 'variable_transfer_run');
export const ownedTransferRunIds = ownedIds(variableTransferRuns);
const ruleTrail = auditTrail('variable_transfer_rule', 'variableTransfer.rule');
const runTrail = auditTrail('variable_transfer_run', 'variableTransfer');

async function ruleViews(db: Tx, appId: number, rows: RuleRow[]): Promise<VariableTransferRule[]> {
  const maps = rows.map((r) => z.array(variableTransferMapping).parse(r.mappings));
  const ids = [...new Set(maps.flat().map((m) => m.sourceVariableId))];
  const codes = ids.length
    ? await db
        .select({ id: variables.id, code: variables.code })
        .from(variables)
        .where(and(eq(variables.appId, appId), inArray(variables.id, ids)))
    : [];
  const code = new Map(codes.map((c) => [c.id, c.code]));
  return rows.map((r, i) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    targetModel: r.targetModel,
    enabled: r.enabled,
    // A deleted source variable shows as an empty code; a run skips that mapping.
    mappings: maps[i]!.map((m) => ({ ...m, sourceCode: code.get(m.sourceVariableId) ?? '' })),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export async function listTransferRules(db: Tx, appId: number) {
  const rows = await appRows(db, variableTransferRules, appId, asc(variableTransferRules.name));
  return { items: await ruleViews(db, appId, rows) };
}

async function checkRule(tx: Tx, appId: number, name: string, mappings: Mapping[], id: number | null) {
  if (await nameTaken(tx, variableTransferRules, appId, name, id))
    throw invalidField('body.name', `转换规则 ${name} 已存在`, `transfer rule ${name} exists`);
  const ids = [...new Set(mappings.map((m) => m.sourceVariableId))];
  const found = await tx
    .select({ id: variables.id })
    .from(variables)
    .where(and(eq(variables.appId, appId), inArray(variables.id, ids)));
  mappings.forEach((m, i) => {
    if (!found.some((f) => f.id === m.sourceVariableId))
      throw invalidField(
        `body.mappings.${i}.sourceVariableId`,
        `没有编号为 ${m.sourceVariableId} 的变量`,
        `no variable ${m.sourceVariableId}`,
      );
    if (m.transform === 'valueMap' && !m.valueMap.length)
      throw invalidField(
        `body.mappings.${i}.valueMap`,
        '值映射至少一行',
        'a value map needs at least one line',
      );
  });
}

export async function addTransferRule(ctx: SignedIn, input: z.output<typeof variableTransferRuleCreate>) {
  return ctx.db.transaction(async (tx) => {
    await checkRule(tx, ctx.appId, input.name, input.mappings, null);
    const [row] = await tx
      .insert(variableTransferRules)
      .values({ appId: ctx.appId, ...input, createdBy: ctx.userId })
      .returning();
    const [after] = await ruleViews(tx, ctx.appId, [row!]);
    return ruleTrail.added(tx, ctx, row!.id, after!);
  });
}

export async function editTransferRule(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof variableTransferRulePatch>,
) {
  return ctx.db.transaction(async (tx) => {
    const row = await transferRuleRow(tx, ctx.appId, id);
    const [before] = await ruleViews(tx, ctx.appId, [row]);
    const next = {
      name: input.name ?? row.name,
      description: input.description ?? row.description,
      targetModel: input.targetModel ?? row.targetModel,
      enabled: input.enabled ?? row.enabled,
      mappings: input.mappings ?? z.array(variableTransferMapping).parse(row.mappings),
    };
    await checkRule(tx, ctx.appId, next.name, next.mappings, id);
    const saved = await updateAppRow(tx, variableTransferRules, ctx.appId, id, {
      ...next,
      updatedAt: new Date(),
    });
    const [after] = await ruleViews(tx, ctx.appId, [saved!]);
    return ruleTrail.edited(tx, ctx, id, before, after!);
  });
}

export async function deleteTransferRule(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const [before] = await ruleViews(tx, ctx.appId, [await transferRuleRow(tx, ctx.appId, id)]);
    await deleteAppRow(tx, variableTransferRules, ctx.appId, id);
    await ruleTrail.deleted(tx, ctx, id, before);
    return true as const;
  });
}

/** Queues a run of an enabled rule; the mappings are copied into the run. */
export async function startTransfer(ctx: SignedIn, ruleId: number) {
  return ctx.db.transaction(async (tx) => {
    const row = await transferRuleRow(tx, ctx.appId, ruleId).catch(() => {
      throw invalidField('body.ruleId', `没有编号为 ${ruleId} 的转换规则`, `no transfer rule ${ruleId}`);
    });
    if (!row.enabled) throw invalidField('body.ruleId', '该转换规则已停用', 'the transfer rule is disabled');
    const [run] = await tx
      .insert(variableTransferRuns)
      .values({
        appId: ctx.appId,
        ruleId,
        ruleName: row.name,
        targetModel: row.targetModel,
        mappings: row.mappings,
        createdBy: ctx.userId,
      })
      .returning();
    const link = { table: variableTransferRuns, id: run!.id };
    const job = await queueJobFor(
      tx,
      ctx,
      { kind: VARIABLE_TRANSFER_JOB, params: { runId: run!.id }, link },
      { action: 'variableTransfer.run', entity: 'variable_transfer_run', after: { ruleId } },
    );
    return { id: run!.id, jobId: job.id };
  });
}

/** One value through a mapping's transform; null when it cannot be (not a number, not in the map). */
export function transformValue(m: Mapping, v: string): string | null {
  if (m.transform === 'copy') return v;
  if (m.transform === 'linear') {
    const n = Number(v.trim());
    if (v.trim() === '' || !Number.isFinite(n)) return null;
    // Twelve significant digits: a unit change does not invent precision.
    return String(Number((n * m.factor + m.offset).toPrecision(12)));
  }
  const hit = m.valueMap.find((x) => x.from === v);
  return hit ? hit.to : null;
}

export async function transferJob({ db, job, progress }: JobContext) {
  const runId = Number((job.params as { runId: number }).runId);
  const [run] = await db.select().from(variableTransferRuns).where(eq(variableTransferRuns.id, runId));
  if (!run) return { deleted: true };
  const appId = run.appId;
  const mappings = z.array(variableTransferMapping).parse(run.mappings);
  await db.delete(variableTransferValues).where(eq(variableTransferValues.runId, runId));
  const summary: Array<{ targetCode: string; converted: number; unmapped: number }> = [];
  const seen = new Set<number>();
  let done = 0;
  for (const m of mappings) {
    const [src] = await db
      .select()
      .from(variables)
      .where(and(eq(variables.id, m.sourceVariableId), eq(variables.appId, appId)));
    let converted = 0;
    let unmapped = 0;
    if (src) {
      const rows = rowsOf<{ patient_id: number | string; v: string | null }>(
        await db.execute(
          sql`select patient_id, v from (${valuesSql(variableView(src), appId)}) x where x.v is not null and x.v <> ''`,
        ),
      );
      const out = [];
      for (const r of rows) {
        const value = transformValue(m, r.v!);
        if (value === null) unmapped++;
        else converted++;
        seen.add(Number(r.patient_id));
        out.push({ runId, appId, patientId: Number(r.patient_id), code: m.targetCode, value });
      }
      for (let i = 0; i < out.length; i += 500)
        await db
          .insert(variableTransferValues)
          .values(out.slice(i, i + 500))
          .onConflictDoNothing();
    }
    summary.push({ targetCode: m.targetCode, converted, unmapped });
    done++;
    await progress(Math.min(99, Math.round((done / mappings.length) * 100)));
  }
  const values = summary.reduce((s, x) => s + x.converted, 0);
  await db
    .update(variableTransferRuns)
    .set({ patients: seen.size, values, summary, finishedAt: new Date(), updatedAt: new Date() })
    .where(eq(variableTransferRuns.id, runId));
  const result = { runId, patients: seen.size, values };
  await audit(db, null, {
    appId,
    userId: run.createdBy,
    action: 'variableTransfer.finish',
    entity: 'variable_transfer_run',
    entityId: runId,
    after: result,
  });
  return result;
}

export async function listTransferRuns(db: Db, appId: number, locale: Locale) {
  const rows = await db
    .select({ r: variableTransferRuns, j: jobs })
    .from(variableTransferRuns)
    .leftJoin(jobs, eq(jobs.id, variableTransferRuns.jobId))
    .where(eq(variableTransferRuns.appId, appId))
    .orderBy(desc(variableTransferRuns.id))
    .limit(100);
  return {
    items: rows.map(
      ({ r, j }): VariableTransferRun => ({
        id: r.id,
        ruleId: r.ruleId,
        ruleName: r.ruleName,
        targetModel: r.targetModel,
        jobId: r.jobId,
        status: (j?.status as JobStatus | undefined) ?? (r.finishedAt ? 'succeeded' : 'failed'),
        progress: r.finishedAt ? 100 : (j?.progress ?? 0),
        error: j ? jobFailureText(j, locale) : null,
        patients: r.patients,
        values: r.values,
        summary: r.summary as VariableTransferRun['summary'],
        createdAt: r.createdAt.toISOString(),
        finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
      }),
    ),
  };
}

/** A run's values as CSV rows: MRN, target code, value (patients by MRN, never by name). */
export async function transferRunCsvRows(db: Tx, appId: number, runId: number) {
  const run = await transferRunRow(db, appId, runId);
  const rows = await db
    .select({ mrn: patients.mrn, code: variableTransferValues.code, value: variableTransferValues.value })
    .from(variableTransferValues)
    .innerJoin(patients, eq(patients.id, variableTransferValues.patientId))
    .where(and(eq(variableTransferValues.runId, runId), eq(variableTransferValues.appId, appId)))
    .orderBy(asc(patients.mrn), asc(variableTransferValues.code));
  return { run, rows: [['mrn', 'code', 'value'], ...rows.map((r) => [r.mrn, r.code, r.value ?? ''])] };
}

export async function deleteTransferRun(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const run = await transferRunRow(tx, ctx.appId, id);
    if (!run.finishedAt && run.jobId) {
      const [j] = await tx.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, run.jobId));
      if (j && (j.status === 'queued' || j.status === 'running'))
        throw invalidField(
          'id',
          '转换正在运行，完成后再删除',
          'the transfer is still running; delete it when it is done',
        );
    }
    await tx.delete(variableTransferRuns).where(eq(variableTransferRuns.id, id));
    await runTrail.deleted(tx, ctx, id, {
      ruleName: run.ruleName,
      patients: run.patients,
      values: run.values,
    });
    return true as const;
  });
}
