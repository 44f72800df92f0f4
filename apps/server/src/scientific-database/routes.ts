import { Readable } from 'node:stream';
import {
  fileDownload,
  sciDatasetBody,
  sciDatasetMade,
  sciExportQuery,
  sciIdParams,
  sciOverview,
  sciRows,
  sciRowsQuery,
  sciRunQueued,
  sciSnapshotDetail,
  sciSnapshotList,
  sciSnapshotQuery,
  sciTask,
  sciTaskChoices,
  sciTaskCreate,
  sciTaskList,
  sciTaskPatch,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { csvStream } from '../files/csv.js';
import { streamXlsx } from '../files/xlsx.js';
import { signedIn } from '../http/context.js';
import { CSV_TYPE, ownedPath, XLSX_TYPE } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  buildSnapshotJob,
  deleteSnapshot,
  exportSource,
  listSnapshots,
  overview,
  ownedSnapshotIds,
  runTask,
  SNAPSHOT_JOB,
  snapshotDetail,
  snapshotRow,
  snapshotRows,
  snapshotToDataset,
} from './snapshots.js';
import { addTask, deleteTask, editTask, listTasks, ownedTaskIds, taskChoices, taskRow } from './tasks.js';

const P = '/api/v0.1/scientific-database';
const PARQUET_TYPE = 'application/vnd.apache.parquet';

/**
 * The scientific database (科研数据库): transform tasks (DatabasesTransformTask), their runs
 * (DatabasesDataTransformTask), the preview (DatabasesPreview), the details and exports
 * (DatabasesDetails) and the two dashboards (DatabasesDashboard, DatabasesScientificDashboard).
 */
