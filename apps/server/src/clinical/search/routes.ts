import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { audit } from '../../audit/audit.js';
import { canSeeIdentity } from '../privacy.js';
import { exportSearch, searchInput, searchPatientsByConditions } from './search.js';

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
      },
    },
    async (req) => ({
      code: 200,
      data: await searchPatientsByConditions(app.db, req.auth!.appId, req.body, canSeeIdentity(req)),
      message: 'ok',
    }),
  );
  r.post(
    '/api/v0.1/fulltext/export',
    {
      config: { access: { apiId: 'DataLakeFullTextRetrieval.export' } },
      schema: {
        tags: ['search'],
        summary: 'The search result as CSV (at most 10,000 patients)',
        body: searchInput,
      },
    },
    async (req, reply) => {
      const { csv, rows } = await exportSearch(app.db, req.auth!.appId, req.body, canSeeIdentity(req));
      const { cursor: _c, size: _s, ...conditions } = req.body;
      // Exports take identifiable data out of the system: keep a trace of who took what.
      await audit(app.db, req, { action: 'export', entity: 'patient_search', after: { conditions, rows } });
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', 'attachment; filename="full-text-retrieval.csv"');
      return reply.send(csv);
    },
  );
}
