import type { FastifyInstance } from 'fastify';
import { post } from '../../test/helper.js';

/** A saved chart and a dashboard showing it, in the caller's app (for the authorization matrix). */
export async function makeVisualizationObjects(app: FastifyInstance, adminKey: string) {
  const chart = await post(
    app,
    '/api/v0.1/visualization/charts',
    {
      name: '矩阵图表',
      query: { dataset: 'patients', dimensions: ['gender'], measures: ['count'] },
      spec: {
        subtype: 'column',
        channels: { x: [{ field: 'gender' }], y: [{ field: 'count', aggregate: 'sum' }] },
      },
    },
    adminKey,
  );
  await post(
    app,
    '/api/v0.1/visualization/dashboards',
    { name: '矩阵看板', tiles: [{ chartId: chart.body.data.id, span: 12 }] },
    adminKey,
  );
}
