import { bigint, index, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { appId, authored } from './columns.js';
import { jobs } from './jobs.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';
import { mcTopics } from './research.js';

/**
 * Federated jobs of a multi-center topic (联邦学习, multicenter/FEDERATED.md): a model of spec 000
 * §3's map (homoLR, heteroLR, boost, binning, evaluation) run as a pooled, aggregate-only analysis
 * over the joined centers' cases; the job's result holds coefficients and metrics, never rows.
 */
export const mcFederatedJobs = pgTable(
  'mc_federated_jobs',
  {
    id: serial('id').primaryKey(),
    /** The leading center that started the job. */
    appId: appId(),
    topicId: parentKey('topic_id', () => mcTopics.id),
    model: text('model').notNull(),
    /** { outcome, predictors, bins } */
    params: jsonb('params').notNull(),
    jobId: bigint('job_id', { mode: 'number' }).references(() => jobs.id, { onDelete: 'set null' }),
    ...authored(),
  },
  (t) => [
    index('mc_federated_jobs_topic').on(t.topicId),
    oneOf('mc_federated_jobs_model', t.model, ['homoLR', 'heteroLR', 'boost', 'binning', 'evaluation']),
    appScope(),
  ],
);
