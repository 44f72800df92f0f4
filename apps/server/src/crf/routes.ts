import type { FastifyInstance } from 'fastify';
import { crfFormRoutes } from './form-routes.js';
import { crfIoRoutes } from './io-routes.js';
import { crfRecordRoutes } from './record-routes.js';

/** Case report forms: designer, versions, records with field-level audit, uploads, export. */
export async function crfRoutes(app: FastifyInstance) {
  // Import is registered before /forms/:formId so its static path wins.
  await crfIoRoutes(app);
  await crfFormRoutes(app);
  await crfRecordRoutes(app);
}
