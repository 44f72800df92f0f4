import { Readable } from 'node:stream';
import { fileDownload } from '@crdp/core';
import {
  CRF_CATEGORY_MAX,
  CRF_FORM_NAME_MAX,
  crfExportQuery,
  crfImportBody,
  crfImported,
  crfImportStudyBody,
  crfStudyImported,
  crfUploadBody,
  crfUploaded,
} from '@crdp/crf';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { audit, auditRead } from '../audit/audit.js';
import { restRoutes } from '../http/route.js';
import { schemaMessage } from '../http/validation-messages.js';
import { crfActor } from './actor.js';
import { exportCsv, exportOdm, exportXlsx } from './export.js';
import { createForm, loadVersion, ownedFormIds } from './forms.js';
import { MAX_ODM_CHARS } from './import.js';
import { formParams, uploadParams } from './schemas.js';
import { MAX_UPLOAD_BYTES, openUpload, ownedUploadIds, storeUpload } from './uploads.js';

const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odm: 'application/xml; charset=utf-8',
} as const;

/** Import, export and uploads of CRFs. */
export async function crfIoRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['crf'];
  const api = restRoutes(app, { tags });

  api.post(
    '/api/v0.1/crf/forms/import',
    {
      access: { apiId: 'CrfManagementList.import' },
      summary:
        'Create a form from CRDP JSON, a REDCap data dictionary or CDISC ODM 1.3.2 metadata (one FormDef: `formOid`, default the first); reports what it could not translate',
      body: crfImportBody.refine((b) => b.format !== 'odm' || b.content.length <= MAX_ODM_CHARS, {
        path: ['content'],
        message: schemaMessage(
          `ODM 文件不能超过 ${MAX_ODM_CHARS / 1024 / 1024} MB`,
          `an ODM file may be at most ${MAX_ODM_CHARS / 1024 / 1024} MB`,
        ),
      }),
      bodyLimit: 8 * 1024 * 1024,
      answer: crfImported,
    },
    async (req) => {
      const b = req.body;
      // Parsed in a worker thread (parsing/pool.ts): a 5 MB file does not hold up other requests.
      const { definition, unsupported, counts } =
        b.format === 'json'
          ? {
              definition: await app.parsing.run({ kind: 'crf.json', text: b.content }, 'body.content'),
              unsupported: [] as string[],
              counts: undefined,
            }
          : b.format === 'odm'
            ? await (async () => {
                const x = await app.parsing.run(
                  { kind: 'crf.odm', text: b.content, formOid: b.formOid },
                  'body.content',
                );
                return { definition: x.form, unsupported: x.unsupported, counts: undefined };
              })()
            : await (async () => {
                const x = await app.parsing.run({ kind: 'crf.redcap', text: b.content }, 'body.content');
                return { definition: x.form, unsupported: x.unsupported, counts: x.counts };
              })();
      const form = await createForm(app.db, crfActor(req.ctx), { name: b.name, category: '', definition });
      return { form, unsupported, ...(counts ? { counts } : {}) };
    },
  );

  api.post(
    '/api/v0.1/crf/forms/import-study',
    {
      access: { apiId: 'CrfManagementList.import' },
      summary:
        'Create a form from each FormDef of a CDISC ODM 1.3.2 file or REDCap project XML (one study), all or none; each with what it could not translate',
      body: crfImportStudyBody.refine((b) => b.content.length <= MAX_ODM_CHARS, {
        path: ['content'],
        message: schemaMessage(
          `ODM 文件不能超过 ${MAX_ODM_CHARS / 1024 / 1024} MB`,
          `an ODM file may be at most ${MAX_ODM_CHARS / 1024 / 1024} MB`,
        ),
      }),
      bodyLimit: 8 * 1024 * 1024,
      answer: crfStudyImported,
    },
    async (req) => {
      const study = await app.parsing.run({ kind: 'crf.odm.study', text: req.body.content }, 'body.content');
      // Names and the category as the form screens take them: one line, no control characters.
      const line = (s: string, max: number) =>
        Array.from(s.replace(/\s+/g, ' ').trim())
          .filter((c) => {
            const n = c.codePointAt(0)!;
            return n >= 0x20 && !(n >= 0x7f && n <= 0x9f) && !(n >= 0xd800 && n <= 0xdfff);
          })
          .slice(0, max)
          .join('');
      const category = req.body.category ?? line(study.study, CRF_CATEGORY_MAX);
      const actor = crfActor(req.ctx);
      // All forms or none: one transaction.
      const forms = await app.db.transaction(async (tx) => {
        const made = [];
        for (const f of study.forms)
          made.push({
            formOid: f.formOid,
            form: await createForm(tx, actor, {
              name: line(f.name, CRF_FORM_NAME_MAX) || f.formOid.slice(0, CRF_FORM_NAME_MAX),
              category,
              definition: f.form,
            }),
            unsupported: f.unsupported,
          });
        return made;
      });
      return { study: study.study, forms, skipped: study.skipped };
    },
  );

  r.get(
    '/api/v0.1/crf/forms/:formId/export',
    {
      config: { access: { apiId: 'CrfManagementList.export' }, ownedIds: ownedFormIds },
      schema: {
        tags,
        summary:
          'Stream the records of a form as CSV, XLSX or CDISC ODM 1.3.2 XML (latest version metadata; with its audit trail unless `audit=false`)',
        params: formParams,
        querystring: crfExportQuery,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const actor = crfActor(req.ctx);
      const { form } = await loadVersion(app.db, actor, req.params.formId);
      const { format, labels, audit: withAudit } = req.query;
      await audit(app.db, req.ctx, {
        action: 'crf.export',
        entity: 'crf_form',
        entityId: form.id,
        after: { format, labels, ...(format === 'odm' ? { audit: withAudit === 'true' } : {}) },
      });
      const name = encodeURIComponent(`${form.name}.${format === 'odm' ? 'xml' : format}`);
      reply
        .header('content-type', CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename*=UTF-8''${name}`)
        .header('cache-control', 'no-store');
      // The records stream from the replica when there is one: an export tolerates its lag.
      const source =
        format === 'odm'
          ? exportOdm(app.readDb, actor, form.id, withAudit === 'true')
          : format === 'xlsx'
            ? exportXlsx(app.readDb, actor, form.id, labels === 'names')
            : exportCsv(app.readDb, actor, form.id, labels === 'names');
      return reply.send(Readable.from(source));
    },
  );

  api.post(
    '/api/v0.1/crf/forms/:formId/uploads',
    {
      access: { apiId: 'CrfHepatopathyPoc.add' },
      ownedIds: ownedFormIds,
      freeScope: 'crf',
      summary: 'Store a file of an upload item (PNG, JPEG, PDF, text, CSV; at most 10 MB; content checked)',
      params: formParams,
      body: crfUploadBody,
      bodyLimit: Math.ceil(MAX_UPLOAD_BYTES * 1.4) + 4096,
      answer: crfUploaded,
    },
    (req) => storeUpload(app.db, crfActor(req.ctx), app.config.dataDir, req.params.formId, req.body),
  );

  r.get(
    '/api/v0.1/crf/uploads/:uploadId',
    {
      config: { access: { apiId: 'CrfHepatopathyPoc.get' }, freeScope: 'crf', ownedIds: ownedUploadIds },
      schema: {
        tags,
        summary: 'A stored file, to sessions that may read the records of its form',
        params: uploadParams,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const { row, stream } = await openUpload(
        app.db,
        crfActor(req.ctx),
        app.config.dataDir,
        req.params.uploadId,
      );
      // A file of a record is patient data: its download is a read (ids only, not the file name).
      await auditRead(req.ctx, {
        action: 'download',
        entity: 'crf_upload',
        entityId: row.id,
        detail: { formId: row.formId, size: row.size },
      });
      reply
        .header('content-type', row.contentType)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(row.fileName)}`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      return reply.send(stream);
    },
  );
}
