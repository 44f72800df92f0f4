import {
  type SciColumn,
  type SciColumnStats,
  type SciDatasetMade,
  type SciOverview,
  type SciRows,
  type SciRunQueued,
  type SciSnapshot,
  type SciSnapshotDetail,
  type SciSnapshotList,
  type sciSnapshotQuery,
  type Variable,
  type VariableDerivation,
  variableDerivation,
} from '@crdp/core';
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { deleteAppRow, ownedIds } from '../db/app-rows.js';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import {
  diseaseLibraries,
  jobs,
  researchDatasets,
  researchSubjects,
  sciSnapshotParts,
  sciSnapshots,
  sciTransformTasks,
  users,
} from '../db/schema/index.js';
import { libraryBase, ruleSql } from '../disease-library/template-sql.js';
import type { SignedIn } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { queueJobFor } from '../jobs/request.js';
import type { JobContext } from '../jobs/runner.js';
import { assertMember, assertStatus, invalid, subjectOf } from '../research/subjects.js';
import { ruleOf } from '../variables/variables.js';
import {
  buildSnapshotFile,
  type Cell,
  type EngineColumn,
  exportParquet,
  localFile,
  readRows,
  rowBatches,
  sha256,
} from './engine.js';
import { taskRow, taskVariables } from './tasks.js';

export const SNAPSHOT_JOB = 'sci.snapshot';
const PART_BYTES = 4 * 1024 * 1024;

/** What a run was asked for, frozen when it was queued. */
interface Spec {
  subjectId: number;
  cohort: 'subject' | 'library';
  libraryId: number | null;
  cohortName: string;
  /** Each column's derivation as it was when queued (the columns hold the rest). */
  derivations: VariableDerivation[];
}

type Row = typeof sciSnapshots.$inferSelect;

export const ownedSnapshotIds = ownedIds(sciSnapshots);

const columnOf = (v: Variable): SciColumn => ({
  key: v.code,
  variableId: v.id,
  labelZh: v.labelZh,
  labelEn: v.labelEn,
  type: v.type,
  unit: v.unit,
  valueSet: v.valueSet,
  derivationKind: v.derivation.kind,
  ruleText: v.derivation.kind === 'crf' ? `crf ${v.derivation.formId} ${v.derivation.item}` : v.ruleText,
});

/** Queues a run of a task: the next version of its snapshot, built by the `sci.snapshot` job. */
export async function runTask(ctx: SignedIn, taskId: number): Promise<SciRunQueued> {
  const task = await taskRow(ctx.db, ctx.appId, taskId);
  const subject = await subjectOf(ctx.db, ctx.appId, task.subjectId);
  await assertMember(ctx.db, subject, ctx);
  const vars = await taskVariables(ctx.db, ctx.appId, task);
  if (!vars.length) throw invalid('variables', '该转换任务没有变量', 'the transform task takes no variables');
  let cohortName = subject.name;
  if (task.cohort === 'library') {
    const [lib] = await ctx.db
      .select({ name: diseaseLibraries.name })
      .from(diseaseLibraries)
      .where(and(eq(diseaseLibraries.id, task.libraryId ?? 0), eq(diseaseLibraries.appId, ctx.appId)));
    if (!lib) throw invalid('libraryId', '该转换任务的专病库已不存在', 'the task’s disease library is gone');
    cohortName = lib.name;
  }
  const spec: Spec = {
    subjectId: task.subjectId,
    cohort: task.cohort as Spec['cohort'],
    libraryId: task.libraryId,
    cohortName,
    derivations: vars.map((v) => v.derivation),
  };
  return ctx.db.transaction(async (tx) => {
    // One version at a time per task: the task row is locked while the number is taken.
    await tx.execute(sql`select id from sci_transform_tasks where id = ${taskId} for update`);
    const [last] = await tx
      .select({ v: sql<number>`coalesce(max(${sciSnapshots.version}), 0)` })
      .from(sciSnapshots)
      .where(eq(sciSnapshots.taskId, taskId));
    const version = Number(last?.v ?? 0) + 1;
    const [snap] = await tx
      .insert(sciSnapshots)
      .values({
        appId: ctx.appId,
        taskId,
        version,
        spec,
        columns: vars.map(columnOf),
        createdBy: ctx.userId,
      })
      .returning();
    const job = await queueJobFor(
      tx,
      ctx,
      { kind: SNAPSHOT_JOB, params: { snapshotId: snap!.id }, link: { table: sciSnapshots, id: snap!.id } },
      {
        action: 'create',
        entity: 'sci_snapshot',
        after: { taskId, version, columns: vars.length, cohort: spec.cohort },
      },
    );
    return { snapshotId: snap!.id, version, jobId: job.id };
  });
}

