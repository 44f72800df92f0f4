import { CHANNELS, type ChartSpec, chartSpecSchema, validateChart } from '@crdp/charts';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { audit } from '../audit/audit.js';
import type { Db, Tx } from '../db/client.js';
import { visCharts, visDashboards } from '../db/schema/index.js';
import { AppError, badRequest, bilingual, notFound } from '../http/errors.js';
import { issueText } from '../http/validation-messages.js';
import { type AggregateQuery, aggregateQuerySchema, type DatasetCatalogue } from './catalogue.js';

/**
 * Saved charts and dashboards of one app. A chart is its dataset query plus its chart spec;
 * both are checked before they are stored: the query against the catalogue, the spec with
 * validateChart, and every field the spec names must be a column the query answers.
 */
export interface Actor {
  appId: number;
  userId: number | null;
}

export function actorOf(req: FastifyRequest): Actor {
  if (!req.auth) throw new AppError(401, 'auth.required');
  return { appId: req.auth.appId, userId: req.auth.userId };
}

// zod counts code points; the limit is also held in UTF-16 units, as the OpenAPI maxLength says.
const bounded = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => s.length <= max, `at most ${max} characters`)
    .transform((s) => s.trim());
const name = bounded(100).pipe(z.string().min(1));
const description = bounded(1000).default('');
export const chartBodySchema = z.object({
  name,
  description,
  query: aggregateQuerySchema,
  spec: z.record(z.string(), z.unknown()),
});
export type ChartBody = z.infer<typeof chartBodySchema>;

export const dashboardBodySchema = z.object({
  name,
  description,
  tiles: z
    .array(
      z.object({
        chartId: z.number().int().positive().max(2_147_483_647),
        span: z.number().int().min(6).max(24),
      }),
    )
    .max(24)
    .default([]),
});
export type DashboardBody = z.infer<typeof dashboardBodySchema>;

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

export async function listCharts(db: Db, actor: Actor) {
  return db
    .select(chartColumns)
    .from(visCharts)
    .where(eq(visCharts.appId, actor.appId))
    .orderBy(desc(visCharts.updatedAt), desc(visCharts.id));
}

export async function loadChart(db: Tx, actor: Actor, id: number) {
  const [row] = await db
    .select(chartColumns)
    .from(visCharts)
    .where(and(eq(visCharts.id, id), eq(visCharts.appId, actor.appId)));
  if (!row) throw notFound('chart');
  return row;
}

export async function createChart(
  db: Db,
  req: FastifyRequest,
  actor: Actor,
  catalogue: DatasetCatalogue,
  body: ChartBody,
) {
  const spec = checkChart(catalogue, body.query, body.spec);
  return db.transaction(async (tx) => {
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
    await audit(tx, req, { action: 'create', entity: 'vis_chart', entityId: row!.id, after: row });
    return row!;
  });
}

export async function updateChart(
  db: Db,
  req: FastifyRequest,
  actor: Actor,
  catalogue: DatasetCatalogue,
  id: number,
  body: ChartBody,
) {
  const spec = checkChart(catalogue, body.query, body.spec);
  return db.transaction(async (tx) => {
    const before = await loadChart(tx, actor, id);
    const [row] = await tx
      .update(visCharts)
      .set({ name: body.name, description: body.description, query: body.query, spec, updatedAt: new Date() })
      .where(and(eq(visCharts.id, id), eq(visCharts.appId, actor.appId)))
      .returning(chartColumns);
    await audit(tx, req, { action: 'update', entity: 'vis_chart', entityId: id, before, after: row });
    return row!;
  });
}

export async function deleteChart(db: Db, req: FastifyRequest, actor: Actor, id: number) {
  return db.transaction(async (tx) => {
    const before = await loadChart(tx, actor, id);
    await tx.delete(visCharts).where(and(eq(visCharts.id, id), eq(visCharts.appId, actor.appId)));
    await audit(tx, req, { action: 'delete', entity: 'vis_chart', entityId: id, before });
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

export async function listDashboards(db: Db, actor: Actor) {
  return db
    .select(dashboardColumns)
    .from(visDashboards)
    .where(eq(visDashboards.appId, actor.appId))
    .orderBy(desc(visDashboards.updatedAt), desc(visDashboards.id));
}

/** The stored dashboard row of the actor's app; 404 for another app's id. */
async function dashboardRow(db: Tx, actor: Actor, id: number) {
  const [row] = await db
    .select(dashboardColumns)
    .from(visDashboards)
    .where(and(eq(visDashboards.id, id), eq(visDashboards.appId, actor.appId)));
  if (!row) throw notFound('dashboard');
  return row;
}

export async function loadDashboard(db: Db, actor: Actor, id: number) {
  const row = await dashboardRow(db, actor, id);
  // Tiles whose chart was deleted since are dropped on the way out.
  const tiles = row.tiles as DashboardBody['tiles'];
  const ids = tiles.map((t) => t.chartId);
  const charts = ids.length
    ? await db
        .select(chartColumns)
        .from(visCharts)
        .where(and(eq(visCharts.appId, actor.appId), inArray(visCharts.id, ids)))
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

export async function createDashboard(db: Db, req: FastifyRequest, actor: Actor, body: DashboardBody) {
  await checkTiles(db, actor, body.tiles);
  return db.transaction(async (tx) => {
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
    await audit(tx, req, { action: 'create', entity: 'vis_dashboard', entityId: row!.id, after: row });
    return row!;
  });
}

export async function updateDashboard(
  db: Db,
  req: FastifyRequest,
  actor: Actor,
  id: number,
  body: DashboardBody,
) {
  await checkTiles(db, actor, body.tiles);
  return db.transaction(async (tx) => {
    const before = await dashboardRow(tx, actor, id);
    const [row] = await tx
      .update(visDashboards)
      .set({ name: body.name, description: body.description, tiles: body.tiles, updatedAt: new Date() })
      .where(and(eq(visDashboards.id, id), eq(visDashboards.appId, actor.appId)))
      .returning(dashboardColumns);
    await audit(tx, req, { action: 'update', entity: 'vis_dashboard', entityId: id, before, after: row });
    return row!;
  });
}

export async function deleteDashboard(db: Db, req: FastifyRequest, actor: Actor, id: number) {
  return db.transaction(async (tx) => {
    const before = await dashboardRow(tx, actor, id);
    await tx.delete(visDashboards).where(and(eq(visDashboards.id, id), eq(visDashboards.appId, actor.appId)));
    await audit(tx, req, { action: 'delete', entity: 'vis_dashboard', entityId: id, before });
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
