import { cdrSearchResult, fileDownload, restOk } from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { audit, auditRead, filterNames } from '../../audit/audit.js';
import { appActor } from '../../http/context.js';
import { CSV_TYPE, sendAttachment } from '../../http/reply.js';
import { canSeeIdentity } from '../privacy.js';
import { exportSearch, searchInput, searchPatientsByConditions } from './search.js';

const SEARCH_FILTERS = ['diagnosis', 'labs', 'dateFrom', 'dateTo', 'gender', 'ageMin', 'ageMax', 'text'];

/** Multi-condition search (`/data-lake/full-text-retrieval`) and its export. */
export async function searchRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/v0.1/fulltext/search',
    {
      config: { access: { apiId: 'DataLakeFullTextRetrieval.query' } },
      schema: {
        tags: ['search'],
        summary:
          'Patients meeting every condition (diagnosis, lab ranges, dates, gender, age, document text)',
        body: searchInput,
        response: { 200: restOk(cdrSearchResult) },
      },
    },
    async (req) => {
      const data = await searchPatientsByConditions(
        app.readDb,
        appActor(req.ctx).appId,
        req.body,
        canSeeIdentity(req.ctx),
      );
      // One read row per result page: the conditions' names (a text term may be a name) and the count.
      await auditRead(req.ctx, {
        entity: 'patient_search',
        detail: { filters: filterNames(req.body, SEARCH_FILTERS), count: data.items.length },
      });
      return { code: 200 as const, data, message: 'ok' };
    },
  );
  r.post(
    '/api/v0.1/fulltext/export',
    {
      config: { access: { apiId: 'DataLakeFullTextRetrieval.export' } },
      schema: {
        tags: ['search'],
        summary: 'The search result as CSV (at most 10,000 patients)',
        body: searchInput,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const { csv, rows } = await exportSearch(
        app.readDb,
        appActor(req.ctx).appId,
        req.body,
        canSeeIdentity(req.ctx),
      );
      // Exports take identifiable data out of the system: keep a trace of who took what (the
      // conditions' names, not their values: a document term may be a patient's name).
      await audit(app.db, req.ctx, {
        action: 'export',
        entity: 'patient_search',
        after: { filters: filterNames(req.body, SEARCH_FILTERS), rows },
      });
      return sendAttachment(reply, { type: CSV_TYPE, name: 'full-text-retrieval.csv', body: csv });
    },
  );
}
