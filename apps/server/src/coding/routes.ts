import {
  CODING_KINDS,
  CODING_SCREENS,
  codedRowPage,
  codedRowQuery,
  codingAgreementList,
  codingBulkAccept,
  codingBulkResult,
  codingDecision,
  codingItem,
  codingItemPage,
  codingItemQuery,
  codingMappingPage,
  codingMappingQuery,
  codingMarkerConfirm,
  codingMarkerPage,
  codingMarkerQuery,
  codingReview,
  codingReviewBatchCreate,
  codingReviewBatchPage,
  codingReviewPage,
  codingReviewQuery,
  codingTask,
  codingTaskCreate,
  codingTaskListQuery,
  codingTaskPage,
  codingTaskRef,
  codingVerdict,
  createdId,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { restRoutes } from '../http/route.js';
import { codedRows, listMappings } from './mappings.js';
import {
  agreement,
  confirmMarker,
  createBatch,
  giveVerdict,
  listBatches,
  listMarkers,
  listReviews,
} from './review.js';
import {
  bulkAccept,
  CODING_JOB_KIND,
  createTask,
  decide,
  deleteTask,
  getTask,
  listItems,
  listTasks,
  suggestJob,
} from './tasks.js';

const V = '/api/v0.1/coding';

/**
 * Coding and coding QC (coding/README.md). One set of routes per kind, `/api/v0.1/coding/<kind>/…`,
 * each checked against its kind's screen functions (CODING_SCREENS); object ids travel in the
 * query or body and are looked up within the caller's app (another app's id is a 404).
 */
export async function codingRoutes(app: FastifyInstance) {
  app.jobs.handle(CODING_JOB_KIND, suggestJob);
  const api = restRoutes(app, { tags: ['coding'] });

  for (const kind of CODING_KINDS) {
    const screen = CODING_SCREENS[kind];
    const K = `${V}/${kind}`;
    api.get(
      `${K}/tasks`,
      {
        access: { apiId: `${screen.task}.query` },
        summary: `Coding tasks of ${kind}, newest first, with their job's progress and decisions so far`,
        query: codingTaskListQuery,
        answer: codingTaskPage,
      },
      (req) => {
        const ctx = signedIn(req.ctx);
        return listTasks(ctx.db, ctx.appId, kind, req.query, ctx.locale);
      },
    );
    api.get(
      `${K}/task`,
      {
        access: { apiId: `${screen.task}.get` },
        summary: `One ${kind} coding task`,
        query: codingTaskRef,
        answer: codingTask,
      },
      (req) => {
        const ctx = signedIn(req.ctx);
        return getTask(ctx.db, ctx.appId, kind, req.query.taskId, ctx.locale);
      },
    );
    api.post(
      `${K}/tasks`,
      {
        access: { apiId: `${screen.task}.add` },
        summary: `New ${kind} coding task: a job collects the distinct local terms with counts and proposes codes`,
        body: codingTaskCreate,
        answer: codingTask,
      },
      async (req) => {
        const task = await createTask(signedIn(req.ctx), kind, req.body);
        app.jobs.nudge();
        return task;
      },
    );
    api.post(
      `${K}/tasks/delete`,
      {
        access: { apiId: `${screen.task}.delete` },
        summary: `Delete a ${kind} coding task (its mappings stay)`,
        body: codingTaskRef,
        answer: z.null(),
      },
      async (req) => {
        await deleteTask(signedIn(req.ctx), kind, req.body.taskId);
        return null;
      },
    );
    api.get(
      `${K}/items`,
      {
        access: { apiId: `${screen.task}.get` },
        summary: `The terms of a ${kind} task with their candidates, most frequent first`,
        query: codingItemQuery,
        answer: codingItemPage,
      },
      (req) => {
        const ctx = signedIn(req.ctx);
        return listItems(ctx.db, ctx.appId, kind, req.query.taskId, req.query);
      },
    );
    api.post(
      `${K}/items/decide`,
      {
        access: { apiId: `${screen.coding}.edit` },
        summary: `Decide one ${kind} term: a code (candidate or searched), no code, or back to pending`,
        body: codingDecision,
        answer: codingItem,
      },
      (req) => decide(signedIn(req.ctx), kind, req.body),
    );
    api.post(
      `${K}/items/bulk-accept`,
      {
        access: { apiId: `${screen.coding}.edit` },
        summary: `Accept the top candidate of every pending ${kind} term scoring at least minScore`,
        body: codingBulkAccept,
        answer: codingBulkResult,
      },
      (req) => bulkAccept(signedIn(req.ctx), kind, req.body.taskId, req.body.minScore),
    );
    api.get(
      `${K}/mappings`,
      {
        access: { apiId: `${screen.coding}.query` },
        summary: `The app's ${kind} mappings (local term → code) with the CDR rows each codes now`,
        query: codingMappingQuery,
        answer: codingMappingPage,
      },
      (req) => {
        const ctx = signedIn(req.ctx);
        return listMappings(ctx.db, ctx.appId, kind, req.query);
      },
    );
    api.get(
      `${K}/rows`,
      {
        access: { apiId: `${screen.coding}.query` },
        summary: `CDR ${kind} rows as coded at read time: original text and source code beside the mapped code`,
        query: codedRowQuery,
        answer: codedRowPage,
      },
      (req) => {
        const ctx = signedIn(req.ctx);
        return codedRows(ctx.db, ctx.appId, kind, req.query);
      },
    );
  }

  const Q = `${V}/qc`;
  api.get(
    `${Q}/batches`,
    {
      access: { apiId: 'CodingQcTask.query' },
      summary: 'Review batches with how many were reviewed and agreed',
      query: codingMarkerQuery,
      answer: codingReviewBatchPage,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      return listBatches(ctx.db, ctx.appId, req.query);
    },
  );
  api.post(
    `${Q}/batches`,
    {
      access: { apiId: 'CodingQcTask.add' },
      summary: 'Draw a review batch: a random sample (or all) of the mappings of a kind, task or coder',
      body: codingReviewBatchCreate,
      answer: createdId,
    },
    (req) => createBatch(signedIn(req.ctx), req.body),
  );
  api.get(
    `${Q}/agreement`,
    {
      access: { apiId: 'CodingQcTask.query' },
      summary: 'Agreement rate of reviewed mappings per kind, coder and task',
      answer: codingAgreementList,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      return agreement(ctx.db, ctx.appId);
    },
  );
  api.get(
    `${Q}/reviews`,
    {
      access: { apiId: 'CodingQcAudit.query' },
      summary: 'Drawn mappings with their verdicts',
      query: codingReviewQuery,
      answer: codingReviewPage,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      return listReviews(ctx.db, ctx.appId, req.query);
    },
  );
  api.post(
    `${Q}/reviews/verdict`,
    {
      access: { apiId: 'CodingQcAudit.edit' },
      summary: 'Agree, or disagree with a reason (sent back to the coder); never on your own coding (409)',
      body: codingVerdict,
      answer: codingReview,
    },
    (req) => giveVerdict(signedIn(req.ctx), req.body),
  );
  api.get(
    `${Q}/markers`,
    {
      access: { apiId: 'CodingQcMaintenanceMarker.query' },
      summary: 'Mappings to revisit: code retired or no longer listed, or the system version changed',
      query: codingMarkerQuery,
      answer: codingMarkerPage,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      return listMarkers(ctx.db, ctx.appId, req.query);
    },
  );
  api.post(
    `${Q}/markers/confirm`,
    {
      access: { apiId: 'CodingQcMaintenanceMarker.edit' },
      summary: 'Confirm a marked mapping whose code still stands: stamped with the current version',
      body: codingMarkerConfirm,
      answer: z.null(),
    },
    async (req) => {
      await confirmMarker(signedIn(req.ctx), req.body.mappingId);
      return null;
    },
  );
}
