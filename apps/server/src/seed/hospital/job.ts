import type { DemoStatus, JobStatus } from '@crdp/core';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createSession, endSession } from '../../auth/sessions.js';
import type { Db } from '../../db/client.js';
import { apps, jobs, roles, roleUsers, seedMarks } from '../../db/schema/index.js';
import type { JobContext } from '../../jobs/runner.js';
import { enqueueJob } from '../../jobs/runner.js';
import { DemoApi } from './api.js';
import { DEMO_STEPS } from './steps.js';

export const DEMO_JOB = 'demo.seed';
/** Written when the demo hospital is complete: later starts change nothing. */
export const DEMO_DONE_MARK = 'demo.hospital';
const stepMark = (name: string) => `demo.step.${name}`;
const TOTAL = DEMO_STEPS.reduce((s, x) => s + x.weight, 0);
/** Progress (0-100) when the step at `index` begins. */
const startOf = (index: number) =>
  Math.floor((DEMO_STEPS.slice(0, index).reduce((s, x) => s + x.weight, 0) / TOTAL) * 100);

interface DemoParams {
  phase: 1 | 2 | 3;
  /** Where the progress bar stands when this phase starts. */
  from: number;
}

type DemoConfig = { demoData: boolean; demoPatients: number };
const enabled = (c: DemoConfig) => c.demoData && c.demoPatients > 0;

async function demoAppId(db: Db) {
  const [demoApp] = await db.select({ appId: apps.appId }).from(apps).where(eq(apps.appShortName, 'DEMO'));
  return demoApp?.appId ?? null;
}

async function hasMark(db: Db, name: string) {
  return (await db.select().from(seedMarks).where(eq(seedMarks.name, name))).length > 0;
}

const OPEN: JobStatus[] = ['queued', 'running'];

/**
 * Queues the demo hospital's next phase unless it is complete or already queued or running; called
 * at every start. A lock keeps processes starting at once from queueing it twice.
 */
export async function queueDemoHospital(app: FastifyInstance) {
  if (!enabled(app.config)) return null;
  const appId = await demoAppId(app.db);
  if (appId === null || (await hasMark(app.db, DEMO_DONE_MARK))) return null;
  const done = new Set((await app.db.select({ name: seedMarks.name }).from(seedMarks)).map((m) => m.name));
  const next = DEMO_STEPS.findIndex((s) => !done.has(stepMark(s.name)));
  const params: DemoParams = {
    phase: DEMO_STEPS[Math.max(0, next)]!.phase,
    from: startOf(Math.max(0, next)),
  };
  const job = await app.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('crdp.demo.hospital'))`);
    // On the embedded database this process is the only one: a running demo job is left from a
    // stopped one, and goes on now instead of after the sweeper's five minutes.
    if (app.database.kind === 'pglite')
      await tx
        .update(jobs)
        .set({ status: 'queued' })
        .where(and(eq(jobs.kind, DEMO_JOB), eq(jobs.status, 'running')));
    const open = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, DEMO_JOB), inArray(jobs.status, OPEN)));
    if (open.length) return null;
    return enqueueJob(tx, { appId, kind: DEMO_JOB, params: { ...params }, createdBy: null });
  });
  app.jobs.nudge();
  return job;
}

/** The administrator of the demo hospital, who makes its objects (audited as theirs). */
async function demoAdministrator(db: Db, appId: number) {
  const [row] = await db
    .select({ userId: roleUsers.userId })
    .from(roleUsers)
    .innerJoin(roles, eq(roles.roleId, roleUsers.roleId))
    .where(and(eq(roles.appId, appId), eq(roles.roleName, '系统管理员')))
    .orderBy(roleUsers.userId)
    .limit(1);
  if (!row) throw new Error('demo hospital: the demo app has no administrator');
  return row.userId;
}

async function waitForJobs(db: Db, ids: number[], signal: AbortSignal) {
  const deadline = Date.now() + 30 * 60_000;
  while (ids.length) {
    const open = await db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.id, ids), inArray(jobs.status, OPEN)));
    if (!open.length) return;
    if (signal.aborted) throw signal.reason;
    if (Date.now() > deadline) throw new Error('demo hospital: jobs of the demo did not end in 30 minutes');
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Runs the steps of one phase, each once (a seed mark per step), then queues the next phase. */
export async function runDemoPhase(app: FastifyInstance, { db, job, progress, signal }: JobContext) {
  const { phase } = job.params as unknown as DemoParams;
  const userId = await demoAdministrator(db, job.appId);
  const { key, sessionId } = await createSession(db, {
    userId,
    appId: job.appId,
    kind: 'login',
    ttlMs: 2 * 3_600_000,
    userAgent: 'CRDP demo hospital',
  });
  const api = new DemoApi(app, key);
  try {
    for (const [index, step] of DEMO_STEPS.entries()) {
      if (step.phase !== phase || (await hasMark(db, stepMark(step.name)))) continue;
      const from = startOf(index);
      const to = startOf(index + 1) || 100;
      await progress(from);
      const startedAt = performance.now();
      await step.run({
        db,
        api,
        appId: job.appId,
        patients: app.config.demoPatients,
        progress: (share) => progress(Math.floor(from + (to - from) * share)),
        waitForJobs: (ids) => waitForJobs(db, ids, signal),
      });
      await db
        .insert(seedMarks)
        .values({ name: stepMark(step.name) })
        .onConflictDoNothing();
      app.log.info(
        { step: step.name, ms: Math.round(performance.now() - startedAt) },
        'demo hospital: step done',
      );
    }
  } finally {
    await endSession(db, sessionId);
  }
  if (phase < 3) {
    const next = DEMO_STEPS.findIndex((s) => s.phase === phase + 1);
    await enqueueJob(db, {
      appId: job.appId,
      kind: DEMO_JOB,
      params: { phase: phase + 1, from: startOf(next) },
      createdBy: null,
    });
    app.jobs.nudge();
    return { phase };
  }
  await db.insert(seedMarks).values({ name: DEMO_DONE_MARK }).onConflictDoNothing();
  return { phase, done: true };
}

/** What the workbench banner shows for the reader's app. */
export async function demoStatus(db: Db, config: DemoConfig, appId: number): Promise<DemoStatus> {
  if (!enabled(config) || appId !== (await demoAppId(db))) return { state: 'off', progress: 0 };
  if (await hasMark(db, DEMO_DONE_MARK)) return { state: 'ready', progress: 100 };
  const [last] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.appId, appId), eq(jobs.kind, DEMO_JOB)))
    .orderBy(desc(jobs.id))
    .limit(1);
  if (last?.status === 'failed' || last?.status === 'cancelled')
    return { state: 'failed', progress: last.progress };
  const from = (last?.params as unknown as DemoParams | undefined)?.from ?? 0;
  return { state: 'preparing', progress: Math.min(99, Math.max(from, last?.progress ?? 0)) };
}
