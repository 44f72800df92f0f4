import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Locale } from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../audit/audit.js';
import { EXPORT_KIND, exportJob } from './export.js';
import {
  actorOf,
  createMapping,
  deleteMapping,
  exportMappingsCsv,
  importMappings,
  listMappings,
  loadMapping,
  mappingImportInput,
  mappingInput,
  mappingQuery,
  ownedMappingIds,
  updateMapping,
} from './mappings.js';
import {
  createRule,
  deleteRule,
  emptyBody,
  enableRule,
  listRules,
  loadRule,
  ownedRuleIds,
  ruleInput,
  rulePatch,
  updateRule,
  writeDefaults,
} from './rules.js';
import {
  deleteTask,
  listTasks,
  loadTask,
  ownedTaskIds,
  startTask,
  taskFile,
  taskInput,
  taskPatch,
  taskQuery,
  updateTask,
} from './tasks.js';

const ok = <T>(data: T) => ({ code: 200, data, message: 'ok' });
const P = '/api/v0.1/omop';
const serialId = z.coerce.number().int().positive().max(2_147_483_647);
const mappingParams = z.object({ mappingId: serialId });
const ruleParams = z.object({ ruleId: serialId });
const taskParams = z.object({ taskId: serialId });

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

  // Mappings
  r.get(
    `${P}/mappings`,
    {
      config: { access: M('query') },
      schema: {
        tags,
        summary: 'Source-to-concept maps of the app, with the built-in ones',
        querystring: mappingQuery,
      },
    },
    async (req) => ok(await listMappings(app.db, actorOf(req), req.query)),
  );
  r.post(
    `${P}/mappings`,
    {
      config: { access: M('add') },
      schema: { tags, summary: 'Add a source-to-concept map', body: mappingInput },
    },
    async (req) => ok(await createMapping(app.db, req, actorOf(req), req.body)),
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
      },
    },
    async (req) => ok(await importMappings(app.db, req, actorOf(req), req.body)),
  );
  r.get(
    `${P}/mappings/export`,
    { config: { access: M('export') }, schema: { tags, summary: 'The app’s maps as CSV' } },
    async (req, reply) => {
      const actor = actorOf(req);
      await audit(app.db, req, { action: 'omop.mapping.export', entity: 'omop_mapping' });
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="omop-mappings.csv"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(exportMappingsCsv(app.db, actor)));
    },
  );
  r.get(
    `${P}/mappings/:mappingId`,
    {
      config: { access: M('get'), ownedIds: ownedMappingIds },
      schema: { tags, summary: 'A source-to-concept map', params: mappingParams },
    },
    async (req) => ok(await loadMapping(app.db, actorOf(req), req.params.mappingId)),
  );
  r.put(
    `${P}/mappings/:mappingId`,
    {
      config: { access: M('edit'), ownedIds: ownedMappingIds },
      schema: { tags, summary: 'Change a source-to-concept map', params: mappingParams, body: mappingInput },
      // Another app's id answers 404 before its body is looked at.
      preValidation: async (req) => {
        const p = mappingParams.safeParse(req.params);
        if (p.success) await loadMapping(app.db, actorOf(req), p.data.mappingId);
      },
    },
    async (req) => ok(await updateMapping(app.db, req, actorOf(req), req.params.mappingId, req.body)),
  );
  r.delete(
    `${P}/mappings/:mappingId`,
    {
      config: { access: M('delete'), ownedIds: ownedMappingIds },
      schema: { tags, summary: 'Delete a source-to-concept map', params: mappingParams },
    },
    async (req) => ok(await deleteMapping(app.db, req, actorOf(req), req.params.mappingId)),
  );

  // Rules
  r.get(
    `${P}/rules`,
    {
      config: { access: R('query') },
      schema: { tags, summary: 'Rules in effect (built-in until the app changes one)' },
    },
    async (req) => ok(await listRules(app.db, req, actorOf(req))),
  );
  r.post(
    `${P}/rules/defaults`,
    {
      config: { access: R('add') },
      schema: {
        tags,
        summary: 'Write the built-in rules for the app (once; later calls change nothing)',
        body: emptyBody,
      },
    },
    async (req) => ok(await writeDefaults(app.db, req, actorOf(req))),
  );
  r.post(
    `${P}/rules`,
    {
      config: { access: R('add') },
      schema: { tags, summary: 'Add a rule of the catalogue', body: ruleInput },
    },
    async (req) => ok(await createRule(app.db, req, actorOf(req), req.body)),
  );
  r.get(
    `${P}/rules/:ruleId`,
    {
      config: { access: R('get'), ownedIds: ownedRuleIds },
      schema: { tags, summary: 'A rule', params: ruleParams },
    },
    async (req) => ok(await loadRule(app.db, actorOf(req), req.params.ruleId)),
  );
  r.put(
    `${P}/rules/:ruleId`,
    {
      config: { access: R('edit'), ownedIds: ownedRuleIds },
      schema: { tags, summary: 'Rename a rule or change its note', params: ruleParams, body: rulePatch },
      preValidation: async (req) => {
        const p = ruleParams.safeParse(req.params);
        if (p.success) await loadRule(app.db, actorOf(req), p.data.ruleId);
      },
    },
    async (req) => ok(await updateRule(app.db, req, actorOf(req), req.params.ruleId, req.body)),
  );
  r.delete(
    `${P}/rules/:ruleId`,
    {
      config: { access: R('delete'), ownedIds: ownedRuleIds },
      schema: { tags, summary: 'Delete a rule', params: ruleParams },
    },
    async (req) => ok(await deleteRule(app.db, req, actorOf(req), req.params.ruleId)),
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
        },
        preValidation: async (req) => {
          const p = ruleParams.safeParse(req.params);
          if (p.success) await loadRule(app.db, actorOf(req), p.data.ruleId);
        },
      },
      async (req) => ok(await enableRule(app.db, req, actorOf(req), req.params.ruleId, enabled)),
    );

  // Tasks
  r.get(
    `${P}/tasks`,
    {
      config: { access: T('query') },
      schema: { tags, summary: 'Export tasks of the app', querystring: taskQuery },
    },
    async (req) => ok(await listTasks(app.db, actorOf(req), req.query, req.locale as Locale)),
  );
  r.post(
    `${P}/tasks`,
    {
      config: { access: T('add') },
      schema: {
        tags,
        summary: 'Start an export of the clinical data as OMOP CDM v5.4 (a job)',
        body: taskInput,
      },
    },
    async (req) => {
      const task = await startTask(app.db, req, actorOf(req), req.body);
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
      },
    },
    async (req) => ok(await loadTask(app.db, actorOf(req), req.params.taskId, req.locale as Locale)),
  );
  r.put(
    `${P}/tasks/:taskId`,
    {
      config: { access: T('edit'), ownedIds: ownedTaskIds },
      schema: { tags, summary: 'Rename a task or change its note', params: taskParams, body: taskPatch },
      preValidation: async (req) => {
        const p = taskParams.safeParse(req.params);
        if (p.success) await loadTask(app.db, actorOf(req), p.data.taskId, req.locale as Locale);
      },
    },
    async (req) => ok(await updateTask(app.db, req, actorOf(req), req.params.taskId, req.body)),
  );
  r.delete(
    `${P}/tasks/:taskId`,
    {
      config: { access: T('delete'), ownedIds: ownedTaskIds },
      schema: { tags, summary: 'Delete a finished task and its file', params: taskParams },
    },
    async (req) => ok(await deleteTask(app.db, req, actorOf(req), req.params.taskId, app.config.dataDir)),
  );
  r.get(
    `${P}/tasks/:taskId/download`,
    {
      config: { access: T('get'), ownedIds: ownedTaskIds },
      schema: { tags, summary: 'The ZIP of CDM CSV files of a succeeded task', params: taskParams },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const f = await taskFile(app.db, actor, req.params.taskId, app.config.dataDir);
      await audit(app.db, req, {
        action: 'omop.task.download',
        entity: 'omop_task',
        entityId: req.params.taskId,
      });
      reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(f.fileName)}`)
        .header('cache-control', 'private, no-store');
      return reply.send(createReadStream(f.file));
    },
  );
}
