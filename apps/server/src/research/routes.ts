import {
  cohortCriteriaSchema,
  researchAnalysis,
  researchAnalysisQueued,
  researchAppUser,
  researchCatalogueItem,
  researchCatalogueQuery,
  researchCrfForm,
  researchCrfItems,
  researchCriteriaCount,
  researchDataset,
  researchDatasetQueued,
  researchDatasetRows,
  researchMoved,
  researchProjectData,
  researchProjectType,
  researchProjectTypeRecord,
  researchRecruited,
  researchReport,
  researchStatusTable,
  researchSubjectList,
  researchSubjectRecord,
  researchSubjectView,
  researchTaskResult,
  researchTaskResultInput,
  researchTeam,
  researchTypePatch,
  restOk,
} from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditRead } from '../audit/audit.js';
import { countPatients } from '../cohort/compile.js';
import { notFound } from '../http/errors.js';
import { ANALYSIS_KIND, analysisJob, listAnalyses, requestAnalysis, taskResult } from './analysis.js';
import { variableCatalogue } from './catalogue.js';
import { projectData, subjectReport } from './cohort-data.js';
import { latestVersionOf, publishedForms } from './crf-items.js';
import {
  buildDatasetJob,
  type Column,
  datasetOf,
  listDatasets,
  ownedDatasetIds,
  type Row,
  requestDataset,
} from './datasets.js';
import {
  analysisInput,
  datasetInput,
  datasetParams,
  listQuery,
  membersInput,
  moveInput,
  recruitInput,
  subjectInput,
  subjectParams,
  subjectPatch,
  typeInput,
  typeParams,
} from './inputs.js';
import { statisticsRoutes } from './statistics.js';
import { TRANSITIONS } from './status.js';
import {
  actorOf,
  appUsers,
  createSubject,
  deleteSubject,
  listSubjects,
  moveSubject,
  ownedSubjectIds,
  recruit,
  setMembers,
  subjectDetail,
  subjectOf,
  updateSubject,
} from './subjects.js';
import { createType, deleteType, listTypes, ownedTypeCodes, typeExists, updateType } from './types.js';

const ok = <T>(data: T) => ({ code: 200 as const, data, message: 'ok' });
/** The answer of a delete: `data` is null. */
const deleted = { 200: restOk(z.null()) };
const paging = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(20),
};

