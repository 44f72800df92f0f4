import type { TaskStatus } from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  caseInput,
  createTopic,
  detection,
  enterCase,
  invitableCenters,
  listTopics,
  moveInput,
  moveTopic,
  ownCases,
  ownedTopicIds,
  ownPatients,
  pooled,
  protocolSchema,
  topicDescription,
  topicFor,
  topicInput,
  updateProtocol,
} from './topics.js';

const ok = <T>(data: T) => ({ code: 200, data, message: 'ok' });
const params = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** Multi-center research: topics, protocol, each center's cases, pooled aggregates, detection. */
export async function multiCenterRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['multi-center'];
  /** A topic this center does not take part in is not found, whatever the body says. */
  const ownTopic = async (req: FastifyRequest) => {
    const id = Number((req.params as { id?: string }).id);
    if (Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 && req.auth)
      await topicFor(app.db, req.auth.appId, id);
  };
  const owned = { ownedIds: ownedTopicIds };
  const uid = (req: { auth: { userId: number | null } | null }) => req.auth!.userId ?? 0;

  r.get(
    '/api/v0.1/mc/topics',
    {
      config: { access: { apiId: 'MultiCenterTopics.query' } },
      schema: { tags, summary: 'Topics this center takes part in' },
    },
    async (req) => ok(await listTopics(app.db, req.auth!.appId)),
  );
  r.post(
    '/api/v0.1/mc/topics',
    {
      config: { access: { apiId: 'MultiCenterCreateTopic.add' } },
      schema: { tags, summary: 'Create a topic led by this center', body: topicInput },
    },
    async (req) => ok(await createTopic(app.db, req, req.auth!.appId, uid(req), req.body)),
  );
  r.get(
    '/api/v0.1/mc/topics/:id',
    {
      config: { access: { apiId: 'MultiCenterTopicDescription.get' }, ...owned },
      preValidation: ownTopic,
      schema: { tags, summary: 'Protocol, variables and centers', params },
    },
    async (req) => ok(await topicDescription(app.db, req.auth!.appId, req.params.id)),
  );
  r.put(
    '/api/v0.1/mc/topics/:id/protocol',
    {
      config: { access: { apiId: 'MultiCenterTopicDescription.edit' }, ...owned },
      preValidation: ownTopic,
      schema: { tags, summary: 'Change the protocol (leading center)', params, body: protocolSchema },
    },
    async (req) => ok(await updateProtocol(app.db, req, req.auth!.appId, req.params.id, req.body)),
  );
  r.get(
    '/api/v0.1/mc/topics/:id/cases',
    {
      config: { access: { apiId: 'MultiCenterTopics.get' }, ...owned },
      preValidation: ownTopic,
      schema: { tags, summary: 'This center’s own cases', params },
    },
    async (req) => ok(await ownCases(app.db, req.auth!.appId, req.params.id)),
  );
  r.post(
    '/api/v0.1/mc/topics/:id/cases',
    {
      config: { access: { apiId: 'MultiCenterTopics.edit' }, ...owned },
      preValidation: ownTopic,
      schema: { tags, summary: 'Enter a case for one of this center’s patients', params, body: caseInput },
    },
    async (req) => ok(await enterCase(app.db, req, req.auth!.appId, uid(req), req.params.id, req.body)),
  );
  r.get(
    '/api/v0.1/mc/centers',
    {
      config: { access: { apiId: 'MultiCenterCreateTopic.add' } },
      schema: { tags, summary: 'Other centers in multi-center mode that a topic can invite' },
    },
    async (req) => ok(await invitableCenters(app.db, req.auth!.appId)),
  );
  r.post(
    '/api/v0.1/mc/topics/:id/status',
    {
      config: { access: { apiId: 'MultiCenterTopicDescription.edit' }, ...owned },
      preValidation: ownTopic,
      schema: {
        tags,
        summary: 'Move the topic to another status (leading center; 409 lists the allowed moves)',
        params,
        body: moveInput,
      },
    },
    async (req) =>
      ok(await moveTopic(app.db, req, req.auth!.appId, req.params.id, req.body.to as TaskStatus)),
  );
  r.get(
    '/api/v0.1/mc/topics/:id/patients',
    {
      config: { access: { apiId: 'MultiCenterTopics.edit' }, ...owned },
      preValidation: ownTopic,
      schema: {
        tags,
        summary: 'This center’s own patients, to pick one for a case (names masked)',
        params,
        querystring: z.object({ keyword: z.string().max(100).optional() }),
      },
    },
    async (req) => ok(await ownPatients(app.db, req.auth!.appId, req.params.id, req.query.keyword)),
  );
  r.get(
    '/api/v0.1/mc/topics/:id/pooled',
    {
      config: { access: { apiId: 'MultiCenterTopics.get' }, ...owned },
      preValidation: ownTopic,
      schema: { tags, summary: 'Pooled de-identified aggregates', params },
    },
    async (req) => ok(await pooled(app.db, req.auth!.appId, req.params.id)),
  );
  r.get(
    '/api/v0.1/mc/topics/:id/detection',
    {
      config: { access: { apiId: 'MultiCenterDetection.query' }, ...owned },
      preValidation: ownTopic,
      schema: { tags, summary: 'Data checks per center', params },
    },
    async (req) => ok(await detection(app.db, req.auth!.appId, req.params.id, req.locale)),
  );
}
