import {
  type Locale,
  label,
  RECORD_QC_CATALOGUE,
  RECORD_QC_CHECKS,
  type RecordQcCheck,
  type RecordQcDetail,
  type RecordQcDoctorScore,
  type RecordQcDocumentPage,
  type RecordQcFaultPage,
  type RecordQcParams,
  type RecordQcPlan,
  type RecordQcRule,
  type RecordQcScore,
  type RecordQcSeverity,
  type RecordQcTask,
  type RecordQcTrendPoint,
  type recordQcDocumentsBody,
  type recordQcFaultsBody,
  recordQcMessage,
  recordQcParams,
  type recordQcPlanSaveBody,
  type recordQcRuleSaveBody,
  type recordQcTrendBody,
} from '@crdp/core';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import { appRowOf, appRows, deleteAppRow, updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { pageOf, pageWindow } from '../db/paging.js';
import { rowsOf } from '../db/rows.js';
import {
  documents,
  jobs,
  patients,
  recordQcFaults,
  recordQcPlans,
  recordQcRules,
  recordQcTasks,
  visits,
} from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { forbiddenFunction, invalidField } from '../http/errors.js';
import { queueJobFor } from '../jobs/request.js';
import type { JobContext } from '../jobs/runner.js';
import { type QcScope, runCheck, scopeBase } from './checks.js';

export const RECORD_QC_JOB_KIND = 'recordQc.run';

const planOf = appRowOf(recordQcPlans, 'record_qc_plan');
export const taskOf = appRowOf(recordQcTasks, 'record_qc_task');
const ruleTrail = auditTrail('record_qc_rule', 'recordQc.rule');
const planTrail = auditTrail('record_qc_plan', 'recordQc.plan');

/** The catalogue with the app's settings over the defaults. */
export async function listRules(db: Tx, appId: number): Promise<RecordQcRule[]> {
  const rows = await db.select().from(recordQcRules).where(eq(recordQcRules.appId, appId));
  const byCode = new Map(rows.map((r) => [r.code, r]));
  return RECORD_QC_CHECKS.map((code) => {
    const c = RECORD_QC_CATALOGUE[code];
    const r = byCode.get(code);
    const params = r ? recordQcParams.safeParse(r.params) : null;
    return {
      code,
      category: c.category,
      severity: c.severity,
      enabled: r?.enabled ?? true,
      params: params?.success ? params.data : c.defaults,
      updatedAt: r ? r.updatedAt.toISOString() : null,
    };
  });
}

/** A check takes the parameters its defaults have, no others. */
function checkParams(code: RecordQcCheck, p: RecordQcParams) {
  const d = RECORD_QC_CATALOGUE[code].defaults;
  for (const key of ['hours', 'sections'] as const) {
    if (d[key] !== undefined && p[key] === undefined)
      throw invalidField(`body.params.${key}`, '该规则需要此参数', 'this check needs this parameter');
    if (d[key] === undefined && p[key] !== undefined)
      throw invalidField(`body.params.${key}`, '该规则没有此参数', 'this check has no such parameter');
  }
}

/** Turns a check on or off and sets its parameters (audited with the values before). */
export async function saveRule(ctx: SignedIn, body: z.output<typeof recordQcRuleSaveBody>) {
  checkParams(body.code, body.params);
  return ctx.db.transaction(async (tx) => {
    const before = (await listRules(tx, ctx.appId)).find((r) => r.code === body.code)!;
    await tx
      .insert(recordQcRules)
      .values({
        appId: ctx.appId,
        code: body.code,
        enabled: body.enabled,
        params: body.params,
        createdBy: ctx.userId,
      })
      .onConflictDoUpdate({
        target: [recordQcRules.appId, recordQcRules.code],
        set: { enabled: body.enabled, params: body.params, updatedAt: new Date() },
      });
    await ruleTrail.edited(
      tx,
      ctx,
      body.code,
      { enabled: before.enabled, params: before.params },
      { enabled: body.enabled, params: body.params },
    );
    return (await listRules(tx, ctx.appId)).find((r) => r.code === body.code)!;
  });
}

const planOut = (p: typeof recordQcPlans.$inferSelect): RecordQcPlan => ({
  id: p.id,
  name: p.name,
  checks: p.checks.filter((c): c is RecordQcCheck => (RECORD_QC_CHECKS as readonly string[]).includes(c)),
  departments: p.departments,
  admitFrom: p.admitFrom,
  admitTo: p.admitTo,
  updatedAt: p.updatedAt.toISOString(),
});

export async function listPlans(db: Tx, appId: number) {
  const rows = await appRows(db, recordQcPlans, appId, desc(recordQcPlans.updatedAt), desc(recordQcPlans.id));
  return { items: rows.map(planOut) };
}

/** The departments of the app's inpatient stays (at most 500), for a plan's scope. */
export async function departments(db: Tx, appId: number) {
  const rows = await db
    .selectDistinct({ d: visits.department })
    .from(visits)
    .where(and(eq(visits.appId, appId), eq(visits.kind, 'inpatient'), sql`${visits.department} <> ''`))
    .orderBy(asc(visits.department))
    .limit(500);
  return { items: rows.map((r) => r.d) };
}

export async function savePlan(ctx: SignedIn, body: z.output<typeof recordQcPlanSaveBody>) {
  if (!body.id && !ctx.apiIds.has('RecordQcPlan.add')) throw forbiddenFunction('RecordQcPlan.add');
  const values = {
    name: body.name,
    checks: [...new Set(body.checks)],
    departments: [...new Set(body.departments)],
    admitFrom: body.admitFrom,
    admitTo: body.admitTo,
  };
  return ctx.db.transaction(async (tx) => {
    if (body.id) {
      const before = await planOf(tx, ctx.appId, body.id);
      const row = await updateAppRow(tx, recordQcPlans, ctx.appId, body.id, {
        ...values,
        updatedAt: new Date(),
      });
      await planTrail.edited(tx, ctx, body.id, planOut(before), values);
      return planOut(row!);
    }
    const [row] = await tx
      .insert(recordQcPlans)
      .values({ ...values, appId: ctx.appId, createdBy: ctx.userId })
      .returning();
    await planTrail.added(tx, ctx, row!.id, values);
    return planOut(row!);
  });
}

export async function deletePlan(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const before = await planOf(tx, ctx.appId, id);
    await deleteAppRow(tx, recordQcPlans, ctx.appId, id);
    await planTrail.deleted(tx, ctx, id, planOut(before));
    return true as const;
  });
}