/** The cohort as a base set (patient_id, filing_date): the subject's enrolments or the library's patients. */
function cohortBase(appId: number, spec: Spec): SQL {
  if (spec.cohort === 'library') return libraryBase(spec.libraryId ?? 0);
  return sql`select e.patient_id, e.enrolled_at::date as filing_date from research_enrolments e
    where e.subject_id = ${spec.subjectId} and e.app_id = ${appId}`;
}

/**
 * (patient_id, v) of a derivation over the cohort: the variable library's compiled template
 * (`ruleOf` + the disease library's `ruleSql`), or a CRF item's answer in the patient's latest record.
 */
function valuesSql(d: VariableDerivation, appId: number, base: SQL): SQL {
  const rule = ruleOf(d);
  if (rule) return sql`select patient_id, v from (${ruleSql(rule, appId, base)}) rs`;
  const c = d as Extract<VariableDerivation, { kind: 'crf' }>;
  return sql`select distinct on (r.patient_id) r.patient_id, r.answers ->> ${c.item} as v
    from crf_records r
    where r.app_id = ${appId} and r.form_id = ${c.formId} and r.deleted_at is null
      and r.patient_id in (select b.patient_id from (${base}) b)
    order by r.patient_id, r.updated_at desc, r.id desc`;
}

const DATE = /^\d{4}-\d{2}-\d{2}/;

/** A value as the column's type keeps it, or null (a text where a number is wanted is missing). */
function valueFor(type: SciColumn['type'], v: unknown): number | string | null {
  if (v === null || v === undefined || v === '') return null;
  if (type === 'number') {
    const n = typeof v === 'number' ? v : Number(String(v).trim());
    return Number.isFinite(n) ? n : null;
  }
  if (type === 'date') {
    const s = v instanceof Date ? v.toISOString() : String(v);
    return DATE.test(s) ? s.slice(0, 10) : null;
  }
  return String(v);
}

/** The job: the cohort in order, each variable's values, the file and its statistics. */
export async function buildSnapshotJob({ db, job, progress }: JobContext) {
  const { snapshotId } = job.params as { snapshotId: number };
  const [snap] = await db
    .select()
    .from(sciSnapshots)
    .where(and(eq(sciSnapshots.id, snapshotId), eq(sciSnapshots.appId, job.appId)));
  if (!snap) throw new Error('snapshot not found');
  const started = Date.now();
  try {
    const spec = snap.spec as Spec;
    const columns = snap.columns as SciColumn[];
    const base = cohortBase(job.appId, spec);
    const patients = rowsOf<{ patient_id: number | string }>(
      await db.execute(sql`select b.patient_id from (${base}) b order by b.filing_date, b.patient_id`),
    ).map((r) => Number(r.patient_id));
    const index = new Map(patients.map((p, i) => [p, i]));
    await progress(5);
    const { file, stats } = await buildSnapshotFile(
      patients,
      columns.map((c) => ({ key: c.key, type: c.type })),
      async (i) => {
        const col = columns[i]!;
        const d = variableDerivation.parse(spec.derivations[i]);
        const got = rowsOf<{ patient_id: number | string; v: unknown }>(
          await db.execute(valuesSql(d, job.appId, base)),
        );
        const rows: number[] = [];
        const values: Array<number | string> = [];
        for (const r of got) {
          const at = index.get(Number(r.patient_id));
          const v = valueFor(col.type, r.v);
          if (at === undefined || v === null) continue;
          rows.push(at);
          values.push(v);
        }
        return { rows, values };
      },
      (share) => progress(5 + share * 85),
    );
    const hash = sha256(file);
    await db.transaction(async (tx) => {
      await tx.delete(sciSnapshotParts).where(eq(sciSnapshotParts.snapshotId, snapshotId));
      for (let part = 0, at = 0; at < file.length || part === 0; part++, at += PART_BYTES)
        await tx
          .insert(sciSnapshotParts)
          .values({ snapshotId, part, appId: job.appId, bytes: file.subarray(at, at + PART_BYTES) });
      await tx
        .update(sciSnapshots)
        .set({
          status: 'ready',
          stats,
          rowCount: patients.length,
          sizeBytes: file.length,
          sha256: hash,
          buildMs: Date.now() - started,
          builtAt: new Date(),
          error: '',
        })
        .where(eq(sciSnapshots.id, snapshotId));
    });
    return { snapshotId, rows: patients.length, columns: columns.length, bytes: file.length, sha256: hash };
  } catch (e) {
    await db
      .update(sciSnapshots)
      .set({ status: 'failed', error: (e as Error).message.slice(0, 500), buildMs: Date.now() - started })
      .where(eq(sciSnapshots.id, snapshotId));
    throw e;
  }
}

