import {
  ruleActionTargetList,
  ruleAttributeList,
  ruleAttributeListBody,
  ruleAttributeSearchBody,
  ruleDetail,
  ruleIdBody,
  ruleList,
  ruleListBody,
  ruleRegression,
  ruleRegressionBody,
  ruleResultPage,
  ruleResultsBody,
  ruleRunBody,
  ruleRunList,
  ruleRunListBody,
  ruleRunStarted,
  ruleSample,
  ruleSampleDeleteBody,
  ruleSampleSaveBody,
  ruleSaveBody,
  ruleTestBody,
  ruleTestResult,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { forbiddenFunction } from '../http/errors.js';
import { restRoutes } from '../http/route.js';
import { actionTargets, attributeList, searchAttributes } from './attributes.js';
import { deleteRule, ruleDetail as detailOf, listRules, saveRule } from './rules.js';
import { listRuns, RULES_JOB_KIND, rulesJob, runResults, startRun } from './runs.js';
import { deleteSample, regressionOf, saveSample, testSample } from './samples.js';

const P = '/api/v0.1/rule';

/**
 * The clinical rule engine (DataQcClinicalRule): the eight `rule/*` calls of spec 000 §7 at
 * their paths, plus the rule's detail, delete, regression, and runs over a cohort as a job.
 */
export async function ruleRoutes(app: FastifyInstance) {
  app.jobs.handle(RULES_JOB_KIND, rulesJob);
  const db = app.db;
  const api = restRoutes(app, { tags: ['rules'] });
  const A = (action: string) => ({ apiId: `DataQcClinicalRule.${action}` });

  api.post(
    `${P}/rule_info_list`,
    {
      access: A('query'),
      summary: 'The app’s clinical rules (page, keyword, status)',
      body: ruleListBody,
      answer: ruleList,
    },
    (req) => listRules(db, signedIn(req.ctx).appId, req.body),
  );
  api.post(
    `${P}/get_attribute_list`,
    {
      access: A('query'),
      summary:
        'Every attribute a condition may name: patient fields, lab items, diagnoses, visits, computed indicators',
      body: ruleAttributeListBody,
      answer: ruleAttributeList,
    },
    async (req) => {
      const s = signedIn(req.ctx);
      const all = await attributeList(db, s.appId, s.locale);
      return { items: req.body.origin ? all.filter((a) => a.origin === req.body.origin) : all };
    },
  );
  api.post(
    `${P}/conditional_retrieval_attribute`,
    {
      access: A('query'),
      summary: 'Attributes for a condition whose name or template contains the keyword',
      body: ruleAttributeSearchBody,
      answer: ruleAttributeList,
    },
    async (req) => {
      const s = signedIn(req.ctx);
      return { items: await searchAttributes(db, s.appId, s.locale, req.body.keyword, req.body.limit) };
    },
  );
  api.post(
    `${P}/action_retrieval_attribute`,
    {
      access: A('query'),
      summary: 'What an action may point at: derived attributes and tags in use, the app’s roles',
      body: ruleAttributeSearchBody,
      answer: ruleActionTargetList,
    },
    (req) => actionTargets(db, signedIn(req.ctx).appId, req.body.keyword, req.body.limit),
  );
  api.post(
    `${P}/saverule`,
    {
      access: A('edit'),
      summary:
        'Save a rule (new without rule_id, which also needs the add function); publish reruns its samples',
      description:
        'With publish: true, every saved test sample is rerun; when some now disagree the answer is 409 naming them unless confirm: true.',
      body: ruleSaveBody,
      answer: ruleDetail,
    },
    (req) => {
      const s = signedIn(req.ctx);
      if (!req.body.rule_id && !s.apiIds.has('DataQcClinicalRule.add'))
        throw forbiddenFunction('DataQcClinicalRule.add');
      return saveRule(s, req.body);
    },
  );
  api.post(
    `${P}/executethe_test_sample`,
    {
      access: A('get'),
      summary: 'Run a rule (or the draft on screen) on one sample and explain each condition',
      body: ruleTestBody,
      answer: ruleTestResult,
    },
    (req) => testSample(signedIn(req.ctx), req.body),
  );
  api.post(
    `${P}/save_sample_result`,
    {
      access: A('edit'),
      summary: 'Keep a test sample (a patient or hand-made values) with the outcome the rule should give',
      body: ruleSampleSaveBody,
      answer: ruleSample,
    },
    (req) => saveSample(signedIn(req.ctx), req.body),
  );
  api.post(
    `${P}/delete_sample_result`,
    {
      access: A('edit'),
      summary: 'Delete a test sample',
      body: ruleSampleDeleteBody,
      answer: z.literal(true),
    },
    (req) => deleteSample(signedIn(req.ctx), req.body),
  );
  api.post(
    `${P}/rule_info`,
    {
      access: A('get'),
      summary: 'A rule with its conditions, actions and samples',
      body: ruleIdBody,
      answer: ruleDetail,
    },
    (req) => detailOf(db, signedIn(req.ctx).appId, req.body.rule_id),
  );
  api.post(
    `${P}/delete_rule`,
    {
      access: A('delete'),
      summary: 'Delete a rule, its samples and results',
      body: ruleIdBody,
      answer: z.literal(true),
    },
    (req) => deleteRule(signedIn(req.ctx), req.body.rule_id),
  );
  api.post(
    `${P}/regression`,
    {
      access: A('get'),
      summary: 'Rerun every saved sample against the rule (or a draft of its conditions)',
      body: ruleRegressionBody,
      answer: ruleRegression,
    },
    (req) => regressionOf(signedIn(req.ctx), req.body),
  );
  api.post(
    `${P}/run`,
    {
      access: A('edit'),
      summary: 'Run rules over a cohort (all patients, a disease library, or criteria) as a job',
      body: ruleRunBody,
      answer: ruleRunStarted,
    },
    async (req) => {
      const started = await startRun(signedIn(req.ctx), req.body);
      app.jobs.nudge();
      return started;
    },
  );
  api.post(
    `${P}/run_list`,
    {
      access: A('query'),
      summary: 'The latest runs (of one rule)',
      body: ruleRunListBody,
      answer: ruleRunList,
    },
    (req) => listRuns(db, signedIn(req.ctx).appId, req.body),
  );
  api.post(
    `${P}/run_results`,
    {
      access: A('query'),
      summary: 'One page of a run’s results: faults, derived values, tags, notices per patient',
      body: ruleResultsBody,
      answer: ruleResultPage,
    },
    (req) => runResults(db, signedIn(req.ctx).appId, req.body),
  );
}
