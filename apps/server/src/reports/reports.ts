import {
  cdrFieldLabelKey,
  checkReportDefinition,
  type Locale,
  label,
  REPORT_COLUMN_FAMILIES,
  REPORT_EXPORT_MAX_ROWS,
  type Report,
  type ReportCell,
  type ReportDefinition,
  type ReportLastRun,
  type ReportList,
  type ReportResult,
  type ReportValue,
  type reportCreate,
  reportDefinition,
  type reportPatch,
} from '@crdp/core';
import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditRead, auditTrail } from '../audit/audit.js';
import { appRowOf, deleteAppRow, nameTaken, updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { containsPattern } from '../db/like.js';
import { rowsOf } from '../db/rows.js';
import { users } from '../db/schema/index.js';
import { reports } from '../db/schema/reports.js';
import { withAppScope } from '../db/scoped.js';
import { csvText } from '../files/csv.js';
import { xlsxBuffer } from '../files/xlsx.js';
import type { SignedIn } from '../http/context.js';
import { AppError, badRequest, bilingual, invalidField } from '../http/errors.js';
import { checkValues, compileReport } from './compile.js';

/**
 * Saved reports (报表查询, DataLakeSouthWest): kept per app, listed, run with their parameters
 * (a page of rows) and exported as CSV or XLSX. Saving is part of querying (the menu has only
 * `query` and `export`): whoever may query the app's data may keep a query; every save, change,
 * delete, run and export is audited.
 */

type Row = typeof reports.$inferSelect;

const view = (r: Row, createdByName: string | null): Report => ({
  id: r.id,
  name: r.name,
  description: r.description,
  definition: reportDefinition.parse(r.definition),
  createdBy: r.createdBy,
  createdByName,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  lastRun: (r.lastRun as ReportLastRun | null) ?? null,
});

/** The definition's meaning checked beyond its shape; the first problem is a 400 naming its place. */
function checkDefinition(d: ReportDefinition, at = 'definition') {
  const [issue] = checkReportDefinition(d, at);
  if (issue) throw invalidField(issue.path, issue.zh, issue.en);
}

async function nameOf(db: Tx, userId: number | null) {
  if (!userId) return null;
  const [u] = await db.select({ n: users.userName }).from(users).where(eq(users.userId, userId));
  return u?.n ?? null;
}

export async function listReports(db: Db, appId: number, keyword?: string): Promise<ReportList> {
  const where = keyword
    ? and(
        eq(reports.appId, appId),
        or(
          ilike(reports.name, containsPattern(keyword)),
          ilike(reports.description, containsPattern(keyword)),
        ),
      )
    : eq(reports.appId, appId);
  const rows = await db
    .select({ r: reports, by: users.userName })
    .from(reports)
    .leftJoin(users, eq(users.userId, reports.createdBy))
    .where(where)
    .orderBy(asc(reports.name), asc(reports.id));
  return { items: rows.map((x) => view(x.r, x.by)) };
}

export const reportOf = appRowOf(reports, 'report');
const trail = auditTrail('report', 'report');

export const reportsOf = async (db: Db, appId: number) =>
  (await db.select({ id: reports.id }).from(reports).where(eq(reports.appId, appId))).map((r) => ({
    id: r.id,
  }));

async function assertNameFree(tx: Tx, appId: number, name: string, except?: number) {
  if (await nameTaken(tx, reports, appId, name, except))
    throw new AppError(409, 'request.conflict', {
      detail: bilingual(`name: 已有名为“${name}”的报表`, `name: there is already a report named "${name}"`),
    });
}

/**
 * A saved report is shared with the app, but only its maker changes or deletes it (a reader
 * with 报表查询 must not rewrite another person's report); one whose maker's account is gone
 * may be taken over.
 */
async function mustOwn(tx: Tx, ctx: SignedIn, r: Row) {
  if (r.createdBy === null || r.createdBy === ctx.userId) return;
  throw new AppError(403, 'report.notOwner', { name: r.name, owner: (await nameOf(tx, r.createdBy)) ?? '' });
}

export async function addReport(ctx: SignedIn, input: z.output<typeof reportCreate>): Promise<Report> {
  checkDefinition(input.definition);
  return ctx.db.transaction(async (tx) => {
    await assertNameFree(tx, ctx.appId, input.name);
    const [row] = await tx
      .insert(reports)
      .values({ appId: ctx.appId, ...input, createdBy: ctx.userId })
      .returning();
    const after = view(row!, ctx.userName);
    return trail.added(tx, ctx, after.id, after);
  });
}

export async function editReport(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof reportPatch>,
): Promise<Report> {
  if (input.definition) checkDefinition(input.definition);
  return ctx.db.transaction(async (tx) => {
    const before = await reportOf(tx, ctx.appId, id);
    await mustOwn(tx, ctx, before);
    if (input.name !== undefined) await assertNameFree(tx, ctx.appId, input.name, id);
    const row = await updateAppRow(tx, reports, ctx.appId, id, { ...input, updatedAt: new Date() });
    const by = await nameOf(tx, row!.createdBy);
    const after = view(row!, by);
    return trail.edited(tx, ctx, id, view(before, by), after);
  });
}

export async function deleteReport(ctx: SignedIn, id: number): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    const before = await reportOf(tx, ctx.appId, id);
    await mustOwn(tx, ctx, before);
    await deleteAppRow(tx, reports, ctx.appId, id);
    await trail.deleted(tx, ctx, id, view(before, await nameOf(tx, before.createdBy)));
    return true as const;
  });
}

