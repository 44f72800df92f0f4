import {
  collectionChangePage,
  collectionChangeQuery,
  collectionIdParams,
  collectionMonitoring,
  collectionRejectPage,
  collectionRejectQuery,
  collectionReport,
  collectionReportQuery,
  collectionRun,
  collectionRunPage,
  collectionRunQuery,
  collectionRunStarted,
  collectionSample,
  collectionSampleQuery,
  collectionSource,
  collectionSourceCreate,
  collectionSourceList,
  collectionSourcePatch,
  collectionSourceProbe,
  collectionTargets,
  collectionTask,
  collectionTaskCreate,
  collectionTaskList,
  collectionTaskPatch,
  collectionTaskTest,
  collectionTaskTestBody,
  collectionTemplate,
  collectionTemplateCreate,
  collectionTemplateList,
  collectionTemplatePatch,
  collectionTemplateVersions,
  collectionUnitTest,
  collectionUnitTestBody,
  fileDownload,
  label,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { audit } from '../audit/audit.js';
import { canSeeIdentity } from '../clinical/privacy.js';
import { csvText } from '../files/csv.js';
import { xlsxBuffer } from '../files/xlsx.js';
import { signedIn } from '../http/context.js';
import { bilingual, invalidField } from '../http/errors.js';
import { CSV_TYPE, ownedPath, sendAttachment, XLSX_TYPE } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import { COLLECTION_JOB_KIND, collectionJob, targetFields } from './run.js';
import { SecretBox } from './secrets.js';
import {
  addSource,
  addTemplate,
  deleteSource,
  deleteTemplate,
  editSource,
  editTemplate,
  listSources,
  listTemplates,
  probeSource,
  type SourceAccess,
  sourceOf,
  sourcesOf,
  templateOf,
  templatesOf,
  templateVersions,
  templateView,
} from './sources.js';
import {
  addTask,
  cancelRun,
  deleteTask,
  editTask,
  listChanges,
  listRuns,
  listTasks,
  monitoring,
  report,
  runOf,
  runRejects,
  runsOf,
  runTask,
  sampleRows,
  taskOf,
  tasksOf,
  taskTest,
  unitTest,
} from './tasks.js';

const P = '/api/v0.1/collection';

/**
 * Data collection (collection/README.md). Functions of the route table: sources and templates
 * are 采集模板 (DataLakeTaskConfig); tasks and runs 采集任务列表 (DataLakeCollectTaskList); the
 * unit, selection and task tests their own hidden pages; monitoring, report, run detail and
 * change records theirs.
 */
export async function collectionRoutes(app: FastifyInstance) {
  const box = new SecretBox(app.config.collectionSecretKey, app.config.dataDir);
  const access: SourceAccess = { box, filesRoot: app.config.collectionFilesRoot };
  app.jobs.handle(COLLECTION_JOB_KIND, collectionJob(access));
  app.scheduleKinds.register({
    kind: COLLECTION_JOB_KIND,
    label: bilingual('数据采集任务', 'Data collection run'),
    params: z.object({ taskId: z.number().int().positive() }),
    check: async (db, appId, params) => {
      const task = await taskOf(db, appId, Number(params.taskId)).catch(() => {
        throw invalidField('body.params.taskId', '没有这个采集任务', 'no such collection task');
      });
      if (!task.enabled)
        throw invalidField('body.params.taskId', '该采集任务已停用', 'the collection task is disabled');
    },
    describe: async (db, appId, params) =>
      (await taskOf(db, appId, Number(params.taskId)).catch(() => null))?.name ?? null,
  });
  const db = app.db;
  const api = restRoutes(app, { tags: ['collection'] });
  const C = (action: string) => ({ apiId: `DataLakeTaskConfig.${action}` });
  const T = (action: string) => ({ apiId: `DataLakeCollectTaskList.${action}` });
  const ownSource = ownedPath(collectionIdParams, sourcesOf, (appId, p) => sourceOf(db, appId, p.id));
  const ownTemplate = ownedPath(collectionIdParams, templatesOf, (appId, p) => templateOf(db, appId, p.id));
  const ownTask = ownedPath(collectionIdParams, tasksOf, (appId, p) => taskOf(db, appId, p.id));
  const ownRun = ownedPath(collectionIdParams, runsOf, (appId, p) => runOf(db, appId, p.id, 'zh-CN'));

  // ---------------------------------------------------------------- sources
  api.get(
    `${P}/sources`,
    {
      access: C('query'),
      summary: 'Collection sources (never their passwords)',
      answer: collectionSourceList,
    },
    (req) => listSources(db, signedIn(req.ctx).appId),
  );
  api.post(
    `${P}/sources`,
    {
      access: C('add'),
      summary: 'Add a source (its password is stored encrypted)',
      body: collectionSourceCreate,
      answer: collectionSource,
    },
    (req) => addSource(signedIn(req.ctx), box, req.body),
  );
  api.patch(
    `${P}/sources/:id`,
    {
      access: C('edit'),
      ...ownSource,
      summary: 'Change a source (an empty password keeps the stored one)',
      body: collectionSourcePatch,
      answer: collectionSource,
    },
    (req) => editSource(signedIn(req.ctx), box, req.params.id, req.body),
  );
  api.delete(
    `${P}/sources/:id`,
    {
      access: C('delete'),
      ...ownSource,
      summary: 'Delete a source no template reads',
      answer: z.literal(true),
    },
    (req) => deleteSource(signedIn(req.ctx), req.params.id),
  );
  api.post(
    `${P}/sources/:id/probe`,
    {
      access: C('get'),
      ...ownSource,
      summary: 'Connect to the source and list its tables and columns',
      answer: collectionSourceProbe,
    },
    (req) => probeSource(db, access, signedIn(req.ctx).appId, req.params.id),
  );

  // ---------------------------------------------------------------- templates
  api.get(
    `${P}/targets`,
    {
      access: C('query'),
      summary: 'The fields a template may fill per CDR table',
      answer: collectionTargets,
    },
    () => targetFields(),
  );
  api.get(
    `${P}/templates`,
    { access: C('query'), summary: 'Collection templates', answer: collectionTemplateList },
    (req) => listTemplates(db, signedIn(req.ctx).appId),
  );
  api.post(
    `${P}/templates`,
    {
      access: C('add'),
      summary: 'Add a template',
      body: collectionTemplateCreate,
      answer: collectionTemplate,
    },
    (req) => addTemplate(signedIn(req.ctx), req.body),
  );
  api.get(
    `${P}/templates/:id`,
    { access: C('get'), ...ownTemplate, summary: 'One template', answer: collectionTemplate },
    async (req) => {
      const { t, source } = await templateOf(db, signedIn(req.ctx).appId, req.params.id);
      return templateView(t, source.name);
    },
  );
  api.patch(
    `${P}/templates/:id`,
    {
      access: C('edit'),
      ...ownTemplate,
      summary: 'Change a template (a changed mapping is a new version)',
      body: collectionTemplatePatch,
      answer: collectionTemplate,
    },
    (req) => editTemplate(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${P}/templates/:id`,
    {
      access: C('delete'),
      ...ownTemplate,
      summary: 'Delete a template no task runs',
      answer: z.literal(true),
    },
    (req) => deleteTemplate(signedIn(req.ctx), req.params.id),
  );
  api.get(
    `${P}/templates/:id/versions`,
    {
      access: C('get'),
      ...ownTemplate,
      summary: 'Every mapping the template has had',
      answer: collectionTemplateVersions,
    },
    (req) => templateVersions(db, signedIn(req.ctx).appId, req.params.id),
  );
  api.get(
    `${P}/templates/:id/sample`,
    {
      access: { apiId: 'DataLakeChosseTest.query' },
      ...ownTemplate,
      summary: 'The first rows of the template’s source table',
      query: collectionSampleQuery,
      answer: collectionSample,
    },
    (req) =>
      sampleRows(
        db,
        access,
        signedIn(req.ctx).appId,
        req.params.id,
        req.query.limit,
        canSeeIdentity(req.ctx),
      ),
  );
  api.post(
    `${P}/templates/:id/unit-test`,
    {
      access: { apiId: 'DataLakeUnitTest.query' },
      ...ownTemplate,
      summary: 'Map some source rows without writing',
      body: collectionUnitTestBody,
      answer: collectionUnitTest,
    },
    (req) =>
      unitTest(
        db,
        access,
        signedIn(req.ctx).appId,
        req.params.id,
        req.body,
        req.ctx.locale,
        canSeeIdentity(req.ctx),
      ),
  );

  // ---------------------------------------------------------------- tasks and runs
  api.get(
    `${P}/tasks`,
    { access: T('query'), summary: 'Collection tasks with their last run', answer: collectionTaskList },
    (req) => listTasks(db, signedIn(req.ctx).appId, req.ctx.locale),
  );
  api.post(
    `${P}/tasks`,
    { access: T('add'), summary: 'Add a task', body: collectionTaskCreate, answer: collectionTask },
    (req) => addTask(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${P}/tasks/:id`,
    {
      access: T('edit'),
      ...ownTask,
      summary: 'Change a task',
      body: collectionTaskPatch,
      answer: collectionTask,
    },
    (req) => editTask(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${P}/tasks/:id`,
    { access: T('delete'), ...ownTask, summary: 'Delete a task and its runs', answer: z.literal(true) },
    (req) => deleteTask(signedIn(req.ctx), req.params.id),
  );
  api.post(
    `${P}/tasks/:id/run`,
    { access: T('edit'), ...ownTask, summary: 'Run the task now (a job)', answer: collectionRunStarted },
    async (req) => {
      const started = await runTask(signedIn(req.ctx), req.params.id);
      app.jobs.nudge();
      return started;
    },
  );
  api.post(
    `${P}/tasks/:id/test`,
    {
      access: { apiId: 'DataLakeTaskTest.query' },
      ...ownTask,
      summary: 'Dry-run every template of the task',
      body: collectionTaskTestBody,
      answer: collectionTaskTest,
    },
    (req) =>
      taskTest(
        db,
        access,
        signedIn(req.ctx).appId,
        req.params.id,
        req.body.limit,
        req.ctx.locale,
        canSeeIdentity(req.ctx),
      ),
  );
  api.get(
    `${P}/runs`,
    {
      access: { apiId: 'DataLakeCollectionMonitoring.query' },
      summary: 'Runs, newest first',
      query: collectionRunQuery,
      answer: collectionRunPage,
    },
    (req) => listRuns(db, signedIn(req.ctx).appId, req.query, req.ctx.locale),
  );
  api.get(
    `${P}/runs/:id`,
    {
      access: { apiId: 'DataLakeCollectionDetail.get' },
      ...ownRun,
      summary: 'One run',
      answer: collectionRun,
    },
    (req) => runOf(db, signedIn(req.ctx).appId, req.params.id, req.ctx.locale),
  );
  api.get(
    `${P}/runs/:id/rejects`,
    {
      access: { apiId: 'DataLakeCollectionDetail.get' },
      ...ownRun,
      summary: 'The rows a run refused, with their reasons',
      query: collectionRejectQuery,
      answer: collectionRejectPage,
    },
    (req) =>
      runRejects(
        db,
        signedIn(req.ctx).appId,
        req.params.id,
        req.query,
        req.ctx.locale,
        canSeeIdentity(req.ctx),
      ),
  );
  api.post(
    `${P}/runs/:id/cancel`,
    {
      access: T('edit'),
      ...ownRun,
      summary: 'Cancel a run (a running one stops after its batch)',
      answer: collectionRun,
    },
    (req) => cancelRun(signedIn(req.ctx), req.params.id, req.ctx.locale),
  );

  // ---------------------------------------------------------------- changes, monitoring, report
  api.get(
    `${P}/changes`,
    {
      access: { apiId: 'DataLakeChangeRecords.query' },
      summary: 'What collection runs and HL7 messages changed in the CDR',
      query: collectionChangeQuery,
      answer: collectionChangePage,
    },
    (req) => listChanges(db, signedIn(req.ctx).appId, req.query, canSeeIdentity(req.ctx)),
  );
  api.get(
    `${P}/monitoring`,
    {
      access: { apiId: 'DataLakeCollectionMonitoring.query' },
      summary: 'Per source and task: last run, volumes, lag, trend',
      answer: collectionMonitoring,
    },
    (req) => monitoring(db, signedIn(req.ctx).appId, req.ctx.locale),
  );
  api.get(
    `${P}/report`,
    {
      access: { apiId: 'DataLakeCollectionReport.query' },
      summary: 'Volumes per period, source and table',
      query: collectionReportQuery.omit({ format: true }),
      answer: collectionReport,
    },
    (req) => report(db, signedIn(req.ctx).appId, { ...req.query, format: 'json' }),
  );
  app.get(
    `${P}/report/export`,
    {
      config: { access: { apiId: 'DataLakeCollectionReport.export' } },
      schema: {
        tags: ['collection'],
        summary: 'The report as CSV or XLSX',
        querystring: collectionReportQuery,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const ctx = signedIn(req.ctx);
      const q = collectionReportQuery.parse(req.query);
      const r = await report(db, ctx.appId, q);
      const l = req.ctx.locale;
      const header =
        l === 'zh-CN'
          ? ['期间', '数据源', '表', '新增', '更新', '拒绝']
          : ['Period', 'Source', 'Table', 'Inserted', 'Updated', 'Rejected'];
      const rows = r.rows.map((x) => [
        x.period,
        x.sourceName,
        label('cdrTable', x.table, l),
        x.inserted,
        x.updated,
        x.rejected,
      ]);
      await audit(db, ctx, {
        action: 'collection.report.export',
        entity: 'collection_run',
        after: { ...q, rows: rows.length },
      });
      if (q.format === 'xlsx')
        return sendAttachment(reply, {
          type: XLSX_TYPE,
          name: 'collection-report.xlsx',
          body: await xlsxBuffer([
            { name: l === 'zh-CN' ? '采集报告' : 'Collection report', rows: [[header, ...rows]] },
          ]),
        });
      return sendAttachment(reply, {
        type: CSV_TYPE,
        name: 'collection-report.csv',
        body: csvText([header, ...rows], { formulaGuard: true }),
      });
    },
  );
}
