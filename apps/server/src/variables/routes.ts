import {
  batchGroupBody,
  fileDownload,
  groupTemplateApplyBody,
  startedJob,
  templateApplied,
  templateApplyBody,
  variable,
  variableCreate,
  variableDistribution,
  variableGroup,
  variableGroupCreate,
  variableGroupList,
  variableGroupParams,
  variableGroupPatch,
  variableGroupTemplate,
  variableGroupTemplateCreate,
  variableGroupTemplateList,
  variableGroupTemplatePatch,
  variableLibraryParams,
  variableList,
  variableParams,
  variablePatch,
  variableQuery,
  variableSet,
  variableSetCreate,
  variableSetList,
  variableSetPatch,
  variableTemplate,
  variableTemplateCreate,
  variableTemplateList,
  variableTemplatePatch,
  variableTransferRule,
  variableTransferRuleCreate,
  variableTransferRuleList,
  variableTransferRulePatch,
  variableTransferRunBody,
  variableTransferRunList,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { csvText } from '../files/csv.js';
import { signedIn } from '../http/context.js';
import { CSV_TYPE, ownedPath, sendAttachment } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  addVariableGroup,
  deleteVariableGroup,
  editVariableGroup,
  listVariableGroups,
  ownedVariableGroupIds,
  variableGroupRow,
} from './groups.js';
import {
  addVariableSet,
  deleteVariableSet,
  editVariableSet,
  listVariableSets,
  ownedVariableSetIds,
  variableSetRow,
} from './sets.js';
import {
  addVariableGroupTemplate,
  addVariableTemplate,
  applyVariableGroupTemplate,
  applyVariableTemplate,
  batchVariableGroups,
  deleteVariableGroupTemplate,
  deleteVariableTemplate,
  editVariableGroupTemplate,
  editVariableTemplate,
  listVariableGroupTemplates,
  listVariableTemplates,
  ownedVariableGroupTemplateIds,
  ownedVariableTemplateIds,
  variableGroupTemplateRow,
  variableTemplateRow,
} from './templates.js';
import {
  addTransferRule,
  deleteTransferRule,
  deleteTransferRun,
  editTransferRule,
  listTransferRules,
  listTransferRuns,
  ownedTransferRuleIds,
  ownedTransferRunIds,
  startTransfer,
  transferJob,
  transferRuleRow,
  transferRunCsvRows,
  transferRunRow,
  VARIABLE_TRANSFER_JOB,
} from './transfers.js';
import {
  addVariable,
  deleteVariable,
  variableDistribution as distributionOf,
  editVariable,
  listVariables,
  ownedVariableIds,
  variableRow,
} from './variables.js';

const P = '/api/v0.1/variables';

/**
 * The variable library (科研变量库): variables with their derivation from the clinical data and
 * their distribution on the current data. The list screen reads (VariableList), the management
 * screen writes (VariableManagement).
 */
