import {
  EXTERNAL_ROWS_MAX,
  type ExternalDataset,
  type ExternalLayout,
  type Locale,
  type ResearchAnalysisParams,
  type ResearchDatasetColumn,
  type ResearchDatasetRow,
  type ResearchTaskResult,
} from '@crdp/core';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { audit, auditTrail } from '../../audit/audit.js';
import { appRowOf, appRows, deleteAppRow, ownedIds } from '../../db/app-rows.js';
import type { Db, Tx } from '../../db/client.js';
import { externalDatasets, jobs } from '../../db/schema/index.js';
import { readCsv } from '../../files/csv.js';
import type { SignedIn } from '../../http/context.js';
import { invalidField } from '../../http/errors.js';
import { requestJob } from '../../jobs/request.js';
import type { JobContext } from '../../jobs/runner.js';
import { columnsNamed, runAnalysis, taskResult } from '../analysis.js';

/**
 * Analysis on an external dataset (MIMIC 分析): a CSV table (read by the project's one CSV
 * module) becomes typed rows and columns in the shape of a research dataset, so the research
 * analysis methods (`runAnalysis`, @crdp/stats) run on it unchanged, as `research.externalAnalysis`
 * jobs. A MIMIC-like ICU stay table (subject_id, hadm_id, stay_id/icustay_id, intime, outtime…)
 * is recognised and gains its length of stay in days when the file has none.
 */
export const EXTERNAL_ANALYSIS_KIND = 'research.externalAnalysis';

type Row = typeof externalDatasets.$inferSelect;

export const externalDatasetRow = appRowOf(externalDatasets, 'external_dataset');
export const ownedExternalDatasetIds = ownedIds(externalDatasets);
const trail = auditTrail('external_dataset', 'externalDataset');

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** Columns with at most this many distinct values (and not all numbers) are categories. */
const CATEGORY_LEVELS = 30;

/** A header cell as a column key of the research datasets (a letter, then letters, digits, _; 40 at most). */
function keyOf(header: string, taken: Set<string>) {
  let k = header
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!/^[a-z]/.test(k)) k = `c_${k}`;
  k = k.slice(0, 36) || 'c';
  let out = k;
  for (let i = 2; taken.has(out); i++) out = `${k}_${i}`;
  taken.add(out);
  return out;
}

const MIMIC_KEYS = ['subject_id', 'hadm_id'];
const isMimic = (keys: string[]) =>
  MIMIC_KEYS.every((k) => keys.includes(k)) && (keys.includes('stay_id') || keys.includes('icustay_id'));

/** Parses and types a CSV table (pure: the unit test reads it); a 400 names what is wrong. */
export function tableOf(csv: string): {
  layout: ExternalLayout;
  columns: ResearchDatasetColumn[];
  rows: ResearchDatasetRow[];
} {
  const cells = readCsv(csv.replace(/^\ufeff/, ''), 'body.csv').filter((r) => r.some((c) => c.trim() !== ''));
  const [header, ...body] = cells;
  if (!header || !body.length)
    throw invalidField('body.csv', '需要表头和至少一行数据', 'needs a header line and at least one row');
  if (body.length > EXTERNAL_ROWS_MAX)
    throw invalidField('body.csv', `最多 ${EXTERNAL_ROWS_MAX} 行`, `at most ${EXTERNAL_ROWS_MAX} rows`);
  if (header.length > 200) throw invalidField('body.csv', '最多 200 列', 'at most 200 columns');
  const taken = new Set<string>();
  const keys = header.map((h) => keyOf(h, taken));
  body.forEach((r, i) => {
    if (r.length !== header.length)
      throw invalidField(
        'body.csv',
        `第 ${i + 2} 行有 ${r.length} 列，表头有 ${header.length} 列`,
        `line ${i + 2} has ${r.length} cells, the header ${header.length}`,
      );
  });
  const columns: ResearchDatasetColumn[] = keys.map((key, j) => {
    const values = body.map((r) => r[j]!.trim()).filter((v) => v !== '');
    const numeric = values.length > 0 && values.every((v) => NUMBER.test(v));
    return { key, label: header[j]!.trim() || key, type: numeric ? 'number' : 'category' };
  });
  const rows: ResearchDatasetRow[] = body.map((r) =>
    Object.fromEntries(
      columns.map((c, j) => {
        const v = r[j]!.trim();
        return [c.key, v === '' ? null : c.type === 'number' ? Number(v) : v];
      }),
    ),
  );
  const layout: ExternalLayout = isMimic(keys) ? 'mimic_icu' : 'generic';
  if (
    layout === 'mimic_icu' &&
    !keys.includes('los') &&
    keys.includes('intime') &&
    keys.includes('outtime')
  ) {
    columns.push({ key: 'los', label: 'LOS (days, outtime − intime)', type: 'number' });
    for (const r of rows) {
      const a = Date.parse(String(r.intime ?? ''));
      const b = Date.parse(String(r.outtime ?? ''));
      r.los = Number.isFinite(a) && Number.isFinite(b) ? Number(((b - a) / 86_400_000).toFixed(4)) : null;
    }
  }
  // A text column with many distinct values (times, free text) stays in the rows for a look but is
  // not offered as a category: a chi-square over thousands of levels says nothing.
  const kept = columns.filter(
    (c) => c.type === 'number' || new Set(rows.map((r) => r[c.key])).size <= CATEGORY_LEVELS,
  );
  return { layout, columns: kept, rows };
}