export async function scientificDatabaseRoutes(app: FastifyInstance) {
  const db = app.db;
  app.jobs.handle(SNAPSHOT_JOB, buildSnapshotJob);
  const api = restRoutes(app, { tags: ['scientific-database'] });
  const T = (a: string) => ({ apiId: `DatabasesTransformTask.${a}` });
  const R = (a: string) => ({ apiId: `DatabasesDataTransformTask.${a}` });
  const ownTask = ownedPath(sciIdParams, ownedTaskIds, (appId, p) => taskRow(db, appId, p.id));
  const ownSnap = ownedPath(sciIdParams, ownedSnapshotIds, (appId, p) => snapshotRow(db, appId, p.id));

  api.get(
    `${P}/tasks`,
    {
      access: T('query'),
      summary: 'The app’s transform tasks with their newest snapshot',
      answer: sciTaskList,
    },
    (req) => listTasks(db, signedIn(req.ctx).appId),
  );
  api.get(
    `${P}/tasks/choices`,
    {
      access: T('query'),
      summary: 'What a task may name: subjects, disease libraries, variable groups, variables',
      answer: sciTaskChoices,
    },
    (req) => taskChoices(db, signedIn(req.ctx).appId),
  );
  api.post(
    `${P}/tasks`,
    {
      access: T('add'),
      summary: 'Add a transform task (research subject, cohort, variables)',
      body: sciTaskCreate,
      answer: sciTask,
    },
    (req) => addTask(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${P}/tasks/:id`,
    {
      access: T('edit'),
      ...ownTask,
      summary: 'Change a transform task',
      body: sciTaskPatch,
      answer: sciTask,
    },
    (req) => editTask(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${P}/tasks/:id`,
    {
      access: T('delete'),
      ...ownTask,
      summary: 'Delete a transform task and its snapshots',
      answer: z.literal(true),
    },
    (req) => deleteTask(signedIn(req.ctx), req.params.id),
  );
  api.post(
    `${P}/tasks/:id/run`,
    {
      access: R('add'),
      ...ownTask,
      summary: 'Build the next version of the task’s snapshot (a job; members of the subject only)',
      answer: sciRunQueued,
    },
    async (req) => {
      const queued = await runTask(signedIn(req.ctx), req.params.id);
      app.jobs.nudge();
      return queued;
    },
  );

  api.get(
    `${P}/snapshots`,
    {
      access: R('query'),
      summary: 'Snapshot builds (数据转换任务), newest first, with the job’s progress',
      query: sciSnapshotQuery,
      answer: sciSnapshotList,
    },
    (req) => listSnapshots(db, signedIn(req.ctx).appId, req.query),
  );
  api.delete(
    `${P}/snapshots/:id`,
    { access: R('delete'), ...ownSnap, summary: 'Delete a snapshot version', answer: z.literal(true) },
    (req) => deleteSnapshot(signedIn(req.ctx), req.params.id),
  );

  // Each screen that picks a snapshot lists the ready ones under its own function.
  for (const [path, fn] of [
    ['preview', 'DatabasesPreview.query'],
    ['details', 'DatabasesDetails.get'],
    ['dashboard', 'DatabasesDashboard.query'],
  ] as const)
    api.get(
      `${P}/${path}/snapshots`,
      {
        access: { apiId: fn },
        summary: `Ready snapshots to choose from (${path})`,
        answer: sciSnapshotList,
      },
      (req) => listSnapshots(db, signedIn(req.ctx).appId, { status: 'ready' }),
    );
  for (const [path, fn] of [
    ['preview', 'DatabasesPreview.get'],
    ['details', 'DatabasesDetails.get'],
    ['dashboard', 'DatabasesDashboard.query'],
  ] as const)
    api.get(
      `${P}/${path}/snapshots/:id`,
      {
        access: { apiId: fn },
        ...ownSnap,
        summary: `A snapshot with its variables as built and each column’s statistics (${path})`,
        answer: sciSnapshotDetail,
      },
      (req) => snapshotDetail(db, signedIn(req.ctx).appId, req.params.id),
    );
  api.get(
    `${P}/preview/snapshots/:id/rows`,
    {
      access: { apiId: 'DatabasesPreview.query' },
      ...ownSnap,
      summary: 'One page of a ready snapshot’s rows (study number, then one value per variable)',
      query: sciRowsQuery,
      answer: sciRows,
    },
    (req) => snapshotRows(db, signedIn(req.ctx).appId, req.params.id, req.query.page, req.query.size),
  );

  app.get(
    `${P}/details/snapshots/:id/export`,
    {
      config: { access: { apiId: 'DatabasesDetails.export' }, ownedIds: ownedSnapshotIds },
      preValidation: ownSnap.preValidation,
      schema: {
        tags: ['scientific-database'],
        summary:
          'A ready snapshot as CSV, XLSX (data and variables sheets) or Parquet (zstd, for R and Python)',
        params: sciIdParams,
        querystring: sciExportQuery,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const ctx = signedIn(req.ctx);
      const { id } = sciIdParams.parse(req.params);
      const { format } = sciExportQuery.parse(req.query);
      const src = await exportSource(ctx, id, format);
      const header = ['study_no', ...src.columns.map((c) => c.key)];
      const disposition = `attachment; filename*=UTF-8''${encodeURIComponent(`${src.name}.${format}`)}`;
      reply.header('content-disposition', disposition);
      if (format === 'parquet') return reply.header('content-type', PARQUET_TYPE).send(await src.parquet());
      const batches = async function* () {
        yield [header];
        yield* src.batches();
      };
      if (format === 'csv')
        return reply
          .header('content-type', CSV_TYPE)
          .send(Readable.from(csvStream(batches(), { formulaGuard: true })));
      const en = ctx.locale === 'en-US';
      const dictionary = [
        en
          ? ['code', 'label', 'type', 'unit', 'derivation', 'values']
          : ['变量名', '标签', '类型', '单位', '取值规则', '值集'],
        ...src.columns.map((c) => [
          c.key,
          en ? c.labelEn || c.labelZh : c.labelZh,
          c.type,
          c.unit,
          c.ruleText,
          c.valueSet.map((v) => `${v.code}=${(en ? v.labelEn : v.labelZh) || v.labelZh}`).join('; '),
        ]),
      ];
      return reply.header('content-type', XLSX_TYPE).send(
        Readable.from(
          streamXlsx([
            { name: 'data', rows: batches() },
            { name: en ? 'variables' : '变量', rows: [dictionary] },
          ]),
        ),
      );
    },
  );
  api.post(
    `${P}/details/snapshots/:id/research-dataset`,
    {
      access: { apiId: 'DatabasesDetails.export' },
      ...ownSnap,
      summary:
        'Hand a ready snapshot to the research analyses as a dataset of its subject (number and category columns)',
      body: sciDatasetBody,
      answer: sciDatasetMade,
    },
    (req) => snapshotToDataset(signedIn(req.ctx), req.params.id, req.body.name),
  );

  api.get(
    `${P}/overview`,
    {
      access: { apiId: 'DatabasesScientificDashboard.query' },
      summary: 'The app’s tasks and snapshots at a glance (科研数据看板)',
      answer: sciOverview,
    },
    (req) => overview(db, signedIn(req.ctx).appId),
  );
}
