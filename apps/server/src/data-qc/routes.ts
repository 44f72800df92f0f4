import {
  fileDownload,
  qcCatalogue,
  qcDeleted,
  qcFault,
  qcPage,
  qcPlan,
  qcReport,
  qcRule,
  qcTask,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { audit, auditPageRead, filterNames } from '../audit/audit.js';
import { canSeeIdentity } from '../clinical/privacy.js';
import { CSV_TYPE, sendAttachment, XLSX_TYPE } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import { describeCatalogue } from './catalogue.js';
import {
  actorOf,
  exportQuery,
  faultQuery,
  listQuery,
  pageQuery,
  planInput,
  planParams,
  ruleInput,
  ruleParams,
  taskInput,
  taskParams,
} from './inputs.js';
import {
  createPlan,
  deletePlan,
  listPlans,
  ownedPlanIds,
  planOf,
  planRow,
  setPlanEnabled,
  updatePlan,
} from './plans.js';
import { exportFile, listFaults, reportOf } from './report.js';
import {
  createRule,
  deleteRule,
  listRules,
  ownedRuleIds,
  ruleOf,
  ruleView,
  setRuleEnabled,
  updateRule,
} from './rules.js';
import { deleteTask, listTasks, ownedTaskIds, QC_TASK_KIND, requestTask, taskJob, taskOf } from './tasks.js';

const P = '/api/v0.1/data-qc';

/** Data quality control (数据质控): `/api/v0.1/data-qc/...`. See README.md. */
export async function dataQcRoutes(app: FastifyInstance) {
  // Another app's rule, plan or task is not found, whatever the body says: ownership is
  // checked before the body is validated.
  app.addHook('preValidation', async (req) => {
    if (req.auth?.kind !== 'login') return;
    const p = (req.params ?? {}) as Record<string, string | undefined>;
    const isId = (v: string | undefined): v is string => v !== undefined && /^\d{1,9}$/.test(v);
    if (isId(p.ruleId)) await ruleOf(app.db, req.auth.appId, Number(p.ruleId));
    if (isId(p.planId)) await planRow(app.db, req.auth.appId, Number(p.planId));
    if (isId(p.taskId)) await taskOf(app.db, req.auth.appId, Number(p.taskId));
  });
  app.jobs.handle(QC_TASK_KIND, taskJob);

  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['data-qc'];
  const api = restRoutes(app, { tags });
  const id = (apiId: string) => ({ access: { apiId } });

  api.get(
    `${P}/catalogue`,
    {
      ...id('DataQcRule.query'),
      summary: 'Tables, columns and rule kinds a QC rule may use',
      answer: qcCatalogue,
    },
    (req) => describeCatalogue(req.locale),
  );

  // Rules
  api.get(
    `${P}/rules`,
    { ...id('DataQcRule.query'), summary: 'QC rules of the app', query: listQuery, answer: qcPage(qcRule) },
    (req) => listRules(app.db, actorOf(req.ctx).appId, req.query),
  );
  api.post(
    `${P}/rules`,
    { ...id('DataQcRule.add'), summary: 'Create a QC rule', body: ruleInput, answer: qcRule },
    (req) => createRule(app.db, actorOf(req.ctx), req.body),
  );
  api.get(
    `${P}/rules/:ruleId`,
    {
      ...id('DataQcRule.get'),
      ownedIds: ownedRuleIds,
      summary: 'A QC rule',
      params: ruleParams,
      answer: qcRule,
    },
    async (req) => ruleView(await ruleOf(app.db, actorOf(req.ctx).appId, req.params.ruleId)),
  );
  api.put(
    `${P}/rules/:ruleId`,
    {
      ...id('DataQcRule.edit'),
      ownedIds: ownedRuleIds,
      summary: 'Change a QC rule',
      params: ruleParams,
      body: ruleInput,
      answer: qcRule,
    },
    (req) => updateRule(app.db, actorOf(req.ctx), req.params.ruleId, req.body),
  );
  api.delete(
    `${P}/rules/:ruleId`,
    {
      ...id('DataQcRule.delete'),
      ownedIds: ownedRuleIds,
      summary: 'Delete a QC rule (plans lose it; past reports keep it)',
      params: ruleParams,
      answer: qcDeleted,
    },
    (req) => deleteRule(app.db, actorOf(req.ctx), req.params.ruleId),
  );
  for (const action of ['enable', 'disable'] as const) {
    api.post(
      `${P}/rules/:ruleId/${action}`,
      {
        ...id(`DataQcRule.${action}`),
        ownedIds: ownedRuleIds,
        summary: `${action === 'enable' ? 'Enable' : 'Disable'} a QC rule`,
        params: ruleParams,
        answer: qcRule,
      },
      (req) => setRuleEnabled(app.db, actorOf(req.ctx), req.params.ruleId, action === 'enable'),
    );
  }

  // Plans
  api.get(
    `${P}/plans`,
    { ...id('DataQcPlan.query'), summary: 'QC plans of the app', query: listQuery, answer: qcPage(qcPlan) },
    (req) => listPlans(app.db, actorOf(req.ctx).appId, req.query),
  );
  api.post(
    `${P}/plans`,
    {
      ...id('DataQcPlan.add'),
      summary: 'Create a QC plan of enabled rules',
      body: planInput,
      answer: qcPlan,
    },
    (req) => createPlan(app.db, actorOf(req.ctx), req.body),
  );
  api.get(
    `${P}/plans/:planId`,
    {
      ...id('DataQcPlan.get'),
      ownedIds: ownedPlanIds,
      summary: 'A QC plan with its rules',
      params: planParams,
      answer: qcPlan,
    },
    (req) => planOf(app.db, actorOf(req.ctx).appId, req.params.planId),
  );
  api.put(
    `${P}/plans/:planId`,
    {
      ...id('DataQcPlan.edit'),
      ownedIds: ownedPlanIds,
      summary: 'Change a QC plan',
      params: planParams,
      body: planInput,
      answer: qcPlan,
    },
    (req) => updatePlan(app.db, actorOf(req.ctx), req.params.planId, req.body),
  );
  api.delete(
    `${P}/plans/:planId`,
    {
      ...id('DataQcPlan.delete'),
      ownedIds: ownedPlanIds,
      summary: 'Delete a QC plan (its tasks and reports stay)',
      params: planParams,
      answer: qcDeleted,
    },
    (req) => deletePlan(app.db, actorOf(req.ctx), req.params.planId),
  );
  for (const action of ['enable', 'disable'] as const) {
    api.post(
      `${P}/plans/:planId/${action}`,
      {
        ...id(`DataQcPlan.${action}`),
        ownedIds: ownedPlanIds,
        summary: `${action === 'enable' ? 'Enable' : 'Disable'} a QC plan`,
        params: planParams,
        answer: qcPlan,
      },
      (req) => setPlanEnabled(app.db, actorOf(req.ctx), req.params.planId, action === 'enable'),
    );
  }

  // Tasks
  api.get(
    `${P}/tasks`,
    {
      ...id('DataQcTask.query'),
      summary: 'QC tasks of the app with their status',
      query: pageQuery,
      answer: qcPage(qcTask),
    },
    (req) => listTasks(app.db, actorOf(req.ctx).appId, req.query, false, req.locale),
  );
  api.post(
    `${P}/tasks`,
    { ...id('DataQcTask.add'), summary: 'Run a QC plan (a background job)', body: taskInput, answer: qcTask },
    async (req) => {
      const task = await requestTask(app.db, actorOf(req.ctx), req.body.planId);
      app.jobs.nudge();
      return task;
    },
  );
  api.get(
    `${P}/tasks/:taskId`,
    {
      ...id('DataQcTask.get'),
      ownedIds: ownedTaskIds,
      summary: 'A QC task with its status and totals',
      params: taskParams,
      answer: qcTask,
    },
    (req) => taskOf(app.db, actorOf(req.ctx).appId, req.params.taskId, req.locale),
  );
  api.delete(
    `${P}/tasks/:taskId`,
    {
      ...id('DataQcTask.delete'),
      ownedIds: ownedTaskIds,
      summary: 'Delete a finished QC task and its findings',
      params: taskParams,
      answer: qcDeleted,
    },
    (req) => deleteTask(app.db, actorOf(req.ctx), req.params.taskId),
  );

  // Reports
  api.get(
    `${P}/reports`,
    {
      ...id('DataQcReport.query'),
      summary: 'Finished QC tasks, whose reports can be read',
      query: pageQuery,
      answer: qcPage(qcTask),
    },
    (req) => listTasks(app.db, actorOf(req.ctx).appId, req.query, true, req.locale),
  );
  api.get(
    `${P}/reports/:taskId`,
    {
      ...id('DataQcReport.get'),
      ownedIds: ownedTaskIds,
      summary: 'Pass rate per rule and overall of a QC task',
      params: taskParams,
      answer: qcReport,
    },
    (req) => reportOf(app.db, actorOf(req.ctx).appId, req.params.taskId, req.locale),
  );
  api.get(
    `${P}/reports/:taskId/faults`,
    {
      ...id('DataQcReport.get'),
      ownedIds: ownedTaskIds,
      summary: 'Rows at fault of a QC task, with their patient, paged',
      params: taskParams,
      query: faultQuery,
      answer: qcPage(qcFault),
    },
    async (req) => {
      const page = await listFaults(
        app.db,
        actorOf(req.ctx).appId,
        req.params.taskId,
        req.query,
        req.locale,
        canSeeIdentity(req.ctx),
      );
      // The faults name their patients: one read row per page (filter names, not the keyword).
      await auditPageRead(
        req.ctx,
        {
          entity: 'data_qc_faults',
          entityId: req.params.taskId,
          filters: filterNames(req.query, ['taskRuleId', 'keyword']),
        },
        page,
      );
      return page;
    },
  );
  r.get(
    `${P}/reports/:taskId/export`,
    {
      config: { ...id('DataQcReport.export'), ownedIds: ownedTaskIds },
      schema: {
        tags,
        summary: 'The faults of a QC task as CSV or XLSX',
        params: taskParams,
        querystring: exportQuery,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const f = await exportFile(
        app.db,
        actorOf(req.ctx).appId,
        req.params.taskId,
        req.query.format,
        req.locale,
        canSeeIdentity(req.ctx),
      );
      // Exports take patient data out of the system: keep a trace of who took what.
      await audit(app.db, req.ctx, {
        action: 'export',
        entity: 'qc_report',
        entityId: req.params.taskId,
        after: { format: req.query.format, rows: f.rows },
      });
      const type = req.query.format === 'xlsx' ? XLSX_TYPE : CSV_TYPE;
      return sendAttachment(reply, { type, name: f.fileName, body: f.body });
    },
  );
}
