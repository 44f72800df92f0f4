import { cdrCsvFields, cdrImport, cdrImportDetail, cdrImportPage, restOk } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { importRecords } from '../../db/schema/index.js';
import { appActor, signedIn } from '../../http/context.js';
import { ok } from '../../http/reply.js';
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

const ownedImports = async (db: FastifyInstance['db'], appId: number) =>
  (
    await db
      .select({ id: importRecords.id })
      .from(importRecords)
      .where(eq(importRecords.appId, appId))
      .limit(2)
  ).map((r) => ({ id: r.id }));

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
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['imports'];

  r.post(
    '/api/v0.1/imports/fhir',
    {
      bodyLimit: BIG_BODY,
      config: { access: { apiId: CDR_WRITE_API_ID } },
      schema: {
        tags,
        summary: 'Import a FHIR R4 Bundle (runs as a job; poll the import record)',
        body: fhirBody,
        response: { 200: restOk(cdrImport) },
      },
    },
    async (req) => {
      const rec = await queueImport(app.db, signedIn(req.ctx), 'fhir', req.body.fileName, req.body.bundle);
      app.jobs.nudge();
      return ok(importView(rec));
    },
  );

  r.post(
    '/api/v0.1/imports/csv',
    {
      bodyLimit: BIG_BODY,
      config: { access: { apiId: CDR_WRITE_API_ID } },
      schema: {
        tags,
        summary: 'Import a CSV file with a column mapping (runs as a job)',
        body: csvImportInput,
        response: { 200: restOk(cdrImport) },
      },
    },
    async (req) => {
      const rec = await queueImport(app.db, signedIn(req.ctx), 'csv', req.body.fileName, req.body);
      app.jobs.nudge();
      return ok(importView(rec));
    },
  );

  r.get(
    '/api/v0.1/imports/csv-fields',
    {
      config: { access: { apiId: 'DataLakeDataResourceMaintenance.query' } },
      schema: {
        tags,
        summary: 'The fields a CSV column may be mapped to, per target table',
        response: { 200: restOk(cdrCsvFields) },
      },
    },
    async () => ok(Object.fromEntries(CSV_TARGETS.map((t) => [t, csvFields(t)]))),
  );

  r.get(
    '/api/v0.1/imports',
    {
      config: { access: { apiId: 'DataLakeDataResourceMaintenance.query' } },
      schema: {
        tags,
        summary: 'Import records of the app, newest first',
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(10_000).default(1),
          size: z.coerce.number().int().min(1).max(100).default(10),
        }),
        response: { 200: restOk(cdrImportPage) },
      },
    },
    async (req) => ok(await listImports(app.db, appActor(req.ctx).appId, req.query.page, req.query.size)),
  );

  r.get(
    '/api/v0.1/imports/:id',
    {
      config: { access: { apiId: 'DataLakeDataResourceMaintenance.get' }, ownedIds: ownedImports },
      schema: {
        tags,
        summary: 'One import: status, progress, counts and refused rows',
        params: z.object({ id: dbId() }),
        response: { 200: restOk(cdrImportDetail) },
      },
    },
    async (req) => ok(await importDetail(app.db, appActor(req.ctx).appId, req.params.id, req.locale)),
  );

  r.post(
    '/api/v0.1/imports/:id/rerun',
    {
      config: { access: { apiId: CDR_WRITE_API_ID }, ownedIds: ownedImports },
      schema: {
        tags,
        summary: 'Run an import again (no duplicates: rows keep their source ids)',
        params: z.object({ id: dbId() }),
        response: { 200: restOk(cdrImport) },
      },
    },
    async (req) => {
      const rec = await rerunImport(app.db, signedIn(req.ctx), req.params.id);
      app.jobs.nudge();
      return ok(importView(rec));
    },
  );
}
