import type {
  JobStatus,
  Locale,
  ResearchAnalysis,
  ResearchAnalysisQueued,
  ResearchTaskResult,
} from '@crdp/core';
import {
  chiSquareTest,
  crossTable,
  describe,
  kaplanMeier,
  linearRegression,
  logisticRegression,
  logRank,
  mannWhitney,
  StatsError,
  welchTTest,
} from '@crdp/stats';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { jobs } from '../db/schema/index.js';
import { notFound } from '../http/errors.js';
import { jobFailureText } from '../jobs/failure.js';
import { requestJob } from '../jobs/request.js';
import type { JobContext } from '../jobs/runner.js';
import type { Column, Row } from './datasets.js';
import { datasetOf } from './datasets.js';
import type { AnalysisParams } from './inputs.js';
import { type Actor, assertMember, assertStatus, invalid, subjectOf } from './subjects.js';

/**
 * analysis-mining: an analysis of a built dataset runs as a `research.analysis` job; its result
 * is read with `POST get_value_task_result { task_id }` (spec 001 section 7).
 */
export const ANALYSIS_KIND = 'research.analysis';

/** Columns an analysis names must exist in the dataset: checked before anything is queued. */
export function columnsNamed(p: AnalysisParams): Array<[field: string, key: string]> {
  switch (p.method) {
    case 'descriptive':
      return p.variables.map((k, i) => [`params.variables.${i}`, k]);
    case 'groupCompare':
      return [
        ['params.outcome', p.outcome],
        ['params.group', p.group],
      ];
    case 'linear':
    case 'logistic':
      return [
        ['params.outcome', p.outcome],
        ...p.predictors.map((k, i): [string, string] => [`params.predictors.${i}`, k]),
      ];
    case 'kaplanMeier':
      return [
        ['params.time', p.time],
        ['params.event', p.event],
        ...(p.group ? [['params.group', p.group] as [string, string]] : []),
      ];
  }
}

