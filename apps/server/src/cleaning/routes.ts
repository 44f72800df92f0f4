import {
  cleanedValuePage,
  cleanedValueQuery,
  cleaningEnabledBody,
  cleaningMarkResult,
  cleaningRule,
  cleaningRuleInput,
  cleaningRuleList,
  cleaningRuleParams,
  cleaningTask,
  cleaningTaskInput,
  cleaningTaskPage,
  cleaningTaskParams,
  cleaningTaskQuery,
  deletedId,
  markBody,
  paragraphBody,
  paragraphResult,
  patientCleanedParams,
  sampleBody,
  sampleResult,
  sentenceTestBody,
  sentenceTestResult,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { auditRead } from '../audit/audit.js';
import { ownedPatients } from '../clinical/routes-360.js';
import { signedIn } from '../http/context.js';
import { ownedPath } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  createRule,
  deleteRule,
  listRules,
  needAny,
  ownedRuleIds,
  RULE_READERS,
  ruleRow,
  setRuleEnabled,
  updateRule,
} from './rules.js';
import {
  CLEANING_TASK_KIND,
  cancelTask,
  createTask,
  deleteTask,
  ownedTaskIds,
  patientValues,
  rerunTask,
  taskJob,
  taskOf,
  taskRows,
  taskValues,
} from './tasks.js';
import { cleanParagraph, markExtraction, sampleTest, testSentences } from './try.js';

const P = '/api/v0.1/cleaning';

