import {
  cdrBrowserPage,
  cdrDirectory,
  cdrFieldProfile,
  cdrForecast,
  cdrForecastQuery,
  cdrOverview,
  cdrPatient,
  cdrRecordCreated,
  cdrTableInfo,
} from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { auditRead, filterNames } from '../audit/audit.js';
import { appActor, signedIn } from '../http/context.js';
import { restRoutes } from '../http/route.js';
import { addRecord, browseRows, createPatient, overview, tableCatalogue, updatePatient } from './cdr.js';
import { directory, fieldProfile } from './directory.js';
import { hospitalForecast } from './forecast.js';
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
  const tags = ['cdr'];
  const api = restRoutes(app, { tags });
  /** Another app's patient is not found, whatever the body says: ownership is checked before the body. */
  const ownPatient = async (req: FastifyRequest) => {
    const id = Number((req.params as { id?: string }).id);
    if (Number.isSafeInteger(id) && id > 0 && req.auth) await patientOf(app.db, req.auth.appId, id);
  };

  api.post(
    '/api/v0.1/cdr/patients',
    {
      access: { apiId: CDR_WRITE_API_ID },
      summary: 'Register a patient by hand',
      body: patientInput,
      answer: cdrPatient,
    },
    async (req) => {
      const row = await createPatient(app.db, signedIn(req.ctx), req.body);
      return patientView(row, canSeeIdentity(req.ctx));
    },
  );

  api.put(
    '/api/v0.1/cdr/patients/:id',
    {
      access: { apiId: CDR_WRITE_API_ID },
      ownedIds: ownedPatients,
      summary: 'Correct a patient’s registration (audited with before and after)',
      params: z.object({ id: dbId() }),
      body: patientInput,
      preValidation: ownPatient,
      answer: cdrPatient,
    },
    async (req) => {
      const row = await updatePatient(app.db, signedIn(req.ctx), req.params.id, req.body);
      return patientView(row, canSeeIdentity(req.ctx));
    },
  );

  api.post(
    '/api/v0.1/cdr/patients/:id/records',
    {
      access: { apiId: CDR_WRITE_API_ID },
      ownedIds: ownedPatients,
      summary:
        'Add a visit, diagnosis, allergy, order, lab result, exam, operation, examination, vital sign or document',
      params: z.object({ id: dbId() }),
      body: recordBody,
      preValidation: ownPatient,
      answer: cdrRecordCreated,
    },
    async (req) => {
      const b = req.body as { table: (typeof RECORD_TABLES)[number]; row: never };
      return await addRecord(app.db, signedIn(req.ctx), req.params.id, b.table, b.row);
    },
  );

  api.get(
    '/api/v0.1/cdr/tables',
    {
      access: { apiId: 'DataLakeCdrBrowser.query' },
      summary: 'The repository’s tables and their columns',
      answer: z.array(cdrTableInfo),
    },
    () => tableCatalogue(),
  );

  api.get(
    '/api/v0.1/cdr/rows',
    {
      access: { apiId: 'DataLakeCdrBrowser.query' },
      summary: 'Rows of one table with filters (keyset paged)',
      query: z.object({
        table: z.enum(cdrTables),
        patientId: dbId().optional(),
        keyword: z.string().max(60).trim().optional(),
        source: z.string().max(20).trim().optional(),
        from: z.iso.date().optional(),
        to: z.iso.date().optional(),
        cursor: dbId().optional(),
        size: z.coerce.number().int().min(1).max(200).default(20),
      }),
      answer: cdrBrowserPage,
    },
    async (req) => {
      // The browser, the overview, the forecast and the directory read the replica when there is one
      // (DATABASE_READ_URL): pages of counts and rows that tolerate its lag. The read audit stays on the primary.
      const page = await browseRows(app.readDb, appActor(req.ctx).appId, req.query, canSeeIdentity(req.ctx));
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
      return page;
    },
  );

  api.get(
    '/api/v0.1/cdr/overview',
    {
      access: { apiId: 'DataLakeOverviews.query' },
      summary: 'Row counts by table and source, and by month',
      answer: cdrOverview,
    },
    (req) => overview(app.readDb, appActor(req.ctx).appId),
  );

  api.get(
    '/api/v0.1/cdr/forecast',
    {
      access: { apiId: 'DataLakeHosForecastBrowse.query' },
      summary:
        'Visits of one kind per day and a seasonal naive forecast of the next 30 days with 80 % and 95 % intervals',
      query: cdrForecastQuery,
      answer: cdrForecast,
    },
    (req) => hospitalForecast(app.readDb, appActor(req.ctx).appId, req.query, req.ctx.locale),
  );

  api.get(
    '/api/v0.1/cdr/directory',
    {
      access: { apiId: 'DataLakeDirectoryBrowsing.query' },
      summary: 'The repository’s tables with the app’s row counts and each field’s filled rows',
      answer: cdrDirectory,
    },
    (req) => directory(app.readDb, appActor(req.ctx).appId),
  );

  api.get(
    '/api/v0.1/cdr/directory/field',
    {
      access: { apiId: 'DataLakeDirectoryBrowsing.get' },
      summary:
        'One field’s values in the app: most frequent, spread, years (identifying fields: counts only)',
      // Names, not object ids: in the query (an app's directory has the same tables as any other's).
      query: z.object({ table: z.enum(cdrTables), field: z.string().min(1).max(64) }),
      answer: cdrFieldProfile,
    },
    (req) => fieldProfile(app.readDb, appActor(req.ctx).appId, req.query.table, req.query.field),
  );
}
