import type { FastifyInstance } from 'fastify';
import { importRoutes } from './imports/routes.js';
import { patient360Routes } from './routes-360.js';
import { cdrRoutes } from './routes-cdr.js';
import { searchRoutes } from './search/routes.js';
import { syntheticRoutes } from './synthetic/routes.js';

/** The clinical data repository's calls: patient 360, manual entry and browser, imports, search. */
export async function clinicalRoutes(app: FastifyInstance) {
  await app.register(patient360Routes);
  await app.register(cdrRoutes);
  await app.register(importRoutes);
  await app.register(searchRoutes);
  await app.register(syntheticRoutes);
}
