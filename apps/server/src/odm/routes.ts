import { createReadStream } from 'node:fs';
import {
  fileDownload,
  ODM_JOB_KIND,
  odmClinicalDataInput,
  odmConceptList,
  odmConceptQuery,
  odmConcurrency,
  odmConcurrencyInput,
  odmElementChoices,
  odmElementsInput,
  odmGeneration,
  odmGenerationList,
  odmGenerationParams,
  odmSubjectChoices,
  odmTopic,
  odmTopicInput,
  odmTopicList,
  odmTopicParams,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../audit/audit.js';
import { signedIn } from '../http/context.js';
import { loadFirst, sendAttachment } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import { generateJob } from './generate.js';
import {
  addTopic,
  deleteTopic,
  elementChoices,
  generate,
  generationFile,
  getConcurrency,
  getTopic,
  listGenerations,
  listTopics,
  ownedGenerationIds,
  ownedTopicIds,
  setClinicalData,
  setConcurrency,
  setElements,
  subjectChoices,
  topicConcepts,
} from './topics.js';

const P = '/api/v0.1/odm';

/** ODM generation (/odm-generate-management/*): topics, clinical data, data elements, files, concurrency. README.md. */
export async function odmRoutes(app: FastifyInstance) {
  app.jobs.handle(ODM_JOB_KIND, generateJob(app.config.dataDir));
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['odm'];
  const api = restRoutes(app, { tags });
  const T = (a: string) => ({ apiId: `OdmListTopics.${a}` });
  const C = (a: string) => ({ apiId: `OdmClinicalData.${a}` });
  const E = (a: string) => ({ apiId: `OdmDataElement.${a}` });
  const S = (a: string) => ({ apiId: `OdmConcurrentSettings.${a}` });
  const topicFirst = loadFirst(odmTopicParams, (req, p) => getTopic(signedIn(req.ctx), p.topicId));

  api.get(
    `${P}/topics`,
    { access: T('query'), summary: 'ODM topics with their last generation', answer: odmTopicList },
    (req) => listTopics(signedIn(req.ctx)),
  );
  api.get(
    `${P}/subjects`,
    { access: T('add'), summary: 'Research subjects that are not topics yet', answer: odmSubjectChoices },
    (req) => subjectChoices(signedIn(req.ctx)),
  );
  api.post(
    `${P}/topics`,
    {
      access: T('add'),
      summary: 'Make a research subject an ODM topic',
      body: odmTopicInput,
      answer: odmTopic,
    },
    (req) => addTopic(signedIn(req.ctx), req.body.subjectId),
  );
  api.get(
    `${P}/topics/:topicId`,
    {
      access: T('get'),
      ownedIds: ownedTopicIds,
      summary: 'An ODM topic',
      params: odmTopicParams,
      answer: odmTopic,
    },
    (req) => getTopic(signedIn(req.ctx), req.params.topicId),
  );
  api.delete(
    `${P}/topics/:topicId`,
    {
      access: T('delete'),
      ownedIds: ownedTopicIds,
      summary: 'Delete a topic with its files',
      params: odmTopicParams,
      answer: z.null(),
    },
    (req) => deleteTopic(signedIn(req.ctx), req.params.topicId, app.config.dataDir),
  );
  api.put(
    `${P}/topics/:topicId/clinical-data`,
    {
      access: T('edit'),
      ownedIds: ownedTopicIds,
      summary: 'Choose the clinical data of a topic’s files: observation domains and a date range',
      params: odmTopicParams,
      body: odmClinicalDataInput,
      preValidation: topicFirst,
      answer: odmTopic,
    },
    (req) => setClinicalData(signedIn(req.ctx), req.params.topicId, req.body),
  );
  api.put(
    `${P}/topics/:topicId/elements`,
    {
      access: E('edit'),
      ownedIds: ownedTopicIds,
      summary: 'Choose the data elements of a topic’s files, each bound to an observation concept',
      params: odmTopicParams,
      body: odmElementsInput,
      preValidation: topicFirst,
      answer: odmTopic,
    },
    (req) => setElements(signedIn(req.ctx), req.params.topicId, req.body),
  );
  api.get(
    `${P}/elements`,
    { access: E('query'), summary: 'The app’s data elements to bind', answer: odmElementChoices },
    (req) => elementChoices(signedIn(req.ctx)),
  );
  api.get(
    `${P}/topics/:topicId/concepts`,
    {
      access: E('query'),
      ownedIds: ownedTopicIds,
      summary: 'Concepts of a domain among the topic’s patients',
      params: odmTopicParams,
      query: odmConceptQuery,
      answer: odmConceptList,
    },
    (req) => topicConcepts(signedIn(req.ctx), req.params.topicId, req.query.domain),
  );
  api.post(
    `${P}/topics/:topicId/generate`,
    {
      access: C('export'),
      ownedIds: ownedTopicIds,
      summary: 'Generate the topic’s CDISC ODM 1.3.2 file (a job)',
      params: odmTopicParams,
      body: z.object({}).strict(),
      preValidation: topicFirst,
      answer: odmGeneration,
    },
    async (req) => {
      const g = await generate(signedIn(req.ctx), req.params.topicId);
      app.jobs.nudge();
      return g;
    },
  );
  api.get(
    `${P}/generations`,
    {
      access: C('query'),
      summary: 'Generated files (the last 100), optionally of one topic',
      query: z.object({ topicId: z.coerce.number().int().positive().max(2_147_483_647).optional() }),
      answer: odmGenerationList,
    },
    (req) => listGenerations(signedIn(req.ctx), req.query.topicId),
  );
  r.get(
    `${P}/generations/:generationId/download`,
    {
      config: { access: C('export'), ownedIds: ownedGenerationIds },
      schema: {
        tags,
        summary: 'The ODM file of a succeeded generation',
        params: odmGenerationParams,
        response: { 200: fileDownload },
      },
    },
    async (req, reply) => {
      const ctx = signedIn(req.ctx);
      const f = await generationFile(ctx, req.params.generationId, app.config.dataDir);
      await audit(app.db, ctx, {
        action: 'odm.download',
        entity: 'odm_generation',
        entityId: req.params.generationId,
      });
      return sendAttachment(reply, {
        type: 'application/xml',
        name: f.fileName,
        body: createReadStream(f.file),
      });
    },
  );
  api.get(
    `${P}/concurrency`,
    {
      access: S('query'),
      summary: 'How many generations run at once and the batch size',
      answer: odmConcurrency,
    },
    (req) => getConcurrency(signedIn(req.ctx)),
  );
  api.put(
    `${P}/concurrency`,
    {
      access: S('edit'),
      summary: 'Set how many generations run at once (the job runner keeps it) and the batch size',
      body: odmConcurrencyInput,
      answer: odmConcurrency,
    },
    (req) => setConcurrency(signedIn(req.ctx), req.body),
  );
}