/** Queues a run of the plan's enabled checks, their parameters copied into the task. */
export async function startTask(ctx: SignedIn, planId: number) {
  return ctx.db.transaction(async (tx) => {
    const [plan] = await tx
      .select()
      .from(recordQcPlans)
      .where(and(eq(recordQcPlans.id, planId), eq(recordQcPlans.appId, ctx.appId)));
    if (!plan) throw invalidField('body.plan_id', '没有该质控方案', 'no such record QC plan in this app');
    const rules = await listRules(tx, ctx.appId);
    const checks = rules
      .filter((r) => r.enabled && plan.checks.includes(r.code))
      .map((r) => ({ code: r.code, params: r.params }));
    if (!checks.length)
      throw invalidField('body.plan_id', '方案中的规则都已停用', 'every check of the plan is disabled');
    const scope: QcScope = {
      departments: plan.departments,
      admitFrom: plan.admitFrom,
      admitTo: plan.admitTo,
    };
    const [task] = await tx
      .insert(recordQcTasks)
      .values({
        appId: ctx.appId,
        planId: plan.id,
        planName: plan.name,
        checks,
        scope,
        createdBy: ctx.userId,
      })
      .returning();
    const link = { table: recordQcTasks, id: task!.id };
    const job = await queueJobFor(
      tx,
      ctx,
      { kind: RECORD_QC_JOB_KIND, params: { taskId: task!.id }, link },
      { action: 'recordQc.task.run', entity: 'record_qc_task', after: { planId: plan.id, checks, scope } },
    );
    return { taskId: task!.id, jobId: job.id };
  });
}