/** Counts of the whole result: rows, distinct patients, filled rows per column. */
async function totals(tx: Tx, c: ReturnType<typeof compileReport>) {
  const filled = sql.join(
    c.columns.map((col, i) => sql`count(*) filter (where ${col.filled})::int as ${sql.identifier(`f${i}`)}`),
    sql`, `,
  );
  const [t] = rowsOf<Record<string, number>>(
    await tx.execute(
      sql`select count(*)::int as n, count(distinct p.id)::int as patients, ${filled} ${c.from}`,
    ),
  );
  return {
    rows: Number(t?.n ?? 0),
    patients: Number(t?.patients ?? 0),
    filled: Object.fromEntries(c.columns.map((col, i) => [col.ref, Number(t?.[`f${i}`] ?? 0)])),
  };
}

async function selectRows(tx: Tx, c: ReturnType<typeof compileReport>, limit: number, offset: number) {
  const cells = sql.join(
    c.columns.map((col, i) => sql`${col.cell} as ${sql.identifier(`c${i}`)}`),
    sql`, `,
  );
  const rows = rowsOf<Record<string, unknown>>(
    await tx.execute(sql`select ${cells} ${c.from} order by ${c.orderBy} limit ${limit} offset ${offset}`),
  );
  return rows.map((r) =>
    c.columns.map((_, i): ReportCell => {
      const v = r[`c${i}`];
      if (v === null || v === undefined) return null;
      return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : String(v);
    }),
  );
}

/**
 * One page of a definition's rows for the app, with the totals, inside the app's RLS scope (a
 * backstop behind the compiled SQL's own `app_id` filters).
 */
async function runDefinition(
  db: Db,
  appId: number,
  d: ReportDefinition,
  values: Record<string, ReportValue>,
  page: { page: number; size: number },
) {
  checkValues(d, values);
  const c = compileReport(appId, d, values);
  return withAppScope(db, appId, async (tx) => {
    const t = await totals(tx, c);
    const rows = await selectRows(tx, c, page.size, (page.page - 1) * page.size);
    const result: ReportResult = {
      columns: c.columns.map((col) => ({ ref: col.ref, kind: col.kind })),
      rows,
      total: t.rows,
      patients: t.patients,
      page: page.page,
      size: page.size,
    };
    return { result, totals: t };
  });
}

/** A report being written, run before it is saved (nothing stored; the read is audited; required parameters may be empty). */
export async function previewReport(
  ctx: SignedIn,
  d: ReportDefinition,
  values: Record<string, ReportValue>,
  page: { page: number; size: number },
): Promise<ReportResult> {
  checkDefinition(d);
  // A preview may leave required parameters empty: an empty one filters nothing.
  const relaxed = { ...d, params: d.params.map((p) => ({ ...p, required: false })) };
  const { result } = await runDefinition(ctx.db, ctx.appId, relaxed, values, page);
  await auditRead(ctx, {
    entity: 'report',
    entityId: 'preview',
    detail: { source: d.source, params: Object.keys(values), rows: result.total, page: page.page },
  });
  return result;
}

