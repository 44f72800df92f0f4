import { Readable } from 'node:stream';
import {
  CODING_KINDS,
  codedModelVariableList,
  codedModelVariableQuery,
  codelist,
  codelistParams,
  conceptHitList,
  conceptSearchQuery,
  DATA_MODEL_KINDS,
  type DataModelKind,
  dataModel,
  dataModelCreate,
  dataModelLinkList,
  dataModelList,
  dataModelParams,
  dataModelPatch,
  dataModelQuery,
  dataModelStandard,
  dataModelStandardList,
  dataModelStandardParams,
  dataModelTableCreate,
  dataModelTableParams,
  dataModelVariableInput,
  dataModelVariableParams,
  dataModelVariablePatch,
  fileDownload,
  groupableIndicatorList,
  indicatorGroup,
  indicatorGroupCreate,
  indicatorGroupList,
  indicatorGroupParams,
  indicatorGroupPatch,
  modelMappingPage,
  modelMappingQuery,
  modelMappingRemove,
  modelMappingSet,
  sdtmExportPreview,
  sdtmExportQuery,
  sdtmExportSubjectList,
} from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { audit } from '../audit/audit.js';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { streamZip } from '../files/zip.js';
import { signedIn } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { ownedPath, sendAttachment } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  codedVariables,
  modelMappings,
  removeModelMapping,
  searchCodes,
  setModelMapping,
} from './coding-mappings.js';
import {
  addIndicatorGroup,
  deleteIndicatorGroup,
  editIndicatorGroup,
  indicatorGroupRow,
  listIndicatorGroups,
  ownedIndicatorGroupIds,
} from './indicator-groups.js';
import {
  addDataModel,
  addTable,
  addVariable,
  dataModelRow,
  deleteDataModel,
  deleteTable,
  deleteVariable,
  editDataModel,
  editVariable,
  getDataModel,
  listDataModels,
  newVersion,
  ownedDataModelIds,
} from './models.js';
import { previewSdtm, sdtmExportEntries } from './sdtm-export.js';
import { codelistOf, listStandards, standardModel } from './standards.js';

const P = '/api/v0.1/data-models';

/** The screen whose functions guard the app's models of a kind. */
const KIND_SCREENS: Record<DataModelKind, { menu: string; path: string }> = {
  hospital: { menu: 'DataModelMaintenance', path: `${P}/hospital` },
  template: { menu: 'DataModelSpecialTemplate', path: `${P}/templates` },
};

async function modelOfKind(db: Db, appId: number, id: number, kind: DataModelKind) {
  const row = await dataModelRow(db, appId, id);
  if (row.kind !== kind) throw notFound('data_model');
  return row;
}

const idsOfKind =
  (kind: DataModelKind, what: 'model' | 'table' | 'variable') => async (db: Db, appId: number) => {
    if (what === 'model')
      return rowsOf<{ id: number }>(
        await db.execute(sql`select id from data_models where app_id = ${appId} and kind = ${kind} limit 3`),
      ).map((r) => ({ id: Number(r.id) }));
    if (what === 'table')
      return rowsOf<{ id: number; tableId: number }>(
        await db.execute(sql`select t.model_id as "id", t.id as "tableId" from data_model_tables t
        join data_models m on m.id = t.model_id where t.app_id = ${appId} and m.kind = ${kind} limit 3`),
      ).map((r) => ({ id: Number(r.id), tableId: Number(r.tableId) }));
    return rowsOf<{ id: number; variableId: number }>(
      await db.execute(sql`select v.model_id as "id", v.id as "variableId" from data_model_variables v
      join data_models m on m.id = v.model_id where v.app_id = ${appId} and m.kind = ${kind} limit 3`),
    ).map((r) => ({ id: Number(r.id), variableId: Number(r.variableId) }));
  };