const select = {
  row: sciSnapshots,
  taskName: sciTransformTasks.name,
  subjectId: sciTransformTasks.subjectId,
  subjectName: researchSubjects.name,
  progress: jobs.progress,
  userName: users.userName,
  nickname: users.nickname,
};

function snapshotQuery(db: Tx, appId: number) {
  return db
    .select(select)
    .from(sciSnapshots)
    .innerJoin(sciTransformTasks, eq(sciTransformTasks.id, sciSnapshots.taskId))
    .innerJoin(researchSubjects, eq(researchSubjects.id, sciTransformTasks.subjectId))
    .leftJoin(jobs, eq(jobs.id, sciSnapshots.jobId))
    .leftJoin(users, eq(users.userId, sciSnapshots.createdBy))
    .where(eq(sciSnapshots.appId, appId))
    .$dynamic();
}

type Joined = {
  row: Row;
  taskName: string;
  subjectId: number;
  subjectName: string;
  progress: number | null;
  userName: string | null;
  nickname: string | null;
};

const view = (r: Joined): SciSnapshot => {
  const spec = r.row.spec as Spec;
  return {
    id: r.row.id,
    taskId: r.row.taskId,
    taskName: r.taskName,
    subjectId: r.subjectId,
    subjectName: r.subjectName,
    version: r.row.version,
    status: r.row.status as SciSnapshot['status'],
    jobId: r.row.jobId,
    progress: r.row.status === 'ready' ? 100 : (r.progress ?? 0),
    cohort: spec.cohort,
    cohortName: spec.cohortName,
    rowCount: r.row.rowCount,
    columnCount: (r.row.columns as unknown[]).length,
    sizeBytes: Number(r.row.sizeBytes),
    sha256: r.row.sha256,
    buildMs: r.row.buildMs,
    error: r.row.error,
    createdByName: r.nickname || r.userName || '',
    createdAt: r.row.createdAt.toISOString(),
    builtAt: r.row.builtAt?.toISOString() ?? null,
  };
};

export async function listSnapshots(
  db: Tx,
  appId: number,
  q: z.output<typeof sciSnapshotQuery>,
): Promise<SciSnapshotList> {
  const where: SQL[] = [eq(sciSnapshots.appId, appId)];
  if (q.taskId) where.push(eq(sciSnapshots.taskId, q.taskId));
  if (q.status) where.push(eq(sciSnapshots.status, q.status));
  const rows = await snapshotQuery(db, appId)
    .where(and(...where))
    .orderBy(desc(sciSnapshots.id))
    .limit(500);
  return { items: rows.map(view) };
}

async function joinedOf(db: Tx, appId: number, id: number): Promise<Joined> {
  const [r] = await snapshotQuery(db, appId).where(
    and(eq(sciSnapshots.appId, appId), eq(sciSnapshots.id, id)),
  );
  if (!r) throw notFound('sci_snapshot');
  return r;
}

/** An app's snapshot, or 404 (another app's ids answer like missing ones). */
export async function snapshotRow(db: Tx, appId: number, id: number) {
  return (await joinedOf(db, appId, id)).row;
}

