import { federatedJobBody, federatedJobList, mcTopicParams, startedJob } from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { signedIn } from '../http/context.js';
import { ownedPath } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import { topicFor } from './access.js';
import { FEDERATED_JOB_KIND, federatedJob, listFederatedJobs, startFederatedJob } from './federated.js';
import { ownedTopicIds } from './topics.js';

/** Federated jobs of a topic (the topic screen's 联邦学习 card): listed by every center, started by the lead. */
export async function federatedRoutes(app: FastifyInstance) {
  app.jobs.handle(FEDERATED_JOB_KIND, federatedJob);
  const api = restRoutes(app, { tags: ['multi-center'] });
  const topicPath = ownedPath(mcTopicParams, ownedTopicIds, (appId, p) => topicFor(app.db, appId, p.id));
  api.get(
    '/api/v0.1/mc/topics/:id/federated',
    {
      access: { apiId: 'MultiCenterTopicDescription.get' },
      ...topicPath,
      summary: 'The topic’s federated jobs with their model, status and metrics',
      answer: federatedJobList,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      return listFederatedJobs(app.db, ctx.appId, req.params.id, ctx.locale);
    },
  );
  api.post(
    '/api/v0.1/mc/topics/:id/federated',
    {
      access: { apiId: 'MultiCenterTopicDescription.edit' },
      ...topicPath,
      summary: 'Start a federated job over the accepted centers’ cases (leading center)',
      body: federatedJobBody,
      answer: startedJob,
    },
    async (req) => {
      const started = await startFederatedJob(signedIn(req.ctx), req.params.id, req.body);
      app.jobs.nudge();
      return started;
    },
  );
}
