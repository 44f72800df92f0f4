import {
  monthBarAnswer,
  monthBarQuery,
  restOk,
  visAggregateQuery,
  visAggregateResult,
  visChart,
  visChartBody,
  visChartParams,
  visDashboard,
  visDashboardBody,
  visDashboardParams,
  visDashboardWithCharts,
  visDataset,
  visDeleted,
} from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DISEASE_LIBRARY_DATASETS } from '../disease-library/datasets.js';
import { appActor } from '../http/context.js';
import { loadFirst, ok } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import { DatasetCatalogue } from './catalogue.js';
import { CLINICAL_DATASETS } from './clinical-datasets.js';
import { monthBar } from './month-bar.js';
import {
  createChart,
  createDashboard,
  deleteChart,
  deleteDashboard,
  listCharts,
  listDashboards,
  loadChart,
  loadDashboard,
  ownedChartIds,
  ownedDashboardIds,
  updateChart,
  updateDashboard,
} from './saved.js';

const answer = <T extends z.ZodType>(data: T) => ({ 200: restOk(data) });
const chartParams = visChartParams;
/** Whoever acts in the app: a signed-in person or a free-access link. */
const actorOf = (req: FastifyRequest) => appActor(req.ctx);
const dashboardParams = visDashboardParams;

/** The catalogue the builder draws from; disease-library and project datasets are added here. */
export const catalogue = new DatasetCatalogue([...CLINICAL_DATASETS, ...DISEASE_LIBRARY_DATASETS]);

/**
 * The same calls serve both menu areas that chart (spec 000 section 2): `/visualization`
 * (overviews, chart) and `/data-lake` (visualize, visualize-chart). Each area's routes ask for
 * the functions of its own menus, so a role given one area does not need the other.
 */
interface Area {
  prefix: string;
  overview: string;
  builder: string;
}
const AREAS: Area[] = [
  { prefix: '/api/v0.1/visualization', overview: 'VisualizationOverviews', builder: 'VisualizationChart' },
  {
    prefix: '/api/v0.1/data-lake/visualization',
    overview: 'DataLakeVisualize',
    builder: 'DataLakeVisualizeChart',
  },
];

export async function visualizationRoutes(app: FastifyInstance) {
  for (const area of AREAS) areaRoutes(app, area);

  app.withTypeProvider<ZodTypeProvider>().get(
    '/analysis/month-bar',
    {
      // Demo numbers for the example chart of /test/home, which opens without sign-in.
      config: { access: 'public' },
      schema: {
        tags: ['visualization'],
        summary: 'Demo month bar data (spec 000 section 7): ranges 1-22 and 1-30',
        querystring: monthBarQuery,
        response: answer(monthBarAnswer),
      },
    },
    async (req) => ok({ result: monthBar(req.query.year ?? new Date().getFullYear()) }),
  );
}

function areaRoutes(app: FastifyInstance, { prefix, overview, builder }: Area) {
  const tags = ['visualization'];
  const api = restRoutes(app, { tags });
  const id = (action: string) => ({ apiId: `${builder}.${action}` });

  api.get(
    `${prefix}/datasets`,
    {
      access: id('query'),
      summary: 'Datasets of the chart builder with their dimensions and measures',
      answer: z.array(visDataset),
    },
    (req) => catalogue.describe(req.ctx.locale),
  );

  api.post(
    `${prefix}/aggregate`,
    {
      access: id('query'),
      summary: 'Rows of a dataset grouped in the database by the chosen dimensions',
      body: visAggregateQuery,
      answer: visAggregateResult,
    },
    // Aggregates read the replica when there is one (DATABASE_READ_URL): a chart tolerates its lag.
    (req) => catalogue.aggregate(app.readDb, actorOf(req).appId, req.body, req.ctx.locale),
  );

  api.get(
    `${prefix}/charts`,
    { access: { apiId: `${overview}.query` }, summary: 'Saved charts of the app', answer: z.array(visChart) },
    (req) => listCharts(app.db, actorOf(req)),
  );

  api.post(
    `${prefix}/charts`,
    { access: id('add'), summary: 'Save a chart', body: visChartBody, answer: visChart },
    (req) => createChart(actorOf(req), catalogue, req.body),
  );

  api.get(
    `${prefix}/charts/:chartId`,
    {
      access: { apiId: `${overview}.query` },
      ownedIds: ownedChartIds,
      summary: 'A saved chart',
      params: chartParams,
      answer: visChart,
    },
    (req) => loadChart(app.db, actorOf(req), req.params.chartId),
  );

  api.put(
    `${prefix}/charts/:chartId`,
    {
      // Another app's id answers 404 before its body is looked at.
      access: id('edit'),
      ownedIds: ownedChartIds,
      summary: 'Change a saved chart',
      params: chartParams,
      body: visChartBody,
      preValidation: loadFirst(chartParams, (req, p) => loadChart(app.db, actorOf(req), p.chartId)),
      answer: visChart,
    },
    (req) => updateChart(actorOf(req), catalogue, req.params.chartId, req.body),
  );

  api.delete(
    `${prefix}/charts/:chartId`,
    {
      access: id('delete'),
      ownedIds: ownedChartIds,
      summary: 'Delete a saved chart',
      params: chartParams,
      answer: visDeleted,
    },
    (req) => deleteChart(actorOf(req), req.params.chartId),
  );

  api.get(
    `${prefix}/dashboards`,
    {
      access: { apiId: `${overview}.query` },
      summary: 'Dashboards of the app',
      answer: z.array(visDashboard),
    },
    (req) => listDashboards(app.db, actorOf(req)),
  );

  api.post(
    `${prefix}/dashboards`,
    { access: id('add'), summary: 'Create a dashboard', body: visDashboardBody, answer: visDashboard },
    (req) => createDashboard(actorOf(req), req.body),
  );

  api.get(
    `${prefix}/dashboards/:dashboardId`,
    {
      access: { apiId: `${overview}.query` },
      ownedIds: ownedDashboardIds,
      summary: 'A dashboard with its charts',
      params: dashboardParams,
      answer: visDashboardWithCharts,
    },
    (req) => loadDashboard(app.db, actorOf(req), req.params.dashboardId),
  );

  api.put(
    `${prefix}/dashboards/:dashboardId`,
    {
      access: id('edit'),
      ownedIds: ownedDashboardIds,
      summary: 'Change a dashboard',
      params: dashboardParams,
      body: visDashboardBody,
      preValidation: loadFirst(dashboardParams, (req, p) =>
        loadDashboard(app.db, actorOf(req), p.dashboardId),
      ),
      answer: visDashboard,
    },
    (req) => updateDashboard(actorOf(req), req.params.dashboardId, req.body),
  );

  api.delete(
    `${prefix}/dashboards/:dashboardId`,
    {
      access: id('delete'),
      ownedIds: ownedDashboardIds,
      summary: 'Delete a dashboard',
      params: dashboardParams,
      answer: visDeleted,
    },
    (req) => deleteDashboard(actorOf(req), req.params.dashboardId),
  );
}