const view = (r: Row): ExternalDataset => ({
  id: r.id,
  name: r.name,
  layout: r.layout as ExternalLayout,
  columns: r.columns as ResearchDatasetColumn[],
  rowCount: r.rowCount,
  createdAt: r.createdAt.toISOString(),
});

export async function listExternalDatasets(db: Tx, appId: number) {
  const rows = await appRows(db, externalDatasets, appId, asc(externalDatasets.name));
  return { items: rows.map(view) };
}

export async function importExternalDataset(ctx: SignedIn, input: { name: string; csv: string }) {
  const table = tableOf(input.csv);
  return ctx.db.transaction(async (tx) => {
    const [same] = await tx
      .select({ id: externalDatasets.id })
      .from(externalDatasets)
      .where(and(eq(externalDatasets.appId, ctx.appId), eq(externalDatasets.name, input.name)));
    if (same) throw invalidField('body.name', `数据集 ${input.name} 已存在`, `dataset ${input.name} exists`);
    const [row] = await tx
      .insert(externalDatasets)
      .values({
        appId: ctx.appId,
        name: input.name,
        layout: table.layout,
        columns: table.columns,
        rows: table.rows,
        rowCount: table.rows.length,
        createdBy: ctx.userId,
      })
      .returning();
    const after = view(row!);
    await audit(tx, ctx, {
      action: 'externalDataset.import',
      entity: 'external_dataset',
      entityId: after.id,
      after: {
        name: after.name,
        layout: after.layout,
        rowCount: after.rowCount,
        columns: after.columns.map((c) => c.key),
      },
    });
    return after;
  });
}

export async function previewExternalDataset(db: Tx, appId: number, id: number) {
  const [r] = await db
    .select({
      rows: sql<
        ResearchDatasetRow[]
      >`(select coalesce(jsonb_agg(x), '[]'::jsonb) from (select x from jsonb_array_elements(${externalDatasets.rows}) x limit 20) s)`,
    })
    .from(externalDatasets)
    .where(and(eq(externalDatasets.id, id), eq(externalDatasets.appId, appId)));
  return { rows: r?.rows ?? [] };
}

export async function deleteExternalDataset(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const before = view(await externalDatasetRow(tx, ctx.appId, id));
    await deleteAppRow(tx, externalDatasets, ctx.appId, id);
    await trail.deleted(tx, ctx, id, { name: before.name, rowCount: before.rowCount });
    return true as const;
  });
}

/** Queues an analysis of a dataset after checking the columns it names (400 naming `params.…`). */
export async function requestExternalAnalysis(ctx: SignedIn, id: number, params: ResearchAnalysisParams) {
  const ds = view(await externalDatasetRow(ctx.db, ctx.appId, id));
  const cols = new Set(ds.columns.map((c) => c.key));
  for (const [field, key] of columnsNamed(params))
    if (!cols.has(key)) throw invalidField(`body.${field}`, `没有列 ${key}`, `no column ${key}`);
  const job = await requestJob(
    ctx.db,
    ctx,
    { kind: EXTERNAL_ANALYSIS_KIND, params: { datasetId: id, analysis: params } },
    { action: 'externalDataset.analyse', entity: 'external_dataset', entityId: id, after: { params } },
  );
  return { task_id: job.id };
}

export async function externalAnalysisJob({ db, job, progress }: JobContext) {
  const { datasetId, analysis } = job.params as { datasetId: number; analysis: ResearchAnalysisParams };
  const row = await externalDatasetRow(db, job.appId, datasetId);
  await progress(20);
  return runAnalysis(row.rows as ResearchDatasetRow[], analysis, row.columns as ResearchDatasetColumn[]);
}

/** The analyses of a dataset, newest first, with their status and result. */
export async function externalAnalyses(db: Db, appId: number, id: number, locale: Locale) {
  await externalDatasetRow(db, appId, id);
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.appId, appId),
        eq(jobs.kind, EXTERNAL_ANALYSIS_KIND),
        sql`(${jobs.params} ->> 'datasetId')::int = ${id}`,
      ),
    )
    .orderBy(desc(jobs.id))
    .limit(20);
  const items: ResearchTaskResult[] = [];
  for (const r of rows) items.push(await taskResult(db, appId, r.id, locale));
  return { items };
}