/** Data cleaning (数据清洗): rules, tries, samples, tasks and their values. See README.md. */
export async function cleaningRoutes(app: FastifyInstance) {
  const db = app.db;
  app.jobs.handle(CLEANING_TASK_KIND, taskJob);
  const api = restRoutes(app, { tags: ['cleaning'] });
  const ownRule = ownedPath(cleaningRuleParams, ownedRuleIds, (appId, p) => ruleRow(db, appId, p.ruleId));
  const ownTask = ownedPath(cleaningTaskParams, ownedTaskIds, (appId, p) => taskOf(db, appId, p.taskId));
  const RC = (action: string) => ({ apiId: `DataCleanRulesConfiguration.${action}` });

  // Rules.
  api.get(
    `${P}/rules`,
    {
      access: 'session',
      summary: 'Built-in and app cleaning rules (any screen of data cleaning that shows or runs rules)',
      answer: cleaningRuleList,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      needAny(ctx, RULE_READERS);
      return listRules(db, ctx.appId, ctx.locale);
    },
  );
  api.post(
    `${P}/rules`,
    {
      access: 'session',
      summary: 'Add a rule (rules page, or the regex / syntactic editor of its kind); a bad regex is a 400',
      body: cleaningRuleInput,
      answer: cleaningRule,
    },
    (req) => createRule(signedIn(req.ctx), req.body),
  );
  api.put(
    `${P}/rules/:ruleId`,
    {
      access: 'session',
      ...ownRule,
      summary: 'Change a rule (its kind stays)',
      body: cleaningRuleInput,
      answer: cleaningRule,
    },
    (req) => updateRule(signedIn(req.ctx), req.params.ruleId, req.body),
  );
  api.post(
    `${P}/rules/:ruleId/enabled`,
    {
      access: RC('enable'),
      ...ownRule,
      summary: 'Enable or disable a rule',
      body: cleaningEnabledBody,
      answer: cleaningRule,
    },
    (req) => setRuleEnabled(signedIn(req.ctx), req.params.ruleId, req.body.enabled),
  );
  api.delete(
    `${P}/rules/:ruleId`,
    { access: 'session', ...ownRule, summary: 'Delete a rule', answer: deletedId },
    (req) => deleteRule(signedIn(req.ctx), req.params.ruleId),
  );

  // Trying rules.
  api.post(
    `${P}/test/sentences`,
    {
      access: 'session',
      summary: 'Run rules (or a draft) on typed sentences: what each extracted and why (spans)',
      description:
        'Needs the sentence test, batch sentence test, regex text or a rule editor function. No rules named: the built-in and enabled app rules.',
      body: sentenceTestBody,
      answer: sentenceTestResult,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      needAny(ctx, [
        'DataCleanSentenceTest.query',
        'DataCleanManySentenceTest.query',
        'DataCleanRegText.query',
        'DataCleanSyntacticRules.query',
        'DataCleanRulesConfiguration.query',
      ]);
      return testSentences(ctx, req.body);
    },
  );
  api.post(
    `${P}/test/paragraph`,
    {
      access: { apiId: 'DataCleanParagraphClean.query' },
      summary: 'Split a document into its sections and run rules on each',
      body: paragraphBody,
      answer: paragraphResult,
    },
    (req) => cleanParagraph(signedIn(req.ctx), req.body),
  );
  api.post(
    `${P}/test/sample`,
    {
      access: { apiId: 'DataCleanManyTest.query' },
      summary: "Run rules on a sample of the app's documents, with the marks given and each rule's precision",
      body: sampleBody,
      answer: sampleResult,
    },
    async (req) => {
      const ctx = signedIn(req.ctx);
      const r = await sampleTest(ctx, req.body);
      await auditRead(ctx, {
        entity: 'document',
        detail: { sample: r.documents.length, documents: r.documents.map((d) => d.documentId) },
      });
      return r;
    },
  );
  api.put(
    `${P}/test/marks`,
    {
      access: { apiId: 'DataCleanManyTest.query' },
      summary: 'Mark one extraction of a sample correct or incorrect (null clears)',
      body: markBody,
      answer: cleaningMarkResult,
    },
    (req) => markExtraction(signedIn(req.ctx), req.body),
  );

  // Tasks.
  api.get(
    `${P}/tasks`,
    {
      access: { apiId: 'DataCleanTasksList.query' },
      summary: 'Cleaning tasks with status, progress and counts, newest first',
      query: cleaningTaskQuery,
      answer: cleaningTaskPage,
    },
    async (req) => {
      const ctx = signedIn(req.ctx);
      const r = await taskRows(db, ctx.appId, { ...req.query, locale: ctx.locale });
      return r;
    },
  );
  api.post(
    `${P}/tasks`,
    {
      access: { apiId: 'DataCleanCleaningTasks.add' },
      summary: 'Queue a cleaning task: a rule set over a scope of documents',
      body: cleaningTaskInput,
      answer: cleaningTask,
    },
    async (req) => {
      const t = await createTask(signedIn(req.ctx), req.body);
      app.jobs.nudge();
      return t;
    },
  );
  api.get(
    `${P}/tasks/:taskId`,
    {
      access: { apiId: 'DataCleanTasksList.get' },
      ...ownTask,
      summary: 'One cleaning task',
      answer: cleaningTask,
    },
    (req) => taskOf(db, signedIn(req.ctx).appId, req.params.taskId, req.ctx.locale),
  );
  api.post(
    `${P}/tasks/:taskId/rerun`,
    {
      access: { apiId: 'DataCleanTasksList.edit' },
      ...ownTask,
      summary: 'Run an ended task again (its values are replaced, never doubled)',
      answer: cleaningTask,
    },
    async (req) => {
      const t = await rerunTask(signedIn(req.ctx), req.params.taskId);
      app.jobs.nudge();
      return t;
    },
  );
  api.post(
    `${P}/tasks/:taskId/cancel`,
    {
      access: { apiId: 'DataCleanTasksList.edit' },
      ...ownTask,
      summary: 'Cancel a queued or running task (a running one stops after its batch)',
      answer: cleaningTask,
    },
    (req) => cancelTask(signedIn(req.ctx), req.params.taskId),
  );
  api.delete(
    `${P}/tasks/:taskId`,
    {
      access: { apiId: 'DataCleanTasksList.delete' },
      ...ownTask,
      summary: 'Delete an ended task and the values it wrote',
      answer: deletedId,
    },
    (req) => deleteTask(signedIn(req.ctx), req.params.taskId),
  );
  api.get(
    `${P}/tasks/:taskId/values`,
    {
      access: { apiId: 'DataCleanTasksList.get' },
      ...ownTask,
      summary: 'Values a task extracted, with their source sentence',
      query: cleanedValueQuery,
      answer: cleanedValuePage,
    },
    async (req) => {
      const ctx = signedIn(req.ctx);
      const r = await taskValues(db, ctx.appId, req.params.taskId, req.query);
      await auditRead(ctx, {
        entity: 'cleaning_task',
        entityId: req.params.taskId,
        detail: { values: r.items.length },
      });
      return r;
    },
  );
  api.get(
    '/api/v0.1/360/cleaned/:id',
    {
      access: { apiId: 'PersonalInHospitalView.get' },
      ...ownedPath(patientCleanedParams, ownedPatients, async () => {}),
      summary: "A patient's values read from clinical text, each with its source document and sentence",
      query: cleanedValueQuery,
      answer: cleanedValuePage,
    },
    async (req) => {
      const ctx = signedIn(req.ctx);
      const r = await patientValues(db, ctx.appId, req.params.id, req.query);
      await auditRead(ctx, {
        entity: 'patient',
        entityId: req.params.id,
        detail: { tab: 'cleaned' },
        onceWithinMinutes: 30,
      });
      return r;
    },
  );
}
