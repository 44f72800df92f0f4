import { CHANNELS, type ChartSpec, chartSpecSchema, validateChart } from '@crdp/charts';
import {
  type VisChartBody,
  type VisDashboardBody,
  type visChart,
  visChartBody,
  type visDashboard,
  visDashboardBody,
  type visDashboardWithCharts,
} from '@crdp/core';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { deleteAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { visCharts, visDashboards } from '../db/schema/index.js';
import type { AppActor } from '../http/context.js';
import { badRequest, bilingual, notFound } from '../http/errors.js';
import { issueText } from '../http/validation-messages.js';
import type { AggregateQuery, DatasetCatalogue } from './catalogue.js';

/**
 * Saved charts and dashboards of one app. A chart is its dataset query plus its chart spec;
 * both are checked before they are stored: the query against the catalogue, the spec with
 * validateChart, and every field the spec names must be a column the query answers.
 */
/** Who acts: a signed-in person or a free-access link of the app (http/context.ts). */
export type Actor = AppActor;

/** The bodies are the contracts of @crdp/core (contracts/visualization.ts). */
export const chartBodySchema = visChartBody;
export type ChartBody = VisChartBody;
export const dashboardBodySchema = visDashboardBody;
export type DashboardBody = VisDashboardBody;
/** A chart or dashboard as answered (dates still `Date`s: the contract writes them out). */
type ChartView = z.input<typeof visChart>;
type DashboardView = z.input<typeof visDashboard>;

/** The spec after the checks; throws 400 naming the path at fault. */
export function checkChart(catalogue: DatasetCatalogue, query: AggregateQuery, spec: unknown): ChartSpec {
  catalogue.resolve(query, 'body.query.');
  const v = validateChart(spec);
  if (v.errors.length > 0) {
    const e = v.errors[0]!;
    const issue = chartSpecSchema.safeParse(spec).error?.issues[0];
    throw badRequest(issue ? issueText(issue, spec) : bilingual(e.message, e.message), `spec.${e.path}`);
  }
  if (!v.isChart)
    throw badRequest(
      bilingual(v.messages['zh-CN'].join('；'), v.messages['en-US'].join('; ')),
      'spec.channels',
    );
  const parsed = chartSpecSchema.parse(spec);
  const columns = new Set([...query.dimensions, ...query.measures, '*']);
  for (const channel of CHANNELS) {
    (parsed.channels[channel] ?? []).forEach((f, i) => {
      if (!columns.has(f.field)) {
        throw badRequest(
          bilingual(`字段 ${f.field} 不是查询结果中的列`, `field ${f.field} is not a column of the query`),
          `spec.channels.${channel}.${i}.field`,
        );
      }
    });
  }
  return spec as ChartSpec;
}

const chartColumns = {
  id: visCharts.id,
  name: visCharts.name,
  description: visCharts.description,
  query: visCharts.query,
  spec: visCharts.spec,
  createdAt: visCharts.createdAt,
  updatedAt: visCharts.updatedAt,
};
/** The stored query and spec were checked before they were written. */
const asChart = (r: { query: unknown; spec: unknown } & Omit<ChartView, 'query' | 'spec'>): ChartView => ({
  ...r,
  query: r.query as AggregateQuery,
  spec: r.spec as Record<string, unknown>,
});

export async function listCharts(db: Db, actor: Actor): Promise<ChartView[]> {
  const rows = await db
    .select(chartColumns)
    .from(visCharts)
    .where(eq(visCharts.appId, actor.appId))
    .orderBy(desc(visCharts.updatedAt), desc(visCharts.id));
  return rows.map(asChart);
}

export async function loadChart(db: Tx, actor: Actor, id: number): Promise<ChartView> {
  const [row] = await db
    .select(chartColumns)
    .from(visCharts)
    .where(and(eq(visCharts.id, id), eq(visCharts.appId, actor.appId)));
  if (!row) throw notFound('chart');
  return asChart(row);
}

export async function createChart(
  actor: Actor,
  catalogue: DatasetCatalogue,
  body: ChartBody,
): Promise<ChartView> {
  const spec = checkChart(catalogue, body.query, body.spec);
  return actor.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(visCharts)
      .values({
        appId: actor.appId,
        name: body.name,
        description: body.description,
        query: body.query,
        spec,
        createdBy: actor.userId,
      })
      .returning(chartColumns);
    await audit(tx, actor, { action: 'create', entity: 'vis_chart', entityId: row!.id, after: row });
    return asChart(row!);
  });
}

export async function updateChart(
  actor: Actor,
  catalogue: DatasetCatalogue,
  id: number,
  body: ChartBody,
): Promise<ChartView> {
  const spec = checkChart(catalogue, body.query, body.spec);
  return actor.db.transaction(async (tx) => {
    const before = await loadChart(tx, actor, id);
    const [row] = await tx
      .update(visCharts)
      .set({ name: body.name, description: body.description, query: body.query, spec, updatedAt: new Date() })
      .where(and(eq(visCharts.id, id), eq(visCharts.appId, actor.appId)))
      .returning(chartColumns);
    await audit(tx, actor, { action: 'update', entity: 'vis_chart', entityId: id, before, after: row });
    return asChart(row!);
  });
}

