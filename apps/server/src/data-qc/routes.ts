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
  restOk,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { audit, auditRead, filterNames } from '../audit/audit.js';
import { canSeeIdentity } from '../clinical/privacy.js';
import { CSV_TYPE, sendAttachment, XLSX_TYPE } from '../http/reply.js';
import { describeCatalogue } from './catalogue.js';
import {
  actorOf,
  exportQuery,
  faultQuery,
  listQuery,
  ok,
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
  const id = (apiId: string) => ({ access: { apiId } });

  r.get(
    `${P}/catalogue`,
    {
      config: id('DataQcRule.query'),
      schema: {
        tags,
        summary: 'Tables, columns and rule kinds a QC rule may use',
        response: { 200: restOk(qcCatalogue) },
      },
    },
    async (req) => ok(describeCatalogue(req.locale)),
  );

  // Rules
  r.get(
    `${P}/rules`,
    {
      config: id('DataQcRule.query'),
      schema: {
        tags,
        summary: 'QC rules of the app',
        querystring: listQuery,
        response: { 200: restOk(qcPage(qcRule)) },
      },
    },
    async (req) => ok(await listRules(app.db, actorOf(req.ctx).appId, req.query)),
  );
  r.post(
    `${P}/rules`,
    {
      config: id('DataQcRule.add'),
      schema: { tags, summary: 'Create a QC rule', body: ruleInput, response: { 200: restOk(qcRule) } },
    },
    async (req) => ok(await createRule(app.db, actorOf(req.ctx), req.body)),
  );
  r.get(
    `${P}/rules/:ruleId`,
    {
      config: { ...id('DataQcRule.get'), ownedIds: ownedRuleIds },
      schema: { tags, summary: 'A QC rule', params: ruleParams, response: { 200: restOk(qcRule) } },
    },
    async (req) => ok(ruleView(await ruleOf(app.db, actorOf(req.ctx).appId, req.params.ruleId))),
  );
  r.put(
    `${P}/rules/:ruleId`,
    {
      config: { ...id('DataQcRule.edit'), ownedIds: ownedRuleIds },
      schema: {
        tags,
        summary: 'Change a QC rule',
        params: ruleParams,
        body: ruleInput,
        response: { 200: restOk(qcRule) },
      },
    },
    async (req) => ok(await updateRule(app.db, actorOf(req.ctx), req.params.ruleId, req.body)),
  );
  r.delete(
    `${P}/rules/:ruleId`,
    {
      config: { ...id('DataQcRule.delete'), ownedIds: ownedRuleIds },
      schema: {
        tags,
        summary: 'Delete a QC rule (plans lose it; past reports keep it)',
        params: ruleParams,
        response: { 200: restOk(qcDeleted) },
      },
    },
    async (req) => ok(await deleteRule(app.db, actorOf(req.ctx), req.params.ruleId)),
  );
  for (const action of ['enable', 'disable'] as const) {
    r.post(
      `${P}/rules/:ruleId/${action}`,
      {
        config: { ...id(`DataQcRule.${action}`), ownedIds: ownedRuleIds },
        schema: {
          tags,
          summary: `${action === 'enable' ? 'Enable' : 'Disable'} a QC rule`,
          params: ruleParams,
          response: { 200: restOk(qcRule) },
        },
      },
      async (req) =>
        ok(await setRuleEnabled(app.db, actorOf(req.ctx), req.params.ruleId, action === 'enable')),
    );
  }

  // Plans
  r.get(
    `${P}/plans`,
    {
      config: id('DataQcPlan.query'),
      schema: {
        tags,
        summary: 'QC plans of the app',
        querystring: listQuery,
        response: { 200: restOk(qcPage(qcPlan)) },
      },
    },
    async (req) => ok(await listPlans(app.db, actorOf(req.ctx).appId, req.query)),
  );
  r.post(
    `${P}/plans`,
    {
      config: id('DataQcPlan.add'),
      schema: {
        tags,
        summary: 'Create a QC plan of enabled rules',
        body: planInput,
        response: { 200: restOk(qcPlan) },
      },
    },
    async (req) => ok(await createPlan(app.db, actorOf(req.ctx), req.body)),
  );
  r.get(
    `${P}/plans/:planId`,
    {
      config: { ...id('DataQcPlan.get'), ownedIds: ownedPlanIds },
      schema: {
        tags,
        summary: 'A QC plan with its rules',
        params: planParams,
        response: { 200: restOk(qcPlan) },
      },
    },
    async (req) => ok(await planOf(app.db, actorOf(req.ctx).appId, req.params.planId)),
  );
  r.put(
    `${P}/plans/:planId`,
    {
      config: { ...id('DataQcPlan.edit'), ownedIds: ownedPlanIds },
      schema: {
        tags,
        summary: 'Change a QC plan',
        params: planParams,
        body: planInput,
        response: { 200: restOk(qcPlan) },
      },
    },
    async (req) => ok(await updatePlan(app.db, actorOf(req.ctx), req.params.planId, req.body)),
  );
  r.delete(
    `${P}/plans/:planId`,
    {
      config: { ...id('DataQcPlan.delete'), ownedIds: ownedPlanIds },
      schema: {
        tags,
        summary: 'Delete a QC plan (its tasks and reports stay)',
        params: planParams,
        response: { 200: restOk(qcDeleted) },
      },
    },
    async (req) => ok(await deletePlan(app.db, actorOf(req.ctx), req.params.planId)),
  );
  for (const action of ['enable', 'disable'] as const) {
    r.post(
      `${P}/plans/:planId/${action}`,
      {
        config: { ...id(`DataQcPlan.${action}`), ownedIds: ownedPlanIds },
        schema: {
          tags,
          summary: `${action === 'enable' ? 'Enable' : 'Disable'} a QC plan`,
          params: planParams,
          response: { 200: restOk(qcPlan) },
        },
      },
      async (req) =>
        ok(await setPlanEnabled(app.db, actorOf(req.ctx), req.params.planId, action === 'enable')),
    );
  }

  // Tasks
  r.get(
    `${P}/tasks`,
    {
      config: id('DataQcTask.query'),
      schema: {
        tags,
        summary: 'QC tasks of the app with their status',
        querystring: pageQuery,
        response: { 200: restOk(qcPage(qcTask)) },
      },
    },
    async (req) => ok(await listTasks(app.db, actorOf(req.ctx).appId, req.query, false, req.locale)),
  );
  r.post(
    `${P}/tasks`,
    {
      config: id('DataQcTask.add'),
      schema: {
        tags,
        summary: 'Run a QC plan (a background job)',
        body: taskInput,
        response: { 200: restOk(qcTask) },
      },
    },
    async (req) => {
      const task = await requestTask(app.db, actorOf(req.ctx), req.body.planId);
      app.jobs.nudge();
      return ok(task);
    },
  );
  r.get(
    `${P}/tasks/:taskId`,
    {
      config: { ...id('DataQcTask.get'), ownedIds: ownedTaskIds },
      schema: {
        tags,
        summary: 'A QC task with its status and totals',
        params: taskParams,
        response: { 200: restOk(qcTask) },
      },
    },
    async (req) => ok(await taskOf(app.db, actorOf(req.ctx).appId, req.params.taskId, req.locale)),
  );
  r.delete(
    `${P}/tasks/:taskId`,
    {
      config: { ...id('DataQcTask.delete'), ownedIds: ownedTaskIds },
      schema: {
        tags,
        summary: 'Delete a finished QC task and its findings',
        params: taskParams,
        response: { 200: restOk(qcDeleted) },
      },
    },
    async (req) => ok(await deleteTask(app.db, actorOf(req.ctx), req.params.taskId)),
  );

  // Reports
  r.get(
    `${P}/reports`,
    {
      config: id('DataQcReport.query'),
      schema: {
        tags,
        summary: 'Finished QC tasks, whose reports can be read',
        querystring: pageQuery,
        response: { 200: restOk(qcPage(qcTask)) },
      },
    },
    async (req) => ok(await listTasks(app.db, actorOf(req.ctx).appId, req.query, true, req.locale)),
  );
  r.get(
    `${P}/reports/:taskId`,
    {
      config: { ...id('DataQcReport.get'), ownedIds: ownedTaskIds },
      schema: {
        tags,
        summary: 'Pass rate per rule and overall of a QC task',
        params: taskParams,
        response: { 200: restOk(qcReport) },
      },
    },
    async (req) => ok(await reportOf(app.db, actorOf(req.ctx).appId, req.params.taskId, req.locale)),
  );
  r.get(
    `${P}/reports/:taskId/faults`,
    {
      config: { ...id('DataQcReport.get'), ownedIds: ownedTaskIds },
      schema: {
        tags,
        summary: 'Rows at fault of a QC task, with their patient, paged',
        params: taskParams,
        querystring: faultQuery,
        response: { 200: restOk(qcPage(qcFault)) },
      },
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
      await auditRead(req.ctx, {
        entity: 'data_qc_faults',
        entityId: req.params.taskId,
        detail: {
          filters: filterNames(req.query, ['taskRuleId', 'keyword']),
          page: page.page,
          size: page.size,
          count: page.items.length,
          total: page.total,
        },
      });
      return ok(page);
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
