import { z } from 'zod';
import { itemList, timestamp } from './common.js';

/**
 * The federated-learning state of spec 000 §3: a model name map and a metric type map for homoLR,
 * heteroLR, boost, binning and evaluation. Jobs between the centers of a multi-center topic
 * (`/api/v0.1/multicenter/topics/:id/federated`); each model runs as a pooled, aggregate-only
 * analysis over the joined centers' cases (apps/server/src/multicenter/FEDERATED.md).
 */
export const FEDERATED_MODELS = ['homoLR', 'heteroLR', 'boost', 'binning', 'evaluation'] as const;
export type FederatedModel = (typeof FEDERATED_MODELS)[number];

/** The metric types a federated job reports (the spec's metric type map). */
export const FEDERATED_METRICS = ['auc', 'ks', 'accuracy', 'precision', 'recall', 'iv', 'logLoss'] as const;
export type FederatedMetric = (typeof FEDERATED_METRICS)[number];

/** Which metrics each model reports. */
export const FEDERATED_MODEL_METRICS: Record<FederatedModel, readonly FederatedMetric[]> = {
  homoLR: ['auc', 'ks', 'accuracy', 'logLoss'],
  heteroLR: ['auc', 'ks', 'accuracy', 'logLoss'],
  boost: ['auc', 'ks', 'accuracy', 'logLoss'],
  binning: ['iv'],
  evaluation: ['auc', 'ks', 'accuracy', 'precision', 'recall'],
};

const key = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/, 'a topic variable key');

export const federatedJobBody = z.object({
  model: z.enum(FEDERATED_MODELS),
  /** A topic variable holding 0/1 (or two levels): the label. */
  outcome: key,
  predictors: z
    .array(key)
    .min(1, 'choose at least one predictor')
    .max(20)
    .refine((xs) => new Set(xs).size === xs.length, 'repeated predictor'),
  /** binning: quantile bins per predictor; boost: rounds. */
  bins: z.number().int().min(2).max(20).default(5),
  rounds: z.number().int().min(1).max(200).default(30),
});
export type FederatedJobBody = z.input<typeof federatedJobBody>;

export const federatedJob = z.object({
  id: z.number().int(),
  topicId: z.number().int(),
  model: z.enum(FEDERATED_MODELS),
  params: z.object({
    outcome: z.string(),
    predictors: z.array(z.string()),
    bins: z.number().int(),
    rounds: z.number().int(),
  }),
  jobId: z.number().int().nullable(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  progress: z.number().int(),
  error: z.string().nullable(),
  /** Metric code → value, of the pooled fit (FEDERATED_MODEL_METRICS). */
  metrics: z.record(z.string(), z.number().nullable()),
  /** The model's own aggregate output: coefficients, bins or per-center metrics. */
  result: z.unknown().nullable(),
  centers: z.number().int(),
  cases: z.number().int(),
  createdAt: timestamp,
  finishedAt: timestamp.nullable(),
});
export type FederatedJob = z.infer<typeof federatedJob>;
export const federatedJobList = itemList(federatedJob);
export type FederatedJobList = z.infer<typeof federatedJobList>;