export async function deleteChart(actor: Actor, id: number): Promise<{ id: number }> {
  return actor.db.transaction(async (tx) => {
    const before = await loadChart(tx, actor, id);
    await deleteAppRow(tx, visCharts, actor.appId, id);
    await audit(tx, actor, { action: 'delete', entity: 'vis_chart', entityId: id, before });
    return { id };
  });
}

const dashboardColumns = {
  id: visDashboards.id,
  name: visDashboards.name,
  description: visDashboards.description,
  tiles: visDashboards.tiles,
  createdAt: visDashboards.createdAt,
  updatedAt: visDashboards.updatedAt,
};
const asDashboard = (r: { tiles: unknown } & Omit<DashboardView, 'tiles'>): DashboardView => ({
  ...r,
  tiles: r.tiles as DashboardBody['tiles'],
});

export async function listDashboards(db: Db, actor: Actor): Promise<DashboardView[]> {
  const rows = await db
    .select(dashboardColumns)
    .from(visDashboards)
    .where(eq(visDashboards.appId, actor.appId))
    .orderBy(desc(visDashboards.updatedAt), desc(visDashboards.id));
  return rows.map(asDashboard);
}

/** The stored dashboard row of the actor's app; 404 for another app's id. */
async function dashboardRow(db: Tx, actor: Actor, id: number): Promise<DashboardView> {
  const [row] = await db
    .select(dashboardColumns)
    .from(visDashboards)
    .where(and(eq(visDashboards.id, id), eq(visDashboards.appId, actor.appId)));
  if (!row) throw notFound('dashboard');
  return asDashboard(row);
}

export async function loadDashboard(
  db: Db,
  actor: Actor,
  id: number,
): Promise<z.input<typeof visDashboardWithCharts>> {
  const row = await dashboardRow(db, actor, id);
  // Tiles whose chart was deleted since are dropped on the way out.
  const tiles = row.tiles;
  const ids = tiles.map((t) => t.chartId);
  const charts = ids.length
    ? await db
        .select(chartColumns)
        .from(visCharts)
        .where(and(eq(visCharts.appId, actor.appId), inArray(visCharts.id, ids)))
        .then((rows) => rows.map(asChart))
    : [];
  const byId = new Map(charts.map((c) => [c.id, c]));
  return {
    ...row,
    tiles: tiles.filter((t) => byId.has(t.chartId)),
    charts: tiles.flatMap((t) => (byId.has(t.chartId) ? [byId.get(t.chartId)!] : [])),
  };
}

async function checkTiles(db: Db, actor: Actor, tiles: DashboardBody['tiles']) {
  const ids = [...new Set(tiles.map((t) => t.chartId))];
  if (ids.length === 0) return;
  const found = await db
    .select({ id: visCharts.id })
    .from(visCharts)
    .where(and(eq(visCharts.appId, actor.appId), inArray(visCharts.id, ids)));
  const known = new Set(found.map((f) => f.id));
  tiles.forEach((t, i) => {
    if (!known.has(t.chartId))
      throw badRequest(
        bilingual(`本应用没有图表 ${t.chartId}`, `no chart ${t.chartId} in this app`),
        `tiles.${i}.chartId`,
      );
  });
}

export async function createDashboard(actor: Actor, body: DashboardBody): Promise<DashboardView> {
  await checkTiles(actor.db, actor, body.tiles);
  return actor.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(visDashboards)
      .values({
        appId: actor.appId,
        name: body.name,
        description: body.description,
        tiles: body.tiles,
        createdBy: actor.userId,
      })
      .returning(dashboardColumns);
    await audit(tx, actor, { action: 'create', entity: 'vis_dashboard', entityId: row!.id, after: row });
    return asDashboard(row!);
  });
}

export async function updateDashboard(actor: Actor, id: number, body: DashboardBody): Promise<DashboardView> {
  await checkTiles(actor.db, actor, body.tiles);
  return actor.db.transaction(async (tx) => {
    const before = await dashboardRow(tx, actor, id);
    const [row] = await tx
      .update(visDashboards)
      .set({ name: body.name, description: body.description, tiles: body.tiles, updatedAt: new Date() })
      .where(and(eq(visDashboards.id, id), eq(visDashboards.appId, actor.appId)))
      .returning(dashboardColumns);
    await audit(tx, actor, { action: 'update', entity: 'vis_dashboard', entityId: id, before, after: row });
    return asDashboard(row!);
  });
}

export async function deleteDashboard(actor: Actor, id: number): Promise<{ id: number }> {
  return actor.db.transaction(async (tx) => {
    const before = await dashboardRow(tx, actor, id);
    await deleteAppRow(tx, visDashboards, actor.appId, id);
    await audit(tx, actor, { action: 'delete', entity: 'vis_dashboard', entityId: id, before });
    return { id };
  });
}

export async function ownedChartIds(db: Db, appId: number) {
  const rows = await db.select({ id: visCharts.id }).from(visCharts).where(eq(visCharts.appId, appId));
  return rows.map((r) => ({ chartId: r.id }));
}

export async function ownedDashboardIds(db: Db, appId: number) {
  const rows = await db
    .select({ id: visDashboards.id })
    .from(visDashboards)
    .where(eq(visDashboards.appId, appId));
  return rows.map((r) => ({ dashboardId: r.id }));
}
