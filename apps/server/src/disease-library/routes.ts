import {
  cohortCriteriaSchema,
  libraryComputed,
  libraryComputeInput,
  libraryCount,
  libraryDetailView,
  libraryFillLogPage,
  libraryFillLogQuery,
  libraryInput,
  libraryJob,
  libraryJobQueued,
  libraryListQuery,
  libraryPage,
  libraryParams,
  libraryPatch,
  libraryPatientListInput,
  libraryPatientPage,
  libraryPatientParams,
  libraryPatientView,
  libraryRecordSaved,
  libraryRecordSaveInput,
  librarySaved,
  libraryUnobtainableInput,
  libraryUnobtainableMarks,
  restOk,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditRead, filterNames } from '../audit/audit.js';
import { countPatients } from '../cohort/compile.js';
import { sendIssues } from '../crf/evaluate.js';
import { SubmissionInvalid } from '../crf/records.js';
import { analysisRoutes } from './analysis-routes.js';
import { computeIndicator } from './compute.js';
import { FILL_KIND, fillJob, fillLog, requestFill } from './fill.js';
import {
  actorOf,
  createLibrary,
  deleteLibrary,
  libraryDetail,
  libraryOf,
  listLibraries,
  ownedLibraryIds,
  updateLibrary,
} from './libraries.js';
import {
  libraryPatient,
  markUnobtainable,
  ownedLibraryPatientIds,
  patientList,
  saveLibraryRecord,
} from './patients.js';
import { enqueueDuePushes, libraryJobs, PUSH_KIND, pushJob, requestPush } from './push.js';
import { ruleCatalogueRoutes } from './rule-catalogue.js';

const ok = <T>(data: T) => ({ code: 200 as const, data, message: 'ok' });
const answer = <T extends z.ZodType>(data: T) => ({ 200: restOk(data) });
const P = '/api/v0.1/diseaselibrary';

