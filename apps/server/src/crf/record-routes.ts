import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditRead, filterNames } from '../audit/audit.js';
import { crfActor } from './actor.js';
import { sendIssues } from './evaluate.js';
import { ownedFormIds } from './forms.js';
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
  transitionRecord,
} from './records.js';
import {
  answersSchema,
  formParams,
  methodsSchema,
  paging,
  reasonSchema,
  recordParams,
  subjectSchema,
  trimmed,
} from './schemas.js';

const ok = <T>(data: T) => ({ code: 200, data, message: 'ok' });

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
  const recordConfig = (apiId: string, free: boolean) => ({
    access: { apiId },
    ownedIds: ownedRecordIds,
    ...(free ? { freeScope: 'crf' as const } : {}),
  });

  r.get(
    '/api/v0.1/crf/forms/:formId/records',
    {
      config: { access: { apiId: 'CrfHepatopathyPoc.query' }, freeScope: 'crf', ownedIds: ownedFormIds },
      schema: {
        tags,
        summary: 'Records of a form (a free link sees only the records made through it)',
        params: formParams,
        querystring: z.object({
          ...paging,
          status: z.enum(['draft', 'submitted', 'verified', 'locked']).optional(),
          subject: trimmed(100).optional(),
        }),
      },
    },
    async (req) => {
      const page = await listRecords(app.db, crfActor(req), req.params.formId, req.query);
      await auditRead(req, {
        entity: 'crf_record_list',
        entityId: req.params.formId,
        detail: {
          filters: filterNames(req.query, ['status', 'subject']),
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
    '/api/v0.1/crf/forms/:formId/records',
    {
      config: { access: { apiId: 'CrfHepatopathyPoc.add' }, freeScope: 'crf', ownedIds: ownedFormIds },
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags,
        summary:
          'Start a record for a subject against the latest (or a given) version; submit at once or keep a draft',
        params: formParams,
        body: z.object({
          version: z.number().int().positive().max(2_147_483_647).optional(),
          ...subjectSchema,
          answers: answersSchema,
          methods: methodsSchema.default({}),
          submit: z.boolean().default(false),
          assignedTo: z.number().int().positive().max(2_147_483_647).optional(),
        }),
      },
    },
    async (req, reply) =>
      saving(req, reply, () => createRecord(app.db, req, crfActor(req), req.params.formId, req.body)),
  );

  r.get(
    '/api/v0.1/crf/records/:recordId',
    {
      config: recordConfig('CrfHepatopathyPoc.get', true),
      schema: {
        tags,
        summary: 'A record with the exact form version it was filled against',
        params: recordParams,
      },
    },
    async (req) => {
      const data = await recordWithDefinition(app.db, crfActor(req), req.params.recordId);
      await auditRead(req, {
        entity: 'crf_record',
        entityId: req.params.recordId,
        detail: { formId: data.record.formId, patientId: data.record.patientId },
      });
      return ok(data);
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
        body: z.object({
          answers: answersSchema,
          methods: methodsSchema.default({}),
          submit: z.boolean().default(false),
          revision: z.number().int().positive().max(2_147_483_647),
          reasons: z.record(z.string().min(1).max(200), reasonSchema).default({}),
          reason: reasonSchema.optional(),
          ...subjectSchema,
        }),
      },
    },
    async (req, reply) =>
      saving(req, reply, () => saveRecord(app.db, req, crfActor(req), req.params.recordId, req.body)),
  );

  r.get(
    '/api/v0.1/crf/records/:recordId/history',
    {
      config: recordConfig('CrfHepatopathyPoc.get', true),
      schema: {
        tags,
        summary: 'Every change of a record (item, old, new, reason, who, when), newest first',
        params: recordParams,
        querystring: z.object({ item: z.string().min(1).max(200).optional() }),
      },
    },
    async (req) => {
      const history = await recordHistory(app.db, crfActor(req), req.params.recordId, req.query.item);
      // The record screen opens the history beside the record: one row per window, like patient tabs.
      await auditRead(req, {
        entity: 'crf_record',
        entityId: req.params.recordId,
        detail: { view: 'history' },
        onceWithinMinutes: 30,
      });
      return ok(history);
    },
  );

  const transition = (path: string, what: 'verify' | 'lock' | 'unlock', apiId: string, summary: string) =>
    r.post(
      `/api/v0.1/crf/records/:recordId/${path}`,
      {
        config: recordConfig(apiId, false),
        schema: {
          tags,
          summary,
          params: recordParams,
          body: z.object({
            reason: what === 'unlock' ? reasonSchema.pipe(z.string().min(1)) : reasonSchema.default(''),
          }),
        },
      },
      async (req) =>
        ok(await transitionRecord(app.db, req, crfActor(req), req.params.recordId, what, req.body.reason)),
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

  r.post(
    '/api/v0.1/crf/records/:recordId/delete',
    {
      config: recordConfig('CrfHepatopathyPoc.delete', false),
      schema: {
        tags,
        summary:
          'Delete a record with a reason: it leaves lists and exports, its row and history stay; locked records are refused',
        params: recordParams,
        body: z.object({ reason: reasonSchema.pipe(z.string().min(1, 'a reason is required')) }),
      },
    },
    async (req) => {
      const row = await deleteRecord(app.db, req, crfActor(req), req.params.recordId, req.body.reason);
      return ok({ id: row.id, deletedAt: row.deletedAt, deleteReason: row.deleteReason });
    },
  );

  r.post(
    '/api/v0.1/crf/records/:recordId/assign',
    {
      config: recordConfig('CrfHepatopathyPoc.edit', false),
      schema: {
        tags,
        summary: 'Assign a record to a member of the app, who gets a notice',
        params: recordParams,
        body: z.object({ userId: z.number().int().positive().max(2_147_483_647) }),
      },
    },
    async (req) => {
      await assignRecord(app.db, req, crfActor(req), req.params.recordId, req.body.userId);
      return ok({ id: req.params.recordId });
    },
  );
}
