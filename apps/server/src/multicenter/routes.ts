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
  type TaskStatus,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { ownedPath } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
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

/** Multi-center research: topics, protocol, each center's cases, pooled aggregates, detection. */
export async function multiCenterRoutes(app: FastifyInstance) {
  const tags = ['multi-center'];
  const api = restRoutes(app, { tags });
  /** A topic this center does not take part in is not found, whatever the body says. */
  const topicPath = ownedPath(mcTopicParams, ownedTopicIds, (appId, p) => topicFor(app.db, appId, p.id));

  api.get(
    '/api/v0.1/mc/topics',
    {
      access: { apiId: 'MultiCenterTopics.query' },
      summary: 'Topics this center takes part in',
      answer: z.array(mcTopicSummary),
    },
    (req) => listTopics(app.db, req.auth!.appId),
  );
  api.post(
    '/api/v0.1/mc/topics',
    {
      access: { apiId: 'MultiCenterCreateTopic.add' },
      summary: 'Create a topic led by this center',
      body: mcTopicInput,
      answer: mcTopicRow,
    },
    (req) => createTopic(signedIn(req.ctx), req.body),
  );
  api.get(
    '/api/v0.1/mc/topics/:id',
    {
      access: { apiId: 'MultiCenterTopicDescription.get' },
      ...topicPath,
      summary: 'Protocol, variables and centers',
      answer: mcTopicDetail,
    },
    (req) => topicDescription(app.db, req.auth!.appId, req.params.id),
  );
  api.put(
    '/api/v0.1/mc/topics/:id/protocol',
    {
      access: { apiId: 'MultiCenterTopicDescription.edit' },
      ...topicPath,
      summary: 'Change the protocol (leading center)',
      body: mcProtocol,
      answer: mcTopicRow,
    },
    (req) => updateProtocol(signedIn(req.ctx), req.params.id, req.body),
  );
  api.get(
    '/api/v0.1/mc/topics/:id/cases',
    {
      access: { apiId: 'MultiCenterTopics.get' },
      ...topicPath,
      summary: 'This center’s own cases',
      answer: z.array(mcOwnCase),
    },
    (req) => ownCases(app.db, req.auth!.appId, req.params.id),
  );
  api.post(
    '/api/v0.1/mc/topics/:id/cases',
    {
      access: { apiId: 'MultiCenterTopics.edit' },
      ...topicPath,
      summary: 'Enter a case for one of this center’s patients',
      body: mcCaseInput,
      answer: mcCaseSaved,
    },
    (req) => enterCase(signedIn(req.ctx), req.params.id, req.body),
  );
  api.get(
    '/api/v0.1/mc/centers',
    {
      access: { apiId: 'MultiCenterCreateTopic.add' },
      summary: 'Other centers in multi-center mode that a topic can invite',
      answer: z.array(mcInvitableCenter),
    },
    (req) => invitableCenters(app.db, req.auth!.appId),
  );
  api.post(
    '/api/v0.1/mc/topics/:id/status',
    {
      access: { apiId: 'MultiCenterTopicDescription.edit' },
      ...topicPath,
      summary: 'Move the topic to another status (leading center; 409 lists the allowed moves)',
      body: mcMoveInput,
      answer: mcMoved,
    },
    (req) => moveTopic(signedIn(req.ctx), req.params.id, req.body.to as TaskStatus),
  );
  api.get(
    '/api/v0.1/mc/topics/:id/patients',
    {
      access: { apiId: 'MultiCenterTopics.edit' },
      ...topicPath,
      summary: 'This center’s own patients, to pick one for a case (names masked)',
      query: mcPatientsQuery,
      answer: z.array(mcPatientOption),
    },
    (req) => ownPatients(app.db, req.auth!.appId, req.params.id, req.query.keyword),
  );
  // Invitations. Managing them, on both sides, takes the function that manages a topic
  // (主题详情 · 编辑: protocol and status), which a center's administrator holds.
  const manage = { apiId: 'MultiCenterTopicDescription.edit' };
  api.post(
    '/api/v0.1/mc/topics/:id/centers',
    {
      access: manage,
      ...topicPath,
      summary: 'Invite a center in multi-center mode, by id or code (leading center)',
      body: mcInviteInput,
      answer: mcInvited,
    },
    (req) => inviteCenter(signedIn(req.ctx), req.params.id, req.body),
  );
  api.post(
    '/api/v0.1/mc/topics/:id/withdraw',
    {
      access: manage,
      ...topicPath,
      summary: 'Withdraw an unanswered invitation (leading center)',
      body: mcWithdrawInput,
      answer: mcWithdrawn,
    },
    (req) => withdrawInvitation(signedIn(req.ctx), req.params.id, req.body.appId),
  );
  api.post(
    '/api/v0.1/mc/topics/:id/leave',
    {
      access: manage,
      ...topicPath,
      summary: 'Stop taking part in a topic (participating center)',
      answer: mcCenterAnswer,
    },
    (req) => leaveTopic(signedIn(req.ctx), req.params.id),
  );
  api.put(
    '/api/v0.1/mc/topics/:id/settings',
    {
      access: manage,
      ...topicPath,
      summary: 'Minimum count of a pooled cell of another center (leading center; 1–100)',
      body: mcSettingsInput,
      answer: mcSettings,
    },
    (req) => updateSettings(signedIn(req.ctx), req.params.id, req.body),
  );
  api.get(
    '/api/v0.1/mc/invitations',
    {
      access: manage,
      summary: 'Invitations waiting for this center’s answer (title and leading center only)',
      answer: z.array(mcInvitation),
    },
    (req) => listInvitations(app.db, req.auth!.appId),
  );
  for (const reply of ['accept', 'decline'] as const)
    api.post(
      `/api/v0.1/mc/invitations/:id/${reply}`,
      {
        access: manage,
        ownedIds: ownedTopicIds,
        summary: `${reply === 'accept' ? 'Accept' : 'Decline'} an invitation to a topic`,
        params: mcTopicParams,
        answer: mcCenterAnswer,
      },
      (req) => answerInvitation(signedIn(req.ctx), req.params.id, reply),
    );
  api.get(
    '/api/v0.1/mc/topics/:id/pooled',
    {
      access: { apiId: 'MultiCenterTopics.get' },
      ...topicPath,
      summary: 'Pooled de-identified aggregates',
      answer: mcPooled,
    },
    (req) => pooled(app.db, req.auth!.appId, req.params.id),
  );
  api.get(
    '/api/v0.1/mc/topics/:id/detection',
    {
      access: { apiId: 'MultiCenterDetection.query' },
      ...topicPath,
      summary: 'Data checks per center',
      answer: z.array(mcCenterCheck),
    },
    (req) => detection(app.db, req.auth!.appId, req.params.id, req.ctx.locale),
  );
}