/** Disease libraries (专病库): `/api/v0.1/diseaselibrary/...`. */
export async function diseaseLibraryRoutes(app: FastifyInstance) {
  // Another app's library (or a patient not in it) is not found, whatever the body says:
  // ownership is checked before the body is validated.
  app.addHook('preValidation', async (req) => {
    if (req.auth?.kind !== 'login') return;
    const p = (req.params ?? {}) as Record<string, string | undefined>;
    const isId = (v: string | undefined) => v !== undefined && /^\d{1,10}$/.test(v);
    if (isId(p.id) && isId(p.patientId))
      await libraryPatient(app.db, req.auth.appId, Number(p.id), Number(p.patientId));
    else if (isId(p.id)) await libraryOf(app.db, req.auth.appId, Number(p.id));
  });
  app.jobs.handle(PUSH_KIND, pushJob);
  app.jobs.handle(FILL_KIND, fillJob);
  // Scheduled pushes: every process may look; the claim in enqueueDuePushes is atomic.
  const timer = setInterval(() => {
    enqueueDuePushes(app.db)
      .then((n) => (n ? app.jobs.nudge() : undefined))
      .catch((e) => app.log.error(e, 'scheduled disease-library pushes'));
  }, 60_000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['disease-library'];
  const owned = { ownedIds: ownedLibraryIds };
  const ownedPatient = { ownedIds: ownedLibraryPatientIds };

  r.get(
    `${P}/libraries`,
    {
      config: { access: { apiId: 'ZhuanbingLibraryList.query' } },
      schema: {
        tags,
        summary: 'Disease libraries of the app',
        querystring: libraryListQuery,
        response: answer(libraryPage),
      },
    },
    async (req) => ok(await listLibraries(app.db, req.auth!.appId, req.query)),
  );
  r.post(
    `${P}/libraries`,
    {
      config: { access: { apiId: 'ZhuanbingCreateLibrary.add' } },
      schema: {
        tags,
        summary: 'Create a library (CRF, criteria, source rules, filing rule)',
        body: libraryInput,
        response: answer(librarySaved),
      },
    },
    async (req) => ok(await createLibrary(actorOf(req.ctx), req.body)),
  );
  r.post(
    `${P}/criteria/count`,
    {
      config: { access: { apiId: 'ZhuanbingCreateLibrary.add' } },
      schema: {
        tags,
        summary: 'How many patients of the app the criteria match',
        body: cohortCriteriaSchema,
        response: answer(libraryCount),
      },
    },
    async (req) => ok({ count: await countPatients(app.db, req.auth!.appId, req.body) }),
  );
  r.get(
    `${P}/libraries/:id`,
    {
      config: { access: { apiId: 'ZhuanbingLibraryList.get' }, ...owned },
      schema: {
        tags,
        summary: 'A library with its form and items',
        params: libraryParams,
        response: answer(libraryDetailView),
      },
    },
    async (req) => ok(await libraryDetail(app.db, req.auth!.appId, req.params.id)),
  );
  r.put(
    `${P}/libraries/:id`,
    {
      config: { access: { apiId: 'ZhuanbingLibraryList.edit' }, ...owned },
      schema: {
        tags,
        summary: 'Change a library',
        params: libraryParams,
        body: libraryPatch,
        response: answer(librarySaved),
      },
    },
    async (req) => ok(await updateLibrary(actorOf(req.ctx), req.params.id, req.body)),
  );
  r.delete(
    `${P}/libraries/:id`,
    {
      config: { access: { apiId: 'ZhuanbingLibraryList.delete' }, ...owned },
      schema: {
        tags,
        summary: 'Delete a library and its patients (not their clinical data)',
        params: libraryParams,
        response: answer(z.null()),
      },
    },
    async (req) => {
      await deleteLibrary(actorOf(req.ctx), req.params.id);
      return ok(null);
    },
  );

  r.post(
    `${P}/libraries/:id/push`,
    {
      config: { access: { apiId: 'ZhuanbingPatientsPush.add' }, ...owned },
      schema: {
        tags,
        summary: 'Push matching patients into the library (a job)',
        params: libraryParams,
        response: answer(libraryJobQueued),
      },
    },
    async (req) => {
      const job = await requestPush(actorOf(req.ctx), req.params.id);
      app.jobs.nudge();
      return ok({ jobId: job.id });
    },
  );
  r.get(
    `${P}/libraries/:id/pushes`,
    {
      config: { access: { apiId: 'ZhuanbingPatientsPush.query' }, ...owned },
      schema: {
        tags,
        summary: 'Push jobs of the library',
        params: libraryParams,
        response: answer(z.array(libraryJob)),
      },
    },
    async (req) => {
      await libraryOf(app.db, req.auth!.appId, req.params.id);
      return ok(await libraryJobs(app.db, req.auth!.appId, req.params.id, PUSH_KIND));
    },
  );
  r.post(
    `${P}/libraries/:id/fill`,
    {
      config: { access: { apiId: 'ZhuanbingFillData.add' }, ...owned },
      schema: {
        tags,
        summary: 'Fill machine values from the clinical data (a job)',
        params: libraryParams,
        response: answer(libraryJobQueued),
      },
    },
    async (req) => {
      const job = await requestFill(actorOf(req.ctx), req.params.id);
      app.jobs.nudge();
      return ok({ jobId: job.id });
    },
  );
  r.get(
    `${P}/libraries/:id/fills`,
    {
      config: { access: { apiId: 'ZhuanbingFillData.query' }, ...owned },
      schema: {
        tags,
        summary: 'Fill jobs of the library',
        params: libraryParams,
        response: answer(z.array(libraryJob)),
      },
    },
    async (req) => {
      await libraryOf(app.db, req.auth!.appId, req.params.id);
      return ok(await libraryJobs(app.db, req.auth!.appId, req.params.id, FILL_KIND));
    },
  );
  r.get(
    `${P}/libraries/:id/fill_log`,
    {
      config: { access: { apiId: 'ZhuanbingFillLog.query' }, ...owned },
      schema: {
        tags,
        summary: 'Where each value came from, per patient and item',
        params: libraryParams,
        querystring: libraryFillLogQuery,
        response: answer(libraryFillLogPage),
      },
    },
    async (req) => {
      const page = await fillLog(app.db, req.auth!.appId, req.params.id, req.query);
      // The log names its patients: one read row per page.
      await auditRead(req, {
        entity: 'disease_library_fill_log',
        entityId: req.params.id,
        detail: {
          filters: filterNames(req.query, ['patientId', 'itemKey', 'outcome']),
          page: req.query.page,
          size: req.query.size,
          count: page.items.length,
          total: page.total,
        },
      });
      return ok(page);
    },
  );
  r.post(
    `${P}/compute_indicator`,
    {
      config: { access: { apiId: 'ZhuanbingFillData.query' } },
      schema: {
        tags,
        summary:
          'Computed-indicator template call: template_str and template_params, optionally computed for patients',
        body: libraryComputeInput,
        response: answer(libraryComputed),
      },
    },
    async (req) => ok(await computeIndicator(app.db, req.auth!.appId, req.body)),
  );

  r.post(
    `${P}/get_page_disease_library_patient_list`,
    {
      config: { access: { apiId: 'ZhuanbingPatientsList.query' } },
      schema: {
        tags,
        summary: 'Patients of a library, a page at a time (Patient_name, Filing_date)',
        body: libraryPatientListInput,
        response: answer(libraryPatientPage),
      },
    },
    async (req) => {
      const page = await patientList(app.db, req.auth!.appId, req.body, req.ctx.locale);
      await auditRead(req, {
        entity: 'disease_library_patient_list',
        entityId: req.body.library_id,
        detail: {
          filters: filterNames(req.body.filters, ['name', 'mrn', 'gender', 'filingFrom', 'filingTo']),
          page: page.page,
          size: page.size,
          count: page.items.length,
          total: page.total,
        },
      });
      return ok(page);
    },
  );
  r.get(
    `${P}/libraries/:id/patients/:patientId`,
    {
      config: { access: { apiId: 'ZhuanbingPatientsList.get' }, ...ownedPatient },
      schema: {
        tags,
        summary: 'A library patient with the record form',
        params: libraryPatientParams,
        response: answer(libraryPatientView),
      },
    },
    async (req) => {
      const data = await libraryPatient(
        app.db,
        req.auth!.appId,
        req.params.id,
        req.params.patientId,
        req.ctx.locale,
      );
      await auditRead(req, {
        entity: 'patient',
        entityId: req.params.patientId,
        detail: { libraryId: req.params.id },
      });
      return ok(data);
    },
  );
  r.put(
    `${P}/libraries/:id/patients/:patientId/record`,
    {
      config: { access: { apiId: 'ZhuanbingFillData.edit' }, ...ownedPatient },
      schema: {
        tags,
        summary: 'Save the record; changed items become manual',
        params: libraryPatientParams,
        body: libraryRecordSaveInput,
        response: answer(libraryRecordSaved),
      },
    },
    async (req, reply) => {
      try {
        return ok(await saveLibraryRecord(actorOf(req.ctx), req.params.id, req.params.patientId, req.body));
      } catch (e) {
        if (e instanceof SubmissionInvalid) return sendIssues(req, reply, e.issues);
        throw e;
      }
    },
  );
  r.post(
    `${P}/libraries/:id/patients/:patientId/unobtainable`,
    {
      config: { access: { apiId: 'ZhuanbingIndicatorMissingProcess.edit' }, ...ownedPatient },
      schema: {
        tags,
        summary: 'Mark an item as not obtainable (or clear the mark)',
        params: libraryPatientParams,
        body: libraryUnobtainableInput,
        response: answer(libraryUnobtainableMarks),
      },
    },
    async (req) =>
      ok(await markUnobtainable(actorOf(req.ctx), req.params.id, req.params.patientId, req.body)),
  );

  await analysisRoutes(app);
  await ruleCatalogueRoutes(app);
}
