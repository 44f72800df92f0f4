import type {
  RuleResultPage,
  RuleRun,
  ruleResultsBody,
  ruleRunBody,
  ruleRunListBody,
  ruleRunScope,
} from '@crdp/core';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { criteriaSql } from '../cohort/compile.js';
import type { Db, Tx } from '../db/client.js';
import { pageOf } from '../db/paging.js';
import { rowsOf } from '../db/rows.js';
import {
  clinicalRules,
  diseaseLibraries,
  jobs,
  patients,
  roles,
  roleUsers,
  ruleResults,
  ruleRuns,
} from '../db/schema/index.js';
import { libraryBase } from '../disease-library/template-sql.js';
import type { SignedIn } from '../http/context.js';
import { invalidField, notFound } from '../http/errors.js';
import { queueJobFor } from '../jobs/request.js';
import type { JobContext } from '../jobs/runner.js';
import { notify } from '../notices/routes.js';
import { evaluationSql, planRule } from './compile.js';
import { actionsOf, whenOf } from './rules.js';

export const RULES_JOB_KIND = 'rules.run';
type Scope = z.output<typeof ruleRunScope>;

/** The patients a run covers, as (patient_id, filing_date): all the app's, a library's, or those meeting criteria. */
export function scopeBase(appId: number, scope: Scope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`select id as patient_id, current_date as filing_date from patients where app_id = ${appId}`;
    case 'library':
      return libraryBase(scope.libraryId);
    case 'criteria':
      return sql`select p.id as patient_id, current_date as filing_date from patients p
        where p.app_id = ${appId} and ${criteriaSql(scope.criteria)}`;
    case 'collectionRun':
      return sql`select distinct c.patient_id::int as patient_id, current_date as filing_date from collection_changes c
        where c.app_id = ${appId} and c.run_id = ${scope.runId} and c.patient_id is not null`;
  }
}

/**
 * After a collection run: the app's published rules run over the patients whose records it
 * changed, as a rules.run job (nothing is queued when the app has no published rule).
 */
export async function queueRulesAfterCollection(db: Tx, appId: number, runId: number, userId: number | null) {
  const published = await db
    .select({ id: clinicalRules.id })
    .from(clinicalRules)
    .where(and(eq(clinicalRules.appId, appId), eq(clinicalRules.status, 'published')));
  if (!published.length) return null;
  return db.transaction(async (tx) => {
    const scope = { kind: 'collectionRun' as const, runId };
    const [run] = await tx
      .insert(ruleRuns)
      .values({ appId, ruleIds: published.map((r) => r.id), scope, createdBy: userId })
      .returning();
    const job = await queueJobFor(
      tx,
      { appId, userId },
      { kind: RULES_JOB_KIND, params: { runId: run!.id }, link: { table: ruleRuns, id: run!.id } },
      { action: 'rule.run', entity: 'rule_run', after: { ruleIds: published.map((r) => r.id), scope } },
    );
    return { runId: run!.id, jobId: job.id };
  });
}

/** Queues a run of the rules over the scope (POST rule/run). */
export async function startRun(ctx: SignedIn, input: z.output<typeof ruleRunBody>) {
  return ctx.db.transaction(async (tx) => {
    const ids = [...new Set(input.rule_ids)];
    const found = await tx
      .select({ id: clinicalRules.id })
      .from(clinicalRules)
      .where(and(eq(clinicalRules.appId, ctx.appId), inArray(clinicalRules.id, ids)));
    const missing = ids.findIndex((id) => !found.some((f) => f.id === id));
    if (missing >= 0)
      throw invalidField(
        `body.rule_ids.${missing}`,
        `没有编号为 ${ids[missing]} 的规则`,
        `no rule ${ids[missing]}`,
      );
    if (input.scope.kind === 'library') {
      const [lib] = await tx
        .select({ id: diseaseLibraries.id })
        .from(diseaseLibraries)
        .where(and(eq(diseaseLibraries.id, input.scope.libraryId), eq(diseaseLibraries.appId, ctx.appId)));
      if (!lib)
        throw invalidField('body.scope.libraryId', '没有该专病库', 'no such disease library in this app');
    }
    const [run] = await tx
      .insert(ruleRuns)
      .values({ appId: ctx.appId, ruleIds: ids, scope: input.scope, createdBy: ctx.userId })
      .returning();
    const job = await queueJobFor(
      tx,
      ctx,
      { kind: RULES_JOB_KIND, params: { runId: run!.id }, link: { table: ruleRuns, id: run!.id } },
      { action: 'rule.run', entity: 'rule_run', after: { ruleIds: ids, scope: input.scope } },
    );
    return { runId: run!.id, jobId: job.id };
  });
}

/**
 * The job: each rule is one statement over the whole scope, inserting a result row per action
 * for every patient it fires on; a notify action then sends one notice per user of the role.
 * A retried job starts over (its earlier rows are deleted first).
 */
