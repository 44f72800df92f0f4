import {
  COLLECTION_TARGETS,
  type CollectionTarget,
  type CollectionTemplateSpec,
  collectionTemplateSpec,
  columnsOf,
  dictionariesOf,
  keyText,
  type LookupTables,
  MappingError,
  mapRow,
} from '@crdp/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { firstIssue } from '../clinical/imports/mapped.js';
import { patientInput, type RecordTable, recordInputs } from '../clinical/records.js';
import type { Db, Tx } from '../db/client.js';
import {
  collectionRuns,
  collectionTasks,
  dictionaries,
  dictionaryEntries,
  jobs,
} from '../db/schema/index.js';
import { bilingual } from '../http/errors.js';
import type { JobContext } from '../jobs/runner.js';
import { queueRulesAfterCollection } from '../rules/runs.js';
import { type After, sourceFailure } from './connectors.js';
import { readerFor, type SourceAccess, templatesFor } from './sources.js';
import { jsonSafe, type MappedSourceRow, type Refusal, storeRefusals, writeBatch } from './writer.js';

export const COLLECTION_JOB_KIND = 'collection.run';

/** The CDR `source` of rows collected from a source: one source's keys never meet another's. */
export const cdrSourceOf = (sourceId: number) => `collect:${sourceId}`;

type TemplateRow = Awaited<ReturnType<typeof templatesFor>>[number];

/** The app's dictionaries a template's lookups name, as lookup tables. */
export async function lookupsFor(db: Tx, appId: number, spec: CollectionTemplateSpec): Promise<LookupTables> {
  const codes = dictionariesOf(spec);
  const out = new Map<string, Map<string, { standardCode: string; name: string }>>();
  if (!codes.length) return out;
  const rows = await db
    .select({
      dict: dictionaries.code,
      code: dictionaryEntries.code,
      name: dictionaryEntries.name,
      standardCode: dictionaryEntries.standardCode,
    })
    .from(dictionaryEntries)
    .innerJoin(dictionaries, eq(dictionaries.dictionaryId, dictionaryEntries.dictionaryId))
    .where(and(eq(dictionaries.appId, appId), inArray(dictionaries.code, codes)));
  for (const c of codes) out.set(c, new Map());
  for (const r of rows) out.get(r.dict)!.set(r.code, { standardCode: r.standardCode, name: r.name });
  return out;
}

/** One source row mapped, or refused with the field and reason. */
export function mapSourceRow(
  raw: Record<string, unknown>,
  spec: CollectionTemplateSpec,
  lookups: LookupTables,
): { ok: MappedSourceRow } | { refused: Refusal } {
  const key = keyText(raw[spec.keyColumn]);
  if (!key)
    return {
      refused: {
        key: '',
        field: spec.keyColumn,
        reason: bilingual(`键列 ${spec.keyColumn} 为空`, `the key column ${spec.keyColumn} is empty`),
        raw: jsonSafe(raw),
      },
    };
  try {
    const values = mapRow(raw, spec, lookups);
    return {
      ok: {
        key,
        patientKey: spec.patientColumn ? keyText(raw[spec.patientColumn]) || undefined : undefined,
        visitKey: spec.visitColumn ? keyText(raw[spec.visitColumn]) || undefined : undefined,
        values,
        raw: jsonSafe(raw),
      },
    };
  } catch (e) {
    if (!(e instanceof MappingError)) throw e;
    return { refused: { key, field: e.field, reason: bilingual(e.zh, e.en), raw: jsonSafe(raw) } };
  }
}

type Watermarks = Record<string, { watermark: string | null; key: string }>;

interface TemplateStats {
  read: number;
  inserted: number;
  updated: number;
  rejected: number;
  watermark: string | null;
}

/**
 * The job of a collection run. Template by template, batch by batch: read the rows after the
 * task's watermark, map them, write them, store the refused ones, and move the watermark and
 * the run's counts, all in one transaction per batch. A crash loses at most the batch in hand
 * (the next run starts after the last committed one); a rerun finds every row already there.
 * Each transaction checks first that this claim of the job is still the current one and that
 * the run was not cancelled.
 */