export async function snapshotDetail(db: Tx, appId: number, id: number): Promise<SciSnapshotDetail> {
  const r = await joinedOf(db, appId, id);
  return {
    ...view(r),
    columns: r.row.columns as SciColumn[],
    stats: r.row.stats as SciColumnStats[],
  };
}

const notReady = () => invalid('id', '快照尚未生成', 'the snapshot is not built yet');

/** The ready snapshot's file on this machine, loaded once from its parts. */
async function fileOf(db: Tx, row: Row) {
  if (row.status !== 'ready') throw notReady();
  return localFile(row.sha256, async () => {
    const parts = await db
      .select({ bytes: sciSnapshotParts.bytes })
      .from(sciSnapshotParts)
      .where(eq(sciSnapshotParts.snapshotId, row.id))
      .orderBy(asc(sciSnapshotParts.part));
    return Buffer.concat(parts.map((p) => p.bytes));
  });
}

const engineColumns = (row: Row): EngineColumn[] =>
  (row.columns as SciColumn[]).map((c) => ({ key: c.key, type: c.type }));

export async function snapshotRows(
  db: Tx,
  appId: number,
  id: number,
  page: number,
  size: number,
): Promise<SciRows> {
  const row = await snapshotRow(db, appId, id);
  const file = await fileOf(db, row);
  return { total: row.rowCount, items: await readRows(file, engineColumns(row), (page - 1) * size, size) };
}

/** The snapshot's rows for an export: its file, its columns (the first is study_no) and a name. */
export async function exportSource(ctx: SignedIn, id: number, format: string) {
  const row = await snapshotRow(ctx.db, ctx.appId, id);
  const file = await fileOf(ctx.db, row);
  const [task] = await ctx.db
    .select({ name: sciTransformTasks.name })
    .from(sciTransformTasks)
    .where(eq(sciTransformTasks.id, row.taskId));
  await audit(ctx.db, ctx, {
    action: 'export',
    entity: 'sci_snapshot',
    entityId: id,
    after: { format, version: row.version, rows: row.rowCount, sha256: row.sha256 },
  });
  const columns = row.columns as SciColumn[];
  return {
    name: `${task?.name ?? 'snapshot'}-v${row.version}`,
    columns,
    parquet: () => exportParquet(file, engineColumns(row)),
    batches: () => rowBatches(file, engineColumns(row)),
  };
}

/** Deletes a snapshot version and its file. */
export async function deleteSnapshot(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const before = view(await joinedOf(tx, ctx.appId, id));
    await deleteAppRow(tx, sciSnapshots, ctx.appId, id);
    await audit(tx, ctx, { action: 'delete', entity: 'sci_snapshot', entityId: id, before });
    return true as const;
  });
}

/**
 * Hands a snapshot to the research analyses as a dataset of its subject (research_datasets):
 * number columns as numbers, category columns coded with their value set. Text and date columns
 * are left out (the analyses take numbers and categories). Like a dataset built in the subject,
 * it needs a member of the subject and the subject in data preparation.
 */
export async function snapshotToDataset(ctx: SignedIn, id: number, name: string): Promise<SciDatasetMade> {
  const row = await snapshotRow(ctx.db, ctx.appId, id);
  const spec = row.spec as Spec;
  const subject = await subjectOf(ctx.db, ctx.appId, spec.subjectId);
  await assertMember(ctx.db, subject, ctx);
  assertStatus(subject, 'buildDataset', ctx.locale);
  const file = await fileOf(ctx.db, row);
  const columns = row.columns as SciColumn[];
  const taken = columns.filter((c) => c.type === 'number' || c.type === 'category');
  const skipped = columns.filter((c) => !taken.includes(c)).map((c) => c.key);
  const label = (c: SciColumn) => (ctx.locale === 'en-US' ? c.labelEn || c.labelZh : c.labelZh);
  const dsColumns = taken.map((c) =>
    c.type === 'number'
      ? { key: c.key, label: label(c), type: 'number' as const }
      : {
          key: c.key,
          label: label(c),
          type: 'category' as const,
          ...(c.valueSet.length
            ? {
                options: c.valueSet.map((o) => ({
                  value: o.code,
                  label: (ctx.locale === 'en-US' ? o.labelEn : o.labelZh) || o.labelZh || o.code,
                })),
              }
            : {}),
        },
  );
  const at = new Map(columns.map((c, i) => [c.key, i + 1]));
  const dsRows: Array<Record<string, Cell>> = [];
  for await (const batch of rowBatches(file, engineColumns(row)))
    for (const r of batch) {
      const out: Record<string, Cell> = { studyNo: r[0] ?? null };
      for (const c of taken) out[c.key] = r[at.get(c.key)!] ?? null;
      dsRows.push(out);
    }
  return ctx.db.transaction(async (tx) => {
    const [ds] = await tx
      .insert(researchDatasets)
      .values({
        appId: ctx.appId,
        subjectId: subject.id,
        name,
        spec: { snapshotId: row.id, taskId: row.taskId, version: row.version, sha256: row.sha256 },
        columns: dsColumns,
        rows: dsRows,
        rowCount: dsRows.length,
        status: 'ready',
        builtAt: new Date(),
        createdBy: ctx.userId,
      })
      .returning({ id: researchDatasets.id });
    await audit(tx, ctx, {
      action: 'create',
      entity: 'research_dataset',
      entityId: ds!.id,
      after: { name, snapshotId: row.id, version: row.version, sha256: row.sha256, rows: dsRows.length },
    });
    return { datasetId: ds!.id, columns: dsColumns.length, skipped };
  });
}

