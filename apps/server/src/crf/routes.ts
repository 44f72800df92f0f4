import type { FastifyInstance } from 'fastify';
import { crfFormRoutes } from './form-routes.js';
import { crfRecordRoutes } from './record-routes.js';

/** Case report forms: designer, versions, records with field-level audit, uploads, export. */
export async function crfRoutes(app: FastifyInstance) {
  await crfFormRoutes(app);
  await crfRecordRoutes(app);
}
