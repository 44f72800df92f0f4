import {
  FEDERATED_MODEL_METRICS,
  type FederatedJob,
  type FederatedModel,
  type federatedJobBody,
  type JobStatus,
  type Locale,
} from '@crdp/core';
import { StatsError } from '@crdp/stats';
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../db/client.js';
import { jobs, mcFederatedJobs } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { invalidField } from '../http/errors.js';
import { jobFailureText } from '../jobs/failure.js';
import { queueJobFor } from '../jobs/request.js';
import type { JobContext } from '../jobs/runner.js';
import { assertMultiCenter, ledTopic, topicFor } from './access.js';
import { binning, boostStumps, fitLogistic, metricsOf } from './federated-models.js';
import { casesOf } from './pooled.js';
import { topicDescription } from './topics.js';

/**
 * Federated jobs of a multi-center topic (FEDERATED.md): the leading center starts a model of
 * spec 000 §3's map over the accepted centers' cases. The models run as pooled analyses inside
 * this platform (the centers' cases are in one database): what any center sees is the model's
 * aggregates (coefficients, bins of at least the topic's minimum cell count, metrics), never a row.
 */
export const FEDERATED_JOB_KIND = 'multicenter.federated';

type Body = z.output<typeof federatedJobBody>;
type Params = { outcome: string; predictors: string[]; bins: number; rounds: number };

export async function startFederatedJob(ctx: SignedIn, topicId: number, body: Body) {
  await assertMultiCenter(ctx.db, ctx.appId);
  await ledTopic(ctx.db, ctx.appId, topicId);
  const d = await topicDescription(ctx.db, ctx.appId, topicId);
  const keys = new Set(d.variables.map((v) => v.key));
  if (!keys.has(body.outcome))
    throw invalidField(
      'body.outcome',
      `课题没有变量 ${body.outcome}`,
      `the topic has no variable ${body.outcome}`,
    );
  body.predictors.forEach((p, i) => {
    if (!keys.has(p))
      throw invalidField(`body.predictors.${i}`, `课题没有变量 ${p}`, `the topic has no variable ${p}`);
    if (p === body.outcome)
      throw invalidField(
        `body.predictors.${i}`,
        '预测变量不能是结局变量',
        'a predictor cannot be the outcome',
      );
  });
  const params: Params = {
    outcome: body.outcome,
    predictors: body.predictors,
    bins: body.bins,
    rounds: body.rounds,
  };
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mcFederatedJobs)
      .values({ appId: ctx.appId, topicId, model: body.model, params, createdBy: ctx.userId })
      .returning();
    const link = { table: mcFederatedJobs, id: row!.id };
    const job = await queueJobFor(
      tx,
      ctx,
      { kind: FEDERATED_JOB_KIND, params: { federatedJobId: row!.id }, link },
      {
        action: 'federated.run',
        entity: 'mc_federated_job',
        after: { topicId, model: body.model, ...params },
      },
    );
    return { id: row!.id, jobId: job.id };
  });
}

/** A case's outcome as 0/1: 0 and 1 as they are, two other levels in sorted order; else null. */
function outcomeCoder(values: unknown[]) {
  const levels = [
    ...new Set(values.filter((v) => v !== null && v !== undefined && v !== '').map(String)),
  ].sort();
  if (levels.every((l) => l === '0' || l === '1'))
    return (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(String(v)));
  if (levels.length !== 2) throw new StatsError('research.stats.binaryOutcome');
  return (v: unknown) => (v === null || v === undefined || v === '' ? null : levels.indexOf(String(v)));
}

const num = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