/** The job: one statement per check over the scope's visits; a retried job starts over. */
export async function recordQcJob({ db, job, progress }: JobContext) {
  const taskId = Number((job.params as { taskId: number }).taskId);
  const [task] = await db.select().from(recordQcTasks).where(eq(recordQcTasks.id, taskId));
  if (!task) return { deleted: true };
  const appId = task.appId;
  const base = scopeBase(appId, task.scope as QcScope);
  await db.delete(recordQcFaults).where(eq(recordQcFaults.taskId, taskId));
  const perDept = rowsOf<{ department: string; n: number }>(
    await db.execute(sql`select department, count(*)::int as n from (${base}) b group by department`),
  );
  // The stays each doctor answers for: in charge of, wrote a note of, or operated in.
  const perDoctor = rowsOf<{ doctor: string; n: number }>(
    await db.execute(sql`select doctor, count(distinct visit_id)::int as n from (
        select b.visit_id, b.doctor from (${base}) b
        union select b.visit_id, d.author from (${base}) b
          join documents d on d.app_id = ${appId} and d.visit_id = b.visit_id where d.author <> ''
        union select b.visit_id, o.surgeon from (${base}) b
          join operations o on o.app_id = ${appId} and o.visit_id = b.visit_id where o.surgeon <> ''
      ) x group by doctor`),
  );
  const perMonth = rowsOf<{ period: string; department: string; n: number }>(
    await db.execute(sql`select to_char(b.admit_at at time zone 'Asia/Shanghai', 'YYYY-MM') as period, b.department,
        count(*)::int as n
      from (${base}) b group by 1, 2`),
  );
  const monthVisits: Record<string, Record<string, number>> = {};
  for (const m of perMonth) monthVisits[m.period] = { ...monthVisits[m.period], [m.department]: m.n };
  const checks = task.checks as Array<{ code: RecordQcCheck; params: RecordQcParams }>;
  let faults = 0;
  let done = 0;
  for (const c of checks) {
    faults += await db.transaction((tx) => runCheck(tx, { appId, taskId, base }, c.code, c.params));
    done++;
    await progress(Math.min(99, Math.round((done / checks.length) * 100)));
  }
  const visitCount = perDept.reduce((s, d) => s + d.n, 0);
  await db
    .update(recordQcTasks)
    .set({
      departmentVisits: Object.fromEntries(perDept.map((d) => [d.department, d.n])),
      doctorVisits: Object.fromEntries(perDoctor.map((d) => [d.doctor, d.n])),
      monthVisits,
      visits: visitCount,
      faults,
      finishedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(recordQcTasks.id, taskId));
  const result = { taskId, checks: checks.length, visits: visitCount, faults };
  await audit(db, null, {
    appId,
    userId: task.createdBy,
    action: 'recordQc.task.finish',
    entity: 'record_qc_task',
    entityId: taskId,
    after: result,
  });
  return result;
}

export async function listTasks(db: Db, appId: number) {
  const rows = await db
    .select({ t: recordQcTasks, status: jobs.status, progress: jobs.progress })
    .from(recordQcTasks)
    .leftJoin(jobs, eq(jobs.id, recordQcTasks.jobId))
    .where(eq(recordQcTasks.appId, appId))
    .orderBy(desc(recordQcTasks.id))
    .limit(100);
  return {
    items: rows.map(
      ({ t, status, progress }): RecordQcTask => ({
        id: t.id,
        planId: t.planId,
        planName: t.planName,
        status: status ?? (t.finishedAt ? 'succeeded' : 'failed'),
        progress: t.finishedAt ? 100 : (progress ?? 0),
        visits: t.visits,
        faults: t.faults,
        createdAt: t.createdAt.toISOString(),
        finishedAt: t.finishedAt ? t.finishedAt.toISOString() : null,
      }),
    ),
  };
}

const faultColumns = {
  f: recordQcFaults,
  patientName: patients.name,
  mrn: patients.mrn,
  admitAt: visits.admitAt,
  documentTitle: sql<string>`coalesce(${documents.title}, '')`,
};

function faultOut(
  row: {
    f: typeof recordQcFaults.$inferSelect;
    patientName: string;
    mrn: string;
    admitAt: Date;
    documentTitle: string;
  },
  locale: Locale,
): RecordQcFaultPage['items'][number] {
  const check = row.f.check as RecordQcCheck;
  return {
    id: row.f.id,
    check,
    severity: row.f.severity as RecordQcSeverity,
    points: row.f.points,
    visitId: row.f.visitId,
    patientId: row.f.patientId,
    patientName: row.patientName,
    mrn: row.mrn,
    documentId: row.f.documentId,
    documentTitle: row.documentTitle,
    department: row.f.department,
    doctor: row.f.doctor,
    admitAt: row.admitAt.toISOString(),
    message: recordQcMessage(check, row.f.detail as RecordQcDetail, locale),
  };
}

/** One page of a task's faults (of one department), in department, visit and check order. */
export async function listFaults(
  db: Tx,
  appId: number,
  q: z.output<typeof recordQcFaultsBody>,
  locale: Locale,
): Promise<RecordQcFaultPage> {
  await taskOf(db, appId, q.task_id);
  const where = and(
    eq(recordQcFaults.taskId, q.task_id),
    eq(recordQcFaults.appId, appId),
    q.department !== undefined ? eq(recordQcFaults.department, q.department) : undefined,
    q.doctor !== undefined ? eq(recordQcFaults.doctor, q.doctor) : undefined,
    q.document_id !== undefined ? eq(recordQcFaults.documentId, q.document_id) : undefined,
  );
  const { total, rows } = await pageOf(db, recordQcFaults, where, q, ({ limit, offset }) =>
    db
      .select(faultColumns)
      .from(recordQcFaults)
      .innerJoin(patients, eq(patients.id, recordQcFaults.patientId))
      .innerJoin(visits, eq(visits.id, recordQcFaults.visitId))
      .leftJoin(documents, eq(documents.id, recordQcFaults.documentId))
      .where(where)
      .orderBy(asc(recordQcFaults.department), asc(recordQcFaults.visitId), asc(recordQcFaults.id))
      .limit(limit)
      .offset(offset),
  );
  return { total, items: rows.map((r) => faultOut(r, locale)) };
}

/** The mean of 100 minus each stay's lost points (capped at 100) over `n` stays, one decimal. */
const meanScore = (n: number, lost: number) => (n ? Math.round(((100 * n - lost) / n) * 10) / 10 : 100);

/**
 * A group's stays (`counted` when the task ran, or as many as have faults when more) with their
 * faults: how many, how many faulty, and the mean score.
 */
function stays(counted: number, faulty: Array<{ faults: number; deducted: number }>) {
  const n = Math.max(counted, faulty.length);
  return {
    visits: n,
    faultyVisits: faulty.length,
    faults: faulty.reduce((s, v) => s + v.faults, 0),
    score: meanScore(
      n,
      faulty.reduce((s, v) => s + Math.min(100, v.deducted), 0),
    ),
  };
}

/**
 * Scores per department or per doctor (`by`): each stay counted for it when the task ran
 * (`counted`) starts at 100 and loses the points of its faults laid to it, not below 0; the score
 * is the mean over those stays. In no particular order.
 */
async function stayScores(
  db: Tx,
  appId: number,
  taskId: number,
  by: 'department' | 'doctor',
  counted: Record<string, number>,
) {
  const column = sql.raw(by);
  const perVisit = rowsOf<{ key: string; faults: number; deducted: number }>(
    await db.execute(sql`select ${column} as key, count(*)::int as faults, sum(points)::int as deducted
      from record_qc_faults where task_id = ${taskId} and app_id = ${appId} group by ${column}, visit_id`),
  );
  const keys = new Set([...Object.keys(counted), ...perVisit.map((v) => v.key)]);
  return [...keys].map((key) => {
    const mine = perVisit.filter((v) => v.key === key);
    return { key, ...stays(counted[key] ?? 0, mine), deducted: mine.reduce((s, v) => s + v.deducted, 0) };
  });
}

/** Scores per department (every visit in scope), by department code. */
export async function scores(db: Tx, appId: number, taskId: number): Promise<RecordQcScore[]> {
  const task = await taskOf(db, appId, taskId);
  const rows = await stayScores(
    db,
    appId,
    taskId,
    'department',
    task.departmentVisits as Record<string, number>,
  );
  return rows
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ key, ...score }) => ({ department: key, ...score }));
}

