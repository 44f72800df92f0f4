import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { csvText } from '../files/csv.js';
import { xlsxBuffer } from '../files/xlsx.js';
import { notFound } from '../http/errors.js';
import { requestJob } from '../jobs/request.js';
import { findJob, type JobContext } from '../jobs/runner.js';
import { type Actor, invalid, libraryDetail } from './libraries.js';

/**
 * Export (export): chosen indicators of every patient of a library as CSV or XLSX, with a
 * data dictionary (a second sheet, or a second CSV section). A job, so a large library does
 * not hold a request; the file is kept under DATA_DIR/exports/app-<id>/.
 */
export const EXPORT_KIND = 'diseaseLibrary.export';

export const exportPath = (dataDir: string, appId: number, jobId: number, format: string) =>
  path.join(dataDir, 'exports', `app-${appId}`, `disease-library-${jobId}.${format}`);

export async function requestExport(
  actor: Actor,
  libraryId: number,
  input: { itemKeys: string[]; format: 'csv' | 'xlsx' },
) {
  const { db } = actor;
  const detail = await libraryDetail(db, actor.appId, libraryId);
  const keys = new Set(detail.items.map((i) => i.key));
  const bad = input.itemKeys.findIndex((k) => !keys.has(k));
  if (bad >= 0)
    throw invalid(
      `body.itemKeys.${bad}`,
      '专病库的表单中没有这个键的题目',
      'no item of the library’s form has this key',
    );
  return requestJob(
    db,
    actor,
    { kind: EXPORT_KIND, params: { libraryId, itemKeys: input.itemKeys, format: input.format } },
    { action: 'disease_library.export', entity: 'disease_library', entityId: libraryId, after: input },
  );
}

export function exportJob(dataDir: string) {
  return async ({ db, job, progress }: JobContext) => {
    const p = job.params as { libraryId: number; itemKeys: string[]; format: 'csv' | 'xlsx' };
    const detail = await libraryDetail(db, job.appId, p.libraryId);
    const items = p.itemKeys.map((k) => detail.items.find((i) => i.key === k)!).filter(Boolean);
    const rows = rowsOf<{
      patient_id: string;
      mrn: string;
      name: string;
      filing_date: string;
      answers: Record<string, unknown> | null;
    }>(
      await db.execute(sql`select lp.patient_id, p.mrn, p.name, to_char(lp.filing_date, 'YYYY-MM-DD') as filing_date, r.answers
        from disease_library_patients lp join patients p on p.id = lp.patient_id and p.app_id = ${job.appId}
        left join crf_records r on r.id = lp.record_id and r.deleted_at is null where lp.library_id = ${p.libraryId} order by lp.filing_date, lp.id`),
    );
    await progress(50);
    const header = ['patient_id', 'mrn', 'name', 'filing_date', ...items.map((i) => i.key)];
    const data = rows.map((r) => [
      Number(r.patient_id),
      r.mrn,
      r.name,
      r.filing_date,
      ...items.map((i) => {
        const v = r.answers?.[i.key];
        return typeof v === 'number'
          ? v
          : v === undefined || v === null
            ? null
            : Array.isArray(v)
              ? v.join(';')
              : String(v);
      }),
    ]);
    const rules = detail.sourceRules as Record<string, string>;
    const dictionary = [
      ['key', 'title', 'type', 'source_rule'],
      ['patient_id', '患者 ID', 'number', ''],
      ['mrn', '病案号', 'text', ''],
      ['name', '姓名', 'text', ''],
      ['filing_date', '入库日期', 'date', detail.filingRule],
      ...items.map((i) => [i.key, i.title, i.type, rules[i.key] ?? '']),
    ];
    const file = exportPath(dataDir, job.appId, job.id, p.format);
    await mkdir(path.dirname(file), { recursive: true });
    if (p.format === 'xlsx') {
      await writeFile(
        file,
        await xlsxBuffer([
          { name: 'data', rows: [[header, ...data]] },
          { name: 'dictionary', rows: [dictionary] },
        ]),
      );
    } else {
      await writeFile(file, csvText([header, ...data], { formulaGuard: true }), 'utf8');
      await writeFile(file.replace(/\.csv$/, '.dictionary.csv'), csvText(dictionary, { formulaGuard: true }));
    }
    return {
      rows: data.length,
      columns: header.length,
      format: p.format,
      fileName: `${detail.name}-${job.id}.${p.format}`,
    };
  };
}

/** The finished export file of a job of the app, or 404. */
export async function exportFile(db: Tx, dataDir: string, appId: number, jobId: number, dictionary = false) {
  const job = await findJob(db, appId, jobId);
  if (!job || job.kind !== EXPORT_KIND) throw notFound('export');
  if (job.status !== 'succeeded')
    throw invalid(
      'params.jobId',
      `导出任务的状态为 ${job.status}，还不能下载`,
      `the export is ${job.status}`,
    );
  const p = job.params as { format: 'csv' | 'xlsx' };
  const result = job.result as { fileName: string };
  const file = exportPath(dataDir, appId, jobId, p.format);
  if (dictionary && p.format === 'csv')
    return {
      file: file.replace(/\.csv$/, '.dictionary.csv'),
      format: p.format,
      fileName: result.fileName.replace(/\.csv$/, '-dictionary.csv'),
    };
  return { file, format: p.format, fileName: result.fileName };
}

export async function ownedExportIds(db: Db, appId: number) {
  const rows = rowsOf<{ id: string }>(
    await db.execute(
      sql`select id from jobs where app_id = ${appId} and kind = ${EXPORT_KIND} and status = 'succeeded' order by id desc limit 3`,
    ),
  );
  return rows.map((r) => ({ jobId: Number(r.id) }));
}