export async function federatedJob({ db, job, progress }: JobContext) {
  const id = Number((job.params as { federatedJobId: number }).federatedJobId);
  const [row] = await db.select().from(mcFederatedJobs).where(eq(mcFederatedJobs.id, id));
  if (!row) return { deleted: true };
  const p = row.params as Params;
  const model = row.model as FederatedModel;
  const d = await topicDescription(db, row.appId, row.topicId);
  const accepted = d.centers.filter((c) => c.status === 'accepted');
  const cases = await casesOf(
    db,
    row.topicId,
    accepted.map((c) => c.appId),
  );
  await progress(20);
  const code = outcomeCoder(cases.map((c) => c.values[p.outcome]));
  const rows = cases
    .map((c) => ({
      appId: c.appId,
      y: code(c.values[p.outcome]),
      x: p.predictors.map((k) => num(c.values[k])),
    }))
    .filter(
      (r): r is { appId: number; y: number; x: number[] } => r.y !== null && r.x.every((v) => v !== null),
    );
  const y = rows.map((r) => r.y);
  const x = rows.map((r) => r.x);
  const base = { model, centers: accepted.length, cases: rows.length, dropped: cases.length - rows.length };
  const perCenter = (pred: number[]) =>
    accepted.map((c) => {
      const idx = rows.flatMap((r, i) => (r.appId === c.appId ? [i] : []));
      // A center with fewer cases than the topic's minimum cell count shows no metrics of its own.
      const small = idx.length < d.minCellCount;
      return {
        appId: c.appId,
        name: c.name,
        cases: small ? null : idx.length,
        metrics: small
          ? null
          : metricsOf(
              idx.map((i) => y[i]!),
              idx.map((i) => pred[i]!),
            ),
      };
    });
  const pick = (m: ReturnType<typeof metricsOf>) =>
    Object.fromEntries(
      FEDERATED_MODEL_METRICS[model].map((k) => [k, (m as Record<string, number | null>)[k] ?? null]),
    );
  if (model === 'binning') {
    const perVar = p.predictors.map((k, j) => {
      const b = binning(
        y,
        x.map((r) => r[j]!),
        p.bins,
      );
      return {
        key: k,
        iv: b.iv,
        bins: b.bins.map((bin) =>
          bin.count < d.minCellCount ? { ...bin, count: null, events: null, woe: null, iv: null } : bin,
        ),
      };
    });
    return { ...base, metrics: { iv: Math.max(...perVar.map((v) => v.iv)) }, variables: perVar };
  }
  if (model === 'boost') {
    const b = boostStumps(y, x, p.rounds);
    await progress(80);
    return {
      ...base,
      metrics: pick(metricsOf(y, b.p)),
      importance: p.predictors.map((k, j) => ({ key: k, share: b.importance[j]! })),
      perCenter: perCenter(b.p),
    };
  }
  const { fit, p: pred } = fitLogistic(y, x, p.predictors);
  await progress(80);
  return {
    ...base,
    metrics: pick(metricsOf(y, pred)),
    coefficients: fit.coefficients.map((c) => ({
      name: c.name,
      estimate: c.estimate,
      se: c.se,
      p: c.p,
      oddsRatio: c.oddsRatio,
    })),
    perCenter: perCenter(pred),
  };
}

export async function listFederatedJobs(db: Db | Tx, appId: number, topicId: number, locale: Locale) {
  await assertMultiCenter(db, appId);
  await topicFor(db, appId, topicId);
  const rows = await db
    .select({ f: mcFederatedJobs, j: jobs })
    .from(mcFederatedJobs)
    .leftJoin(jobs, eq(jobs.id, mcFederatedJobs.jobId))
    .where(and(eq(mcFederatedJobs.topicId, topicId)))
    .orderBy(desc(mcFederatedJobs.id))
    .limit(50);
  return {
    items: rows.map(({ f, j }): FederatedJob => {
      const result = j?.status === 'succeeded' ? (j.result as Record<string, unknown>) : null;
      return {
        id: f.id,
        topicId: f.topicId,
        model: f.model as FederatedModel,
        params: f.params as Params,
        jobId: f.jobId,
        status: (j?.status as JobStatus | undefined) ?? 'failed',
        progress: j?.progress ?? 0,
        error: j ? jobFailureText(j, locale) : null,
        metrics: (result?.metrics as Record<string, number | null>) ?? {},
        result,
        centers: Number(result?.centers ?? 0),
        cases: Number(result?.cases ?? 0),
        createdAt: f.createdAt.toISOString(),
        finishedAt: j?.finishedAt ? j.finishedAt.toISOString() : null,
      };
    }),
  };
}
