import {
  fileDownload,
  recordQcDepartmentList,
  recordQcDoctorScoreList,
  recordQcDocumentPage,
  recordQcDocumentsBody,
  recordQcExportQuery,
  recordQcFaultPage,
  recordQcFaultsBody,
  recordQcIdBody,
  recordQcPlan,
  recordQcPlanList,
  recordQcPlanSaveBody,
  recordQcRule,
  recordQcRuleList,
  recordQcRuleSaveBody,
  recordQcRunBody,
  recordQcScoreList,
  recordQcTaskIdBody,
  recordQcTaskList,
  recordQcTaskStarted,
  recordQcTrend,
  recordQcTrendBody,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { audit } from '../audit/audit.js';
import { csvText } from '../files/csv.js';
import { xlsxBuffer } from '../files/xlsx.js';
import { signedIn } from '../http/context.js';
import { CSV_TYPE, sendAttachment, XLSX_TYPE } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  deletePlan,
  departments,
  doctorScores,
  documentScores,
  exportRows,
  listFaults,
  listPlans,
  listRules,
  listTasks,
  RECORD_QC_JOB_KIND,
  recordQcJob,
  savePlan,
  saveRule,
  scores,
  startTask,
  trend,
} from './service.js';

const P = '/api/v0.1/record-qc';

/** Medical-record QC (病历质控): the check catalogue per app, plans, and tasks run as jobs. */
export async function recordQcRoutes(app: FastifyInstance) {
  app.jobs.handle(RECORD_QC_JOB_KIND, recordQcJob);
  const db = app.db;
  const api = restRoutes(app, { tags: ['record-qc'] });
  const A = (menu: string, action: string) => ({ apiId: `RecordQc${menu}.${action}` });

  api.post(
    `${P}/rule/list`,
    {
      access: A('Rule', 'query'),
      summary: 'The built-in checks with this app’s switches and parameters',
      body: z.object({}).strict(),
      answer: recordQcRuleList,
    },
    async (req) => ({ items: await listRules(db, signedIn(req.ctx).appId) }),
  );
  api.post(
    `${P}/rule/save`,
    {
      access: A('Rule', 'edit'),
      summary: 'Turn a check on or off and set its parameters (hours, required sections, points)',
      body: recordQcRuleSaveBody,
      answer: recordQcRule,
    },
    (req) => saveRule(signedIn(req.ctx), req.body),
  );
  api.post(
    `${P}/plan/list`,
    {
      access: A('Plan', 'query'),
      summary: 'The app’s QC plans',
      body: z.object({}).strict(),
      answer: recordQcPlanList,
    },
    (req) => listPlans(db, signedIn(req.ctx).appId),
  );
  api.post(
    `${P}/plan/departments`,
    {
      access: A('Plan', 'query'),
      summary: 'The departments of the app’s inpatient stays, for a plan’s scope',
      body: z.object({}).strict(),
      answer: recordQcDepartmentList,
    },
    (req) => departments(db, signedIn(req.ctx).appId),
  );
  api.post(
    `${P}/plan/save`,
    {
      access: A('Plan', 'edit'),
      summary: 'Save a plan: checks and scope (new without id, which also needs the add function)',
      body: recordQcPlanSaveBody,
      answer: recordQcPlan,
    },
    (req) => savePlan(signedIn(req.ctx), req.body),
  );
  api.post(
    `${P}/plan/delete`,
    {
      access: A('Plan', 'delete'),
      summary: 'Delete a plan (its tasks stay)',
      body: recordQcIdBody,
      answer: z.literal(true),
    },
    (req) => deletePlan(signedIn(req.ctx), req.body.id),
  );
  api.post(
    `${P}/task/run`,
    {
      access: A('Task', 'add'),
      summary: 'Run a plan’s enabled checks over its scope as a job',
      body: recordQcRunBody,
      answer: recordQcTaskStarted,
    },
    async (req) => {
      const started = await startTask(signedIn(req.ctx), req.body.plan_id);
      app.jobs.nudge();
      return started;
    },
  );
  api.post(
    `${P}/task/list`,
    {
      access: A('Task', 'query'),
      summary: 'The latest QC tasks with their job’s status and progress',
      body: z.object({}).strict(),
      answer: recordQcTaskList,
    },
    (req) => listTasks(db, signedIn(req.ctx).appId),
  );
  api.post(
    `${P}/task/faults`,
    {
      access: A('Task', 'get'),
      summary: 'One page of a task’s faults (of one department)',
      body: recordQcFaultsBody,
      answer: recordQcFaultPage,
    },
    (req) => listFaults(db, signedIn(req.ctx).appId, req.body, req.ctx.locale),
  );
  api.post(
    `${P}/task/scores`,
    {
      access: A('Task', 'get'),
      summary: 'Scores per department: each visit 100 minus its faults’ points (not below 0), averaged',
      body: recordQcTaskIdBody,
      answer: recordQcScoreList,
    },
    async (req) => ({ items: await scores(db, signedIn(req.ctx).appId, req.body.task_id) }),
  );
  api.post(
    `${P}/task/doctors`,
    {
      access: A('Task', 'get'),
      summary:
        'Scores per doctor: each stay the doctor answers for (in charge, wrote a note, operated) 100 minus the points of the faults laid to the doctor, averaged; worst first',
      body: recordQcTaskIdBody,
      answer: recordQcDoctorScoreList,
    },
    async (req) => ({ items: await doctorScores(db, signedIn(req.ctx).appId, req.body.task_id) }),
  );
  api.post(
    `${P}/task/documents`,
    {
      access: A('Task', 'get'),
      summary: 'One page of the task’s documents with faults: 100 minus their points, worst first',
      body: recordQcDocumentsBody,
      answer: recordQcDocumentPage,
    },
    (req) => documentScores(db, signedIn(req.ctx).appId, req.body),
  );
  api.post(
    `${P}/task/trend`,
    {
      access: A('Task', 'get'),
      summary: 'The score per admission month of the task’s stays (of one department): the trend',
      body: recordQcTrendBody,
      answer: recordQcTrend,
    },
    async (req) => ({ items: await trend(db, signedIn(req.ctx).appId, req.body) }),
  );
  app.get(
    `${P}/task/export`,
    {
      config: { access: { apiId: 'RecordQcTask.export' } },
      schema: {
        tags: ['record-qc'],
        summary: 'A task’s faults as CSV or XLSX (format=csv|xlsx)',
        querystring: recordQcExportQuery,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const ctx = signedIn(req.ctx);
      const q = recordQcExportQuery.parse(req.query);
      const rows = await exportRows(db, ctx.appId, q.task_id, req.ctx.locale);
      // The faults name patients: keep a trace of who took them out.
      await audit(db, ctx, {
        action: 'recordQc.task.export',
        entity: 'record_qc_task',
        entityId: q.task_id,
        after: { rows: rows.length - 1, format: q.format },
      });
      if (q.format === 'xlsx')
        return sendAttachment(reply, {
          type: XLSX_TYPE,
          name: `record-qc-${q.task_id}.xlsx`,
          body: await xlsxBuffer([
            { name: req.ctx.locale === 'zh-CN' ? '质控缺陷' : 'Faults', rows: [rows] },
          ]),
        });
      return sendAttachment(reply, {
        type: CSV_TYPE,
        name: `record-qc-${q.task_id}.csv`,
        body: csvText(rows, { formulaGuard: true }),
      });
    },
  );
}
