import { cdrBrowserPage, cdrOverview, cdrPatient, cdrRecordCreated, cdrTableInfo, restOk } from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditRead, filterNames } from '../audit/audit.js';
import { appActor, signedIn } from '../http/context.js';
import { ok } from '../http/reply.js';
import { addRecord, browseRows, createPatient, overview, tableCatalogue, updatePatient } from './cdr.js';
import { patientOf, patientView } from './patient360.js';
import { canSeeIdentity } from './privacy.js';
import { CDR_TABLES, type CdrTable, patientInput, RECORD_TABLES, recordInputs } from './records.js';
import { ownedPatients } from './routes-360.js';

/** Manual entry and import rights are one function: writing into the repository. */
export const CDR_WRITE_API_ID = 'DataLakeDataResourceMaintenance.import';

const dbId = () => z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const recordBody = z.discriminatedUnion(
  'table',
  RECORD_TABLES.map((t) => z.object({ table: z.literal(t), row: recordInputs[t] })) as unknown as [
    z.ZodObject<{ table: z.ZodLiteral<'visits'>; row: (typeof recordInputs)['visits'] }>,
  ],
);
const cdrTables = Object.keys(CDR_TABLES) as [CdrTable, ...CdrTable[]];

/** Manual entry, the CDR browser (`/data-lake/cdr-browser`) and the overview (`/data-lake/overviews`). */
export async function cdrRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['cdr'];
  /** Another app's patient is not found, whatever the body says: ownership is checked before the body. */
  const ownPatient = async (req: FastifyRequest) => {
    const id = Number((req.params as { id?: string }).id);
    if (Number.isSafeInteger(id) && id > 0 && req.auth) await patientOf(app.db, req.auth.appId, id);
  };

  r.post(
    '/api/v0.1/cdr/patients',
    {
      config: { access: { apiId: CDR_WRITE_API_ID } },
      schema: {
        tags,
        summary: 'Register a patient by hand',
        body: patientInput,
        response: { 200: restOk(cdrPatient) },
      },
    },
    async (req) => {
      const row = await createPatient(app.db, signedIn(req.ctx), req.body);
      return ok(patientView(row, canSeeIdentity(req.ctx)));
    },
  );

  r.put(
    '/api/v0.1/cdr/patients/:id',
    {
      config: { access: { apiId: CDR_WRITE_API_ID }, ownedIds: ownedPatients },
      preValidation: ownPatient,
      schema: {
        tags,
        summary: 'Correct a patient’s registration (audited with before and after)',
        params: z.object({ id: dbId() }),
        body: patientInput,
        response: { 200: restOk(cdrPatient) },
      },
    },
    async (req) => {
      const row = await updatePatient(app.db, signedIn(req.ctx), req.params.id, req.body);
      return ok(patientView(row, canSeeIdentity(req.ctx)));
    },
  );

  r.post(
    '/api/v0.1/cdr/patients/:id/records',
    {
      config: { access: { apiId: CDR_WRITE_API_ID }, ownedIds: ownedPatients },
      preValidation: ownPatient,
      schema: {
        tags,
        summary:
          'Add a visit, diagnosis, allergy, order, lab result, exam, operation, examination, vital sign or document',
        params: z.object({ id: dbId() }),
        body: recordBody,
        response: { 200: restOk(cdrRecordCreated) },
      },
    },
    async (req) => {
      const b = req.body as { table: (typeof RECORD_TABLES)[number]; row: never };
      return ok(await addRecord(app.db, signedIn(req.ctx), req.params.id, b.table, b.row));
    },
  );

  r.get(
    '/api/v0.1/cdr/tables',
    {
      config: { access: { apiId: 'DataLakeCdrBrowser.query' } },
      schema: {
        tags,
        summary: 'The repository’s tables and their columns',
        response: { 200: restOk(z.array(cdrTableInfo)) },
      },
    },
    async () => ok(tableCatalogue()),
  );

  r.get(
    '/api/v0.1/cdr/rows',
    {
      config: { access: { apiId: 'DataLakeCdrBrowser.query' } },
      schema: {
        tags,
        summary: 'Rows of one table with filters (keyset paged)',
        querystring: z.object({
          table: z.enum(cdrTables),
          patientId: dbId().optional(),
          keyword: z.string().max(60).trim().optional(),
          source: z.string().max(20).trim().optional(),
          from: z.iso.date().optional(),
          to: z.iso.date().optional(),
          cursor: dbId().optional(),
          size: z.coerce.number().int().min(1).max(200).default(20),
        }),
        response: { 200: restOk(cdrBrowserPage) },
      },
    },
    async (req) => {
      const page = await browseRows(app.db, appActor(req.ctx).appId, req.query, canSeeIdentity(req.ctx));
      // One read row per page: the table, the filters' names (a keyword may be a name), the count.
      await auditRead(req.ctx, {
        entity: 'cdr_rows',
        entityId: req.query.patientId ?? '',
        detail: {
          table: req.query.table,
          filters: filterNames(req.query, ['patientId', 'keyword', 'source', 'from', 'to']),
          cursor: req.query.cursor ?? null,
          count: page.items.length,
        },
      });
      return ok(page);
    },
  );

  r.get(
    '/api/v0.1/cdr/overview',
    {
      config: { access: { apiId: 'DataLakeOverviews.query' } },
      schema: {
        tags,
        summary: 'Row counts by table and source, and by month',
        response: { 200: restOk(cdrOverview) },
      },
    },
    async (req) => ok(await overview(app.db, appActor(req.ctx).appId)),
  );
}
