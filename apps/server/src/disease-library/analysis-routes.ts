import { createReadStream } from 'node:fs';
import {
  fileDownload,
  libraryDashboardData,
  libraryExportDownloadQuery,
  libraryExportInput,
  libraryExportParams,
  libraryJob,
  libraryJobQueued,
  libraryMissingOverview,
  libraryMissingQuery,
  libraryParams,
  libraryRdrStatistics,
  librarySearchInput,
  librarySearchResult,
  libraryStatisticsInput,
  libraryStatisticsResult,
  libraryStorageRow,
  libraryTemplate,
  libraryTemplateInput,
  libraryTemplateParams,
  libraryTemplatePatch,
  libraryTemplateRow,
  libraryWorkbenchStatistics,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditRead } from '../audit/audit.js';
import type { RequestContext } from '../http/context.js';
import { CSV_TYPE, deleted, sendAttachment, XLSX_TYPE } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  diseaseLibraryStatistics,
  libraryDashboard,
  libraryStatistics,
  missingOverview,
  rdrStatistics,
  searchLibrary,
  storageSizes,
} from './analysis.js';
import { EXPORT_KIND, exportFile, exportJob, ownedExportIds, requestExport } from './export.js';
import { actorOf, libraryOf, ownedLibraryIds } from './libraries.js';
import { libraryJobs } from './push.js';
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  ownedTemplateIds,
  updateTemplate,
} from './templates.js';

/** One read row per page of library patients: the items the conditions name, never their values. */
const auditLibraryPage = (
  ctx: RequestContext,
  libraryId: number,
  view: 'search' | 'data',
  q: { conditions: Array<{ itemKey: string; op: string }>; match: string; page: number; size: number },
  page: { total: number; items: unknown[] },
) =>
  auditRead(ctx, {
    entity: 'disease_library_patient_list',
    entityId: libraryId,
    detail: {
      view,
      conditions: q.conditions.map((c) => `${c.itemKey} ${c.op}`),
      match: q.match,
      page: q.page,
      size: q.size,
      count: page.items.length,
      total: page.total,
    },
  });
const P = '/api/v0.1/diseaselibrary';

