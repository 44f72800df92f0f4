import {
  dataElement,
  dataElementCreate,
  dataElementDetail,
  dataElementList,
  dataElementParams,
  dataElementPublish,
  dataElementQuery,
  dataElementRead,
  dataElementReadBody,
  dataElementUpdates,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { ownedPath } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import {
  createElement,
  deleteElement,
  elementDetail,
  elementsOf,
  listElements,
  markRead,
  publishVersion,
  setSubscribed,
  updatesOf,
} from './elements.js';

const P = '/api/v0.1/data-elements';

/**
 * Data elements and their subscriptions (DataElementSubscribe): `query` lists, `get` reads an
 * element, subscribes and reads the changes, `add` creates and publishes versions (the data
 * steward), `delete` deletes.
 */
export async function dataElementRoutes(app: FastifyInstance) {
  const db = app.db;
  const api = restRoutes(app, { tags: ['data-elements'] });
  const A = (action: string) => ({ apiId: `DataElementSubscribe.${action}` });
  const own = ownedPath(dataElementParams, elementsOf, async (appId, p) => {
    if (!(await elementsOf(db, appId)).some((r) => r.id === p.id)) throw notFound('data_element');
  });

  api.get(
    P,
    {
      access: A('query'),
      summary: 'The app’s data elements, with my subscriptions',
      query: dataElementQuery,
      answer: dataElementList,
    },
    (req) => listElements(signedIn(req.ctx), req.query.keyword),
  );
  api.get(
    `${P}/updates`,
    {
      access: A('get'),
      summary: 'What changed in my subscribed elements since the version I read',
      answer: dataElementUpdates,
    },
    (req) => updatesOf(signedIn(req.ctx)),
  );
  api.post(
    `${P}/updates/read`,
    {
      access: A('get'),
      summary: 'Mark the changes read (clears the header’s icon)',
      body: dataElementReadBody,
      answer: dataElementRead,
    },
    (req) => markRead(signedIn(req.ctx)),
  );
  api.post(
    P,
    {
      access: A('add'),
      summary: 'Create a data element with its first version',
      body: dataElementCreate,
      answer: dataElement,
    },
    (req) => createElement(signedIn(req.ctx), req.body),
  );
  api.get(
    `${P}/:id`,
    { access: A('get'), ...own, summary: 'A data element with every version', answer: dataElementDetail },
    (req) => elementDetail(signedIn(req.ctx), req.params.id),
  );
  api.post(
    `${P}/:id/versions`,
    {
      access: A('add'),
      ...own,
      summary: 'Publish a new version; subscribers are notified',
      body: dataElementPublish,
      answer: dataElement,
    },
    (req) => publishVersion(signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${P}/:id`,
    { access: A('delete'), ...own, summary: 'Delete a data element', answer: z.literal(true) },
    (req) => deleteElement(signedIn(req.ctx), req.params.id),
  );
  api.post(
    `${P}/:id/subscribe`,
    { access: A('get'), ...own, summary: 'Subscribe to an element', answer: dataElement },
    (req) => setSubscribed(signedIn(req.ctx), req.params.id, true),
  );
  api.delete(
    `${P}/:id/subscribe`,
    { access: A('get'), ...own, summary: 'End a subscription', answer: dataElement },
    (req) => setSubscribed(signedIn(req.ctx), req.params.id, false),
  );
}
