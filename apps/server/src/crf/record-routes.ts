import { restOk } from '@crdp/core';
import {
  crfAssignBody,
  crfCdrPrefillBody,
  crfChange,
  crfDeleteBody,
  crfHistoryQuery,
  crfPatientList,
  crfPatientQuery,
  crfPrefillBody,
  crfPrefillResult,
  crfRecord,
  crfRecordAssigned,
  crfRecordCreateBody,
  crfRecordDeleted,
  crfRecordDetail,
  crfRecordListQuery,
  crfRecordPage,
  crfRecordSaveBody,
  crfRecordSaved,
  crfTransitionBody,
  crfUnlockBody,
  mapRecordToAnswers,
  placeEntries,
} from '@crdp/crf';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditPageRead, auditRead, filterNames } from '../audit/audit.js';
import { invalidField } from '../http/errors.js';
import { restRoutes } from '../http/route.js';
import { crfActor } from './actor.js';
import { loadVersion, ownedFormIds, versionForm } from './forms.js';
import { cdrEntries } from './prefill-cdr.js';
import {
  assignRecord,
  createRecord,
  deleteRecord,
  listRecords,
  ownedRecordIds,
  recordHistory,
  recordWithDefinition,
  SubmissionInvalid,
  saveRecord,
  searchPatients,
  transitionRecord,
} from './records.js';
import { sendIssues } from './reply.js';
import { formParams, ok, recordParams } from './schemas.js';

/** Runs a save; an engine refusal answers 400 with its issues instead of an error message alone. */
async function saving<T>(req: FastifyRequest, reply: FastifyReply, run: () => Promise<T>) {
  try {
    return ok(await run());
  } catch (e) {
    if (e instanceof SubmissionInvalid) return sendIssues(req, reply, e.issues);
    throw e;
  }
}

