import {
  mcCaseInput,
  mcCaseSaved,
  mcCenterAnswer,
  mcCenterCheck,
  mcInvitableCenter,
  mcInvitation,
  mcInvited,
  mcInviteInput,
  mcMoved,
  mcMoveInput,
  mcOwnCase,
  mcPatientOption,
  mcPatientsQuery,
  mcPooled,
  mcProtocol,
  mcSettings,
  mcSettingsInput,
  mcTopicDetail,
  mcTopicInput,
  mcTopicParams,
  mcTopicRow,
  mcTopicSummary,
  mcWithdrawInput,
  mcWithdrawn,
  restOk,
  type TaskStatus,
} from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { ok } from '../http/reply.js';
import { topicFor } from './access.js';
import { enterCase, ownCases, ownPatients } from './cases.js';
import {
  answerInvitation,
  invitableCenters,
  inviteCenter,
  leaveTopic,
  listInvitations,
  withdrawInvitation,
} from './invitations.js';
import { detection, pooled } from './pooled.js';
import {
  createTopic,
  listTopics,
  moveTopic,
  ownedTopicIds,
  topicDescription,
  updateProtocol,
  updateSettings,
} from './topics.js';

const params = mcTopicParams;
const answer = <T extends z.ZodType>(data: T) => ({ 200: restOk(data) });

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

  r.get(
    '/api/v0.1/mc/topics',
    {
      config: { access: { apiId: 'MultiCenterTopics.query' } },
      schema: {
        tags,
        summary: 'Topics this center takes part in',
        response: answer(z.array(mcTopicSummary)),
      },
    },
    async (req) => ok(await listTopics(app.db, req.auth!.appId)),
  );
  r.post(
    '/api/v0.1/mc/topics',
    {
      config: { access: { apiId: 'MultiCenterCreateTopic.add' } },
      schema: {
        tags,
        summary: 'Create a topic led by this center',
        body: mcTopicInput,
        response: answer(mcTopicRow),
      },
    },
    async (req) => ok(await createTopic(signedIn(req.ctx), req.body)),
  );
  r.get(
    '/api/v0.1/mc/topics/:id',
    {
      config: { access: { apiId: 'MultiCenterTopicDescription.get' }, ...owned },
      preValidation: ownTopic,
      schema: { tags, summary: 'Protocol, variables and centers', params, response: answer(mcTopicDetail) },
    },
    async (req) => ok(await topicDescription(app.db, req.auth!.appId, req.params.id)),
  );
  r.put(
    '/api/v0.1/mc/topics/:id/protocol',
    {
      config: { access: { apiId: 'MultiCenterTopicDescription.edit' }, ...owned },
      preValidation: ownTopic,
      schema: {
        tags,
        summary: 'Change the protocol (leading center)',
        params,
        body: mcProtocol,
        response: answer(mcTopicRow),
      },
    },
    async (req) => ok(await updateProtocol(signedIn(req.ctx), req.params.id, req.body)),
  );
  r.get(
    '/api/v0.1/mc/topics/:id/cases',
    {
      config: { access: { apiId: 'MultiCenterTopics.get' }, ...owned },
      preValidation: ownTopic,
      schema: { tags, summary: 'This center’s own cases', params, response: answer(z.array(mcOwnCase)) },
    },
    async (req) => ok(await ownCases(app.db, req.auth!.appId, req.params.id)),
  );
  r.post(
    '/api/v0.1/mc/topics/:id/cases',
    {
      config: { access: { apiId: 'MultiCenterTopics.edit' }, ...owned },
      preValidation: ownTopic,
      schema: {
        tags,
        summary: 'Enter a case for one of this center’s patients',
        params,
        body: mcCaseInput,
        response: answer(mcCaseSaved),
      },
    },
    async (req) => ok(await enterCase(signedIn(req.ctx), req.params.id, req.body)),
  );
  r.get(
    '/api/v0.1/mc/centers',
    {
      config: { access: { apiId: 'MultiCenterCreateTopic.add' } },
      schema: {
        tags,
        summary: 'Other centers in multi-center mode that a topic can invite',
        response: answer(z.array(mcInvitableCenter)),
      },
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
        body: mcMoveInput,
        response: answer(mcMoved),
      },
    },
    async (req) => ok(await moveTopic(signedIn(req.ctx), req.params.id, req.body.to as TaskStatus)),
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
        querystring: mcPatientsQuery,
        response: answer(z.array(mcPatientOption)),
      },
    },
    async (req) => ok(await ownPatients(app.db, req.auth!.appId, req.params.id, req.query.keyword)),
  );
  // Invitations. Managing them, on both sides, takes the function that manages a topic
  // (主题详情 · 编辑: protocol and status), which a center's administrator holds.
  const manage = { apiId: 'MultiCenterTopicDescription.edit' };
  r.post(
    '/api/v0.1/mc/topics/:id/centers',
    {
      config: { access: manage, ...owned },
      preValidation: ownTopic,
      schema: {
        tags,
        summary: 'Invite a center in multi-center mode, by id or code (leading center)',
        params,
        body: mcInviteInput,
        response: answer(mcInvited),
      },
    },
    async (req) => ok(await inviteCenter(signedIn(req.ctx), req.params.id, req.body)),
  );
  r.post(
    '/api/v0.1/mc/topics/:id/withdraw',
    {
      config: { access: manage, ...owned },
      preValidation: ownTopic,
      schema: {
        tags,
        summary: 'Withdraw an unanswered invitation (leading center)',
        params,
        body: mcWithdrawInput,
        response: answer(mcWithdrawn),
      },
    },
    async (req) => ok(await withdrawInvitation(signedIn(req.ctx), req.params.id, req.body.appId)),
  );
  r.post(
    '/api/v0.1/mc/topics/:id/leave',
    {
      config: { access: manage, ...owned },
      preValidation: ownTopic,
      schema: {
        tags,
        summary: 'Stop taking part in a topic (participating center)',
        params,
        response: answer(mcCenterAnswer),
      },
    },
    async (req) => ok(await leaveTopic(signedIn(req.ctx), req.params.id)),
  );
  r.put(
    '/api/v0.1/mc/topics/:id/settings',
    {
      config: { access: manage, ...owned },
      preValidation: ownTopic,
      schema: {
        tags,
        summary: 'Minimum count of a pooled cell of another center (leading center; 1–100)',
        params,
        body: mcSettingsInput,
        response: answer(mcSettings),
      },
    },
    async (req) => ok(await updateSettings(signedIn(req.ctx), req.params.id, req.body)),
  );
  r.get(
    '/api/v0.1/mc/invitations',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: 'Invitations waiting for this center’s answer (title and leading center only)',
        response: answer(z.array(mcInvitation)),
      },
    },
    async (req) => ok(await listInvitations(app.db, req.auth!.appId)),
  );
  for (const reply of ['accept', 'decline'] as const)
    r.post(
      `/api/v0.1/mc/invitations/:id/${reply}`,
      {
        config: { access: manage, ...owned },
        schema: {
          tags,
          summary: `${reply === 'accept' ? 'Accept' : 'Decline'} an invitation to a topic`,
          params,
          response: answer(mcCenterAnswer),
        },
      },
      async (req) => ok(await answerInvitation(signedIn(req.ctx), req.params.id, reply)),
    );
  r.get(
    '/api/v0.1/mc/topics/:id/pooled',
    {
      config: { access: { apiId: 'MultiCenterTopics.get' }, ...owned },
      preValidation: ownTopic,
      schema: { tags, summary: 'Pooled de-identified aggregates', params, response: answer(mcPooled) },
    },
    async (req) => ok(await pooled(app.db, req.auth!.appId, req.params.id)),
  );
  r.get(
    '/api/v0.1/mc/topics/:id/detection',
    {
      config: { access: { apiId: 'MultiCenterDetection.query' }, ...owned },
      preValidation: ownTopic,
      schema: { tags, summary: 'Data checks per center', params, response: answer(z.array(mcCenterCheck)) },
    },
    async (req) => ok(await detection(app.db, req.auth!.appId, req.params.id, req.ctx.locale)),
  );
}