export async function variableRoutes(app: FastifyInstance) {
  app.jobs.handle(VARIABLE_TRANSFER_JOB, transferJob);
  const db = app.db;
  const api = restRoutes(app, { tags: ['variables'] });
  const L = (action: string) => ({ apiId: `VariableList.${action}` });
  const M = (action: string) => ({ apiId: `VariableManagement.${action}` });
  const own = ownedPath(variableParams, ownedVariableIds, (appId, p) => variableRow(db, appId, p.id));

  api.get(
    P,
    {
      access: L('query'),
      summary: 'The app’s variables, by code, label or type',
      query: variableQuery,
      answer: variableList,
    },
    (req) => listVariables(db, signedIn(req.ctx).appId, req.query),
  );
  api.post(
    P,
    { access: M('add'), summary: 'Add a variable', body: variableCreate, answer: variable },
    (req) => addVariable(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${P}/:id`,
    { access: M('edit'), ...own, summary: 'Change a variable', body: variablePatch, answer: variable },
    (req) => editVariable(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${P}/:id`,
    { access: M('delete'), ...own, summary: 'Delete a variable', answer: z.literal(true) },
    (req) => deleteVariable(signedIn(req.ctx), req.params.id),
  );
  api.get(
    `${P}/:id/distribution`,
    {
      access: L('get'),
      ...own,
      summary:
        'A variable’s values over the app’s current patients (count, missing, min/median/max or categories)',
      answer: variableDistribution,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      return distributionOf(db, ctx.appId, req.params.id, ctx.locale);
    },
  );

  // Variable groups (变量组列表).
  const G = '/api/v0.1/variable-groups';
  const VG = (action: string) => ({ apiId: `VariableGroupList.${action}` });
  const ownGroup = ownedPath(variableGroupParams, ownedVariableGroupIds, (appId, p) =>
    variableGroupRow(db, appId, p.id),
  );
  api.get(
    G,
    {
      access: VG('query'),
      summary: 'The app’s variable groups with their variables',
      answer: variableGroupList,
    },
    (req) => listVariableGroups(db, signedIn(req.ctx).appId),
  );
  api.post(
    G,
    { access: VG('add'), summary: 'Add a variable group', body: variableGroupCreate, answer: variableGroup },
    (req) => addVariableGroup(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${G}/:id`,
    {
      access: VG('edit'),
      ...ownGroup,
      summary: 'Change a variable group (its variables in order)',
      body: variableGroupPatch,
      answer: variableGroup,
    },
    (req) => editVariableGroup(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${G}/:id`,
    {
      access: VG('delete'),
      ...ownGroup,
      summary: 'Delete a variable group (its variables stay)',
      answer: z.literal(true),
    },
    (req) => deleteVariableGroup(signedIn(req.ctx), req.params.id),
  );

  await variableLibraryMoreRoutes(app);
}

/** Templates, group templates, batch groups, sets, transfer rules and their runs (issue 20). */
async function variableLibraryMoreRoutes(app: FastifyInstance) {
  const db = app.db;
  const api = restRoutes(app, { tags: ['variables'] });
  const A = (menu: string, action: string) => ({ apiId: `${menu}.${action}` });
  const owned = <R>(
    ids: (db: typeof app.db, appId: number) => Promise<Array<{ id: number }>>,
    row: (db: typeof app.db, appId: number, id: number) => Promise<R>,
  ) => ownedPath(variableLibraryParams, ids, (appId, p) => row(db, appId, p.id));
  const answerTrue = z.literal(true);

  // 变量模板
  const T = '/api/v0.1/variable-templates';
  const ownT = owned(ownedVariableTemplateIds, variableTemplateRow);
  api.get(
    T,
    {
      access: A('VariableTemplate', 'query'),
      summary: 'The app’s variable templates',
      answer: variableTemplateList,
    },
    (req) => listVariableTemplates(db, signedIn(req.ctx).appId),
  );
  api.post(
    T,
    {
      access: A('VariableTemplate', 'add'),
      summary: 'Add a variable template',
      body: variableTemplateCreate,
      answer: variableTemplate,
    },
    (req) => addVariableTemplate(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${T}/:id`,
    {
      access: A('VariableTemplate', 'edit'),
      ...ownT,
      summary: 'Change a variable template (variables made from it stay as they are)',
      body: variableTemplatePatch,
      answer: variableTemplate,
    },
    (req) => editVariableTemplate(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${T}/:id`,
    {
      access: A('VariableTemplate', 'delete'),
      ...ownT,
      summary: 'Delete a variable template (its variables stay)',
      answer: answerTrue,
    },
    (req) => deleteVariableTemplate(signedIn(req.ctx), req.params.id),
  );
  api.post(
    `${T}/:id/apply`,
    {
      access: A('VariableTemplate', 'add'),
      ...ownT,
      summary: 'Make the template’s variables for a list of items (codes the app has are reused)',
      body: templateApplyBody,
      answer: templateApplied,
    },
    (req) => applyVariableTemplate(signedIn(req.ctx), req.params.id, req.body),
  );

  // 变量组模板 and 批量变量组
  const GT = '/api/v0.1/variable-group-templates';
  const ownGT = owned(ownedVariableGroupTemplateIds, variableGroupTemplateRow);
  api.get(
    GT,
    {
      access: A('VariableGroupTemplate', 'query'),
      summary: 'The app’s variable group templates',
      answer: variableGroupTemplateList,
    },
    (req) => listVariableGroupTemplates(db, signedIn(req.ctx).appId),
  );
  api.post(
    GT,
    {
      access: A('VariableGroupTemplate', 'add'),
      summary: 'Add a variable group template',
      body: variableGroupTemplateCreate,
      answer: variableGroupTemplate,
    },
    (req) => addVariableGroupTemplate(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${GT}/:id`,
    {
      access: A('VariableGroupTemplate', 'edit'),
      ...ownGT,
      summary: 'Change a variable group template',
      body: variableGroupTemplatePatch,
      answer: variableGroupTemplate,
    },
    (req) => editVariableGroupTemplate(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${GT}/:id`,
    {
      access: A('VariableGroupTemplate', 'delete'),
      ...ownGT,
      summary: 'Delete a variable group template (groups made from it stay)',
      answer: answerTrue,
    },
    (req) => deleteVariableGroupTemplate(signedIn(req.ctx), req.params.id),
  );
  api.post(
    `${GT}/:id/apply`,
    {
      access: A('VariableGroupTemplate', 'add'),
      ...ownGT,
      summary: 'Make the templates’ variables for the items and collect them in one new group',
      body: groupTemplateApplyBody,
      answer: templateApplied,
    },
    (req) => applyVariableGroupTemplate(signedIn(req.ctx), req.params.id, req.body),
  );
  api.get(
    '/api/v0.1/variable-batch-groups/templates',
    {
      access: A('VariableBatchGroup', 'query'),
      summary: 'The group templates a batch may apply',
      answer: variableGroupTemplateList,
    },
    (req) => listVariableGroupTemplates(db, signedIn(req.ctx).appId),
  );
  api.post(
    '/api/v0.1/variable-batch-groups',
    {
      access: A('VariableBatchGroup', 'add'),
      summary: 'Apply a group template per item: one new group (and its variables) for each item',
      body: batchGroupBody,
      answer: templateApplied,
    },
    (req) => batchVariableGroups(signedIn(req.ctx), req.body),
  );

  // 变量集
  const S = '/api/v0.1/variable-sets';
  const ownS = owned(ownedVariableSetIds, variableSetRow);
  api.get(
    S,
    {
      access: A('VariableSet', 'query'),
      summary: 'The app’s variable sets with their variables',
      answer: variableSetList,
    },
    (req) => listVariableSets(db, signedIn(req.ctx).appId),
  );
  api.post(
    S,
    {
      access: A('VariableSet', 'add'),
      summary: 'Add a variable set (variables, and groups whose variables join it)',
      body: variableSetCreate,
      answer: variableSet,
    },
    (req) => addVariableSet(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${S}/:id`,
    {
      access: A('VariableSet', 'edit'),
      ...ownS,
      summary: 'Change a variable set',
      body: variableSetPatch,
      answer: variableSet,
    },
    (req) => editVariableSet(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${S}/:id`,
    { access: A('VariableSet', 'delete'), ...ownS, summary: 'Delete a variable set', answer: answerTrue },
    (req) => deleteVariableSet(signedIn(req.ctx), req.params.id),
  );

  // 转换规则
  const R = '/api/v0.1/variable-transfer-rules';
  const ownR = owned(ownedTransferRuleIds, transferRuleRow);
  api.get(
    R,
    {
      access: A('VariableTransferRule', 'query'),
      summary: 'The app’s transfer rules',
      answer: variableTransferRuleList,
    },
    (req) => listTransferRules(db, signedIn(req.ctx).appId),
  );
  api.post(
    R,
    {
      access: A('VariableTransferRule', 'add'),
      summary: 'Add a transfer rule',
      body: variableTransferRuleCreate,
      answer: variableTransferRule,
    },
    (req) => addTransferRule(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${R}/:id`,
    {
      access: A('VariableTransferRule', 'edit'),
      ...ownR,
      summary: 'Change a transfer rule',
      body: variableTransferRulePatch.omit({ enabled: true }),
      answer: variableTransferRule,
    },
    (req) => editTransferRule(signedIn(req.ctx), req.params.id, req.body),
  );
  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    api.post(
      `${R}/:id/${verb}`,
      {
        access: A('VariableTransferRule', verb),
        ...ownR,
        summary: enabled ? 'Enable a transfer rule' : 'Disable a transfer rule (it cannot run)',
        body: z.object({}).strict(),
        answer: variableTransferRule,
      },
      (req) => editTransferRule(signedIn(req.ctx), req.params.id, { enabled }),
    );
  api.delete(
    `${R}/:id`,
    {
      access: A('VariableTransferRule', 'delete'),
      ...ownR,
      summary: 'Delete a transfer rule (its runs stay)',
      answer: answerTrue,
    },
    (req) => deleteTransferRule(signedIn(req.ctx), req.params.id),
  );

  // 转换列表
  const RUN = '/api/v0.1/variable-transfer-runs';
  const ownRun = owned(ownedTransferRunIds, transferRunRow);
  api.get(
    RUN,
    {
      access: A('VariableTransferList', 'query'),
      summary: 'The latest transfer runs with their job’s status',
      answer: variableTransferRunList,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      return listTransferRuns(db, ctx.appId, ctx.locale);
    },
  );
  api.post(
    RUN,
    {
      access: A('VariableTransferList', 'add'),
      summary: 'Run an enabled transfer rule as a job',
      body: variableTransferRunBody,
      answer: startedJob,
    },
    async (req) => {
      const started = await startTransfer(signedIn(req.ctx), req.body.ruleId);
      app.jobs.nudge();
      return started;
    },
  );
  api.get(
    `${RUN}/:id/values.csv`,
    {
      access: A('VariableTransferList', 'get'),
      ...ownRun,
      summary: 'A run’s values as CSV (MRN, target code, value)',
      answer: fileDownload,
    },
    async (req, reply) => {
      const ctx = signedIn(req.ctx);
      const { run, rows } = await transferRunCsvRows(db, ctx.appId, req.params.id);
      return sendAttachment(reply, {
        type: CSV_TYPE,
        name: `transfer-${run.id}.csv`,
        body: csvText(rows, { formulaGuard: true }),
      });
    },
  );
  api.delete(
    `${RUN}/:id`,
    {
      access: A('VariableTransferList', 'delete'),
      ...ownRun,
      summary: 'Delete a finished run and its values',
      answer: answerTrue,
    },
    (req) => deleteTransferRun(signedIn(req.ctx), req.params.id),
  );
}