/** Records of a form: fill, submit, change with a reason, verify, lock, unlock, history. */
export async function crfRecordRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['crf'];
  const api = restRoutes(app, { tags });
  const recordConfig = (apiId: string, free: boolean) => ({
    access: { apiId },
    ownedIds: ownedRecordIds,
    ...(free ? { freeScope: 'crf' as const } : {}),
  });

  api.get(
    '/api/v0.1/crf/forms/:formId/records',
    {
      access: { apiId: 'CrfHepatopathyPoc.query' },
      ownedIds: ownedFormIds,
      freeScope: 'crf',
      summary: 'Records of a form (a free link sees only the records made through it)',
      params: formParams,
      query: crfRecordListQuery,
      answer: crfRecordPage,
    },
    async (req) => {
      const page = await listRecords(app.db, crfActor(req.ctx), req.params.formId, req.query);
      await auditPageRead(
        req.ctx,
        {
          entity: 'crf_record_list',
          entityId: req.params.formId,
          filters: filterNames(req.query, ['status', 'subject', 'patientId']),
        },
        page,
        req.query,
      );
      return page;
    },
  );

  api.get(
    '/api/v0.1/crf/patients',
    {
      // Whoever may start a record picks its patient; a free-access link may not look patients up.
      access: { apiId: 'CrfHepatopathyPoc.add' },
      summary: 'Patients of the app a record may be for, by name or medical record number',
      query: crfPatientQuery,
      answer: crfPatientList,
    },
    async (req) => {
      const data = await searchPatients(app.db, crfActor(req.ctx), req.query);
      await auditRead(req.ctx, {
        entity: 'crf_patient_search',
        detail: { filters: filterNames(req.query, ['keyword']), count: data.items.length },
      });
      return data;
    },
  );

  api.post(
    '/api/v0.1/crf/forms/:formId/prefill',
    {
      access: { apiId: 'CrfHepatopathyPoc.add' },
      ownedIds: ownedFormIds,
      summary:
        'Prefill from a structured case record (HL7 CDA or C-CDA XML) against the latest version: the answers placed (by code, then name; units converted) and each entry not placed with its reason. Nothing is stored',
      params: formParams,
      body: crfPrefillBody,
      bodyLimit: 6 * 1024 * 1024,
      answer: crfPrefillResult,
    },
    async (req) => {
      const { version } = await loadVersion(app.db, crfActor(req.ctx), req.params.formId);
      if (!/<ClinicalDocument[\s>]/.test(req.body.xml))
        throw invalidField(
          'body.xml',
          '不是 HL7 CDA 文档（没有 ClinicalDocument 根元素）',
          'not an HL7 CDA document (no ClinicalDocument root element)',
        );
      return mapRecordToAnswers(req.body.xml, versionForm(version));
    },
  );

  api.post(
    '/api/v0.1/crf/forms/:formId/prefill/cdr',
    {
      access: { apiId: 'CrfHepatopathyPoc.add' },
      ownedIds: ownedFormIds,
      summary:
        "Prefill from a patient's clinical data (CDR) against the latest version: sex, birth date and age, the latest value of each lab item, vital sign and examination item, and the diagnoses, as of the end of a day (default today), placed by code, then name (units converted); each entry not placed with its reason. Nothing is stored; the read is audited",
      params: formParams,
      body: crfCdrPrefillBody,
      answer: crfPrefillResult,
    },
    async (req) => {
      const actor = crfActor(req.ctx);
      const { version } = await loadVersion(app.db, actor, req.params.formId);
      const asOf = req.body.as_of ?? new Date().toISOString().slice(0, 10);
      const entries = await cdrEntries(app.db, actor.appId, req.body.patient_id, asOf);
      const mapping = placeEntries(entries, versionForm(version));
      await auditRead(req.ctx, {
        entity: 'crf_prefill_cdr',
        entityId: req.params.formId,
        detail: {
          patientId: req.body.patient_id,
          asOf,
          entries: entries.length,
          placed: Object.keys(mapping.answers).length,
        },
      });
      return mapping;
    },
  );

  r.post(
    '/api/v0.1/crf/forms/:formId/records',
    {
      config: { access: { apiId: 'CrfHepatopathyPoc.add' }, freeScope: 'crf', ownedIds: ownedFormIds },
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags,
        summary:
          'Start a record for a subject against the latest (or a given) version; submit at once or keep a draft',
        params: formParams,
        body: crfRecordCreateBody,
        response: { 200: restOk(crfRecord) },
      },
    },
    async (req, reply) =>
      saving(req, reply, () => createRecord(app.db, crfActor(req.ctx), req.params.formId, req.body)),
  );

  api.get(
    '/api/v0.1/crf/records/:recordId',
    {
      ...recordConfig('CrfHepatopathyPoc.get', true),
      summary: 'A record with the exact form version it was filled against',
      params: recordParams,
      answer: crfRecordDetail,
    },
    async (req) => {
      const data = await recordWithDefinition(app.db, crfActor(req.ctx), req.params.recordId);
      await auditRead(req.ctx, {
        entity: 'crf_record',
        entityId: req.params.recordId,
        detail: { formId: data.record.formId, patientId: data.record.patientId },
      });
      return data;
    },
  );

  r.put(
    '/api/v0.1/crf/records/:recordId',
    {
      config: recordConfig('CrfHepatopathyPoc.edit', true),
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Save a record; a change of a submitted record needs a reason per changed item',
        params: recordParams,
        body: crfRecordSaveBody,
        response: { 200: restOk(crfRecordSaved) },
      },
    },
    async (req, reply) =>
      saving(req, reply, () => saveRecord(app.db, crfActor(req.ctx), req.params.recordId, req.body)),
  );

  api.get(
    '/api/v0.1/crf/records/:recordId/history',
    {
      ...recordConfig('CrfHepatopathyPoc.get', true),
      summary: 'Every change of a record (item, old, new, reason, who, when), newest first',
      params: recordParams,
      query: crfHistoryQuery,
      answer: z.array(crfChange),
    },
    async (req) => {
      const history = await recordHistory(app.db, crfActor(req.ctx), req.params.recordId, req.query.item);
      // The record screen opens the history beside the record: one row per window, like patient tabs.
      await auditRead(req.ctx, {
        entity: 'crf_record',
        entityId: req.params.recordId,
        detail: { view: 'history' },
        onceWithinMinutes: 30,
      });
      return history;
    },
  );

  const transition = (path: string, what: 'verify' | 'lock' | 'unlock', apiId: string, summary: string) =>
    api.post(
      `/api/v0.1/crf/records/:recordId/${path}`,
      {
        ...recordConfig(apiId, false),
        summary,
        params: recordParams,
        body: what === 'unlock' ? crfUnlockBody : crfTransitionBody,
        answer: crfRecord,
      },
      (req) => transitionRecord(app.db, crfActor(req.ctx), req.params.recordId, what, req.body.reason),
    );
  transition(
    'verify',
    'verify',
    'CrfHepatopathyPoc.edit',
    'Mark a submitted record verified (source data verified)',
  );
  transition('lock', 'lock', 'CrfHepatopathyPoc.disable', 'Lock a record: no change until unlocked');
  transition(
    'unlock',
    'unlock',
    'CrfHepatopathyPoc.enable',
    'Unlock a record (a function of its own), with a reason',
  );

  api.post(
    '/api/v0.1/crf/records/:recordId/delete',
    {
      ...recordConfig('CrfHepatopathyPoc.delete', false),
      summary:
        'Delete a record with a reason: it leaves lists and exports, its row and history stay; locked records are refused',
      params: recordParams,
      body: crfDeleteBody,
      answer: crfRecordDeleted,
    },
    async (req) => {
      const row = await deleteRecord(app.db, crfActor(req.ctx), req.params.recordId, req.body.reason);
      return { id: row.id, deletedAt: row.deletedAt!, deleteReason: row.deleteReason };
    },
  );

  api.post(
    '/api/v0.1/crf/records/:recordId/assign',
    {
      ...recordConfig('CrfHepatopathyPoc.edit', false),
      summary: 'Assign a record to a member of the app, who gets a notice',
      params: recordParams,
      body: crfAssignBody,
      answer: crfRecordAssigned,
    },
    async (req) => {
      await assignRecord(app.db, crfActor(req.ctx), req.params.recordId, req.body.userId);
      return { id: req.params.recordId };
    },
  );
}
