import {
  EXTERNAL_CSV_MAX,
  externalAnalysisBody,
  externalAnalysisList,
  externalAnalysisQueued,
  externalDataset,
  externalDatasetImportBody,
  externalDatasetList,
  externalDatasetParams,
  externalDatasetPreview,
} from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { signedIn } from '../../http/context.js';
import { ownedPath } from '../../http/reply.js';
import { restRoutes } from '../../http/route.js';
import {
  deleteExternalDataset,
  EXTERNAL_ANALYSIS_KIND,
  externalAnalyses,
  externalAnalysisJob,
  externalDatasetRow,
  importExternalDataset,
  listExternalDatasets,
  ownedExternalDatasetIds,
  previewExternalDataset,
  requestExternalAnalysis,
} from './service.js';

const P = '/api/v0.1/external-datasets';

/** MIMIC 分析 (ResearchAnalysisMimic): CSV datasets imported as analysis sources, analysed as jobs. */
export async function externalDatasetRoutes(app: FastifyInstance) {
  app.jobs.handle(EXTERNAL_ANALYSIS_KIND, externalAnalysisJob);
  const db = app.db;
  const api = restRoutes(app, { tags: ['research'] });
  const A = (action: string) => ({ apiId: `ResearchAnalysisMimic.${action}` });
  const own = ownedPath(externalDatasetParams, ownedExternalDatasetIds, (appId, p) =>
    externalDatasetRow(db, appId, p.id),
  );

  api.get(
    P,
    { access: A('query'), summary: 'The app’s external datasets', answer: externalDatasetList },
    (req) => listExternalDatasets(db, signedIn(req.ctx).appId),
  );
  api.post(
    P,
    {
      access: A('add'),
      summary: 'Import a CSV table (a MIMIC-like ICU stay table is recognised) as an analysis source',
      body: externalDatasetImportBody,
      // The CSV travels in JSON: room for its 5,000,000 characters, escaped.
      bodyLimit: EXTERNAL_CSV_MAX * 4,
      answer: externalDataset,
    },
    (req) => importExternalDataset(signedIn(req.ctx), req.body),
  );
  api.get(
    `${P}/:id/preview`,
    { access: A('query'), ...own, summary: 'The first 20 rows of a dataset', answer: externalDatasetPreview },
    (req) => previewExternalDataset(db, signedIn(req.ctx).appId, req.params.id),
  );
  api.delete(
    `${P}/:id`,
    { access: A('delete'), ...own, summary: 'Delete an external dataset', answer: z.literal(true) },
    (req) => deleteExternalDataset(signedIn(req.ctx), req.params.id),
  );
  api.post(
    `${P}/:id/analyses`,
    {
      access: A('query'),
      ...own,
      summary: 'Run a research analysis method on the dataset as a job',
      body: externalAnalysisBody,
      answer: externalAnalysisQueued,
    },
    async (req) => {
      const queued = await requestExternalAnalysis(signedIn(req.ctx), req.params.id, req.body.params);
      app.jobs.nudge();
      return queued;
    },
  );
  api.get(
    `${P}/:id/analyses`,
    {
      access: A('query'),
      ...own,
      summary: 'The analyses of a dataset with their status and result',
      answer: externalAnalysisList,
    },
    (req) => {
      const ctx = signedIn(req.ctx);
      return externalAnalyses(db, ctx.appId, req.params.id, ctx.locale);
    },
  );
}
