import type { JobStatus } from '@crdp/core';
import { and, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { jobs } from '../db/schema/index.js';

/**
 * Kinds whose finished row is the only copy of what people open later, kept whatever their age:
 * a research analysis's result and a dataset build's task (read by task id), an OMOP export
 * (its task joins the job), a disease library export (its download reads the job's params), a
 * coding task's suggestions (the task shows its job's status and opens for coding once it succeeded),
 * a cleaning task (its status, progress and document count are its job's).
 */
export const KEPT_KINDS = [
  'research.analysis',
  'research.dataset',
  'omop.export',
  'diseaseLibrary.export',
  'coding.suggest',
  'cleaning.run',
];

/** Statuses of a job that is over. */
export const FINISHED: JobStatus[] = ['succeeded', 'failed', 'cancelled'];

const BATCH = 1000;

/**
 * Deletes finished jobs (succeeded, failed, cancelled) that finished more than `days` days ago,
 * except the kept kinds, a thousand rows per statement; returns how many. `days` 0 keeps all.
 * Rows that point at a job lose the link (`set null`: schedule runs, QC tasks, datasets) or go
 * with it (`cascade`: retry links).
 */
export async function deleteOldJobs(db: Db, days: number): Promise<number> {
  if (days <= 0) return 0;
  let total = 0;
  for (;;) {
    const old = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          inArray(jobs.status, FINISHED),
          lt(jobs.finishedAt, sql`now() - make_interval(days => ${days})`),
          notInArray(jobs.kind, KEPT_KINDS),
        ),
      )
      .orderBy(jobs.id)
      .limit(BATCH);
    const gone = await db.delete(jobs).where(inArray(jobs.id, old)).returning({ id: jobs.id });
    total += gone.length;
    if (gone.length < BATCH) return total;
  }
}
