import { and, asc, eq, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { audit } from '../audit/audit.js';
import type { Db, Tx } from '../db/client.js';
import { scheduleRuns, schedules } from '../db/schema/index.js';
import { AppError, type Bilingual, bilingual } from '../http/errors.js';
import { enqueueJob } from '../jobs/runner.js';
import { nextRun } from './cron.js';
import type { SchedulableRegistry } from './registry.js';

export type ScheduleRow = typeof schedules.$inferSelect;
export type Clock = () => Date;

/** How often each process looks for due schedules (and once when it starts). */
export const TICK_MS = 30_000;

/** Why a run queued nothing, in both languages, from a refusal of the kind's check. */
export function reasonOf(e: unknown): Bilingual {
  if (e instanceof AppError) {
    const d = e.values.detail;
    if (d && typeof d === 'object') return d;
  }
  return bilingual('无法排入作业', `could not queue the job: ${e instanceof Error ? e.message : String(e)}`);
}

/**
 * Queues one run of a schedule in the caller's transaction: checks the params still belong to
 * the app (objects may be gone since the schedule was saved), queues the job as the kind's own
 * routes do, and records it. Throws the kind's 400 when the check fails, changing nothing.
 */
export async function queueRun(
  tx: Tx,
  registry: SchedulableRegistry,
  s: ScheduleRow,
  run: { trigger: 'schedule' | 'manual'; dueAt: Date | null; createdBy: number | null },
) {
  const kind = registry.get(s.kind);
  if (!kind)
    throw new AppError(400, 'request.invalid', {
      detail: bilingual(`kind: 未知的作业类型 ${s.kind}`, `kind: unknown job kind ${s.kind}`),
    });
  const params = s.params as Record<string, unknown>;
  await kind.check(tx, s.appId, params);
  const job = await enqueueJob(tx, {
    appId: s.appId,
    kind: s.kind,
    params: { ...params, ...(kind.jobParams?.(params) ?? {}) },
    createdBy: run.createdBy,
  });
  await tx.insert(scheduleRuns).values({
    appId: s.appId,
    scheduleId: s.id,
    jobId: job.id,
    dueAt: run.dueAt,
    trigger: run.trigger,
  });
  return job;
}

/**
 * The scheduler tick: queues every due schedule once, however many processes tick at the same
 * time. Each due schedule is claimed with `SELECT ... FOR UPDATE SKIP LOCKED` in its own
 * transaction, which queues the job, records it on the schedule and moves `next_run_at` past
 * now before it commits; a second process skips the locked row or, after the commit, no longer
 * finds it due. `schedule_runs` is unique on (schedule, due time) as a second guard.
 * Runs missed while no server ran are not caught up one by one: one run is queued and the
 * next time is the first after now.
 */
export class Scheduler {
  /** The time the tick compares with; tests replace it so they never wait on real time. */
  clock: Clock = () => new Date();
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<number> | null = null;
  private stopped = true;

  constructor(
    private readonly db: Db,
    private readonly registry: SchedulableRegistry,
    private readonly opts: { intervalMs?: number; onQueued?: () => void; log?: FastifyBaseLogger } = {},
  ) {}

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    const beat = () => {
      if (this.stopped || this.inFlight) return;
      this.inFlight = this.tick()
        .catch((e) => {
          this.opts.log?.error(e, 'scheduler tick');
          return 0;
        })
        .finally(() => {
          this.inFlight = null;
        });
    };
    beat();
    this.timer = setInterval(beat, this.opts.intervalMs ?? TICK_MS);
    this.timer.unref();
  }

  /** Stops ticking and waits for a tick in progress. */
  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  /** Queues every schedule due at `clock()`; returns how many jobs it queued. */
  async tick(): Promise<number> {
    const now = this.clock();
    let queued = 0;
    for (let i = 0; i < 10_000; i++) {
      const outcome = await this.db.transaction(async (tx) => {
        const [s] = await tx
          .select()
          .from(schedules)
          .where(and(eq(schedules.enabled, true), lte(schedules.nextRunAt, now)))
          .orderBy(asc(schedules.nextRunAt), asc(schedules.id))
          .limit(1)
          .for('update', { skipLocked: true });
        if (!s) return 'none' as const;
        const dueAt = s.nextRunAt!;
        const from = new Date(Math.max(dueAt.getTime(), now.getTime()));
        const next = nextRun(s.cron, s.timezone, from);
        let jobId: number | null = null;
        let lastError: Bilingual | null = null;
        try {
          const job = await tx.transaction(async (sp) =>
            queueRun(sp, this.registry, s, { trigger: 'schedule', dueAt, createdBy: s.createdBy }),
          );
          jobId = job.id;
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          lastError = reasonOf(e);
        }
        await tx
          .update(schedules)
          .set({
            nextRunAt: next,
            // A schedule that never fires again is switched off rather than left due forever.
            ...(next ? {} : { enabled: false }),
            lastRunAt: now,
            ...(jobId !== null ? { lastJobId: jobId } : {}),
            lastError,
          })
          .where(eq(schedules.id, s.id));
        await audit(tx, null, {
          appId: s.appId,
          userId: null,
          userName: 'schedule',
          action: 'schedule.run',
          entity: 'schedule',
          entityId: s.id,
          after: {
            trigger: 'schedule',
            dueAt: dueAt.toISOString(),
            jobId,
            nextRunAt: next?.toISOString() ?? null,
          },
          outcome: jobId !== null ? 'success' : 'failure',
          ...(lastError ? { reason: lastError['en-US'] } : {}),
        });
        return jobId !== null ? ('queued' as const) : ('skipped' as const);
      });
      if (outcome === 'none') break;
      if (outcome === 'queued') queued++;
    }
    if (queued) this.opts.onQueued?.();
    return queued;
  }
}
