import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit, auditRead } from '../audit/audit.js';
import { schemaMessage } from '../http/validation-messages.js';
import { crfActor } from './actor.js';
import { exportCsv, exportOdm, exportXlsx } from './export.js';
import { createForm, loadVersion, ownedFormIds } from './forms.js';
import { MAX_ODM_CHARS } from './import.js';
import { formParams, trimmed, uploadParams } from './schemas.js';
import { MAX_UPLOAD_BYTES, openUpload, ownedUploadIds, storeUpload } from './uploads.js';

const ok = <T>(data: T) => ({ code: 200, data, message: 'ok' });
const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odm: 'application/xml; charset=utf-8',
} as const;

/** Import, export and uploads of CRFs. */
export async function crfIoRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['crf'];

  r.post(
    '/api/v0.1/crf/forms/import',
    {
      config: { access: { apiId: 'CrfManagementList.import' } },
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        tags,
        summary:
          'Create a form from CRDP JSON, a REDCap data dictionary or CDISC ODM 1.3.2 metadata (one FormDef: `formOid`, default the first); reports what it could not translate',
        body: z
          .object({
            format: z.enum(['json', 'redcap', 'odm']),
            name: trimmed(200, 1),
            content: z
              .string()
              .min(1)
              .max(6 * 1024 * 1024),
            formOid: z.string().trim().min(1).max(200).optional(),
          })
          .refine((b) => b.format !== 'odm' || b.content.length <= MAX_ODM_CHARS, {
            path: ['content'],
            message: schemaMessage(
              `ODM 文件不能超过 ${MAX_ODM_CHARS / 1024 / 1024} MB`,
              `an ODM file may be at most ${MAX_ODM_CHARS / 1024 / 1024} MB`,
            ),
          }),
      },
    },
    async (req) => {
      const b = req.body;
      // Parsed in a worker thread (parsing/pool.ts): a 5 MB file does not hold up other requests.
      const { definition, unsupported } =
        b.format === 'json'
          ? {
              definition: await app.parsing.run({ kind: 'crf.json', text: b.content }, 'body.content'),
              unsupported: [] as string[],
            }
          : await (async () => {
              const x =
                b.format === 'odm'
                  ? await app.parsing.run(
                      { kind: 'crf.odm', text: b.content, formOid: b.formOid },
                      'body.content',
                    )
                  : await app.parsing.run({ kind: 'crf.redcap', text: b.content }, 'body.content');
              return { definition: x.form, unsupported: x.unsupported };
            })();
      const form = await createForm(app.db, req, crfActor(req), { name: b.name, category: '', definition });
      return ok({ form, unsupported });
    },
  );

  r.get(
    '/api/v0.1/crf/forms/:formId/export',
    {
      config: { access: { apiId: 'CrfManagementList.export' }, ownedIds: ownedFormIds },
      schema: {
        tags,
        summary: 'Stream the records of a form as CSV, XLSX or CDISC ODM 1.3.2 XML (latest version metadata)',
        params: formParams,
        querystring: z.object({
          format: z.enum(['csv', 'xlsx', 'odm']).default('csv'),
          labels: z.enum(['codes', 'names']).default('codes'),
        }),
      },
    },
    async (req, reply) => {
      const actor = crfActor(req);
      const { form } = await loadVersion(app.db, actor, req.params.formId);
      const { format, labels } = req.query;
      await audit(app.db, req, {
        action: 'crf.export',
        entity: 'crf_form',
        entityId: form.id,
        after: { format, labels },
      });
      const name = encodeURIComponent(`${form.name}.${format === 'odm' ? 'xml' : format}`);
      reply
        .header('content-type', CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename*=UTF-8''${name}`)
        .header('cache-control', 'no-store');
      const source =
        format === 'odm'
          ? exportOdm(app.db, actor, form.id)
          : format === 'xlsx'
            ? exportXlsx(app.db, actor, form.id, labels === 'names')
            : exportCsv(app.db, actor, form.id, labels === 'names');
      return reply.send(Readable.from(source));
    },
  );

  r.post(
    '/api/v0.1/crf/forms/:formId/uploads',
    {
      config: { access: { apiId: 'CrfHepatopathyPoc.add' }, freeScope: 'crf', ownedIds: ownedFormIds },
      bodyLimit: Math.ceil(MAX_UPLOAD_BYTES * 1.4) + 4096,
      schema: {
        tags,
        summary: 'Store a file of an upload item (PNG, JPEG, PDF, text, CSV; at most 10 MB; content checked)',
        params: formParams,
        body: z.object({
          fileName: trimmed(255, 1),
          contentType: z.string().min(1).max(100),
          dataBase64: z
            .string()
            .min(1)
            .max(Math.ceil(MAX_UPLOAD_BYTES * 1.4)),
        }),
      },
    },
    async (req) =>
      ok(await storeUpload(app.db, req, crfActor(req), app.config.dataDir, req.params.formId, req.body)),
  );

  r.get(
    '/api/v0.1/crf/uploads/:uploadId',
    {
      config: { access: { apiId: 'CrfHepatopathyPoc.get' }, freeScope: 'crf', ownedIds: ownedUploadIds },
      schema: {
        tags,
        summary: 'A stored file, to sessions that may read the records of its form',
        params: uploadParams,
      },
    },
    async (req, reply) => {
      const { row, stream } = await openUpload(
        app.db,
        crfActor(req),
        app.config.dataDir,
        req.params.uploadId,
      );
      // A file of a record is patient data: its download is a read (ids only, not the file name).
      await auditRead(req, {
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