export async function rulesJob({ db, job, progress }: JobContext) {
  const runId = Number((job.params as { runId: number }).runId);
  const [run] = await db.select().from(ruleRuns).where(eq(ruleRuns.id, runId));
  if (!run) return { deleted: true };
  const appId = run.appId;
  const base = scopeBase(appId, run.scope as Scope);
  await db.delete(ruleResults).where(eq(ruleResults.runId, runId));
  const [n] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from (${base}) b`));
  const rules = await db
    .select()
    .from(clinicalRules)
    .where(and(eq(clinicalRules.appId, appId), inArray(clinicalRules.id, run.ruleIds)));
  let results = 0;
  let done = 0;
  for (const rule of rules) {
    const actions = actionsOf(rule);
    await db.transaction(async (tx) => {
      const plan = await planRule(tx, appId, whenOf(rule));
      const rows = actions.map((a) => {
        const [level, name, value] =
          a.kind === 'fault'
            ? [a.level, '', a.message]
            : a.kind === 'derive'
              ? ['', a.name, String(a.value)]
              : a.kind === 'tag'
                ? ['', a.tag, '']
                : ['', a.role, a.message];
        return sql`(${a.kind}, ${level}, ${name}, ${value})`;
      });
      const inserted = rowsOf<{ n: number; patients: number }>(
        await tx.execute(sql`with ins as (
          insert into rule_results (app_id, run_id, rule_id, rule_version, patient_id, kind, level, name, value)
          select ${appId}, ${runId}, ${rule.id}, ${rule.version}, e.patient_id, a.kind, a.level, a.name, a.value
          from (${evaluationSql(plan, appId, base)}) e
          cross join (values ${sql.join(rows, sql`, `)}) as a(kind, level, name, value)
          where e.fired returning patient_id)
          select count(*)::int as n, count(distinct patient_id)::int as patients from ins`),
      )[0];
      results += inserted?.n ?? 0;
      const fired = inserted?.patients ?? 0;
      for (const a of actions) {
        if (a.kind !== 'notify' || !fired) continue;
        const users = await tx
          .selectDistinct({ userId: roleUsers.userId })
          .from(roleUsers)
          .innerJoin(roles, eq(roles.roleId, roleUsers.roleId))
          .where(and(eq(roles.appId, appId), eq(roles.roleName, a.role)));
        for (const u of users)
          await notify(tx, {
            appId,
            userId: u.userId,
            kind: 'system',
            title: `${rule.name}: ${a.message} (${fired})`,
            link: '/data-qc/clinical-rule',
          });
      }
    });
    done++;
    await progress(Math.min(99, Math.round((done / Math.max(1, rules.length)) * 100)));
  }
  await db
    .update(ruleRuns)
    .set({ patients: n?.n ?? 0, results, finishedAt: new Date(), updatedAt: new Date() })
    .where(eq(ruleRuns.id, runId));
  const result = { runId, rules: rules.length, patients: n?.n ?? 0, results };
  await audit(db, null, {
    appId,
    userId: run.createdBy,
    action: 'rule.run.finish',
    entity: 'rule_run',
    entityId: runId,
    after: result,
  });
  return result;
}

export async function listRuns(db: Db, appId: number, q: z.output<typeof ruleRunListBody>) {
  const rows = await db
    .select({ run: ruleRuns, status: jobs.status })
    .from(ruleRuns)
    .leftJoin(jobs, eq(jobs.id, ruleRuns.jobId))
    .where(
      and(eq(ruleRuns.appId, appId), q.rule_id ? sql`${q.rule_id} = any(${ruleRuns.ruleIds})` : undefined),
    )
    .orderBy(desc(ruleRuns.id))
    .limit(50);
  return {
    items: rows.map(
      ({ run, status }): RuleRun => ({
        id: run.id,
        ruleIds: run.ruleIds,
        status: status ?? 'failed',
        patients: run.patients,
        results: run.results,
        createdAt: run.createdAt.toISOString(),
        finishedAt: run.finishedAt ? run.finishedAt.toISOString() : null,
      }),
    ),
  };
}

/** One page of a run's results with the patient and the rule's name. */
export async function runResults(
  db: Tx,
  appId: number,
  q: z.output<typeof ruleResultsBody>,
): Promise<RuleResultPage> {
  const [run] = await db
    .select({ id: ruleRuns.id })
    .from(ruleRuns)
    .where(and(eq(ruleRuns.id, q.run_id), eq(ruleRuns.appId, appId)));
  if (!run) throw notFound('rule_run');
  const where = and(
    eq(ruleResults.runId, q.run_id),
    eq(ruleResults.appId, appId),
    q.kind ? eq(ruleResults.kind, q.kind) : undefined,
  );
  const { total, rows } = await pageOf(db, ruleResults, where, q, ({ limit, offset }) =>
    db
      .select({
        r: ruleResults,
        ruleName: clinicalRules.name,
        patientName: patients.name,
        mrn: patients.mrn,
      })
      .from(ruleResults)
      .innerJoin(clinicalRules, eq(clinicalRules.id, ruleResults.ruleId))
      .innerJoin(patients, eq(patients.id, ruleResults.patientId))
      .where(where)
      .orderBy(ruleResults.id)
      .limit(limit)
      .offset(offset),
  );
  return {
    total,
    items: rows.map(({ r, ruleName, patientName, mrn }) => ({
      id: r.id,
      ruleId: r.ruleId,
      ruleName,
      patientId: r.patientId,
      patientName,
      mrn,
      kind: r.kind as RuleResultPage['items'][number]['kind'],
      level: r.level,
      name: r.name,
      value: r.value,
    })),
  };
}
