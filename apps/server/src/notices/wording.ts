import { formatMessage, type Locale, label } from '@crdp/core';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { jobs } from '../db/schema/index.js';
import { jobFailureText } from '../jobs/failure.js';

/**
 * A finished job's notice is kept as its facts (kind, status, job id) rather than as words, so
 * each reader gets its title and failure in their own language when the bell reads it.
 */
export interface JobNoticeFacts {
  key: 'job.finished';
  jobId: number;
  kind: string;
  status: string;
}

export const jobNoticeTitle = (facts: Omit<JobNoticeFacts, 'key'>) =>
  JSON.stringify({ key: 'job.finished', ...facts });

/** Notices written before the facts were kept: "research.analysis 失败". */
const OLD_TITLE = /^([A-Za-z][\w.]*) (完成|失败)$/;

function factsOf(title: string): Omit<JobNoticeFacts, 'key'> | null {
  if (title.startsWith('{')) {
    try {
      const f = JSON.parse(title) as Partial<JobNoticeFacts>;
      if (f.key === 'job.finished' && typeof f.kind === 'string' && typeof f.status === 'string')
        return { jobId: Number(f.jobId) || 0, kind: f.kind, status: f.status };
    } catch {
      return null;
    }
  }
  const old = OLD_TITLE.exec(title);
  return old ? { jobId: 0, kind: old[1]!, status: old[2] === '完成' ? 'succeeded' : 'failed' } : null;
}

/** The app's notices with job titles and failures worded in the reader's language. */
export async function wordNotices<N extends { kind: string; title: string; body: string }>(
  db: Tx,
  appId: number,
  items: N[],
  locale: Locale,
): Promise<N[]> {
  const facts = items.map((n) => (n.kind === 'job.finished' ? factsOf(n.title) : null));
  const ids = [...new Set(facts.map((f) => f?.jobId ?? 0).filter((id) => id > 0))];
  const found = ids.length
    ? await db
        .select({ id: jobs.id, status: jobs.status, error: jobs.error, result: jobs.result })
        .from(jobs)
        .where(and(eq(jobs.appId, appId), inArray(jobs.id, ids)))
    : [];
  const byId = new Map(found.map((j) => [j.id, j]));
  return items.map((n, i) => {
    const f = facts[i];
    if (!f) return n;
    const kind = label('jobKind', f.kind, locale);
    const title = formatMessage(
      f.status === 'succeeded' ? 'notice.jobSucceeded' : 'notice.jobFailed',
      locale,
      {
        kind,
      },
    );
    const job = byId.get(f.jobId);
    const body = job ? (jobFailureText(job, locale) ?? '') : n.body;
    return { ...n, title, body };
  });
}