/** Search, missing indicators, statistics, dashboard, storage, export, common templates, workbench counts. */
export async function analysisRoutes(app: FastifyInstance) {
  app.jobs.handle(EXPORT_KIND, exportJob(app.config.dataDir));
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['disease-library'];
  const api = restRoutes(app, { tags });
  const owned = { ownedIds: ownedLibraryIds };

  api.get(
    `${P}/disease_library_statistics`,
    {
      access: { apiId: 'ZhuanbingLibraryList.query' },
      summary: 'Workbench: libraries and their patients',
      answer: libraryWorkbenchStatistics,
    },
    (req) => diseaseLibraryStatistics(app.db, req.auth!.appId),
  );
  api.get(
    `${P}/rdr_statistics`,
    {
      access: { apiId: 'ZhuanbingDashboard.query' },
      summary: 'Workbench: the research data repository',
      answer: libraryRdrStatistics,
    },
    (req) => rdrStatistics(app.db, req.auth!.appId),
  );
  api.get(
    `${P}/storage`,
    {
      access: { apiId: 'ZhuanbingDataStorage.query' },
      summary: 'Sizes per library',
      answer: z.array(libraryStorageRow),
    },
    (req) => storageSizes(app.db, req.auth!.appId),
  );
  api.get(
    `${P}/libraries/:id/missing`,
    {
      access: { apiId: 'ZhuanbingIndicatorMissingProcess.query' },
      ...owned,
      summary: 'Missing rate per item; with itemKey, the patients missing it',
      params: libraryParams,
      query: libraryMissingQuery,
      answer: libraryMissingOverview,
    },
    async (req) => {
      const data = await missingOverview(app.db, req.auth!.appId, req.params.id, req.query.itemKey);
      // With an item, the answer lists the patients missing it: a patient list read.
      if (req.query.itemKey)
        await auditRead(req, {
          entity: 'disease_library_patient_list',
          entityId: req.params.id,
          detail: { view: 'missing', itemKey: req.query.itemKey, count: data.patients.length },
        });
      return data;
    },
  );
  api.post(
    `${P}/libraries/:id/search`,
    {
      access: { apiId: 'ZhuanbingDataSearch.query' },
      ...owned,
      summary: 'Patients by conditions on indicator values',
      params: libraryParams,
      body: librarySearchInput,
      answer: librarySearchResult,
    },
    async (req) => {
      const page = await searchLibrary(app.db, req.auth!.appId, req.params.id, req.body);
      await auditLibraryPage(req.ctx, req.params.id, 'search', req.body, page);
      return page;
    },
  );
  api.post(
    `${P}/libraries/:id/data`,
    {
      access: { apiId: 'ZhuanbingData.query' },
      ...owned,
      summary: 'The library as a grid of patients by indicators',
      params: libraryParams,
      body: librarySearchInput,
      answer: librarySearchResult,
    },
    async (req) => {
      const page = await searchLibrary(app.db, req.auth!.appId, req.params.id, {
        ...req.body,
        conditions: [],
      });
      await auditLibraryPage(req.ctx, req.params.id, 'data', { ...req.body, conditions: [] }, page);
      return page;
    },
  );
  api.post(
    `${P}/libraries/:id/statistics`,
    {
      access: { apiId: 'ZhuanbingStatisticsAnalysis.query' },
      ...owned,
      summary: 'Describe indicators; compare two groups',
      params: libraryParams,
      body: libraryStatisticsInput,
      answer: libraryStatisticsResult,
    },
    (req) => libraryStatistics(app.db, req.auth!.appId, req.params.id, req.body, req.ctx.locale),
  );
  api.get(
    `${P}/libraries/:id/dashboard`,
    {
      access: { apiId: 'ZhuanbingDashboard.query' },
      ...owned,
      summary: 'Enrolment, age, gender and completeness',
      params: libraryParams,
      answer: libraryDashboardData,
    },
    (req) => libraryDashboard(app.db, req.auth!.appId, req.params.id),
  );

  api.post(
    `${P}/libraries/:id/export`,
    {
      access: { apiId: 'ZhuanbingExport.export' },
      ...owned,
      summary: 'Export chosen indicators as CSV or XLSX (a job)',
      params: libraryParams,
      body: libraryExportInput,
      answer: libraryJobQueued,
    },
    async (req) => {
      const job = await requestExport(actorOf(req.ctx), req.params.id, req.body);
      app.jobs.nudge();
      return { jobId: job.id };
    },
  );
  api.get(
    `${P}/libraries/:id/exports`,
    {
      access: { apiId: 'ZhuanbingExport.query' },
      ...owned,
      summary: 'Export jobs of the library',
      params: libraryParams,
      answer: z.array(libraryJob),
    },
    async (req) => {
      await libraryOf(app.db, req.auth!.appId, req.params.id);
      return await libraryJobs(app.db, req.auth!.appId, req.params.id, EXPORT_KIND);
    },
  );
  r.get(
    `${P}/exports/:jobId/download`,
    {
      config: { access: { apiId: 'ZhuanbingExport.export' }, ownedIds: ownedExportIds },
      schema: {
        tags,
        summary: 'Download a finished export (dictionary=1: the CSV data dictionary)',
        params: libraryExportParams,
        querystring: libraryExportDownloadQuery,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const f = await exportFile(
        app.db,
        app.config.dataDir,
        req.auth!.appId,
        req.params.jobId,
        req.query.dictionary === '1',
      );
      await auditRead(req, {
        action: 'download',
        entity: 'disease_library_export',
        entityId: req.params.jobId,
        detail: { format: f.format, dictionary: req.query.dictionary === '1' },
      });
      const type = f.format === 'xlsx' ? XLSX_TYPE : CSV_TYPE;
      return sendAttachment(reply, { type, name: f.fileName, body: createReadStream(f.file) });
    },
  );

  api.get(
    `${P}/templates`,
    {
      access: { apiId: 'ZhuanbingCommonlyTemplate.query' },
      summary: 'Common templates',
      answer: z.array(libraryTemplate),
    },
    (req) => listTemplates(app.db, req.auth!.appId),
  );
  api.post(
    `${P}/templates`,
    {
      access: { apiId: 'ZhuanbingCommonlyTemplate.add' },
      summary: 'Save a CRF with its source rules as a common template',
      body: libraryTemplateInput,
      answer: libraryTemplateRow,
    },
    (req) => createTemplate(actorOf(req.ctx), req.body),
  );
  api.put(
    `${P}/templates/:templateId`,
    {
      access: { apiId: 'ZhuanbingCommonlyTemplate.edit' },
      ownedIds: ownedTemplateIds,
      summary: 'Change a common template',
      params: libraryTemplateParams,
      body: libraryTemplatePatch,
      answer: libraryTemplateRow,
    },
    (req) => updateTemplate(actorOf(req.ctx), req.params.templateId, req.body),
  );
  api.delete(
    `${P}/templates/:templateId`,
    {
      access: { apiId: 'ZhuanbingCommonlyTemplate.delete' },
      ownedIds: ownedTemplateIds,
      summary: 'Delete a common template',
      params: libraryTemplateParams,
      answer: z.null(),
    },
    (req) => deleted(deleteTemplate(actorOf(req.ctx), req.params.templateId)),
  );
}