export function collectionJob(access: SourceAccess) {
  return async ({ db, job, progress }: JobContext) => {
    const params = job.params as { taskId: number; runId?: number };
    const [task] = await db
      .select()
      .from(collectionTasks)
      .where(eq(collectionTasks.id, Number(params.taskId)));
    if (!task) return { deleted: true };
    let runId = params.runId;
    if (!runId) {
      // A scheduled run: its record is made by the job.
      const [r] = await db
        .insert(collectionRuns)
        .values({
          appId: task.appId,
          taskId: task.id,
          jobId: job.id,
          trigger: 'schedule',
          status: 'running',
          startedAt: new Date(),
        })
        .returning({ id: collectionRuns.id });
      runId = r!.id;
    } else {
      const started = await db
        .update(collectionRuns)
        .set({ status: 'running', startedAt: new Date() })
        .where(and(eq(collectionRuns.id, runId), eq(collectionRuns.status, 'queued')))
        .returning({ id: collectionRuns.id });
      // Cancelled before it started: nothing to do.
      if (!started.length) return { runId, cancelled: true };
    }
    const stats: Record<string, TemplateStats> = {};
    try {
      const templates = await templatesFor(db, task.appId, task.templateIds as number[]).catch(() => {
        throw new RunFailure(bilingual('任务中的采集模板已被删除', 'a template of the task was deleted'));
      });
      let done = 0;
      for (const t of templates) {
        const outcome = await runTemplate(
          db,
          access,
          job,
          task.id,
          runId,
          t,
          task.batchSize,
          stats,
          async (f) => progress(Math.floor(((done + f) / templates.length) * 100)),
        );
        done++;
        if (outcome === 'cancelled') return { runId, cancelled: true };
      }
      await db
        .update(collectionRuns)
        .set({ status: 'succeeded', finishedAt: new Date() })
        .where(and(eq(collectionRuns.id, runId), eq(collectionRuns.status, 'running')));
      // The app's published clinical rules then run over the patients this run changed (a job of
      // their own); the run has succeeded either way, so a failure to queue them is only reported.
      const rules = await queueRulesAfterCollection(db, task.appId, runId, job.createdBy ?? null).catch(
        (e: Error) => ({ error: e.message }),
      );
      return { runId, templates: stats, ...(rules ? { rules } : {}) };
    } catch (e) {
      const reason = e instanceof RunFailure ? e.reason : reasonOf(e);
      await db
        .update(collectionRuns)
        .set({ status: 'failed', finishedAt: new Date(), error: reason })
        .where(and(eq(collectionRuns.id, runId), eq(collectionRuns.status, 'running')));
      throw e;
    }
  };
}

class RunFailure extends Error {
  constructor(readonly reason: ReturnType<typeof bilingual>) {
    super(reason['en-US']);
  }
}

function reasonOf(e: unknown) {
  const s = sourceFailure(e);
  const detail = (s.values as { detail?: ReturnType<typeof bilingual> }).detail;
  return detail ?? bilingual('采集失败', 'the collection failed');
}