/** Scores per doctor (each stay a doctor answers for), worst first. */
export async function doctorScores(db: Tx, appId: number, taskId: number): Promise<RecordQcDoctorScore[]> {
  const task = await taskOf(db, appId, taskId);
  const rows = await stayScores(db, appId, taskId, 'doctor', task.doctorVisits as Record<string, number>);
  return rows
    .map(({ key, ...score }) => ({ doctor: key, ...score }))
    .sort((a, b) => a.score - b.score || b.faults - a.faults || a.doctor.localeCompare(b.doctor, 'zh-CN'));
}

/** The task's documents that have faults, each 100 minus its faults' points (not below 0), the worst first. */
export async function documentScores(
  db: Tx,
  appId: number,
  q: z.output<typeof recordQcDocumentsBody>,
): Promise<RecordQcDocumentPage> {
  await taskOf(db, appId, q.task_id);
  const { limit, offset } = pageWindow(q);
  const [total] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(distinct document_id)::int as n from record_qc_faults
      where task_id = ${q.task_id} and app_id = ${appId} and document_id is not null`),
  );
  const rows = rowsOf<{
    document_id: number;
    kind: string;
    title: string;
    author: string;
    written_at: string | Date;
    patient_id: number;
    patient_name: string;
    mrn: string;
    department: string;
    faults: number;
    deducted: number;
  }>(
    await db.execute(sql`select f.document_id::int, d.kind, d.title, d.author, d.written_at, d.patient_id::int,
        p.name as patient_name, p.mrn, f.department, f.faults, f.deducted
      from (select document_id, min(department) as department, count(*)::int as faults, sum(points)::int as deducted
        from record_qc_faults where task_id = ${q.task_id} and app_id = ${appId} and document_id is not null
        group by document_id) f
      join documents d on d.id = f.document_id and d.app_id = ${appId}
      join patients p on p.id = d.patient_id
      order by f.deducted desc, f.document_id limit ${limit} offset ${offset}`),
  );
  return {
    total: total?.n ?? 0,
    items: rows.map((r) => ({
      documentId: r.document_id,
      kind: r.kind,
      title: r.title,
      author: r.author,
      writtenAt: new Date(r.written_at).toISOString(),
      patientId: r.patient_id,
      patientName: r.patient_name,
      mrn: r.mrn,
      department: r.department,
      faults: r.faults,
      deducted: r.deducted,
      score: Math.max(0, 100 - r.deducted),
    })),
  };
}

/**
 * The trend: the score per admission month of the task's stays (of one department), each month's
 * stays counted when the task ran. Months in order.
 */
export async function trend(
  db: Tx,
  appId: number,
  q: z.output<typeof recordQcTrendBody>,
): Promise<RecordQcTrendPoint[]> {
  const task = await taskOf(db, appId, q.task_id);
  const perVisit = rowsOf<{ period: string; faults: number; deducted: number }>(
    await db.execute(sql`select to_char(v.admit_at at time zone 'Asia/Shanghai', 'YYYY-MM') as period,
        count(*)::int as faults, sum(f.points)::int as deducted
      from record_qc_faults f join visits v on v.id = f.visit_id
      where f.task_id = ${q.task_id} and f.app_id = ${appId}
        ${q.department !== undefined ? sql`and f.department = ${q.department}` : sql``}
      group by 1, f.visit_id`),
  );
  // Stays per month and department, as counted when the task ran.
  const byMonth = task.monthVisits as Record<string, Record<string, number>>;
  const visitsOf = Object.fromEntries(
    Object.entries(byMonth).map(([period, depts]) => [
      period,
      q.department !== undefined
        ? (depts[q.department] ?? 0)
        : Object.values(depts).reduce((a, b) => a + b, 0),
    ]),
  );
  const periods = [...new Set([...Object.keys(visitsOf), ...perVisit.map((v) => v.period)])]
    .filter((p) => (visitsOf[p] ?? 0) > 0 || perVisit.some((v) => v.period === p))
    .sort();
  return periods.map((period) => {
    return {
      period,
      ...stays(
        visitsOf[period] ?? 0,
        perVisit.filter((v) => v.period === period),
      ),
    };
  });
}

/** Every fault of a task as rows (header first), in the reader's language: the CSV and XLSX export. */
export async function exportRows(db: Tx, appId: number, taskId: number, locale: Locale) {
  await taskOf(db, appId, taskId);
  const rows = await db
    .select(faultColumns)
    .from(recordQcFaults)
    .innerJoin(patients, eq(patients.id, recordQcFaults.patientId))
    .innerJoin(visits, eq(visits.id, recordQcFaults.visitId))
    .leftJoin(documents, eq(documents.id, recordQcFaults.documentId))
    .where(and(eq(recordQcFaults.taskId, taskId), eq(recordQcFaults.appId, appId)))
    .orderBy(asc(recordQcFaults.department), asc(recordQcFaults.visitId), asc(recordQcFaults.id));
  const header =
    locale === 'zh-CN'
      ? [
          '科室',
          '责任医师',
          '病案号',
          '姓名',
          '入院时间',
          '就诊编号',
          '文书编号',
          '文书',
          '规则',
          '缺陷等级',
          '扣分',
          '问题',
        ]
      : [
          'Department',
          'Doctor',
          'MRN',
          'Name',
          'Admitted',
          'Visit',
          'Document',
          'Document title',
          'Check',
          'Severity',
          'Points',
          'Problem',
        ];
  return [
    header,
    ...rows.map((r) => {
      const f = faultOut(r, locale);
      return [
        f.department,
        f.doctor,
        f.mrn,
        f.patientName,
        f.admitAt,
        f.visitId,
        f.documentId,
        f.documentTitle,
        label('recordQcCheck', f.check, locale),
        label('recordQcSeverity', f.severity, locale),
        f.points,
        f.message,
      ];
    }),
  ];
}