/** Research subjects: `/api/v0.1/research/...` and the task-result call of the model service. */
export async function researchRoutes(app: FastifyInstance) {
  app.jobs.handle('research.dataset', buildDatasetJob);
  app.jobs.handle(ANALYSIS_KIND, analysisJob);
  await statisticsRoutes(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['research'];
  /** Another app's subject is not found, whatever the body says: ownership is checked before the body. */
  const ownSubject = async (req: FastifyRequest) => {
    const id = Number((req.params as { id?: string }).id);
    if (Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 && req.auth)
      await subjectOf(app.db, req.auth.appId, id);
  };
  const ownType = async (req: FastifyRequest) => {
    const code = String((req.params as { code?: string }).code ?? '');
    if (
      req.auth &&
      /^[a-zA-Z][a-zA-Z0-9-]{0,39}$/.test(code) &&
      !(await typeExists(app.db, req.auth.appId, code))
    )
      throw notFound('research_project_type');
  };
  const owned = { ownedIds: ownedSubjectIds };

  r.get(
    '/api/v0.1/research/status-table',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Allowed status moves of a research subject',
        response: { 200: restOk(researchStatusTable) },
      },
    },
    async () => ok(TRANSITIONS),
  );

  r.get(
    '/api/v0.1/research/types',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Project types: built-in and the app’s own',
        response: { 200: restOk(z.array(researchProjectType)) },
      },
    },
    async (req) => ok(await listTypes(app.db, req.auth!.appId, req.locale)),
  );
  r.post(
    '/api/v0.1/research/types',
    {
      config: { access: { apiId: 'ResearchProjectType.add' } },
      schema: {
        tags,
        summary: 'Add a project type',
        body: typeInput,
        response: { 200: restOk(researchProjectTypeRecord) },
      },
    },
    async (req) => ok(await createType(app.db, actorOf(req.ctx), req.body)),
  );
  r.put(
    '/api/v0.1/research/types/:code',
    {
      config: { access: { apiId: 'ResearchProjectType.edit' }, ownedIds: ownedTypeCodes },
      preValidation: ownType,
      schema: {
        tags,
        summary: 'Rename a project type',
        params: typeParams,
        body: researchTypePatch,
        response: { 200: restOk(researchProjectTypeRecord) },
      },
    },
    async (req) => ok(await updateType(app.db, actorOf(req.ctx), req.params.code, req.body)),
  );
  r.delete(
    '/api/v0.1/research/types/:code',
    {
      config: { access: { apiId: 'ResearchProjectType.delete' }, ownedIds: ownedTypeCodes },
      preValidation: ownType,
      schema: { tags, summary: 'Delete an unused project type', params: typeParams, response: deleted },
    },
    async (req) => {
      await deleteType(app.db, actorOf(req.ctx), req.params.code);
      return ok(null);
    },
  );

  r.post(
    '/api/v0.1/research/criteria/count',
    {
      config: { access: { apiId: 'ResearchCreateSubject.add' } },
      schema: {
        tags,
        summary: 'How many patients of the app the criteria match',
        body: cohortCriteriaSchema,
        response: { 200: restOk(researchCriteriaCount) },
      },
    },
    async (req) => ok({ count: await countPatients(app.db, req.auth!.appId, req.body) }),
  );
  r.get(
    '/api/v0.1/research/variable-catalogue',
    {
      config: { access: { apiId: 'ResearchCreateSubject.add' } },
      schema: {
        tags,
        summary: "Candidate variables from the app's clinical data (lab items, diagnosis categories)",
        querystring: researchCatalogueQuery,
        response: { 200: restOk(z.array(researchCatalogueItem)) },
      },
    },
    async (req) => ok(await variableCatalogue(app.db, req.auth!.appId, req.query)),
  );

  r.get(
    '/api/v0.1/research/subjects',
    {
      config: { access: { apiId: 'ResearchSubjectList.query' } },
      schema: {
        tags,
        summary: 'Subjects of the app',
        querystring: listQuery,
        response: { 200: restOk(researchSubjectList) },
      },
    },
    async (req) => ok(await listSubjects(app.db, req.auth!.appId, req.query, req.locale)),
  );
  r.post(
    '/api/v0.1/research/subjects',
    {
      config: { access: { apiId: 'ResearchCreateSubject.add' } },
      schema: {
        tags,
        summary: 'Create a subject (staged)',
        body: subjectInput,
        response: { 200: restOk(researchSubjectRecord) },
      },
    },
    async (req) => ok(await createSubject(app.db, actorOf(req.ctx), req.body)),
  );
  r.get(
    '/api/v0.1/research/subjects/:id',
    {
      config: { access: { apiId: 'ResearchSubjectList.get' }, ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'A subject with members, status history and allowed moves',
        params: subjectParams,
        response: { 200: restOk(researchSubjectView) },
      },
    },
    async (req) => {
      const actor = actorOf(req.ctx);
      const d = await subjectDetail(app.db, actor, req.params.id);
      const canManageMembers = d.myRole === 'pi' || actor.apiIds.has('ResearchSubjectList.edit');
      return ok({ ...d, canManageMembers });
    },
  );
  r.put(
    '/api/v0.1/research/subjects/:id/members',
    {
      // The PI manages the team even without the edit function; the check is in setMembers.
      config: { access: 'session', ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'Replace the members of a subject (PI or the subject edit function)',
        params: subjectParams,
        body: membersInput,
        response: { 200: restOk(researchTeam) },
      },
    },
    async (req) => ok(await setMembers(app.db, actorOf(req.ctx), req.params.id, req.body)),
  );
  r.get(
    '/api/v0.1/research/subjects/:id/crf-items',
    {
      config: { access: { apiId: 'ResearchDataReduction.query' }, ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'Items of the subject’s CRF form (latest published version) that can be dataset columns',
        params: subjectParams,
        response: { 200: restOk(researchCrfItems) },
      },
    },
    async (req) => {
      const s = await subjectOf(app.db, req.auth!.appId, req.params.id);
      const form = s.crfFormId ? await latestVersionOf(app.db, req.auth!.appId, s.crfFormId) : null;
      return ok(form);
    },
  );
  r.get(
    '/api/v0.1/research/users',
    {
      config: { access: { apiId: 'ResearchSubjectList.query' } },
      schema: {
        tags,
        summary: 'Users of the app, to pick a subject’s PI and members',
        response: { 200: restOk(z.array(researchAppUser)) },
      },
    },
    async (req) => ok(await appUsers(app.db, req.auth!.appId)),
  );
  r.get(
    '/api/v0.1/research/crf-forms',
    {
      config: { access: { apiId: 'ResearchSubjectList.query' } },
      schema: {
        tags,
        summary: 'Published CRF forms of the app a subject may use',
        response: { 200: restOk(z.array(researchCrfForm)) },
      },
    },
    async (req) => ok(await publishedForms(app.db, req.auth!.appId)),
  );
  r.patch(
    '/api/v0.1/research/subjects/:id',
    {
      config: { access: { apiId: 'ResearchSubjectList.edit' }, ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'Change a subject (design only before data preparation)',
        params: subjectParams,
        body: subjectPatch,
        response: { 200: restOk(researchSubjectRecord) },
      },
    },
    async (req) => ok(await updateSubject(app.db, actorOf(req.ctx), req.params.id, req.body)),
  );
  r.delete(
    '/api/v0.1/research/subjects/:id',
    {
      config: { access: { apiId: 'ResearchSubjectList.delete' }, ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'Delete a staged or closed subject',
        params: subjectParams,
        response: deleted,
      },
    },
    async (req) => {
      await deleteSubject(app.db, actorOf(req.ctx), req.params.id);
      return ok(null);
    },
  );
  r.post(
    '/api/v0.1/research/subjects/:id/status',
    {
      config: { access: { apiId: 'ResearchSubjectList.edit' }, ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'Move a subject to another status',
        params: subjectParams,
        body: moveInput,
        response: { 200: restOk(researchMoved) },
      },
    },
    async (req) =>
      ok(await moveSubject(app.db, actorOf(req.ctx), req.params.id, req.body.to, req.body.reason)),
  );
  r.post(
    '/api/v0.1/research/subjects/:id/recruit',
    {
      config: { access: { apiId: 'ResearchSubjectList.edit' }, ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'Recruit patients by the criteria or by id',
        params: subjectParams,
        body: recruitInput,
        response: { 200: restOk(researchRecruited) },
      },
    },
    async (req) => ok(await recruit(app.db, actorOf(req.ctx), req.params.id, req.body)),
  );
  r.get(
    '/api/v0.1/research/subjects/:id/data',
    {
      config: { access: { apiId: 'ResearchProjectData.query' }, ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'The enrolled cohort by variables',
        params: subjectParams,
        querystring: z.object(paging),
        response: { 200: restOk(researchProjectData) },
      },
    },
    async (req) => {
      const data = await projectData(app.db, actorOf(req.ctx), req.params.id, req.query);
      await auditRead(req.ctx, {
        entity: 'research_patient_list',
        entityId: req.params.id,
        detail: {
          page: req.query.page,
          size: req.query.size,
          count: data.patients.items.length,
          total: data.patients.total,
        },
      });
      return ok(data);
    },
  );
  r.get(
    '/api/v0.1/research/subjects/:id/report',
    {
      config: { access: { apiId: 'ResearchReport.get' }, ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'Recruitment, completeness and key statistics',
        params: subjectParams,
        response: { 200: restOk(researchReport) },
      },
    },
    async (req) => ok(await subjectReport(app.db, actorOf(req.ctx), req.params.id)),
  );
  r.get(
    '/api/v0.1/research/subjects/:id/datasets',
    {
      config: { access: { apiId: 'ResearchDataReduction.query' }, ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'Analysis datasets of a subject',
        params: subjectParams,
        response: { 200: restOk(z.array(researchDataset)) },
      },
    },
    async (req) => ok(await listDatasets(app.db, req.auth!.appId, req.params.id)),
  );
  r.post(
    '/api/v0.1/research/subjects/:id/datasets',
    {
      config: { access: { apiId: 'ResearchDataReduction.edit' }, ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'Build an analysis dataset (a background job)',
        params: subjectParams,
        body: datasetInput,
        response: { 200: restOk(researchDatasetQueued) },
      },
    },
    async (req) => {
      const out = await requestDataset(app.db, actorOf(req.ctx), req.params.id, req.body);
      app.jobs.nudge();
      return ok(out);
    },
  );
  r.get(
    '/api/v0.1/research/subjects/:id/datasets/:datasetId',
    {
      config: {
        access: { apiId: 'ResearchDataReduction.query' },
        ownedIds: ownedDatasetIds,
      },
      schema: {
        tags,
        summary: 'A dataset with its rows',
        params: datasetParams,
        response: { 200: restOk(researchDatasetRows) },
      },
    },
    async (req) => {
      const ds = await datasetOf(app.db, req.auth!.appId, req.params.id, req.params.datasetId);
      await auditRead(req.ctx, {
        entity: 'research_dataset',
        entityId: ds.id,
        detail: { subjectId: req.params.id, rowCount: ds.rowCount },
      });
      return ok({
        id: ds.id,
        name: ds.name,
        status: ds.status,
        columns: ds.columns as Column[],
        rows: ds.rows as Row[],
        rowCount: ds.rowCount,
        jobId: ds.jobId,
        builtAt: ds.builtAt?.toISOString() ?? null,
      });
    },
  );
  r.get(
    '/api/v0.1/research/subjects/:id/analyses',
    {
      config: { access: { apiId: 'ResearchAnalysisMiningIndex.query' }, ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'Analyses run on a subject',
        params: subjectParams,
        response: { 200: restOk(z.array(researchAnalysis)) },
      },
    },
    async (req) => ok(await listAnalyses(app.db, req.auth!.appId, req.params.id, req.locale)),
  );
  r.post(
    '/api/v0.1/research/subjects/:id/analyses',
    {
      config: { access: { apiId: 'ResearchAnalysisMiningIndex.query' }, ...owned },
      preValidation: ownSubject,
      schema: {
        tags,
        summary: 'Run an analysis on a dataset (a background job)',
        params: subjectParams,
        body: analysisInput,
        response: { 200: restOk(researchAnalysisQueued) },
      },
    },
    async (req) => {
      const out = await requestAnalysis(app.db, actorOf(req.ctx), req.params.id, req.body);
      app.jobs.nudge();
      return ok(out);
    },
  );
  r.post(
    '/api/v0.1/get_value_task_result',
    {
      config: { access: { apiId: 'ResearchAnalysisMiningIndex.query' } },
      schema: {
        tags,
        summary: 'Status and result of an analysis or dataset task (spec: task_id = job id)',
        body: researchTaskResultInput,
        response: { 200: restOk(researchTaskResult) },
      },
    },
    async (req) => ok(await taskResult(app.db, req.auth!.appId, req.body.task_id, req.locale)),
  );
}
