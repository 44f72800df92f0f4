import {
  type CdrChildKind,
  cdrChildPage,
  cdrChildRows,
  cdrCounts,
  cdrExamReport,
  cdrLabPage,
  cdrPatientSearch,
  cdrPerson,
  cdrVitals,
  restOk,
} from '@crdp/core';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditRead, filterNames } from '../audit/audit.js';
import type { Db } from '../db/client.js';
import { examReports, labResults, orders, patients } from '../db/schema/index.js';
import { appActor, type RequestContext } from '../http/context.js';
import { ok } from '../http/reply.js';
import {
  childCounts,
  examReportOf,
  labItems,
  listChildren,
  patientOf,
  patientView,
  personView,
  searchPatients,
  vitalSignsOf,
} from './patient360.js';
import { canSeeIdentity } from './privacy.js';

const dbId = () => z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const idParams = z.object({ id: dbId() });
const pageQuery = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(20),
};

/** The real ids of an app's patients (for the authorization matrix). */
export const ownedPatients = async (db: Db, appId: number) =>
  (await db.select({ id: patients.id }).from(patients).where(eq(patients.appId, appId)).limit(2)).map(
    (r) => ({
      id: r.id,
    }),
  );

/** Minutes during which a tab of a patient already read by this user writes no further read row. */
export const PATIENT_READ_WINDOW_MINUTES = 30;

/**
 * A tab of the personal view: one read row per patient and user per window, so the person call
 * and the tabs it opens make one row, and a tab read on its own (without the person call) still
 * leaves one.
 */
const auditTab = (ctx: RequestContext, patientId: number, tab: string) =>
  auditRead(ctx, {
    entity: 'patient',
    entityId: patientId,
    detail: { tab },
    onceWithinMinutes: PATIENT_READ_WINDOW_MINUTES,
  });

/**
 * Patient 360 calls of spec 000 section 7 (`360`, `360/person/{id}`, `360/measurementlist/{id}`,
 * `360/examinelist/{id}`, `360/examinereport/{id}`, `360/operationlist/{id}`, `360/druglist`)
 * and the lists behind the other tabs of the personal view. Each needs the function of its tab.
 */
