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
  restOk,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditRead } from '../audit/audit.js';
import type { RequestContext } from '../http/context.js';
import { CSV_TYPE, ok, sendAttachment, XLSX_TYPE } from '../http/reply.js';
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

const answer = <T extends z.ZodType>(data: T) => ({ 200: restOk(data) });

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
  const owned = { ownedIds: ownedLibraryIds };

  r.get(
    `${P}/disease_library_statistics`,
    {
      config: { access: { apiId: 'ZhuanbingLibraryList.query' } },
      schema: {
        tags,
        summary: 'Workbench: libraries and their patients',
        response: answer(libraryWorkbenchStatistics),
      },
    },
    async (req) => ok(await diseaseLibraryStatistics(app.db, req.auth!.appId)),
  );
  r.get(
    `${P}/rdr_statistics`,
    {
      config: { access: { apiId: 'ZhuanbingDashboard.query' } },
      schema: {
        tags,
        summary: 'Workbench: the research data repository',
        response: answer(libraryRdrStatistics),
      },
    },
    async (req) => ok(await rdrStatistics(app.db, req.auth!.appId)),
  );
  r.get(
    `${P}/storage`,
    {
      config: { access: { apiId: 'ZhuanbingDataStorage.query' } },
      schema: { tags, summary: 'Sizes per library', response: answer(z.array(libraryStorageRow)) },
    },
    async (req) => ok(await storageSizes(app.db, req.auth!.appId)),
  );
  r.get(
    `${P}/libraries/:id/missing`,
    {
      config: { access: { apiId: 'ZhuanbingIndicatorMissingProcess.query' }, ...owned },
      schema: {
        tags,
        summary: 'Missing rate per item; with itemKey, the patients missing it',
        params: libraryParams,
        querystring: libraryMissingQuery,
        response: answer(libraryMissingOverview),
      },
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
      return ok(data);
    },
  );
  r.post(
    `${P}/libraries/:id/search`,
    {
      config: { access: { apiId: 'ZhuanbingDataSearch.query' }, ...owned },
      schema: {
        tags,
        summary: 'Patients by conditions on indicator values',
        params: libraryParams,
        body: librarySearchInput,
        response: answer(librarySearchResult),
      },
    },
    async (req) => {
      const page = await searchLibrary(app.db, req.auth!.appId, req.params.id, req.body);
      await auditLibraryPage(req.ctx, req.params.id, 'search', req.body, page);
      return ok(page);
    },
  );
  r.post(
    `${P}/libraries/:id/data`,
    {
      config: { access: { apiId: 'ZhuanbingData.query' }, ...owned },
      schema: {
        tags,
        summary: 'The library as a grid of patients by indicators',
        params: libraryParams,
        body: librarySearchInput,
        response: answer(librarySearchResult),
      },
    },
    async (req) => {
      const page = await searchLibrary(app.db, req.auth!.appId, req.params.id, {
        ...req.body,
        conditions: [],
      });
      await auditLibraryPage(req.ctx, req.params.id, 'data', { ...req.body, conditions: [] }, page);
      return ok(page);
    },
  );
  r.post(
    `${P}/libraries/:id/statistics`,
    {
      config: { access: { apiId: 'ZhuanbingStatisticsAnalysis.query' }, ...owned },
      schema: {
        tags,
        summary: 'Describe indicators; compare two groups',
        params: libraryParams,
        body: libraryStatisticsInput,
        response: answer(libraryStatisticsResult),
      },
    },
    async (req) =>
      ok(await libraryStatistics(app.db, req.auth!.appId, req.params.id, req.body, req.ctx.locale)),
  );
  r.get(
    `${P}/libraries/:id/dashboard`,
    {
      config: { access: { apiId: 'ZhuanbingDashboard.query' }, ...owned },
      schema: {
        tags,
        summary: 'Enrolment, age, gender and completeness',
        params: libraryParams,
        response: answer(libraryDashboardData),
      },
    },
    async (req) => ok(await libraryDashboard(app.db, req.auth!.appId, req.params.id)),
  );

  r.post(
    `${P}/libraries/:id/export`,
    {
      config: { access: { apiId: 'ZhuanbingExport.export' }, ...owned },
      schema: {
        tags,
        summary: 'Export chosen indicators as CSV or XLSX (a job)',
        params: libraryParams,
        body: libraryExportInput,
        response: answer(libraryJobQueued),
      },
    },
    async (req) => {
      const job = await requestExport(actorOf(req.ctx), req.params.id, req.body);
      app.jobs.nudge();
      return ok({ jobId: job.id });
    },
  );
  r.get(
    `${P}/libraries/:id/exports`,
    {
      config: { access: { apiId: 'ZhuanbingExport.query' }, ...owned },
      schema: {
        tags,
        summary: 'Export jobs of the library',
        params: libraryParams,
        response: answer(z.array(libraryJob)),
      },
    },
    async (req) => {
      await libraryOf(app.db, req.auth!.appId, req.params.id);
      return ok(await libraryJobs(app.db, req.auth!.appId, req.params.id, EXPORT_KIND));
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

  r.get(
    `${P}/templates`,
    {
      config: { access: { apiId: 'ZhuanbingCommonlyTemplate.query' } },
      schema: { tags, summary: 'Common templates', response: answer(z.array(libraryTemplate)) },
    },
    async (req) => ok(await listTemplates(app.db, req.auth!.appId)),
  );
  r.post(
    `${P}/templates`,
    {
      config: { access: { apiId: 'ZhuanbingCommonlyTemplate.add' } },
      schema: {
        tags,
        summary: 'Save a CRF with its source rules as a common template',
        body: libraryTemplateInput,
        response: answer(libraryTemplateRow),
      },
    },
    async (req) => ok(await createTemplate(actorOf(req.ctx), req.body)),
  );
  r.put(
    `${P}/templates/:templateId`,
    {
      config: { access: { apiId: 'ZhuanbingCommonlyTemplate.edit' }, ownedIds: ownedTemplateIds },
      schema: {
        tags,
        summary: 'Change a common template',
        params: libraryTemplateParams,
        body: libraryTemplatePatch,
        response: answer(libraryTemplateRow),
      },
    },
    async (req) => ok(await updateTemplate(actorOf(req.ctx), req.params.templateId, req.body)),
  );
  r.delete(
    `${P}/templates/:templateId`,
    {
      config: { access: { apiId: 'ZhuanbingCommonlyTemplate.delete' }, ownedIds: ownedTemplateIds },
      schema: {
        tags,
        summary: 'Delete a common template',
        params: libraryTemplateParams,
        response: answer(z.null()),
      },
    },
    async (req) => {
      await deleteTemplate(actorOf(req.ctx), req.params.templateId);
      return ok(null);
    },
  );
}
