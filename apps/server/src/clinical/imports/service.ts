import type { CdrImportStatus, cdrImport, cdrImportDetail, cdrImportPage, Locale } from '@crdp/core';
import { count, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { appRowOf } from '../../db/app-rows.js';
import type { Db } from '../../db/client.js';
import { importRecords, jobs } from '../../db/schema/index.js';
import type { SignedIn } from '../../http/context.js';
import { jobFailureText } from '../../jobs/failure.js';
import { enqueueJob, type JobContext } from '../../jobs/runner.js';
import type { ParsePool } from '../../parsing/pool.js';
import type { CsvImportInput } from './csv.js';
import { type MappedImport, type RowError, rowErrorIn } from './mapped.js';
import { writeImport } from './write.js';

export const IMPORT_JOB = 'cdr.import';
const MAX_ERRORS = 1000;

type ImportRow = typeof importRecords.$inferSelect;

const importRecordOf = appRowOf(importRecords, 'import record');

/** An import as the API answers it (the `cdrImport` contract). */
export const importView = (
  r: ImportRow,
  withErrors = false,
  locale: Locale = 'zh-CN',
): z.input<typeof cdrImport> => ({
  id: r.id,
  jobId: r.jobId,
  format: r.format as 'fhir' | 'csv',
  fileName: r.fileName,
  status: r.status as CdrImportStatus,
  total: r.total,
  succeeded: r.succeeded,
  failed: r.failed,
  counts: r.counts as Record<string, number>,
  ...(withErrors
    ? { errors: (r.errors as RowError[]).map((e) => rowErrorIn(e, locale)) }
    : { errorCount: (r.errors as unknown[]).length }),
  createdAt: r.createdAt.toISOString(),
  finishedAt: r.finishedAt?.toISOString() ?? null,
});

/** Records the import and queues its job, both with the audit row in one transaction. */
export async function queueImport(
  db: Db,
  s: SignedIn,
  format: 'fhir' | 'csv',
  fileName: string,
  payload: unknown,
) {
  return db.transaction(async (tx) => {
    const [rec] = await tx
      .insert(importRecords)
      .values({ appId: s.appId, format, fileName, payload, createdBy: s.userId })
      .returning();
    const job = await enqueueJob(tx, {
      appId: s.appId,
      kind: IMPORT_JOB,
      params: { importId: rec!.id },
      createdBy: s.userId,
    });
    const [withJob] = await tx
      .update(importRecords)
      .set({ jobId: job.id })
      .where(eq(importRecords.id, rec!.id))
      .returning();
    await audit(tx, s, {
      action: 'import.queue',
      entity: 'import_record',
      entityId: rec!.id,
      after: { format, fileName },
    });
    return withJob!;
  });
}

/** Queues an import again (same file): rows are upserted by source id, so nothing doubles. */
export async function rerunImport(db: Db, s: SignedIn, id: number) {
  return db.transaction(async (tx) => {
    await importRecordOf(tx, s.appId, id);
    const job = await enqueueJob(tx, {
      appId: s.appId,
      kind: IMPORT_JOB,
      params: { importId: id },
      createdBy: s.userId,
    });
    const [row] = await tx
      .update(importRecords)
      .set({ jobId: job.id, status: 'queued', finishedAt: null })
      .where(eq(importRecords.id, id))
      .returning();
    await audit(tx, s, { action: 'import.rerun', entity: 'import_record', entityId: id });
    return row!;
  });
}

export async function listImports(
  db: Db,
  appId: number,
  page: number,
  size: number,
): Promise<z.input<typeof cdrImportPage>> {
  const where = eq(importRecords.appId, appId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(importRecords)
      .where(where)
      .orderBy(desc(importRecords.id))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ n: count() }).from(importRecords).where(where),
  ]);
  return { items: rows.map((r) => importView(r)), total: Number(total?.n ?? 0), page, size };
}

export async function importDetail(
  db: Db,
  appId: number,
  id: number,
  locale: Locale = 'zh-CN',
): Promise<z.input<typeof cdrImportDetail>> {
  const rec = await importRecordOf(db, appId, id);
  const [job] = rec.jobId ? await db.select().from(jobs).where(eq(jobs.id, rec.jobId)) : [];
  return {
    ...importView(rec, true, locale),
    progress: job?.progress ?? 0,
    jobError: job ? jobFailureText(job, locale) : null,
  };
}

/**
 * The import job: map the file (nothing written yet), then write every good row in one
 * transaction with its audit row. A failure while writing rolls all of it back.
 */
export async function runImportJob({ db, job, progress }: JobContext, parsing: ParsePool) {
  const importId = Number((job.params as { importId?: number }).importId);
  const [rec] = await db.select().from(importRecords).where(eq(importRecords.id, importId));
  if (!rec || rec.appId !== job.appId) throw new Error(`import record ${importId} not found`);
  await db.update(importRecords).set({ status: 'running' }).where(eq(importRecords.id, importId));
  try {
    // Mapped in a worker thread (parsing/pool.ts), off the event loop that answers requests.
    const mapped: MappedImport =
      rec.format === 'fhir'
        ? await parsing.run({ kind: 'cdr.fhir', bundle: rec.payload })
        : await parsing.run({ kind: 'cdr.csv', input: rec.payload as CsvImportInput });
    await progress(30);
    const result = await db.transaction(async (tx) => {
      const r = await writeImport(tx, rec.appId, rec.format === 'fhir' ? 'fhir' : 'csv', mapped);
      await audit(tx, null, {
        appId: rec.appId,
        userId: rec.createdBy,
        userName: '',
        action: 'import',
        entity: 'import_record',
        entityId: importId,
        after: { counts: r.counts, refused: mapped.errors.length + r.errors.length },
      });
      return r;
    });
    const errors = [...mapped.errors, ...result.errors].sort((a, b) => a.row - b.row);
    const failedRows = new Set(errors.map((e) => e.row)).size;
    const status = errors.length && !result.succeeded ? 'failed' : errors.length ? 'partial' : 'succeeded';
    await db
      .update(importRecords)
      .set({
        status,
        total: mapped.total,
        succeeded: result.succeeded,
        failed: failedRows,
        counts: result.counts,
        errors: errors.slice(0, MAX_ERRORS),
        finishedAt: new Date(),
      })
      .where(eq(importRecords.id, importId));
    return { importId, status, counts: result.counts, failed: failedRows };
  } catch (e) {
    await db
      .update(importRecords)
      .set({
        status: 'failed',
        errors: [{ row: 0, field: '', message: e instanceof Error ? e.message : String(e) }],
        finishedAt: new Date(),
      })
      .where(eq(importRecords.id, importId));
    throw e;
  }
}
