import {
  observationActivity,
  observationActivityQuery,
  observationRun,
  observationRunInput,
  observationRunList,
  observationTask,
  observationTaskInput,
  observationTaskList,
  observationTaskParams,
  observationTermMap,
  observationTermPage,
  observationTermQuery,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { loadFirst } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import { clinicalActivity } from './activity.js';
import {
  createTask,
  deleteTask,
  getTask,
  listRuns,
  listTasks,
  ownedTaskIds,
  runTask,
  updateTask,
} from './tasks.js';
import { listTerms, mapTerm } from './terms.js';
import { TRANSFORM_KIND, transformJob } from './transform.js';

const P = '/api/v0.1/observation';

/** The observation database (/observation-database/*): transform tasks, term mapping, dashboard. README.md. */
export async function observationRoutes(app: FastifyInstance) {
  app.jobs.handle(TRANSFORM_KIND, transformJob);
  const api = restRoutes(app, { tags: ['observation'] });
  const T = (a: string) => ({ apiId: `ObservationTransformTask.${a}` });
  const M = (a: string) => ({ apiId: `ObservationTermMapping.${a}` });
  const taskFirst = loadFirst(observationTaskParams, (req, p) => getTask(signedIn(req.ctx), p.taskId));

  api.get(
    `${P}/tasks`,
    {
      access: T('query'),
      summary: 'Transform tasks with their last run, and the store’s rows per domain',
      answer: observationTaskList,
    },
    (req) => listTasks(signedIn(req.ctx)),
  );
  api.post(
    `${P}/tasks`,
    {
      access: T('add'),
      summary: 'Add a transform task (a name and its domains)',
      body: observationTaskInput,
      answer: observationTask,
    },
    (req) => createTask(signedIn(req.ctx), req.body),
  );
  api.get(
    `${P}/tasks/:taskId`,
    {
      access: T('get'),
      ownedIds: ownedTaskIds,
      summary: 'A transform task',
      params: observationTaskParams,
      answer: observationTask,
    },
    (req) => getTask(signedIn(req.ctx), req.params.taskId),
  );
  api.put(
    `${P}/tasks/:taskId`,
    {
      access: T('edit'),
      ownedIds: ownedTaskIds,
      summary: 'Rename a task or change its domains (an added domain is taken in full by the next run)',
      params: observationTaskParams,
      body: observationTaskInput,
      preValidation: taskFirst,
      answer: observationTask,
    },
    (req) => updateTask(signedIn(req.ctx), req.params.taskId, req.body),
  );
  api.delete(
    `${P}/tasks/:taskId`,
    {
      access: T('delete'),
      ownedIds: ownedTaskIds,
      summary: 'Delete a task (its observations stay)',
      params: observationTaskParams,
      answer: z.null(),
    },
    (req) => deleteTask(signedIn(req.ctx), req.params.taskId),
  );
  api.post(
    `${P}/tasks/:taskId/run`,
    {
      access: T('edit'),
      ownedIds: ownedTaskIds,
      summary: 'Run a task as a job: incremental from its watermark, or full',
      params: observationTaskParams,
      body: observationRunInput,
      preValidation: taskFirst,
      answer: observationRun,
    },
    async (req) => {
      const run = await runTask(signedIn(req.ctx), req.params.taskId, req.body);
      app.jobs.nudge();
      return run;
    },
  );
  api.get(
    `${P}/tasks/:taskId/runs`,
    {
      access: T('get'),
      ownedIds: ownedTaskIds,
      summary: 'The last 50 runs of a task',
      params: observationTaskParams,
      answer: observationRunList,
    },
    (req) => listRuns(signedIn(req.ctx), req.params.taskId),
  );

  api.get(
    `${P}/terms`,
    {
      access: M('query'),
      summary: 'Local concepts of a coded domain with the coding area’s mapping',
      query: observationTermQuery,
      answer: observationTermPage,
    },
    (req) => listTerms(signedIn(req.ctx), req.query),
  );
  api.post(
    `${P}/terms/map`,
    {
      access: M('edit'),
      summary: 'Map a local concept to a standard code (the coding area’s mapping)',
      body: observationTermMap,
      answer: z.null(),
    },
    (req) => mapTerm(signedIn(req.ctx), req.body),
  );

  api.get(
    `${P}/activity`,
    {
      access: { apiId: 'ObservationDashboard.query' },
      summary: 'Admissions, lab results and operations per day and department',
      query: observationActivityQuery,
      answer: observationActivity,
    },
    (req) => clinicalActivity(signedIn(req.ctx), req.query),
  );
}
