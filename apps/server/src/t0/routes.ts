import {
  t0Event,
  t0EventCreate,
  t0EventList,
  t0EventParams,
  t0EventPatch,
  t0PatientPage,
  t0PatientQuery,
  t0RunStarted,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { ownedPath } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  addT0Event,
  deleteT0Event,
  editT0Event,
  listT0Events,
  runT0Event,
  T0_JOB_KIND,
  t0EventOf,
  t0EventsOf,
  t0Job,
  t0PatientsOf,
} from './events.js';

const P = '/api/v0.1/t0-events';

/** T0 events (DataLakeT0Event): rules, their calculation as a job, each patient's T0. */
export async function t0Routes(app: FastifyInstance) {
  app.jobs.handle(T0_JOB_KIND, t0Job);
  const db = app.db;
  const api = restRoutes(app, { tags: ['t0'] });
  const A = (action: string) => ({ apiId: `DataLakeT0Event.${action}` });
  const own = ownedPath(t0EventParams, t0EventsOf, (appId, p) => t0EventOf(db, appId, p.id));

  api.get(
    P,
    { access: A('query'), summary: 'The app’s T0 events with their state', answer: t0EventList },
    (req) => listT0Events(db, signedIn(req.ctx).appId),
  );
  api.post(P, { access: A('add'), summary: 'Add a T0 event', body: t0EventCreate, answer: t0Event }, (req) =>
    addT0Event(signedIn(req.ctx), req.body),
  );
  api.patch(
    `${P}/:id`,
    {
      access: A('edit'),
      ...own,
      summary: 'Change a T0 event (its results go stale)',
      body: t0EventPatch,
      answer: t0Event,
    },
    (req) => editT0Event(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${P}/:id`,
    { access: A('delete'), ...own, summary: 'Delete a T0 event and its results', answer: z.literal(true) },
    (req) => deleteT0Event(signedIn(req.ctx), req.params.id),
  );
  api.post(
    `${P}/:id/run`,
    { access: A('edit'), ...own, summary: 'Work out every patient’s T0 again (a job)', answer: t0RunStarted },
    async (req) => {
      const started = await runT0Event(signedIn(req.ctx), req.params.id);
      app.jobs.nudge();
      return started;
    },
  );
  api.get(
    `${P}/:id/patients`,
    {
      access: A('get'),
      ...own,
      summary: 'The patients of a T0 event with their T0, and how many per year',
      query: t0PatientQuery,
      answer: t0PatientPage,
    },
    (req) => t0PatientsOf(db, signedIn(req.ctx).appId, req.params.id, req.query),
  );
}
