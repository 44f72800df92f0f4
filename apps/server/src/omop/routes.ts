import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import {
  omopEmptyBody as emptyBody,
  fileDownload,
  omopMappingImportInput as mappingImportInput,
  omopMappingInput as mappingInput,
  omopMappingParams as mappingParams,
  omopMappingQuery as mappingQuery,
  omopImportReport,
  omopMapping,
  omopMappingPage,
  omopRule,
  omopRuleList,
  omopTask,
  omopTaskPage,
  omopRuleInput as ruleInput,
  omopRuleParams as ruleParams,
  omopRulePatch as rulePatch,
  omopTaskInput as taskInput,
  omopTaskParams as taskParams,
  omopTaskPatch as taskPatch,
  omopTaskQuery as taskQuery,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../audit/audit.js';
import { appActor } from '../http/context.js';
import { CSV_TYPE, loadFirst, sendAttachment } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import { EXPORT_KIND, exportJob } from './export.js';
import {
  createMapping,
  deleteMapping,
  exportMappingsCsv,
  importMappings,
  listMappings,
  loadMapping,
  ownedMappingIds,
  updateMapping,
} from './mappings.js';
import {
  createRule,
  deleteRule,
  enableRule,
  listRules,
  loadRule,
  ownedRuleIds,
  updateRule,
  writeDefaults,
} from './rules.js';
import { deleteTask, listTasks, loadTask, ownedTaskIds, startTask, taskFile, updateTask } from './tasks.js';

const P = '/api/v0.1/omop';

/**
 * The OMOP CDM area (`/omop-cdm/*`): source-to-concept maps (OmopMappingManage), table rules
 * (OmopActiveMappingRule) and export tasks (OmopActiveMappingTask). See README.md.
 */
export async function omopRoutes(app: FastifyInstance) {
  app.jobs.handle(EXPORT_KIND, exportJob(app.config.dataDir));
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['omop'];
  const api = restRoutes(app, { tags });
  const M = (action: string) => ({ apiId: `OmopMappingManage.${action}` });
  const R = (action: string) => ({ apiId: `OmopActiveMappingRule.${action}` });
  const T = (action: string) => ({ apiId: `OmopActiveMappingTask.${action}` });
  // A change to another app's map, rule or task answers 404 before its body is looked at.
  const mappingFirst = loadFirst(mappingParams, (req, p) =>
    loadMapping(app.db, appActor(req.ctx), p.mappingId),
  );
  const ruleFirst = loadFirst(ruleParams, (req, p) => loadRule(app.db, appActor(req.ctx), p.ruleId));
  const taskFirst = loadFirst(taskParams, (req, p) => loadTask(app.db, appActor(req.ctx), p.taskId));

  // Mappings
  api.get(
    `${P}/mappings`,
    {
      access: M('query'),
      summary: 'Source-to-concept maps of the app, with the built-in ones',
      query: mappingQuery,
      answer: omopMappingPage,
    },
    (req) => listMappings(app.db, appActor(req.ctx), req.query),
  );
  api.post(
    `${P}/mappings`,
    { access: M('add'), summary: 'Add a source-to-concept map', body: mappingInput, answer: omopMapping },
    (req) => createMapping(app.db, appActor(req.ctx), req.body),
  );
  api.post(
    `${P}/mappings/import`,
    {
      access: M('import'),
      summary: 'Import maps from CSV (kind, source_code, concept_id, concept_name[, note]); all rows or none',
      body: mappingImportInput,
      bodyLimit: 8 * 1024 * 1024,
      answer: omopImportReport,
    },
    (req) => importMappings(app.db, appActor(req.ctx), app.parsing, req.body),
  );
  r.get(
    `${P}/mappings/export`,
    {
      config: { access: M('export') },
      schema: { tags, summary: 'The app’s maps as CSV', response: { 200: fileDownload } },
    },
    async (req, reply) => {
      const actor = appActor(req.ctx);
      await audit(app.db, actor, { action: 'omop.mapping.export', entity: 'omop_mapping' });
      const body = Readable.from(exportMappingsCsv(app.db, actor));
      return sendAttachment(reply, { type: CSV_TYPE, name: 'omop-mappings.csv', body });
    },
  );
  api.get(
    `${P}/mappings/:mappingId`,
    {
      access: M('get'),
      ownedIds: ownedMappingIds,
      summary: 'A source-to-concept map',
      params: mappingParams,
      answer: omopMapping,
    },
    (req) => loadMapping(app.db, appActor(req.ctx), req.params.mappingId),
  );
  api.put(
    `${P}/mappings/:mappingId`,
    {
      access: M('edit'),
      ownedIds: ownedMappingIds,
      summary: 'Change a source-to-concept map',
      params: mappingParams,
      body: mappingInput,
      preValidation: mappingFirst,
      answer: omopMapping,
    },
    (req) => updateMapping(app.db, appActor(req.ctx), req.params.mappingId, req.body),
  );
  api.delete(
    `${P}/mappings/:mappingId`,
    {
      access: M('delete'),
      ownedIds: ownedMappingIds,
      summary: 'Delete a source-to-concept map',
      params: mappingParams,
      answer: z.null(),
    },
    (req) => deleteMapping(app.db, appActor(req.ctx), req.params.mappingId),
  );

  // Rules
  api.get(
    `${P}/rules`,
    {
      access: R('query'),
      summary: 'Rules in effect (built-in until the app changes one)',
      answer: omopRuleList,
    },
    (req) => listRules(app.db, appActor(req.ctx)),
  );
  api.post(
    `${P}/rules/defaults`,
    {
      access: R('add'),
      summary: 'Write the built-in rules for the app (once; later calls change nothing)',
      body: emptyBody,
      answer: omopRuleList,
    },
    (req) => writeDefaults(app.db, appActor(req.ctx)),
  );
  api.post(
    `${P}/rules`,
    { access: R('add'), summary: 'Add a rule of the catalogue', body: ruleInput, answer: omopRule },
    (req) => createRule(app.db, appActor(req.ctx), req.body),
  );
  api.get(
    `${P}/rules/:ruleId`,
    { access: R('get'), ownedIds: ownedRuleIds, summary: 'A rule', params: ruleParams, answer: omopRule },
    (req) => loadRule(app.db, appActor(req.ctx), req.params.ruleId),
  );
  api.put(
    `${P}/rules/:ruleId`,
    {
      access: R('edit'),
      ownedIds: ownedRuleIds,
      summary: 'Rename a rule or change its note',
      params: ruleParams,
      body: rulePatch,
      preValidation: ruleFirst,
      answer: omopRule,
    },
    (req) => updateRule(app.db, appActor(req.ctx), req.params.ruleId, req.body),
  );
  api.delete(
    `${P}/rules/:ruleId`,
    {
      access: R('delete'),
      ownedIds: ownedRuleIds,
      summary: 'Delete a rule',
      params: ruleParams,
      answer: z.null(),
    },
    (req) => deleteRule(app.db, appActor(req.ctx), req.params.ruleId),
  );
  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    api.post(
      `${P}/rules/:ruleId/${action}`,
      {
        access: R(action),
        ownedIds: ownedRuleIds,
        summary: `${action === 'enable' ? 'Enable' : 'Disable'} a rule`,
        params: ruleParams,
        body: emptyBody,
        preValidation: ruleFirst,
        answer: omopRule,
      },
      (req) => enableRule(app.db, appActor(req.ctx), req.params.ruleId, enabled),
    );

  // Tasks
  api.get(
    `${P}/tasks`,
    { access: T('query'), summary: 'Export tasks of the app', query: taskQuery, answer: omopTaskPage },
    (req) => listTasks(app.db, appActor(req.ctx), req.query),
  );
  api.post(
    `${P}/tasks`,
    {
      access: T('add'),
      summary: 'Start an export of the clinical data as OMOP CDM v5.4 (a job)',
      body: taskInput,
      answer: omopTask,
    },
    async (req) => {
      const task = await startTask(app.db, appActor(req.ctx), req.body);
      app.jobs.nudge();
      return task;
    },
  );
  api.get(
    `${P}/tasks/:taskId`,
    {
      access: T('get'),
      ownedIds: ownedTaskIds,
      summary: 'An export task with its status, counts and unmapped codes',
      params: taskParams,
      answer: omopTask,
    },
    (req) => loadTask(app.db, appActor(req.ctx), req.params.taskId),
  );
  api.put(
    `${P}/tasks/:taskId`,
    {
      access: T('edit'),
      ownedIds: ownedTaskIds,
      summary: 'Rename a task or change its note',
      params: taskParams,
      body: taskPatch,
      preValidation: taskFirst,
      answer: omopTask,
    },
    (req) => updateTask(app.db, appActor(req.ctx), req.params.taskId, req.body),
  );
  api.delete(
    `${P}/tasks/:taskId`,
    {
      access: T('delete'),
      ownedIds: ownedTaskIds,
      summary: 'Delete a finished task and its file',
      params: taskParams,
      answer: z.null(),
    },
    (req) => deleteTask(app.db, appActor(req.ctx), req.params.taskId, app.config.dataDir),
  );
  r.get(
    `${P}/tasks/:taskId/download`,
    {
      config: { access: T('get'), ownedIds: ownedTaskIds },
      schema: {
        tags,
        summary: 'The ZIP of CDM CSV files of a succeeded task',
        params: taskParams,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const actor = appActor(req.ctx);
      const f = await taskFile(app.db, actor, req.params.taskId, app.config.dataDir);
      await audit(app.db, actor, {
        action: 'omop.task.download',
        entity: 'omop_task',
        entityId: req.params.taskId,
      });
      return sendAttachment(reply, {
        type: 'application/zip',
        name: f.fileName,
        body: createReadStream(f.file),
      });
    },
  );
}
