import {
  CODING_HOWS,
  CODING_ITEM_STATUSES,
  CODING_KINDS,
  CODING_REVIEW_STATES,
  CODING_VERDICTS,
} from '@crdp/core';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { appId, at, createdAt, createdBy } from './columns.js';
import { users } from './identity.js';
import { jobs } from './jobs.js';
import { appScope, oneOf } from './policies.js';

/*
 * Coding (coding/README.md): tasks that collect the distinct local terms of one kind of the CDR,
 * the terms with their proposed candidates, the mappings a coder decided (local term → code, per
 * app and kind: the CDR reads them at read time through the cdr_coded_* views of migration 0033,
 * so the original text is never changed), and the coding-QC reviews of those mappings.
 */
const id = () => bigserial('id', { mode: 'number' }).primaryKey();
const userRef = (name: string) => integer(name).references(() => users.userId, { onDelete: 'set null' });

export const codingTasks = pgTable(
  'coding_tasks',
  {
    id: id(),
    appId: appId(),
    kind: text('kind').notNull(),
    systemKey: text('system_key').notNull(),
    name: text('name').notNull(),
    onlyUnmapped: boolean('only_unmapped').notNull().default(true),
    jobId: bigint('job_id', { mode: 'number' }).references(() => jobs.id, { onDelete: 'set null' }),
    terms: integer('terms').notNull().default(0),
    rows: integer('rows').notNull().default(0),
    createdBy: createdBy(),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('coding_tasks_app').on(t.appId, t.kind, t.id),
    oneOf('coding_tasks_kind', t.kind, CODING_KINDS),
    appScope(),
  ],
);

export const codingItems = pgTable(
  'coding_items',
  {
    id: id(),
    appId: appId(),
    taskId: bigint('task_id', { mode: 'number' })
      .notNull()
      .references(() => codingTasks.id, { onDelete: 'cascade' }),
    term: text('term').notNull(),
    rows: integer('rows').notNull().default(0),
    /** [{ code, displayZh, score, reason, matched }], best first. */
    candidates: jsonb('candidates').notNull().default([]),
    status: text('status').notNull().default('pending'),
    code: text('code'),
    displayZh: text('display_zh').notNull().default(''),
    decidedBy: userRef('decided_by'),
    decidedByName: text('decided_by_name').notNull().default(''),
    decidedAt: at('decided_at'),
  },
  (t) => [
    uniqueIndex('coding_items_task_term').on(t.taskId, t.term),
    index('coding_items_app').on(t.appId),
    oneOf('coding_items_status', t.status, CODING_ITEM_STATUSES),
    appScope(),
  ],
);

export const codingMappings = pgTable(
  'coding_mappings',
  {
    id: id(),
    appId: appId(),
    kind: text('kind').notNull(),
    /** The local text, trimmed: matched against btrim(<the CDR column>). */
    term: text('term').notNull(),
    systemKey: text('system_key').notNull(),
    /** Null when the coder judged the term to have no code. */
    code: text('code'),
    displayZh: text('display_zh').notNull().default(''),
    /** The system's version when the code was chosen (maintenance markers compare it). */
    systemVersion: text('system_version').notNull().default(''),
    how: text('how').notNull(),
    score: real('score'),
    reason: text('reason').notNull().default(''),
    taskId: bigint('task_id', { mode: 'number' }).references(() => codingTasks.id, { onDelete: 'set null' }),
    codedBy: userRef('coded_by'),
    codedByName: text('coded_by_name').notNull().default(''),
    codedAt: at('coded_at').notNull().defaultNow(),
    review: text('review').notNull().default('unreviewed'),
    reviewReason: text('review_reason').notNull().default(''),
  },
  (t) => [
    uniqueIndex('coding_mappings_app_kind_term').on(t.appId, t.kind, t.term),
    index('coding_mappings_code').on(t.appId, t.systemKey, t.code),
    oneOf('coding_mappings_kind', t.kind, CODING_KINDS),
    oneOf('coding_mappings_how', t.how, CODING_HOWS),
    oneOf('coding_mappings_review', t.review, CODING_REVIEW_STATES),
    appScope(),
  ],
);

export const codingReviewBatches = pgTable(
  'coding_review_batches',
  {
    id: id(),
    appId: appId(),
    kind: text('kind').notNull(),
    taskId: bigint('task_id', { mode: 'number' }).references(() => codingTasks.id, { onDelete: 'set null' }),
    coderId: userRef('coder_id'),
    samplePercent: integer('sample_percent').notNull().default(100),
    createdBy: createdBy(),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('coding_review_batches_app').on(t.appId, t.id),
    oneOf('coding_review_batches_kind', t.kind, CODING_KINDS),
    appScope(),
  ],
);

export const codingReviews = pgTable(
  'coding_reviews',
  {
    id: id(),
    appId: appId(),
    batchId: bigint('batch_id', { mode: 'number' })
      .notNull()
      .references(() => codingReviewBatches.id, { onDelete: 'cascade' }),
    mappingId: bigint('mapping_id', { mode: 'number' })
      .notNull()
      .references(() => codingMappings.id, { onDelete: 'cascade' }),
    /** The mapping as drawn: coder, task and code under review. */
    coderId: userRef('coder_id'),
    coderName: text('coder_name').notNull().default(''),
    taskId: bigint('task_id', { mode: 'number' }),
    code: text('code'),
    verdict: text('verdict').notNull().default('pending'),
    reason: text('reason').notNull().default(''),
    suggestedCode: text('suggested_code'),
    reviewedBy: userRef('reviewed_by'),
    reviewedByName: text('reviewed_by_name').notNull().default(''),
    reviewedAt: at('reviewed_at'),
  },
  (t) => [
    uniqueIndex('coding_reviews_batch_mapping').on(t.batchId, t.mappingId),
    index('coding_reviews_mapping').on(t.mappingId),
    oneOf('coding_reviews_verdict', t.verdict, CODING_VERDICTS),
    appScope(),
  ],
);
