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
  restOk,
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
import { audit } from '../audit/audit.js';
import { appActor } from '../http/context.js';
import { CSV_TYPE, deletedResponse, loadFirst, ok, sendAttachment } from '../http/reply.js';
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
  r.get(
    `${P}/mappings`,
    {
      config: { access: M('query') },
      schema: {
        tags,
        summary: 'Source-to-concept maps of the app, with the built-in ones',
        querystring: mappingQuery,
        response: { 200: restOk(omopMappingPage) },
      },
    },
    async (req) => ok(await listMappings(app.db, appActor(req.ctx), req.query)),
  );
  r.post(
    `${P}/mappings`,
    {
      config: { access: M('add') },
      schema: {
        tags,
        summary: 'Add a source-to-concept map',
        body: mappingInput,
        response: { 200: restOk(omopMapping) },
      },
    },
    async (req) => ok(await createMapping(app.db, appActor(req.ctx), req.body)),
  );
  r.post(
    `${P}/mappings/import`,
    {
      config: { access: M('import') },
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        tags,
        summary:
          'Import maps from CSV (kind, source_code, concept_id, concept_name[, note]); all rows or none',
        body: mappingImportInput,
        response: { 200: restOk(omopImportReport) },
      },
    },
    async (req) => ok(await importMappings(app.db, appActor(req.ctx), app.parsing, req.body)),
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
  r.get(
    `${P}/mappings/:mappingId`,
    {
      config: { access: M('get'), ownedIds: ownedMappingIds },
      schema: {
        tags,
        summary: 'A source-to-concept map',
        params: mappingParams,
        response: { 200: restOk(omopMapping) },
      },
    },
    async (req) => ok(await loadMapping(app.db, appActor(req.ctx), req.params.mappingId)),
  );
  r.put(
    `${P}/mappings/:mappingId`,
    {
      config: { access: M('edit'), ownedIds: ownedMappingIds },
      schema: {
        tags,
        summary: 'Change a source-to-concept map',
        params: mappingParams,
        body: mappingInput,
        response: { 200: restOk(omopMapping) },
      },
      preValidation: mappingFirst,
    },
    async (req) => ok(await updateMapping(app.db, appActor(req.ctx), req.params.mappingId, req.body)),
  );
  r.delete(
    `${P}/mappings/:mappingId`,
    {
      config: { access: M('delete'), ownedIds: ownedMappingIds },
      schema: {
        tags,
        summary: 'Delete a source-to-concept map',
        params: mappingParams,
        response: deletedResponse,
      },
    },
    async (req) => ok(await deleteMapping(app.db, appActor(req.ctx), req.params.mappingId)),
  );

  // Rules
  r.get(
    `${P}/rules`,
    {
      config: { access: R('query') },
      schema: {
        tags,
        summary: 'Rules in effect (built-in until the app changes one)',
        response: { 200: restOk(omopRuleList) },
      },
    },
    async (req) => ok(await listRules(app.db, appActor(req.ctx))),
  );
  r.post(
    `${P}/rules/defaults`,
    {
      config: { access: R('add') },
      schema: {
        tags,
        summary: 'Write the built-in rules for the app (once; later calls change nothing)',
        body: emptyBody,
        response: { 200: restOk(omopRuleList) },
      },
    },
    async (req) => ok(await writeDefaults(app.db, appActor(req.ctx))),
  );
  r.post(
    `${P}/rules`,
    {
      config: { access: R('add') },
      schema: {
        tags,
        summary: 'Add a rule of the catalogue',
        body: ruleInput,
        response: { 200: restOk(omopRule) },
      },
    },
    async (req) => ok(await createRule(app.db, appActor(req.ctx), req.body)),
  );
  r.get(
    `${P}/rules/:ruleId`,
    {
      config: { access: R('get'), ownedIds: ownedRuleIds },
      schema: { tags, summary: 'A rule', params: ruleParams, response: { 200: restOk(omopRule) } },
    },
    async (req) => ok(await loadRule(app.db, appActor(req.ctx), req.params.ruleId)),
  );
  r.put(
    `${P}/rules/:ruleId`,
    {
      config: { access: R('edit'), ownedIds: ownedRuleIds },
      schema: {
        tags,
        summary: 'Rename a rule or change its note',
        params: ruleParams,
        body: rulePatch,
        response: { 200: restOk(omopRule) },
      },
      preValidation: ruleFirst,
    },
    async (req) => ok(await updateRule(app.db, appActor(req.ctx), req.params.ruleId, req.body)),
  );
  r.delete(
    `${P}/rules/:ruleId`,
    {
      config: { access: R('delete'), ownedIds: ownedRuleIds },
      schema: { tags, summary: 'Delete a rule', params: ruleParams, response: deletedResponse },
    },
    async (req) => ok(await deleteRule(app.db, appActor(req.ctx), req.params.ruleId)),
  );
  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    r.post(
      `${P}/rules/:ruleId/${action}`,
      {
        config: { access: R(action), ownedIds: ownedRuleIds },
        schema: {
          tags,
          summary: `${action === 'enable' ? 'Enable' : 'Disable'} a rule`,
          params: ruleParams,
          body: emptyBody,
          response: { 200: restOk(omopRule) },
        },
        preValidation: ruleFirst,
      },
      async (req) => ok(await enableRule(app.db, appActor(req.ctx), req.params.ruleId, enabled)),
    );

  // Tasks
  r.get(
    `${P}/tasks`,
    {
      config: { access: T('query') },
      schema: {
        tags,
        summary: 'Export tasks of the app',
        querystring: taskQuery,
        response: { 200: restOk(omopTaskPage) },
      },
    },
    async (req) => ok(await listTasks(app.db, appActor(req.ctx), req.query)),
  );
  r.post(
    `${P}/tasks`,
    {
      config: { access: T('add') },
      schema: {
        tags,
        summary: 'Start an export of the clinical data as OMOP CDM v5.4 (a job)',
        body: taskInput,
        response: { 200: restOk(omopTask) },
      },
    },
    async (req) => {
      const task = await startTask(app.db, appActor(req.ctx), req.body);
      app.jobs.nudge();
      return ok(task);
    },
  );
  r.get(
    `${P}/tasks/:taskId`,
    {
      config: { access: T('get'), ownedIds: ownedTaskIds },
      schema: {
        tags,
        summary: 'An export task with its status, counts and unmapped codes',
        params: taskParams,
        response: { 200: restOk(omopTask) },
      },
    },
    async (req) => ok(await loadTask(app.db, appActor(req.ctx), req.params.taskId)),
  );
  r.put(
    `${P}/tasks/:taskId`,
    {
      config: { access: T('edit'), ownedIds: ownedTaskIds },
      schema: {
        tags,
        summary: 'Rename a task or change its note',
        params: taskParams,
        body: taskPatch,
        response: { 200: restOk(omopTask) },
      },
      preValidation: taskFirst,
    },
    async (req) => ok(await updateTask(app.db, appActor(req.ctx), req.params.taskId, req.body)),
  );
  r.delete(
    `${P}/tasks/:taskId`,
    {
      config: { access: T('delete'), ownedIds: ownedTaskIds },
      schema: {
        tags,
        summary: 'Delete a finished task and its file',
        params: taskParams,
        response: deletedResponse,
      },
    },
    async (req) => ok(await deleteTask(app.db, appActor(req.ctx), req.params.taskId, app.config.dataDir)),
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
