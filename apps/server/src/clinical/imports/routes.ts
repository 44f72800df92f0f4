import { cdrCsvFields, cdrImport, cdrImportDetail, cdrImportPage } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ownedIds } from '../../db/app-rows.js';
import { importRecords } from '../../db/schema/index.js';
import { appActor, signedIn } from '../../http/context.js';
import { restRoutes } from '../../http/route.js';
import { str } from '../records.js';
import { CDR_WRITE_API_ID } from '../routes-cdr.js';
import { CSV_TARGETS, csvFields, csvImportInput } from './csv.js';
import {
  IMPORT_JOB,
  importDetail,
  importView,
  listImports,
  queueImport,
  rerunImport,
  runImportJob,
} from './service.js';

const dbId = () => z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const BIG_BODY = 20 * 1024 * 1024;

const fhirBody = z.object({
  fileName: str(200, 1).default('bundle.json'),
  bundle: z.looseObject({
    resourceType: z.literal('Bundle'),
    entry: z.array(z.looseObject({})).min(1).max(200_000),
  }),
});

const ownedImports = ownedIds(importRecords, { limit: 2 });

/** Import records (`/data-lake/data-resource-maintenance`): FHIR bundles and CSV files, run as jobs. */
export async function importRoutes(app: FastifyInstance) {
  app.jobs.handle(IMPORT_JOB, (ctx) => runImportJob(ctx, app.parsing));
  // Cancelled before it ran (task scheduling): the record says so instead of waiting forever.
  app.jobs.onCancelled(IMPORT_JOB, async (tx, job) => {
    await tx
      .update(importRecords)
      .set({ status: 'cancelled', finishedAt: new Date() })
      .where(and(eq(importRecords.jobId, job.id), eq(importRecords.appId, job.appId)));
  });
  const tags = ['imports'];
  const api = restRoutes(app, { tags });

  api.post(
    '/api/v0.1/imports/fhir',
    {
      access: { apiId: CDR_WRITE_API_ID },
      summary: 'Import a FHIR R4 Bundle (runs as a job; poll the import record)',
      body: fhirBody,
      bodyLimit: BIG_BODY,
      answer: cdrImport,
    },
    async (req) => {
      const rec = await queueImport(app.db, signedIn(req.ctx), 'fhir', req.body.fileName, req.body.bundle);
      app.jobs.nudge();
      return importView(rec);
    },
  );

  api.post(
    '/api/v0.1/imports/csv',
    {
      access: { apiId: CDR_WRITE_API_ID },
      summary: 'Import a CSV file with a column mapping (runs as a job)',
      body: csvImportInput,
      bodyLimit: BIG_BODY,
      answer: cdrImport,
    },
    async (req) => {
      const rec = await queueImport(app.db, signedIn(req.ctx), 'csv', req.body.fileName, req.body);
      app.jobs.nudge();
      return importView(rec);
    },
  );

  api.get(
    '/api/v0.1/imports/csv-fields',
    {
      access: { apiId: 'DataLakeDataResourceMaintenance.query' },
      summary: 'The fields a CSV column may be mapped to, per target table',
      answer: cdrCsvFields,
    },
    () => Object.fromEntries(CSV_TARGETS.map((t) => [t, csvFields(t)])),
  );

  api.get(
    '/api/v0.1/imports',
    {
      access: { apiId: 'DataLakeDataResourceMaintenance.query' },
      summary: 'Import records of the app, newest first',
      query: z.object({
        page: z.coerce.number().int().min(1).max(10_000).default(1),
        size: z.coerce.number().int().min(1).max(100).default(10),
      }),
      answer: cdrImportPage,
    },
    (req) => listImports(app.db, appActor(req.ctx).appId, req.query.page, req.query.size),
  );

  api.get(
    '/api/v0.1/imports/:id',
    {
      access: { apiId: 'DataLakeDataResourceMaintenance.get' },
      ownedIds: ownedImports,
      summary: 'One import: status, progress, counts and refused rows',
      params: z.object({ id: dbId() }),
      answer: cdrImportDetail,
    },
    (req) => importDetail(app.db, appActor(req.ctx).appId, req.params.id, req.locale),
  );

  api.post(
    '/api/v0.1/imports/:id/rerun',
    {
      access: { apiId: CDR_WRITE_API_ID },
      ownedIds: ownedImports,
      summary: 'Run an import again (no duplicates: rows keep their source ids)',
      params: z.object({ id: dbId() }),
      answer: cdrImport,
    },
    async (req) => {
      const rec = await rerunImport(app.db, signedIn(req.ctx), req.params.id);
      app.jobs.nudge();
      return importView(rec);
    },
  );
}