export async function patient360Routes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tag = ['patient-360'];

  r.get(
    '/api/v0.1/360',
    {
      config: { access: { apiId: 'PersonalInHospitalView.get' } },
      schema: {
        tags: tag,
        summary: 'Patient search (keyset paged: pass the previous page’s nextCursor as cursor)',
        querystring: z.object({
          keyword: z.string().max(60).trim().optional(),
          gender: z.coerce.number().int().min(0).max(3).optional(),
          cursor: dbId().optional(),
          size: pageQuery.size,
        }),
        response: { 200: restOk(cdrPatientSearch) },
      },
    },
    async (req) => {
      // A list tolerates the replica's lag (a patient saved a moment ago shows on the next page load).
      const res = await searchPatients(app.readDb, appActor(req.ctx).appId, req.query);
      const full = canSeeIdentity(req.ctx);
      // One row per page: which filters were used (never their values: a keyword may be a name) and how many came back.
      await auditRead(req.ctx, {
        entity: 'patient_list',
        detail: {
          filters: filterNames(req.query, ['keyword', 'gender']),
          cursor: req.query.cursor ?? null,
          size: req.query.size,
          count: res.rows.length,
        },
      });
      return ok({ items: res.rows.map((p) => patientView(p, full)), nextCursor: res.nextCursor });
    },
  );

  r.get(
    '/api/v0.1/360/person/:id',
    {
      config: { access: { apiId: 'PersonalInHospitalView.get' }, ownedIds: ownedPatients },
      schema: {
        tags: tag,
        summary: 'Person view: patient, visits, diagnoses, allergies, counts',
        params: idParams,
        response: { 200: restOk(cdrPerson) },
      },
    },
    async (req) => {
      const data = await personView(app.db, appActor(req.ctx).appId, req.params.id, canSeeIdentity(req.ctx));
      // Opening a person's record is itself worth a trace (who looked at whom): always one row.
      await auditRead(req.ctx, { entity: 'patient', entityId: req.params.id, detail: { tab: 'person' } });
      return ok(data);
    },
  );

  const childList = <K extends CdrChildKind>(url: string, apiId: string, kind: K, summary: string) =>
    r.get(
      url,
      {
        config: { access: { apiId }, ownedIds: ownedPatients },
        schema: {
          tags: tag,
          summary,
          params: idParams,
          querystring: z.object(pageQuery),
          response: { 200: restOk(cdrChildPage(cdrChildRows[kind])) },
        },
      },
      async (req) => {
        const appId = appActor(req.ctx).appId;
        await patientOf(app.db, appId, req.params.id);
        const list = await listChildren(app.db, appId, req.params.id, kind, req.query);
        await auditTab(req.ctx, req.params.id, kind);
        return ok(list);
      },
    );

  childList('/api/v0.1/360/visits/:id', 'PersonalSeeADoctor.get', 'visits', 'Visits of a patient');
  childList('/api/v0.1/360/diagnoses/:id', 'PersonalDiagnose.get', 'diagnoses', 'Diagnoses of a patient');
  childList('/api/v0.1/360/allergies/:id', 'PersonalAllergy.get', 'allergies', 'Allergies of a patient');
  childList(
    '/api/v0.1/360/examinelist/:id',
    'PersonalExamine.get',
    'examReports',
    'Exam reports of a patient',
  );
  childList(
    '/api/v0.1/360/operationlist/:id',
    'PersonalSurgery.get',
    'operations',
    'Operations of a patient',
  );
  childList(
    '/api/v0.1/360/physicalexams/:id',
    'PersonalPhysicalExamination.get',
    'physicalExams',
    'Physical examinations of a patient',
  );
  childList('/api/v0.1/360/documents/:id', 'PersonalInHospitalView.get', 'documents', 'Clinical documents');

  r.get(
    '/api/v0.1/360/measurementlist/:id',
    {
      config: { access: { apiId: 'PersonalCheckout.get' }, ownedIds: ownedPatients },
      schema: {
        tags: tag,
        summary: 'Lab results of a patient (one item oldest first for its trend, or all newest first)',
        params: idParams,
        querystring: z.object({
          ...pageQuery,
          itemCode: z.string().max(40).trim().min(1).optional(),
          abnormalOnly: z.enum(['true', 'false']).optional(),
        }),
        response: { 200: restOk(cdrLabPage) },
      },
    },
    async (req) => {
      const appId = appActor(req.ctx).appId;
      const q = req.query;
      await patientOf(app.db, appId, req.params.id);
      const list = await listChildren(app.db, appId, req.params.id, 'labResults', {
        page: q.page,
        size: q.size,
        ascending: !!q.itemCode,
        where: and(
          q.itemCode ? eq(labResults.itemCode, q.itemCode) : undefined,
          q.abnormalOnly === 'true' ? inArray(labResults.abnormalFlag, ['H', 'L', 'A']) : undefined,
        ),
      });
      const items = await labItems(app.db, appId, req.params.id);
      await auditTab(req.ctx, req.params.id, 'labResults');
      return ok({ ...list, labItems: items });
    },
  );

  r.get(
    '/api/v0.1/360/examinereport/:id',
    {
      config: {
        access: { apiId: 'PersonalExamine.get' },
        ownedIds: async (db, appId) =>
          (
            await db
              .select({ id: examReports.id })
              .from(examReports)
              .where(eq(examReports.appId, appId))
              .limit(2)
          ).map((x) => ({ id: x.id })),
      },
      schema: {
        tags: tag,
        summary: 'One exam report',
        params: idParams,
        response: { 200: restOk(cdrExamReport) },
      },
    },
    async (req) => {
      const report = await examReportOf(app.db, appActor(req.ctx).appId, req.params.id);
      await auditTab(req.ctx, Number(report.patientId), 'examReport');
      return ok(report);
    },
  );

  r.get(
    '/api/v0.1/360/druglist',
    {
      config: { access: { apiId: 'PersonalDoctorsAdvice.get' } },
      schema: {
        tags: tag,
        summary: 'Orders of a patient (drug or other), newest first',
        querystring: z.object({
          ...pageQuery,
          patientId: dbId(),
          category: z.enum(['drug', 'other']).optional(),
          visitId: dbId().optional(),
        }),
        response: { 200: restOk(cdrChildPage(cdrChildRows.orders)) },
      },
    },
    async (req) => {
      const appId = appActor(req.ctx).appId;
      const q = req.query;
      await patientOf(app.db, appId, q.patientId);
      const list = await listChildren(app.db, appId, q.patientId, 'orders', {
        page: q.page,
        size: q.size,
        where: and(
          q.category ? eq(orders.category, q.category) : undefined,
          q.visitId ? eq(orders.visitId, q.visitId) : undefined,
        ),
      });
      await auditTab(req.ctx, q.patientId, 'orders');
      return ok(list);
    },
  );

  r.get(
    '/api/v0.1/360/vitalsigns/:id',
    {
      config: { access: { apiId: 'PersonalInHospitalView.get' }, ownedIds: ownedPatients },
      schema: {
        tags: tag,
        summary: 'Vital-sign chart points of one inpatient visit (the latest when none is named)',
        params: idParams,
        querystring: z.object({ visitId: dbId().optional() }),
        response: { 200: restOk(cdrVitals) },
      },
    },
    async (req) => {
      const appId = appActor(req.ctx).appId;
      await patientOf(app.db, appId, req.params.id);
      const points = await vitalSignsOf(app.db, appId, req.params.id, req.query.visitId);
      await auditTab(req.ctx, req.params.id, 'vitalSigns');
      return ok(points);
    },
  );

  r.get(
    '/api/v0.1/360/counts/:id',
    {
      config: { access: { apiId: 'PersonalInHospitalView.get' }, ownedIds: ownedPatients },
      schema: {
        tags: tag,
        summary: 'How many rows of each kind a patient has',
        params: idParams,
        response: { 200: restOk(cdrCounts) },
      },
    },
    async (req) => {
      const appId = appActor(req.ctx).appId;
      await patientOf(app.db, appId, req.params.id);
      const counts = await childCounts(app.db, appId, req.params.id);
      await auditTab(req.ctx, req.params.id, 'counts');
      return ok(counts);
    },
  );
}
