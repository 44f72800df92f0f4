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
import { auditPageRead, auditRead, filterNames } from '../audit/audit.js';
import { countPatients } from '../cohort/compile.js';
import { sendIssues } from '../crf/evaluate.js';
import { SubmissionInvalid } from '../crf/records.js';
import { deleted } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
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
  const api = restRoutes(app, { tags });
  const owned = { ownedIds: ownedLibraryIds };
  const ownedPatient = { ownedIds: ownedLibraryPatientIds };

  api.get(
    `${P}/libraries`,
    {
      access: { apiId: 'ZhuanbingLibraryList.query' },
      summary: 'Disease libraries of the app',
      query: libraryListQuery,
      answer: libraryPage,
    },
    (req) => listLibraries(app.db, req.auth!.appId, req.query),
  );
  api.post(
    `${P}/libraries`,
    {
      access: { apiId: 'ZhuanbingCreateLibrary.add' },
      summary: 'Create a library (CRF, criteria, source rules, filing rule)',
      body: libraryInput,
      answer: librarySaved,
    },
    (req) => createLibrary(actorOf(req.ctx), req.body),
  );
  api.post(
    `${P}/criteria/count`,
    {
      access: { apiId: 'ZhuanbingCreateLibrary.add' },
      summary: 'How many patients of the app the criteria match',
      body: cohortCriteriaSchema,
      answer: libraryCount,
    },
    async (req) => ({ count: await countPatients(app.db, req.auth!.appId, req.body) }),
  );
  api.get(
    `${P}/libraries/:id`,
    {
      access: { apiId: 'ZhuanbingLibraryList.get' },
      ...owned,
      summary: 'A library with its form and items',
      params: libraryParams,
      answer: libraryDetailView,
    },
    (req) => libraryDetail(app.db, req.auth!.appId, req.params.id),
  );
  api.put(
    `${P}/libraries/:id`,
    {
      access: { apiId: 'ZhuanbingLibraryList.edit' },
      ...owned,
      summary: 'Change a library',
      params: libraryParams,
      body: libraryPatch,
      answer: librarySaved,
    },
    (req) => updateLibrary(actorOf(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${P}/libraries/:id`,
    {
      access: { apiId: 'ZhuanbingLibraryList.delete' },
      ...owned,
      summary: 'Delete a library and its patients (not their clinical data)',
      params: libraryParams,
      answer: z.null(),
    },
    (req) => deleted(deleteLibrary(actorOf(req.ctx), req.params.id)),
  );

  api.post(
    `${P}/libraries/:id/push`,
    {
      access: { apiId: 'ZhuanbingPatientsPush.add' },
      ...owned,
      summary: 'Push matching patients into the library (a job)',
      params: libraryParams,
      answer: libraryJobQueued,
    },
    async (req) => {
      const job = await requestPush(actorOf(req.ctx), req.params.id);
      app.jobs.nudge();
      return { jobId: job.id };
    },
  );
  api.get(
    `${P}/libraries/:id/pushes`,
    {
      access: { apiId: 'ZhuanbingPatientsPush.query' },
      ...owned,
      summary: 'Push jobs of the library',
      params: libraryParams,
      answer: z.array(libraryJob),
    },
    async (req) => {
      await libraryOf(app.db, req.auth!.appId, req.params.id);
      return await libraryJobs(app.db, req.auth!.appId, req.params.id, PUSH_KIND);
    },
  );
  api.post(
    `${P}/libraries/:id/fill`,
    {
      access: { apiId: 'ZhuanbingFillData.add' },
      ...owned,
      summary: 'Fill machine values from the clinical data (a job)',
      params: libraryParams,
      answer: libraryJobQueued,
    },
    async (req) => {
      const job = await requestFill(actorOf(req.ctx), req.params.id);
      app.jobs.nudge();
      return { jobId: job.id };
    },
  );
  api.get(
    `${P}/libraries/:id/fills`,
    {
      access: { apiId: 'ZhuanbingFillData.query' },
      ...owned,
      summary: 'Fill jobs of the library',
      params: libraryParams,
      answer: z.array(libraryJob),
    },
    async (req) => {
      await libraryOf(app.db, req.auth!.appId, req.params.id);
      return await libraryJobs(app.db, req.auth!.appId, req.params.id, FILL_KIND);
    },
  );
  api.get(
    `${P}/libraries/:id/fill_log`,
    {
      access: { apiId: 'ZhuanbingFillLog.query' },
      ...owned,
      summary: 'Where each value came from, per patient and item',
      params: libraryParams,
      query: libraryFillLogQuery,
      answer: libraryFillLogPage,
    },
    async (req) => {
      const page = await fillLog(app.db, req.auth!.appId, req.params.id, req.query);
      // The log names its patients: one read row per page.
      await auditPageRead(
        req,
        {
          entity: 'disease_library_fill_log',
          entityId: req.params.id,
          filters: filterNames(req.query, ['patientId', 'itemKey', 'outcome']),
        },
        page,
        req.query,
      );
      return page;
    },
  );
  api.post(
    `${P}/compute_indicator`,
    {
      access: { apiId: 'ZhuanbingFillData.query' },
      summary:
        'Computed-indicator template call: template_str and template_params, optionally computed for patients',
      body: libraryComputeInput,
      answer: libraryComputed,
    },
    (req) => computeIndicator(app.db, req.auth!.appId, req.body),
  );

  api.post(
    `${P}/get_page_disease_library_patient_list`,
    {
      access: { apiId: 'ZhuanbingPatientsList.query' },
      summary: 'Patients of a library, a page at a time (Patient_name, Filing_date)',
      body: libraryPatientListInput,
      answer: libraryPatientPage,
    },
    async (req) => {
      const page = await patientList(app.db, req.auth!.appId, req.body, req.ctx.locale);
      await auditPageRead(
        req,
        {
          entity: 'disease_library_patient_list',
          entityId: req.body.library_id,
          filters: filterNames(req.body.filters, ['name', 'mrn', 'gender', 'filingFrom', 'filingTo']),
        },
        page,
      );
      return page;
    },
  );
  api.get(
    `${P}/libraries/:id/patients/:patientId`,
    {
      access: { apiId: 'ZhuanbingPatientsList.get' },
      ...ownedPatient,
      summary: 'A library patient with the record form',
      params: libraryPatientParams,
      answer: libraryPatientView,
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
      return data;
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
  api.post(
    `${P}/libraries/:id/patients/:patientId/unobtainable`,
    {
      access: { apiId: 'ZhuanbingIndicatorMissingProcess.edit' },
      ...ownedPatient,
      summary: 'Mark an item as not obtainable (or clear the mark)',
      params: libraryPatientParams,
      body: libraryUnobtainableInput,
      answer: libraryUnobtainableMarks,
    },
    (req) => markUnobtainable(actorOf(req.ctx), req.params.id, req.params.patientId, req.body),
  );

  await analysisRoutes(app);
  await ruleCatalogueRoutes(app);
}
