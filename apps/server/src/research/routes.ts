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
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditPageRead, auditRead } from '../audit/audit.js';
import { countPatients } from '../cohort/compile.js';
import { notFound } from '../http/errors.js';
import { deleted, ownedPath } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
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

const paging = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(20),
};

/** Research subjects: `/api/v0.1/research/...` and the task-result call of the model service. */
export async function researchRoutes(app: FastifyInstance) {
  app.jobs.handle('research.dataset', buildDatasetJob);
  app.jobs.handle(ANALYSIS_KIND, analysisJob);
  await statisticsRoutes(app);
  const tags = ['research'];
  const api = restRoutes(app, { tags });
  /** Another app's subject or type is not found, whatever the body says: ownership is checked before the body. */
  const subjectPath = ownedPath(subjectParams, ownedSubjectIds, (appId, p) => subjectOf(app.db, appId, p.id));
  const typePath = ownedPath(typeParams, ownedTypeCodes, async (appId, p) => {
    if (!(await typeExists(app.db, appId, p.code))) throw notFound('research_project_type');
  });

  api.get(
    '/api/v0.1/research/status-table',
    { access: 'session', summary: 'Allowed status moves of a research subject', answer: researchStatusTable },
    () => TRANSITIONS,
  );

  api.get(
    '/api/v0.1/research/types',
    {
      access: 'session',
      summary: 'Project types: built-in and the app’s own',
      answer: z.array(researchProjectType),
    },
    (req) => listTypes(app.db, req.auth!.appId, req.locale),
  );
  api.post(
    '/api/v0.1/research/types',
    {
      access: { apiId: 'ResearchProjectType.add' },
      summary: 'Add a project type',
      body: typeInput,
      answer: researchProjectTypeRecord,
    },
    (req) => createType(app.db, actorOf(req.ctx), req.body),
  );
  api.put(
    '/api/v0.1/research/types/:code',
    {
      access: { apiId: 'ResearchProjectType.edit' },
      ...typePath,
      summary: 'Rename a project type',
      body: researchTypePatch,
      answer: researchProjectTypeRecord,
    },
    (req) => updateType(app.db, actorOf(req.ctx), req.params.code, req.body),
  );
  api.delete(
    '/api/v0.1/research/types/:code',
    {
      access: { apiId: 'ResearchProjectType.delete' },
      ...typePath,
      summary: 'Delete an unused project type',
      answer: z.null(),
    },
    (req) => deleted(deleteType(app.db, actorOf(req.ctx), req.params.code)),
  );

  api.post(
    '/api/v0.1/research/criteria/count',
    {
      access: { apiId: 'ResearchCreateSubject.add' },
      summary: 'How many patients of the app the criteria match',
      body: cohortCriteriaSchema,
      answer: researchCriteriaCount,
    },
    async (req) => ({ count: await countPatients(app.db, req.auth!.appId, req.body) }),
  );
  api.get(
    '/api/v0.1/research/variable-catalogue',
    {
      access: { apiId: 'ResearchCreateSubject.add' },
      summary: "Candidate variables from the app's clinical data (lab items, diagnosis categories)",
      query: researchCatalogueQuery,
      answer: z.array(researchCatalogueItem),
    },
    (req) => variableCatalogue(app.db, req.auth!.appId, req.query),
  );

  api.get(
    '/api/v0.1/research/subjects',
    {
      access: { apiId: 'ResearchSubjectList.query' },
      summary: 'Subjects of the app',
      query: listQuery,
      answer: researchSubjectList,
    },
    (req) => listSubjects(app.db, req.auth!.appId, req.query, req.locale),
  );
  api.post(
    '/api/v0.1/research/subjects',
    {
      access: { apiId: 'ResearchCreateSubject.add' },
      summary: 'Create a subject (staged)',
      body: subjectInput,
      answer: researchSubjectRecord,
    },
    (req) => createSubject(app.db, actorOf(req.ctx), req.body),
  );
  api.get(
    '/api/v0.1/research/subjects/:id',
    {
      access: { apiId: 'ResearchSubjectList.get' },
      ...subjectPath,
      summary: 'A subject with members, status history and allowed moves',
      answer: researchSubjectView,
    },
    async (req) => {
      const actor = actorOf(req.ctx);
      const d = await subjectDetail(app.db, actor, req.params.id);
      const canManageMembers = d.myRole === 'pi' || actor.apiIds.has('ResearchSubjectList.edit');
      return { ...d, canManageMembers };
    },
  );
  api.put(
    '/api/v0.1/research/subjects/:id/members',
    {
      // The PI manages the team even without the edit function; the check is in setMembers.
      access: 'session',
      ...subjectPath,
      summary: 'Replace the members of a subject (PI or the subject edit function)',
      body: membersInput,
      answer: researchTeam,
    },
    (req) => setMembers(app.db, actorOf(req.ctx), req.params.id, req.body),
  );
  api.get(
    '/api/v0.1/research/subjects/:id/crf-items',
    {
      access: { apiId: 'ResearchDataReduction.query' },
      ...subjectPath,
      summary: 'Items of the subject’s CRF form (latest published version) that can be dataset columns',
      answer: researchCrfItems,
    },
    async (req) => {
      const s = await subjectOf(app.db, req.auth!.appId, req.params.id);
      const form = s.crfFormId ? await latestVersionOf(app.db, req.auth!.appId, s.crfFormId) : null;
      return form;
    },
  );
  api.get(
    '/api/v0.1/research/users',
    {
      access: { apiId: 'ResearchSubjectList.query' },
      summary: 'Users of the app, to pick a subject’s PI and members',
      answer: z.array(researchAppUser),
    },
    (req) => appUsers(app.db, req.auth!.appId),
  );
  api.get(
    '/api/v0.1/research/crf-forms',
    {
      access: { apiId: 'ResearchSubjectList.query' },
      summary: 'Published CRF forms of the app a subject may use',
      answer: z.array(researchCrfForm),
    },
    (req) => publishedForms(app.db, req.auth!.appId),
  );
  api.patch(
    '/api/v0.1/research/subjects/:id',
    {
      access: { apiId: 'ResearchSubjectList.edit' },
      ...subjectPath,
      summary: 'Change a subject (design only before data preparation)',
      body: subjectPatch,
      answer: researchSubjectRecord,
    },
    (req) => updateSubject(app.db, actorOf(req.ctx), req.params.id, req.body),
  );
  api.delete(
    '/api/v0.1/research/subjects/:id',
    {
      access: { apiId: 'ResearchSubjectList.delete' },
      ...subjectPath,
      summary: 'Delete a staged or closed subject',
      answer: z.null(),
    },
    (req) => deleted(deleteSubject(app.db, actorOf(req.ctx), req.params.id)),
  );
  api.post(
    '/api/v0.1/research/subjects/:id/status',
    {
      access: { apiId: 'ResearchSubjectList.edit' },
      ...subjectPath,
      summary: 'Move a subject to another status',
      body: moveInput,
      answer: researchMoved,
    },
    (req) => moveSubject(app.db, actorOf(req.ctx), req.params.id, req.body.to, req.body.reason),
  );
  api.post(
    '/api/v0.1/research/subjects/:id/recruit',
    {
      access: { apiId: 'ResearchSubjectList.edit' },
      ...subjectPath,
      summary: 'Recruit patients by the criteria or by id',
      body: recruitInput,
      answer: researchRecruited,
    },
    (req) => recruit(app.db, actorOf(req.ctx), req.params.id, req.body),
  );
  api.get(
    '/api/v0.1/research/subjects/:id/data',
    {
      access: { apiId: 'ResearchProjectData.query' },
      ...subjectPath,
      summary: 'The enrolled cohort by variables',
      query: z.object(paging),
      answer: researchProjectData,
    },
    async (req) => {
      const data = await projectData(app.db, actorOf(req.ctx), req.params.id, req.query);
      await auditPageRead(
        req.ctx,
        { entity: 'research_patient_list', entityId: req.params.id },
        data.patients,
        req.query,
      );
      return data;
    },
  );
  api.get(
    '/api/v0.1/research/subjects/:id/report',
    {
      access: { apiId: 'ResearchReport.get' },
      ...subjectPath,
      summary: 'Recruitment, completeness and key statistics',
      answer: researchReport,
    },
    (req) => subjectReport(app.db, actorOf(req.ctx), req.params.id),
  );
  api.get(
    '/api/v0.1/research/subjects/:id/datasets',
    {
      access: { apiId: 'ResearchDataReduction.query' },
      ...subjectPath,
      summary: 'Analysis datasets of a subject',
      answer: z.array(researchDataset),
    },
    (req) => listDatasets(app.db, req.auth!.appId, req.params.id),
  );
  api.post(
    '/api/v0.1/research/subjects/:id/datasets',
    {
      access: { apiId: 'ResearchDataReduction.edit' },
      ...subjectPath,
      summary: 'Build an analysis dataset (a background job)',
      body: datasetInput,
      answer: researchDatasetQueued,
    },
    async (req) => {
      const out = await requestDataset(app.db, actorOf(req.ctx), req.params.id, req.body);
      app.jobs.nudge();
      return out;
    },
  );
  api.get(
    '/api/v0.1/research/subjects/:id/datasets/:datasetId',
    {
      access: { apiId: 'ResearchDataReduction.query' },
      ownedIds: ownedDatasetIds,
      summary: 'A dataset with its rows',
      params: datasetParams,
      answer: researchDatasetRows,
    },
    async (req) => {
      const ds = await datasetOf(app.db, req.auth!.appId, req.params.id, req.params.datasetId);
      await auditRead(req.ctx, {
        entity: 'research_dataset',
        entityId: ds.id,
        detail: { subjectId: req.params.id, rowCount: ds.rowCount },
      });
      return {
        id: ds.id,
        name: ds.name,
        status: ds.status,
        columns: ds.columns as Column[],
        rows: ds.rows as Row[],
        rowCount: ds.rowCount,
        jobId: ds.jobId,
        builtAt: ds.builtAt?.toISOString() ?? null,
      };
    },
  );
  api.get(
    '/api/v0.1/research/subjects/:id/analyses',
    {
      access: { apiId: 'ResearchAnalysisMiningIndex.query' },
      ...subjectPath,
      summary: 'Analyses run on a subject',
      answer: z.array(researchAnalysis),
    },
    (req) => listAnalyses(app.db, req.auth!.appId, req.params.id, req.locale),
  );
  api.post(
    '/api/v0.1/research/subjects/:id/analyses',
    {
      access: { apiId: 'ResearchAnalysisMiningIndex.query' },
      ...subjectPath,
      summary: 'Run an analysis on a dataset (a background job)',
      body: analysisInput,
      answer: researchAnalysisQueued,
    },
    async (req) => {
      const out = await requestAnalysis(app.db, actorOf(req.ctx), req.params.id, req.body);
      app.jobs.nudge();
      return out;
    },
  );
  api.post(
    '/api/v0.1/get_value_task_result',
    {
      access: { apiId: 'ResearchAnalysisMiningIndex.query' },
      summary: 'Status and result of an analysis or dataset task (spec: task_id = job id)',
      body: researchTaskResultInput,
      answer: researchTaskResult,
    },
    (req) => taskResult(app.db, req.auth!.appId, req.body.task_id, req.locale),
  );
}
