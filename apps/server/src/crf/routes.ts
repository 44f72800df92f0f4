import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { crfUploads } from '../db/schema/index.js';
import { notFound } from '../http/errors.js';
import { crfActor } from './actor.js';
import { crfFormRoutes } from './form-routes.js';
import { loadForm } from './forms.js';
import { crfIoRoutes } from './io-routes.js';
import { crfRecordImportRoutes } from './record-import.js';
import { crfRecordRoutes } from './record-routes.js';
import { loadRecord } from './records.js';

const isId = (v: string | undefined) => !!v && /^\d{1,15}$/.test(v) && Number(v) > 0;

/** Case report forms: designer, versions, records with field-level audit, uploads, export. */
export async function crfRoutes(app: FastifyInstance) {
  // Another app's (or another link's) object is not found, whatever the body says: ownership
  // is checked before the body is validated.
  app.addHook('preValidation', async (req) => {
    if (!req.auth) return;
    const p = (req.params ?? {}) as Record<string, string | undefined>;
    const actor = crfActor(req.ctx);
    if (isId(p.formId)) await loadForm(app.db, actor, Number(p.formId));
    if (isId(p.recordId)) await loadRecord(app.db, actor, Number(p.recordId));
    if (isId(p.uploadId)) {
      const [u] = await app.db
        .select({ id: crfUploads.id })
        .from(crfUploads)
        .where(and(eq(crfUploads.id, Number(p.uploadId)), eq(crfUploads.appId, actor.appId)));
      if (!u) throw notFound('crf_upload');
    }
  });
  // Import is registered before /forms/:formId so its static path wins.
  await crfIoRoutes(app);
  await crfRecordImportRoutes(app);
  await crfFormRoutes(app);
  await crfRecordRoutes(app);
}