async function links(db: Db, appId: number) {
  const named = (rows: Array<{ id: number; name: string }>) =>
    rows.map((r) => ({ id: Number(r.id), name: r.name }));
  return {
    diseases: named(
      rowsOf(
        await db.execute(
          sql`select disease_id as id, name from diseases where app_id = ${appId} order by name`,
        ),
      ),
    ),
    libraries: named(
      rowsOf(
        await db.execute(
          sql`select id, name from disease_libraries where app_id = ${appId} and deleted_at is null order by name`,
        ),
      ),
    ),
    subjects: named(
      rowsOf(
        await db.execute(
          sql`select id, name from research_subjects where app_id = ${appId} order by id desc`,
        ),
      ),
    ),
  };
}

/**
 * Data models (数据模型): the built-in CDISC models, the app's hospital models and disease model
 * templates, indicator groups, coding mappings per model variable, and the SDTM export of a
 * research subject with its define.xml. README.md beside this file.
 */
export async function dataModelRoutes(app: FastifyInstance) {
  const db = app.db;
  const api = restRoutes(app, { tags: ['data-models'] });
  const fn = (menu: string) => (action: string) => ({ apiId: `${menu}.${action}` });
  const C = fn('DataModelCdisc');
  const G = fn('DataModelManagements');

  // CDISC models (CDISC 模型).
  api.get(
    `${P}/standards`,
    {
      access: C('query'),
      summary: 'The built-in CDISC models with their source and version',
      answer: dataModelStandardList,
    },
    () => ({ items: listStandards() }),
  );
  api.get(
    `${P}/standard`,
    {
      access: C('get'),
      summary: 'A built-in CDISC model: its tables and variables',
      query: dataModelStandardParams,
      answer: dataModelStandard,
    },
    (req) => standardModel(req.query.key),
  );
  api.get(
    `${P}/codelist`,
    {
      access: C('get'),
      summary: 'A CDISC controlled terminology codelist and its terms',
      query: codelistParams,
      answer: codelist,
    },
    (req) => codelistOf(req.query.code),
  );

  // Every model of the app (数据模型管理).
  const own = ownedPath(dataModelParams, ownedDataModelIds, (appId, p) => dataModelRow(db, appId, p.id));
  api.get(
    P,
    {
      access: G('query'),
      summary: 'The app’s models of every kind',
      query: dataModelQuery,
      answer: dataModelList,
    },
    (req) => listDataModels(db, signedIn(req.ctx).appId, req.query),
  );
  api.get(
    `${P}/:id`,
    {
      access: G('get'),
      ...own,
      summary: 'One of the app’s models with its tables and variables',
      answer: dataModel,
    },
    (req) => getDataModel(db, signedIn(req.ctx).appId, req.params.id),
  );
  api.delete(
    `${P}/:id`,
    { access: G('delete'), ...own, summary: 'Delete a model version', answer: z.literal(true) },
    (req) => deleteDataModel(signedIn(req.ctx), req.params.id),
  );

  // SDTM export of a research subject.
  api.get(
    `${P}/sdtm-export/subjects`,
    {
      access: G('export'),
      summary: 'Research subjects that can be exported, with their recruited patients',
      answer: sdtmExportSubjectList,
    },
    async (req) => {
      const appId = signedIn(req.ctx).appId;
      const rows = rowsOf<{ id: number; name: string; patients: number }>(
        await db.execute(sql`select s.id, s.name, (select count(*)::int from research_enrolments e
          where e.subject_id = s.id) as patients from research_subjects s where s.app_id = ${appId} order by s.id desc`),
      );
      return { items: rows.map((r) => ({ id: Number(r.id), name: r.name, patients: Number(r.patients) })) };
    },
  );
  api.get(
    `${P}/sdtm-export/preview`,
    {
      access: G('export'),
      summary: 'The SDTM datasets an export of the subject would hold, with their row counts',
      query: sdtmExportQuery,
      answer: sdtmExportPreview,
    },
    (req) => previewSdtm(db, signedIn(req.ctx).appId, req.query),
  );
  app.get(
    `${P}/sdtm-export`,
    {
      config: { access: G('export') },
      schema: {
        tags: ['data-models'],
        summary: 'A ZIP of the subject’s SDTM datasets (CSV) and their define.xml (Define-XML 2.0)',
        querystring: sdtmExportQuery,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const ctx = signedIn(req.ctx);
      const q = req.query as z.output<typeof sdtmExportQuery>;
      const out = await sdtmExportEntries(db, ctx.appId, q);
      await audit(db, ctx, {
        action: 'dataModel.sdtm.export',
        entity: 'sdtm_export',
        entityId: q.subjectId,
        after: {
          subjectId: q.subjectId,
          modelId: q.modelId ?? null,
          patients: out.subject.patientIds.length,
          datasets: out.datasets,
        },
      });
      return sendAttachment(reply, {
        type: 'application/zip',
        name: out.fileName,
        body: Readable.from(streamZip(out.entries)),
      });
    },
  );

  // Hospital models (模型维护) and disease model templates (专病模型模板).
  for (const kind of DATA_MODEL_KINDS) {
    const { menu, path } = KIND_SCREENS[kind];
    const K = fn(menu);
    const ownM = ownedPath(dataModelParams, idsOfKind(kind, 'model'), (appId, p) =>
      modelOfKind(db, appId, p.id, kind),
    );
    const ownT = ownedPath(dataModelTableParams, idsOfKind(kind, 'table'), (appId, p) =>
      modelOfKind(db, appId, p.id, kind),
    );
    const ownV = ownedPath(dataModelVariableParams, idsOfKind(kind, 'variable'), (appId, p) =>
      modelOfKind(db, appId, p.id, kind),
    );
    api.get(
      path,
      {
        access: K('query'),
        summary: `The app’s ${kind} models`,
        query: dataModelQuery.omit({ kind: true }),
        answer: dataModelList,
      },
      (req) => listDataModels(db, signedIn(req.ctx).appId, { ...req.query, kind }),
    );
    api.get(
      `${path}/links`,
      {
        access: K('query'),
        summary: 'Diseases, disease libraries and research subjects a model can be for',
        answer: dataModelLinkList,
      },
      (req) => links(db, signedIn(req.ctx).appId),
    );
    api.get(
      `${path}/:id`,
      {
        access: K('get'),
        ...ownM,
        summary: `A ${kind} model with its tables and variables`,
        answer: dataModel,
      },
      (req) => getDataModel(db, signedIn(req.ctx).appId, req.params.id),
    );
    api.post(
      path,
      {
        access: K('add'),
        summary: `Add a ${kind} model: empty, or copied from a CDISC model or another model`,
        body: dataModelCreate.omit({ kind: true }),
        answer: dataModel,
      },
      (req) => addDataModel(signedIn(req.ctx), { ...req.body, kind }),
    );
    api.patch(
      `${path}/:id`,
      {
        access: K('edit'),
        ...ownM,
        summary: 'Change a model’s name, description or links',
        body: dataModelPatch,
        answer: dataModel,
      },
      (req) => editDataModel(signedIn(req.ctx), req.params.id, req.body),
    );
    api.delete(
      `${path}/:id`,
      { access: K('delete'), ...ownM, summary: 'Delete a model version', answer: z.literal(true) },
      (req) => deleteDataModel(signedIn(req.ctx), req.params.id),
    );
    api.post(
      `${path}/:id/versions`,
      {
        access: K('add'),
        ...ownM,
        summary: 'Make the next version of a model (a copy of the latest)',
        answer: dataModel,
      },
      (req) => newVersion(signedIn(req.ctx), req.params.id),
    );
    api.post(
      `${path}/:id/tables`,
      {
        access: K('edit'),
        ...ownM,
        summary: 'Add a table to a model',
        body: dataModelTableCreate,
        answer: dataModel,
      },
      (req) => addTable(signedIn(req.ctx), req.params.id, req.body),
    );
    api.delete(
      `${path}/:id/tables/:tableId`,
      { access: K('edit'), ...ownT, summary: 'Delete a table of a model', answer: dataModel },
      (req) => deleteTable(signedIn(req.ctx), req.params.id, req.params.tableId),
    );
    api.post(
      `${path}/:id/tables/:tableId/variables`,
      {
        access: K('edit'),
        ...ownT,
        summary: 'Add a variable to a model table',
        body: dataModelVariableInput,
        answer: dataModel,
      },
      (req) => addVariable(signedIn(req.ctx), req.params.id, req.params.tableId, req.body),
    );
    api.patch(
      `${path}/:id/variables/:variableId`,
      {
        access: K('edit'),
        ...ownV,
        summary: 'Change a model variable',
        body: dataModelVariablePatch,
        answer: dataModel,
      },
      (req) => editVariable(signedIn(req.ctx), req.params.id, req.params.variableId, req.body),
    );
    api.delete(
      `${path}/:id/variables/:variableId`,
      { access: K('edit'), ...ownV, summary: 'Delete a model variable', answer: dataModel },
      (req) => deleteVariable(signedIn(req.ctx), req.params.id, req.params.variableId),
    );
  }

  // Indicator groups (指标组).
  const I = fn('DataModelIndicatorGroups');
  const IG = '/api/v0.1/indicator-groups';
  const ownG = ownedPath(indicatorGroupParams, ownedIndicatorGroupIds, (appId, p) =>
    indicatorGroupRow(db, appId, p.id),
  );
  api.get(
    IG,
    {
      access: I('query'),
      summary: 'The app’s indicator groups with their indicators',
      answer: indicatorGroupList,
    },
    (req) => listIndicatorGroups(db, signedIn(req.ctx).appId),
  );
  api.get(
    `${IG}/indicators`,
    {
      access: I('query'),
      summary: 'The app’s computed indicators a group can hold',
      answer: groupableIndicatorList,
    },
    async (req) => {
      const rows = rowsOf<{ id: number; name: string; unit: string }>(
        await db.execute(
          sql`select id, name, unit from formulas where app_id = ${signedIn(req.ctx).appId} order by name`,
        ),
      );
      return { items: rows.map((r) => ({ id: Number(r.id), name: r.name, unit: r.unit })) };
    },
  );
  api.post(
    IG,
    {
      access: I('add'),
      summary: 'Add an indicator group',
      body: indicatorGroupCreate,
      answer: indicatorGroup,
    },
    (req) => addIndicatorGroup(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${IG}/:id`,
    {
      access: I('edit'),
      ...ownG,
      summary: 'Change an indicator group',
      body: indicatorGroupPatch,
      answer: indicatorGroup,
    },
    (req) => editIndicatorGroup(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${IG}/:id`,
    {
      access: I('delete'),
      ...ownG,
      summary: 'Delete an indicator group (its indicators stay)',
      answer: z.literal(true),
    },
    (req) => deleteIndicatorGroup(signedIn(req.ctx), req.params.id),
  );

  // Coding mappings per model variable (编码映射关系), the coding area's mappings.
  const M = fn('DataModelCodingMapping');
  api.get(
    `${P}/coding/variables`,
    {
      access: M('query'),
      summary: 'Model variables whose local values the coding area maps, with mapped counts',
      query: codedModelVariableQuery,
      answer: codedModelVariableList,
    },
    (req) => codedVariables(db, signedIn(req.ctx).appId, req.query),
  );
  api.get(
    `${P}/coding/mappings`,
    {
      access: M('query'),
      summary: 'The app’s mappings of a kind (local term → standard code), shared with the coding screens',
      query: modelMappingQuery,
      answer: modelMappingPage,
    },
    (req) => modelMappings(db, signedIn(req.ctx).appId, req.query),
  );
  api.post(
    `${P}/coding/mappings`,
    {
      access: M('edit'),
      summary: 'Map a local term to a standard code (or to no code)',
      body: modelMappingSet,
      answer: z.literal(true),
    },
    (req) => setModelMapping(signedIn(req.ctx), req.body),
  );
  api.get(
    `${P}/coding/codes`,
    {
      access: M('query'),
      summary: 'Standard codes of a coding kind’s system, for choosing a mapping',
      query: z.object({ kind: z.enum(CODING_KINDS), q: conceptSearchQuery.shape.q }),
      answer: conceptHitList,
    },
    (req) => searchCodes(db, signedIn(req.ctx).appId, req.query.kind, req.query.q),
  );
  api.post(
    `${P}/coding/mappings/remove`,
    {
      access: M('delete'),
      summary: 'Remove the mapping of a local term',
      body: modelMappingRemove,
      answer: z.literal(true),
    },
    (req) => removeModelMapping(signedIn(req.ctx), req.body),
  );
}
