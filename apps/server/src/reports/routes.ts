import {
  fileDownload,
  report,
  reportCreate,
  reportExportBody,
  reportList,
  reportListQuery,
  reportParams,
  reportPatch,
  reportPreviewBody,
  reportResult,
  reportRunBody,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { CSV_TYPE, ownedPath, sendAttachment, XLSX_TYPE } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  addReport,
  deleteReport,
  editReport,
  exportReport,
  listReports,
  previewReport,
  reportOf,
  reportsOf,
  runReport,
} from './reports.js';

const P = '/api/v0.1/reports';

/**
 * Report query (报表查询, DataLakeSouthWest): saved reports, their runs and exports. The menu
 * holds `query` and `export`: keeping, changing and deleting a report is part of `query`.
 */
export async function reportRoutes(app: FastifyInstance) {
  const db = app.db;
  const api = restRoutes(app, { tags: ['reports'] });
  const A = (action: string) => ({ apiId: `DataLakeSouthWest.${action}` });
  const own = ownedPath(reportParams, reportsOf, (appId, p) => reportOf(db, appId, p.id));

  api.get(
    P,
    { access: A('query'), summary: 'The app’s saved reports', query: reportListQuery, answer: reportList },
    (req) => listReports(db, signedIn(req.ctx).appId, req.query.keyword),
  );
  api.post(P, { access: A('query'), summary: 'Save a report', body: reportCreate, answer: report }, (req) =>
    addReport(signedIn(req.ctx), req.body),
  );
  api.post(
    `${P}/preview`,
    {
      access: A('query'),
      summary: 'Run a report before it is saved (one page)',
      body: reportPreviewBody,
      answer: reportResult,
    },
    (req) => previewReport(signedIn(req.ctx), req.body.definition, req.body.params, req.body),
  );
  api.patch(
    `${P}/:id`,
    { access: A('query'), ...own, summary: 'Change a saved report', body: reportPatch, answer: report },
    (req) => editReport(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${P}/:id`,
    { access: A('query'), ...own, summary: 'Delete a saved report', answer: z.literal(true) },
    (req) => deleteReport(signedIn(req.ctx), req.params.id),
  );
  api.post(
    `${P}/:id/run`,
    {
      access: A('query'),
      ...own,
      summary: 'Run a saved report with its parameters (one page)',
      body: reportRunBody,
      answer: reportResult,
    },
    (req) => runReport(signedIn(req.ctx), req.params.id, req.body.params, req.body),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    `${P}/:id/export`,
    {
      config: { access: A('export'), ownedIds: own.ownedIds },
      preValidation: own.preValidation,
      schema: {
        tags: ['reports'],
        summary: 'A saved report’s rows as CSV or XLSX',
        params: reportParams,
        body: reportExportBody,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const f = await exportReport(signedIn(req.ctx), req.params.id, req.body.params, req.body.format);
      const xlsx = req.body.format === 'xlsx';
      return sendAttachment(reply, { type: xlsx ? XLSX_TYPE : CSV_TYPE, name: f.name, body: f.body });
    },
  );
}