/** A saved report run with its parameters; its facts are kept for the data-factory directory. */
export async function runReport(
  ctx: SignedIn,
  id: number,
  values: Record<string, ReportValue>,
  page: { page: number; size: number },
): Promise<ReportResult> {
  const row = await reportOf(ctx.db, ctx.appId, id);
  const d = reportDefinition.parse(row.definition);
  // A report kept before the catalogue changed is refused by name, never half compiled.
  checkDefinition(d);
  const { result, totals: t } = await runDefinition(ctx.db, ctx.appId, d, values, page);
  const lastRun: ReportLastRun = { at: new Date().toISOString(), ...t };
  await ctx.db
    .update(reports)
    .set({ lastRun })
    .where(and(eq(reports.id, id), eq(reports.appId, ctx.appId)));
  // Running reads patient data: who ran what, with which parameters named (never their values).
  await auditRead(ctx, {
    entity: 'report',
    entityId: id,
    detail: { params: Object.keys(values), rows: t.rows, page: page.page },
  });
  return result;
}

/** A column's heading in the reader's language: 患者·病案号, 诊断·ICD-10 编码. */
function heading(ref: string, locale: Locale) {
  const [table, field] = ref.split('.') as [string, string];
  const f =
    field === 'age'
      ? locale === 'zh-CN'
        ? '年龄'
        : 'Age'
      : label('cdrField', cdrFieldLabelKey(table, field), locale);
  return `${label('cdrTable', table, locale)}·${f}`;
}

/** A cell as a person reads it: coded values (gender, visit kind …) in words. */
function cellWords(ref: string, v: ReportCell, locale: Locale): ReportCell {
  const family = REPORT_COLUMN_FAMILIES[ref];
  if (!family || v === null || v === '') return v;
  return label(family, String(v), locale);
}

/**
 * The report's rows with its parameters as a CSV (formula guard on) or XLSX file, at most
 * REPORT_EXPORT_MAX_ROWS rows: more is refused before anything is written, so nobody takes home
 * a file cut short without knowing.
 */
export async function exportReport(
  ctx: SignedIn,
  id: number,
  values: Record<string, ReportValue>,
  format: 'csv' | 'xlsx',
): Promise<{ name: string; body: string | Buffer; rows: number }> {
  const row = await reportOf(ctx.db, ctx.appId, id);
  const d = reportDefinition.parse(row.definition);
  // A report kept before the catalogue changed is refused by name, never half compiled.
  checkDefinition(d);
  checkValues(d, values);
  const c = compileReport(ctx.appId, d, values);
  const { rows, t } = await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const t = await totals(tx, c);
    if (t.rows > REPORT_EXPORT_MAX_ROWS)
      throw badRequest(
        bilingual(
          `params: 结果有 ${t.rows} 行，一次最多导出 ${REPORT_EXPORT_MAX_ROWS} 行，请缩小参数范围`,
          `params: the result has ${t.rows} rows; one export holds at most ${REPORT_EXPORT_MAX_ROWS}, narrow the parameters`,
        ),
        'params',
      );
    return { rows: await selectRows(tx, c, REPORT_EXPORT_MAX_ROWS, 0), t };
  });
  const locale = ctx.locale;
  const cells = [
    d.columns.map((ref) => heading(ref, locale)),
    ...rows.map((r) => r.map((v, i) => cellWords(d.columns[i]!, v, locale))),
  ];
  await audit(ctx.db, ctx, {
    action: 'report.export',
    entity: 'report',
    entityId: id,
    after: { format, rows: t.rows, params: Object.keys(values) },
  });
  const base = row.name.replace(/[\\/:*?"<>|]/g, '_');
  if (format === 'xlsx')
    return {
      name: `${base}.xlsx`,
      body: await xlsxBuffer([{ name: row.name, rows: [cells] }]),
      rows: t.rows,
    };
  return { name: `${base}.csv`, body: csvText(cells, { formulaGuard: true }), rows: t.rows };
}
