import {
  type DataSourceRecordStatistics,
  dataSourceRecordStatistics as dataSourceRecordStatisticsSchema,
  TASK_STATUSES,
  type TopicCount,
  type TopicCountChart,
  type TopicTypeCount,
  topicCountChart as topicCountChartSchema,
  topicCount as topicCountSchema,
  topicTypeCount as topicTypeCountSchema,
} from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { type AppActor, appActor } from '../http/context.js';
import { restRoutes } from '../http/route.js';
import { listTypes } from './types.js';

/**
 * The workbench statistics calls of spec 000 section 7 (`topic_count`, `topic_count_chart`,
 * `topic_type_count`, `data_source_record_statistics`), answering `{ code: 200, data }`. Counts
 * are scoped to what the user may see: every subject of the app with the list function, else
 * only the subjects they are a member of; multi-center topics their app takes part in.
 */

function visibleSubjects(a: AppActor): SQL {
  const all = a.auth.apiIds.has('ResearchSubjectList.query');
  return all
    ? sql`s.app_id = ${a.appId}`
    : sql`s.app_id = ${a.appId} and exists (select 1 from research_subject_members m where m.subject_id = s.id and m.user_id = ${a.userId ?? -1})`;
}

export async function topicCount(db: Tx, actor: AppActor): Promise<TopicCount> {
  const rows = rowsOf<{ status: string; n: number }>(
    await db.execute(
      sql`select s.status, count(*)::int as n from research_subjects s where ${visibleSubjects(actor)} group by s.status`,
    ),
  );
  const mc = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from mc_topic_centers c where c.app_id = ${actor.appId} and c.status = 'accepted'`,
    ),
  );
  const enrolled = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from research_enrolments e join research_subjects s on s.id = e.subject_id
      where ${visibleSubjects(actor)}`),
  );
  const by = new Map(rows.map((r) => [r.status, Number(r.n)]));
  const byStatus = TASK_STATUSES.map((status) => ({ status, count: by.get(status) ?? 0 }));
  const total = byStatus.reduce((s, x) => s + x.count, 0);
  return {
    total,
    active: total - (by.get('closed') ?? 0) - (by.get('topicConcluded') ?? 0),
    byStatus,
    multiCenterTopics: Number(mc[0]?.n ?? 0),
    enrolledPatients: Number(enrolled[0]?.n ?? 0),
  };
}

/** Subjects created per month over the last twelve months (months without any count 0). */
export async function topicCountChart(db: Tx, actor: AppActor): Promise<TopicCountChart> {
  const rows = rowsOf<{ month: string; n: number }>(
    await db.execute(sql`select to_char(date_trunc('month', s.created_at), 'YYYY-MM') as month, count(*)::int as n
      from research_subjects s where ${visibleSubjects(actor)} and s.created_at >= date_trunc('month', now()) - interval '11 months'
      group by 1`),
  );
  const by = new Map(rows.map((r) => [r.month, Number(r.n)]));
  const now = new Date();
  return Array.from({ length: 12 }, (_, i) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11 + i, 1));
    const month = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    return { month, count: by.get(month) ?? 0 };
  });
}

export async function topicTypeCount(db: Tx, actor: AppActor): Promise<TopicTypeCount> {
  const rows = rowsOf<{ type_code: string; n: number }>(
    await db.execute(
      sql`select s.type_code, count(*)::int as n from research_subjects s where ${visibleSubjects(actor)} group by 1`,
    ),
  );
  const types = await listTypes(db, actor.appId, actor.locale);
  const by = new Map(rows.map((r) => [r.type_code, Number(r.n)]));
  return types.map((t) => ({ typeCode: t.code, name: t.name, count: by.get(t.code) ?? 0 }));
}

const SOURCE_TABLES = [
  'patients',
  'visits',
  'diagnoses',
  'allergies',
  'orders',
  'lab_results',
  'exam_reports',
  'operations',
  'physical_exams',
  'vital_signs',
  'documents',
] as const;

/** Record counts of the app's clinical data repository, per table and per source. */
export async function dataSourceRecordStatistics(db: Tx, appId: number): Promise<DataSourceRecordStatistics> {
  const parts = SOURCE_TABLES.map(
    (t) =>
      sql`select ${t}::text as tbl, source, count(*)::int as n from ${sql.identifier(t)} where app_id = ${appId} group by source`,
  );
  const rows = rowsOf<{ tbl: string; source: string; n: number }>(
    await db.execute(sql.join(parts, sql` union all `)),
  );
  const tables = SOURCE_TABLES.map((t) => {
    const mine = rows.filter((r) => r.tbl === t);
    return {
      table: t,
      count: mine.reduce((s, r) => s + Number(r.n), 0),
      bySource: Object.fromEntries(mine.map((r) => [r.source, Number(r.n)])),
    };
  });
  return { total: tables.reduce((s, t) => s + t.count, 0), tables };
}

export async function statisticsRoutes(app: FastifyInstance) {
  const tags = ['statistics'];
  const api = restRoutes(app, { tags });
  // Each count belongs to the page whose list it summarises: a member with no role sees none.
  const subjects = { access: { apiId: 'ResearchSubjectList.query' } };
  api.get(
    '/api/v0.1/topic_count',
    {
      ...subjects,
      summary: 'Research subjects by status, as the user may see them',
      answer: topicCountSchema,
    },
    (req) => topicCount(app.db, appActor(req.ctx)),
  );
  api.get(
    '/api/v0.1/topic_count_chart',
    { ...subjects, summary: 'Subjects created per month, last twelve months', answer: topicCountChartSchema },
    (req) => topicCountChart(app.db, appActor(req.ctx)),
  );
  api.get(
    '/api/v0.1/topic_type_count',
    { ...subjects, summary: 'Subjects per project type', answer: topicTypeCountSchema },
    (req) => topicTypeCount(app.db, appActor(req.ctx)),
  );
  api.get(
    '/api/v0.1/data_source_record_statistics',
    {
      access: { apiId: 'DataLakeOverviews.query' },
      summary: 'Clinical records of the app per table and source',
      answer: dataSourceRecordStatisticsSchema,
    },
    (req) => dataSourceRecordStatistics(app.db, appActor(req.ctx).appId),
  );
}