/** The scientific data dashboard: the app's tasks and snapshots at a glance. */
export async function overview(db: Tx, appId: number): Promise<SciOverview> {
  const [head] = rowsOf<Record<string, number | string | null>>(
    await db.execute(sql`select
      (select count(*) from sci_transform_tasks where app_id = ${appId}) as tasks,
      count(*) as snapshots,
      count(*) filter (where status = 'ready') as ready,
      count(*) filter (where status = 'building') as building,
      count(*) filter (where status = 'failed') as failed,
      coalesce(sum(size_bytes) filter (where status = 'ready'), 0) as bytes
      from sci_snapshots where app_id = ${appId}`),
  );
  const latest = sql`select distinct on (task_id) * from sci_snapshots
    where app_id = ${appId} and status = 'ready' order by task_id, version desc`;
  const [sums] = rowsOf<{ rows: number | string | null; variables: number | string | null }>(
    await db.execute(sql`select coalesce(sum(l.row_count), 0) as rows,
      (select count(distinct c ->> 'variableId') from (${latest}) l2, jsonb_array_elements(l2.columns) c) as variables
      from (${latest}) l`),
  );
  const bySubject = rowsOf<{
    subject_id: number;
    name: string;
    snapshots: number | string;
    rows: number | string;
  }>(
    await db.execute(sql`select t.subject_id, s.name, count(sn.id) as snapshots,
      coalesce(sum(l.row_count), 0) as rows
      from sci_transform_tasks t join research_subjects s on s.id = t.subject_id
      left join sci_snapshots sn on sn.task_id = t.id
      left join (${latest}) l on l.id = sn.id
      where t.app_id = ${appId} group by t.subject_id, s.name order by s.name`),
  );
  const byDay = rowsOf<{ day: string; ready: number | string; failed: number | string }>(
    await db.execute(sql`select to_char(created_at::date, 'YYYY-MM-DD') as day,
      count(*) filter (where status = 'ready') as ready, count(*) filter (where status = 'failed') as failed
      from sci_snapshots where app_id = ${appId} and created_at > now() - interval '30 days'
      group by 1 order by 1`),
  );
  const recent = await snapshotQuery(db, appId).orderBy(desc(sciSnapshots.id)).limit(8);
  const n = (v: unknown) => Number(v ?? 0);
  return {
    tasks: n(head!.tasks),
    snapshots: n(head!.snapshots),
    ready: n(head!.ready),
    building: n(head!.building),
    failed: n(head!.failed),
    bytes: n(head!.bytes),
    rows: n(sums?.rows),
    variables: n(sums?.variables),
    bySubject: bySubject.map((r) => ({
      subjectId: Number(r.subject_id),
      subjectName: r.name,
      snapshots: n(r.snapshots),
      rows: n(r.rows),
    })),
    byDay: byDay.map((r) => ({ day: r.day, ready: n(r.ready), failed: n(r.failed) })),
    recent: recent.map(view),
  };
}
