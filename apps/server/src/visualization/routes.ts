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
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['visualization'];
  const id = (action: string) => ({ apiId: `${builder}.${action}` });

  r.get(
    `${prefix}/datasets`,
    {
      config: { access: id('query') },
      schema: {
        tags,
        summary: 'Datasets of the chart builder with their dimensions and measures',
        response: answer(z.array(visDataset)),
      },
    },
    async (req) => ok(catalogue.describe(req.ctx.locale)),
  );

  r.post(
    `${prefix}/aggregate`,
    {
      config: { access: id('query') },
      schema: {
        tags,
        summary: 'Rows of a dataset grouped in the database by the chosen dimensions',
        body: visAggregateQuery,
        response: answer(visAggregateResult),
      },
    },
    async (req) => ok(await catalogue.aggregate(app.db, actorOf(req).appId, req.body, req.ctx.locale)),
  );

  r.get(
    `${prefix}/charts`,
    {
      config: { access: { apiId: `${overview}.query` } },
      schema: { tags, summary: 'Saved charts of the app', response: answer(z.array(visChart)) },
    },
    async (req) => ok(await listCharts(app.db, actorOf(req))),
  );

  r.post(
    `${prefix}/charts`,
    {
      config: { access: id('add') },
      schema: { tags, summary: 'Save a chart', body: visChartBody, response: answer(visChart) },
    },
    async (req) => ok(await createChart(actorOf(req), catalogue, req.body)),
  );

  r.get(
    `${prefix}/charts/:chartId`,
    {
      config: { access: { apiId: `${overview}.query` }, ownedIds: ownedChartIds },
      schema: { tags, summary: 'A saved chart', params: chartParams, response: answer(visChart) },
    },
    async (req) => ok(await loadChart(app.db, actorOf(req), req.params.chartId)),
  );

  r.put(
    `${prefix}/charts/:chartId`,
    {
      config: { access: id('edit'), ownedIds: ownedChartIds },
      schema: {
        tags,
        summary: 'Change a saved chart',
        params: chartParams,
        body: visChartBody,
        response: answer(visChart),
      },
      // Another app's id answers 404 before its body is looked at.
      preValidation: loadFirst(chartParams, (req, p) => loadChart(app.db, actorOf(req), p.chartId)),
    },
    async (req) => ok(await updateChart(actorOf(req), catalogue, req.params.chartId, req.body)),
  );

  r.delete(
    `${prefix}/charts/:chartId`,
    {
      config: { access: id('delete'), ownedIds: ownedChartIds },
      schema: { tags, summary: 'Delete a saved chart', params: chartParams, response: answer(visDeleted) },
    },
    async (req) => ok(await deleteChart(actorOf(req), req.params.chartId)),
  );

  r.get(
    `${prefix}/dashboards`,
    {
      config: { access: { apiId: `${overview}.query` } },
      schema: { tags, summary: 'Dashboards of the app', response: answer(z.array(visDashboard)) },
    },
    async (req) => ok(await listDashboards(app.db, actorOf(req))),
  );

  r.post(
    `${prefix}/dashboards`,
    {
      config: { access: id('add') },
      schema: { tags, summary: 'Create a dashboard', body: visDashboardBody, response: answer(visDashboard) },
    },
    async (req) => ok(await createDashboard(actorOf(req), req.body)),
  );

  r.get(
    `${prefix}/dashboards/:dashboardId`,
    {
      config: { access: { apiId: `${overview}.query` }, ownedIds: ownedDashboardIds },
      schema: {
        tags,
        summary: 'A dashboard with its charts',
        params: dashboardParams,
        response: answer(visDashboardWithCharts),
      },
    },
    async (req) => ok(await loadDashboard(app.db, actorOf(req), req.params.dashboardId)),
  );

  r.put(
    `${prefix}/dashboards/:dashboardId`,
    {
      config: { access: id('edit'), ownedIds: ownedDashboardIds },
      schema: {
        tags,
        summary: 'Change a dashboard',
        params: dashboardParams,
        body: visDashboardBody,
        response: answer(visDashboard),
      },
      preValidation: loadFirst(dashboardParams, (req, p) =>
        loadDashboard(app.db, actorOf(req), p.dashboardId),
      ),
    },
    async (req) => ok(await updateDashboard(actorOf(req), req.params.dashboardId, req.body)),
  );

  r.delete(
    `${prefix}/dashboards/:dashboardId`,
    {
      config: { access: id('delete'), ownedIds: ownedDashboardIds },
      schema: { tags, summary: 'Delete a dashboard', params: dashboardParams, response: answer(visDeleted) },
    },
    async (req) => ok(await deleteDashboard(actorOf(req), req.params.dashboardId)),
  );
}