export async function requestAnalysis(
  db: Db,
  actor: Actor,
  subjectId: number,
  input: { datasetId: number; params: AnalysisParams },
): Promise<ResearchAnalysisQueued> {
  const s = await subjectOf(db, actor.appId, subjectId);
  await assertMember(db, s, actor);
  assertStatus(s, 'analyse', actor.locale);
  const ds = await datasetOf(db, actor.appId, subjectId, input.datasetId).catch(() => {
    throw invalid('datasetId', '该课题没有这个数据集', 'no such dataset of this subject');
  });
  if (ds.status !== 'ready') throw invalid('datasetId', '数据集尚未生成', 'the dataset is not built yet');
  const cols = new Set((ds.columns as Column[]).map((c) => c.key));
  for (const [field, key] of columnsNamed(input.params))
    if (!cols.has(key)) throw invalid(field, `没有列 ${key}`, `no column ${key}`);
  const job = await requestJob(
    db,
    actor,
    { kind: ANALYSIS_KIND, params: { subjectId, datasetId: ds.id, analysis: input.params } },
    { action: 'analyse', entity: 'research_subject', entityId: subjectId, after: input },
  );
  return { task_id: job.id };
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Rows where every named column is a number (complete-case analysis), with how many were dropped. */
function complete(rows: Row[], keys: string[]) {
  const kept = rows.filter((r) => keys.every((k) => num(r[k]) !== null));
  return { kept, dropped: rows.length - kept.length };
}

function twoGroups(rows: Row[], outcome: string, group: string) {
  const levels = [...new Set(rows.map((r) => String(r[group])))].sort();
  if (levels.length !== 2)
    throw new StatsError('research.stats.twoLevels', { column: group, found: levels.length });
  return levels.map((l) => ({
    level: l,
    values: rows.filter((r) => String(r[group]) === l).map((r) => r[outcome] as number),
  }));
}

/** Columns whose cells are codes (sex, a single choice): categorical, whatever their cells' type. */
const codedKeys = (columns: Column[]) =>
  new Set(
    columns.filter((c) => c.codeFamily || c.options?.length || c.type === 'category').map((c) => c.key),
  );

/**
 * Runs one analysis on dataset rows; pure, so tests call it directly. A coded column (sex 1/2,
 * a single choice 0/1/3) is categorical: described as a frequency table, compared with a
 * chi-square test even when a t-test or Mann-Whitney test was asked (`switchedFrom` says so).
 */
export function runAnalysis(rows: Row[], p: AnalysisParams, columns: Column[] = []) {
  const coded = codedKeys(columns);
  const cell = (r: Row, k: string) => (coded.has(k) && r[k] !== null ? String(r[k]) : r[k]);
  switch (p.method) {
    case 'descriptive':
      return {
        method: p.method,
        n: rows.length,
        variables: p.variables.map((k) => ({ key: k, ...describe(rows.map((r) => cell(r, k))) })),
      };
    case 'groupCompare': {
      if (p.test === 'chiSquare' || coded.has(p.outcome)) {
        const kept = rows.filter((r) => r[p.outcome] !== null && r[p.group] !== null);
        const { rowLevels, colLevels, table } = crossTable(
          kept.map((r) => r[p.group]),
          kept.map((r) => r[p.outcome]),
        );
        return {
          dropped: rows.length - kept.length,
          rowLevels,
          colLevels,
          table,
          ...chiSquareTest(table),
          ...(p.test === 'chiSquare' ? {} : { switchedFrom: p.test }),
        };
      }
      const { kept, dropped } = complete(rows, [p.outcome]);
      const groups = twoGroups(
        kept.filter((r) => r[p.group] !== null),
        p.outcome,
        p.group,
      );
      const [a, b] = [groups[0]!, groups[1]!];
      const test = p.test === 'ttest' ? welchTTest(a.values, b.values) : mannWhitney(a.values, b.values);
      return {
        dropped,
        groups: groups.map((g) => ({ level: g.level, ...describe(g.values) })),
        ...test,
      };
    }
    case 'linear':
    case 'logistic': {
      const { kept, dropped } = complete(rows, [p.outcome, ...p.predictors]);
      const y = kept.map((r) => r[p.outcome] as number);
      const x = kept.map((r) => p.predictors.map((k) => r[k] as number));
      const fit =
        p.method === 'linear' ? linearRegression(y, x, p.predictors) : logisticRegression(y, x, p.predictors);
      return { dropped, ...fit };
    }
    case 'kaplanMeier': {
      const { kept, dropped } = complete(rows, [p.time, p.event]);
      const t = kept.map((r) => r[p.time] as number);
      const e = kept.map((r) => r[p.event] as number);
      if (!p.group)
        return { method: p.method, dropped, curves: [{ group: 'all', ...kaplanMeier(t, e) }], logRank: null };
      const g = kept.map((r) => String(r[p.group!]));
      const levels = [...new Set(g)].sort();
      return {
        method: p.method,
        dropped,
        curves: levels.map((l) => ({
          group: l,
          ...kaplanMeier(
            t.filter((_, i) => g[i] === l),
            e.filter((_, i) => g[i] === l),
          ),
        })),
        // Without a single event the log-rank statistic is undefined (its variance is zero).
        logRank: levels.length > 1 && e.some((x) => x === 1) ? logRank(t, e, g) : null,
      };
    }
  }
}

export async function analysisJob({ db, job, progress }: JobContext) {
  const { subjectId, datasetId, analysis } = job.params as {
    subjectId: number;
    datasetId: number;
    analysis: AnalysisParams;
  };
  const ds = await datasetOf(db, job.appId, subjectId, datasetId);
  await progress(20);
  // A StatsError's key and values are kept by the job runner beside its English text, so the
  // task result and the jobs routes word the reason in the reader's language.
  return runAnalysis(ds.rows as Row[], analysis, ds.columns as Column[]);
}

/** A research job of the app, by id (the spec's task_id); another app's id answers 404. */
export async function taskResult(
  db: Tx,
  appId: number,
  taskId: number,
  locale: Locale = 'zh-CN',
): Promise<ResearchTaskResult> {
  const [j] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, taskId), eq(jobs.appId, appId), sql`${jobs.kind} like 'research.%'`));
  if (!j) throw notFound('task');
  return {
    task_id: j.id,
    kind: j.kind,
    status: j.status as JobStatus,
    progress: j.progress,
    params: j.params,
    result: j.status === 'failed' ? null : (j.result ?? null),
    error: jobFailureText(j, locale),
    createdAt: j.createdAt.toISOString(),
    finishedAt: j.finishedAt?.toISOString() ?? null,
  };
}

export async function listAnalyses(
  db: Tx,
  appId: number,
  subjectId: number,
  locale: Locale = 'zh-CN',
): Promise<ResearchAnalysis[]> {
  const rows = await db
    .select({
      id: jobs.id,
      status: jobs.status,
      params: jobs.params,
      error: jobs.error,
      result: sql<unknown>`case when ${jobs.status} = 'failed' then ${jobs.result} else null end`,
      createdAt: jobs.createdAt,
    })
    .from(jobs)
    .where(
      and(
        eq(jobs.appId, appId),
        eq(jobs.kind, ANALYSIS_KIND),
        sql`(${jobs.params}->>'subjectId')::int = ${subjectId}`,
      ),
    )
    .orderBy(desc(jobs.id))
    .limit(100);
  return rows.map((r) => ({
    task_id: r.id,
    status: r.status as JobStatus,
    params: r.params,
    error: jobFailureText(r, locale),
    createdAt: r.createdAt.toISOString(),
  }));
}

export async function ownedTaskIds(db: Db, appId: number) {
  return (
    await db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.appId, appId), sql`${jobs.kind} like 'research.%'`))
      .limit(3)
  ).map((r) => ({ task_id: r.id }));
}