async function runTemplate(
  db: Db,
  access: SourceAccess,
  job: JobContext['job'],
  taskId: number,
  runId: number,
  t: TemplateRow,
  batchSize: number,
  stats: Record<string, TemplateStats>,
  onProgress: (fraction: number) => Promise<void>,
): Promise<'done' | 'cancelled'> {
  const spec = collectionTemplateSpec.parse(t.t.spec);
  const appId = t.t.appId;
  const lookups = await lookupsFor(db, appId, spec);
  const columns = columnsOf(spec);
  const ks = { watermark: spec.watermarkColumn, key: spec.keyColumn };
  const s: TemplateStats = { read: 0, inserted: 0, updated: 0, rejected: 0, watermark: null };
  stats[t.t.id] = s;
  const [taskRow] = await db
    .select({ w: collectionTasks.watermarks })
    .from(collectionTasks)
    .where(eq(collectionTasks.id, taskId));
  // Without a watermark column every run reads the whole table (unchanged rows are skipped).
  const after: After = spec.watermarkColumn ? ((taskRow?.w ?? {}) as Watermarks)[String(t.t.id)] : undefined;
  const reader = await readerFor(access, t.source);
  try {
    const pending = await reader.count(spec.table, ks, after);
    let raw = await reader.read(spec.table, columns, ks, after, batchSize);
    for (;;) {
      if (!raw.length) break;
      const mapped: MappedSourceRow[] = [];
      const refused: Refusal[] = [];
      for (const r of raw) {
        const m = mapSourceRow(r, spec, lookups);
        if ('ok' in m) mapped.push(m.ok);
        else refused.push(m.refused);
      }
      const last = raw[raw.length - 1]!;
      const next = {
        watermark: spec.watermarkColumn ? keyText(last[spec.watermarkColumn]) : null,
        key: keyText(last[spec.keyColumn]),
      };
      // The source is read one batch ahead while this batch is written (another connection).
      const ahead = raw.length < batchSize ? null : reader.read(spec.table, columns, ks, next, batchSize);
      // Awaited below; this keeps a batch that throws from leaving the read's failure unhandled.
      ahead?.catch(() => undefined);
      const stop = await db.transaction(async (tx) => {
        // Fencing and cancel: this claim must still hold the job, and the run must not be cancelled.
        const [claim] = await tx
          .select({ attempts: jobs.attempts })
          .from(jobs)
          .where(eq(jobs.id, job.id))
          .for('share');
        if (claim?.attempts !== job.attempts)
          throw new Error('collection: the job was claimed again; this batch commits nothing');
        const [run] = await tx
          .select({ status: collectionRuns.status })
          .from(collectionRuns)
          .where(eq(collectionRuns.id, runId))
          .for('update');
        if (run?.status === 'cancelled') return true;
        const res = await writeBatch(
          tx,
          {
            appId,
            runId,
            sourceId: t.source.id,
            templateId: t.t.id,
            source: cdrSourceOf(t.source.id),
            target: t.t.target as CollectionTarget,
            patientBy: spec.patientBy,
          },
          mapped,
        );
        const all = [...refused, ...res.refused];
        await storeRefusals(tx, appId, runId, t.t.id, all);
        s.read += raw.length;
        s.inserted += res.inserted;
        s.updated += res.updated;
        s.rejected += all.length;
        s.watermark = next.watermark ?? next.key;
        await tx
          .update(collectionRuns)
          .set({
            rowsRead: sql`${collectionRuns.rowsRead} + ${raw.length}`,
            rowsInserted: sql`${collectionRuns.rowsInserted} + ${res.inserted}`,
            rowsUpdated: sql`${collectionRuns.rowsUpdated} + ${res.updated}`,
            rowsUnchanged: sql`${collectionRuns.rowsUnchanged} + ${res.unchanged}`,
            rowsRejected: sql`${collectionRuns.rowsRejected} + ${all.length}`,
            templates: stats,
          })
          .where(eq(collectionRuns.id, runId));
        if (spec.watermarkColumn)
          await tx
            .update(collectionTasks)
            .set({
              watermarks: sql`${collectionTasks.watermarks} || ${JSON.stringify({ [t.t.id]: next })}::jsonb`,
            })
            .where(eq(collectionTasks.id, taskId));
        return false;
      });
      if (stop) return 'cancelled';
      await onProgress(pending ? Math.min(1, s.read / pending) : 1);
      if (!ahead) break;
      raw = await ahead;
    }
    return 'done';
  } finally {
    await reader.close();
  }
}

/** Maps rows without writing: a unit test of one template, or a task's dry run. */
export async function dryRun(
  db: Tx,
  appId: number,
  spec: CollectionTemplateSpec,
  target: CollectionTarget,
  raw: Record<string, unknown>[],
) {
  const lookups = await lookupsFor(db, appId, spec);
  const mapped: Array<{ key: string; values: Record<string, unknown> }> = [];
  const rejected: Array<{
    key: string;
    field: string;
    reason: ReturnType<typeof bilingual>;
    row: Record<string, unknown>;
  }> = [];
  for (const r of raw) {
    const m = mapSourceRow(r, spec, lookups);
    if ('refused' in m) {
      rejected.push({
        key: m.refused.key,
        field: m.refused.field,
        reason: m.refused.reason,
        row: m.refused.raw,
      });
      continue;
    }
    // The entry form's own check, as a run would apply it (patients are found only when written).
    const check = checkValues(target, m.ok.values);
    if (check) rejected.push({ key: m.ok.key, field: check.field, reason: check.text, row: m.ok.raw });
    else mapped.push({ key: m.ok.key, values: m.ok.values });
  }
  return { mapped, rejected };
}

function checkValues(target: CollectionTarget, values: Record<string, unknown>) {
  const schema = target === 'patients' ? patientInput : recordInputs[target as RecordTable];
  const p = schema.safeParse(values);
  return p.success ? undefined : firstIssue(p.error.issues, values);
}

/** The fields of each CDR table's entry form a template may map (visit links and contacts aside). */
export function targetFields() {
  return {
    items: COLLECTION_TARGETS.map((target) => {
      const schema = target === 'patients' ? patientInput : recordInputs[target as RecordTable];
      const shape = ((schema as unknown as { shape?: Record<string, z.ZodType> }).shape ??
        (schema as unknown as { _def: { schema?: { shape: Record<string, z.ZodType> } } })._def.schema
          ?.shape ??
        {}) as Record<string, z.ZodType>;
      const fields = Object.entries(shape)
        .filter(([name]) => name !== 'visitId' && name !== 'contacts')
        .map(([name, f]) => ({ name, required: !f.safeParse(undefined).success }));
      return { target, fields: [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)] };
    }),
  };
}
