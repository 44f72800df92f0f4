import { rm, stat } from 'node:fs/promises';
import {
  type JobStatus,
  type ObservationDomain,
  ODM_DEFAULTS,
  ODM_JOB_KIND,
  type OdmConceptList,
  type OdmConcurrency,
  type OdmElementBinding,
  type OdmElementChoices,
  type OdmGeneration,
  type OdmGenerationList,
  type OdmSubjectChoices,
  type OdmTopic,
  type OdmTopicList,
  type odmClinicalDataInput,
  type odmConcurrencyInput,
  type odmElementsInput,
} from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import type { Db, Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { withAppScope } from '../db/scoped.js';
import type { SignedIn } from '../http/context.js';
import { invalidField, notFound } from '../http/errors.js';
import { jobFailureText } from '../jobs/failure.js';
import { enqueueJob, type JobRow } from '../jobs/runner.js';
import { type OdmResult, odmFilePath } from './generate.js';

/*
 * ODM topics (OdmListTopics), their clinical data (OdmClinicalData) and data elements
 * (OdmDataElement), generations, and the concurrency settings (OdmConcurrentSettings).
 */

interface TopicRow {
  id: number;
  subject_id: number;
  subject_name: string;
  patients: number;
  domains: ObservationDomain[];
  from_date: string | null;
  to_date: string | null;
  elements: OdmElementBinding[];
  created_at: string | Date;
}

interface GenRow {
  id: number;
  topic_id: number;
  job_id: number | null;
  file_name: string;
  created_by_name: string;
  created_at: string | Date;
  status: JobStatus | null;
  progress: number | null;
  result: OdmResult | null;
  error: string | null;
  finished_at: string | Date | null;
}

const topicTrail = auditTrail('odm_topic', 'odm.topic');
const iso = (v: string | Date | null) => (v ? new Date(v).toISOString() : null);

function genView(g: GenRow, ctx: SignedIn): OdmGeneration {
  const ok = g.status === 'succeeded' && g.result;
  return {
    id: Number(g.id),
    topicId: Number(g.topic_id),
    jobId: g.job_id === null ? null : Number(g.job_id),
    status: g.status ?? 'failed',
    progress: Number(g.progress ?? 0),
    error:
      g.status === 'failed'
        ? jobFailureText({ error: g.error, result: g.result } as unknown as JobRow, ctx.locale)
        : null,
    fileName: g.file_name,
    bytes: ok ? g.result!.bytes : null,
    subjects: ok ? g.result!.subjects : null,
    items: ok ? g.result!.items : null,
    createdByName: g.created_by_name,
    createdAt: iso(g.created_at)!,
    finishedAt: iso(g.finished_at),
  };
}

const genSelect = sql`select g.id, g.topic_id, g.job_id, g.file_name, g.created_by_name, g.created_at,
  j.status, j.progress, j.result, j.error, j.finished_at
  from odm_generations g left join jobs j on j.id = g.job_id`;

async function topicRows(db: Db | Tx, appId: number, id?: number) {
  return rowsOf<TopicRow>(
    await db.execute(sql`select t.id, t.subject_id, s.name as subject_name,
        (select count(*)::int from research_enrolments e where e.subject_id = t.subject_id and e.app_id = t.app_id) as patients,
        t.domains, to_char(t.from_date, 'YYYY-MM-DD') as from_date, to_char(t.to_date, 'YYYY-MM-DD') as to_date,
        t.elements, t.created_at
      from odm_topics t join research_subjects s on s.id = t.subject_id
      where t.app_id = ${appId} ${id === undefined ? sql`` : sql`and t.id = ${id}`}
      order by t.id desc`),
  );
}

async function topicViews(ctx: SignedIn, rows: TopicRow[]): Promise<OdmTopic[]> {
  if (!rows.length) return [];
  const ids = sql.join(
    rows.map((r) => sql`${r.id}`),
    sql`, `,
  );
  const lastGen = rowsOf<GenRow>(
    await ctx.db.execute(sql`select distinct on (g.topic_id) g.id, g.topic_id, g.job_id, g.file_name, g.created_by_name,
        g.created_at, j.status, j.progress, j.result, j.error, j.finished_at
      from odm_generations g left join jobs j on j.id = g.job_id
      where g.app_id = ${ctx.appId} and g.topic_id in (${ids}) order by g.topic_id, g.id desc`),
  );
  const byTopic = new Map(lastGen.map((g) => [Number(g.topic_id), genView(g, ctx)]));
  const elementIds = [...new Set(rows.flatMap((r) => (r.elements ?? []).map((e) => e.elementId)))];
  const names = elementIds.length
    ? rowsOf<{ id: number; code: string; name: string }>(
        await ctx.db.execute(sql`select e.id, e.code, v.definition->>'name' as name from data_elements e
          join data_element_versions v on v.element_id = e.id and v.version = e.version
          where e.app_id = ${ctx.appId} and e.id in (${sql.join(
            elementIds.map((i) => sql`${i}`),
            sql`, `,
          )})`),
      )
    : [];
  const byElement = new Map(names.map((n) => [Number(n.id), n]));
  return rows.map((r) => ({
    id: Number(r.id),
    subjectId: Number(r.subject_id),
    subjectName: r.subject_name,
    patients: Number(r.patients),
    domains: r.domains,
    fromDate: r.from_date,
    toDate: r.to_date,
    elements: (r.elements ?? []).map((e) => ({
      ...e,
      code: byElement.get(e.elementId)?.code ?? '',
      name: byElement.get(e.elementId)?.name ?? '',
    })),
    createdAt: iso(r.created_at)!,
    lastGeneration: byTopic.get(Number(r.id)) ?? null,
  }));
}

export async function listTopics(ctx: SignedIn): Promise<OdmTopicList> {
  return { items: await topicViews(ctx, await topicRows(ctx.db, ctx.appId)) };
}

export async function getTopic(ctx: SignedIn, id: number): Promise<OdmTopic> {
  const rows = await topicRows(ctx.db, ctx.appId, id);
  if (!rows.length) throw notFound('odm_topic');
  return (await topicViews(ctx, rows))[0]!;
}

export async function subjectChoices(ctx: SignedIn): Promise<OdmSubjectChoices> {
  const rows = rowsOf<{ id: number; name: string; patients: number }>(
    await ctx.db.execute(sql`select s.id, s.name,
        (select count(*)::int from research_enrolments e where e.subject_id = s.id and e.app_id = s.app_id) as patients
      from research_subjects s
      where s.app_id = ${ctx.appId} and not exists (select 1 from odm_topics t where t.subject_id = s.id)
      order by s.id desc limit 200`),
  );
  return { items: rows.map((r) => ({ id: Number(r.id), name: r.name, patients: Number(r.patients) })) };
}

export async function addTopic(ctx: SignedIn, subjectId: number): Promise<OdmTopic> {
  const id = await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const [s] = rowsOf<{ id: number; name: string }>(
      await tx.execute(
        sql`select id, name from research_subjects where id = ${subjectId} and app_id = ${ctx.appId}`,
      ),
    );
    if (!s) throw invalidField('subjectId', '没有这个科研课题', 'no such research subject');
    const [t] = rowsOf<{ id: number }>(
      await tx.execute(sql`insert into odm_topics (app_id, subject_id, domains, created_by)
        values (${ctx.appId}, ${subjectId}, '{visit,diagnosis,lab}', ${ctx.userId})
        on conflict (app_id, subject_id) do nothing returning id`),
    );
    if (!t) throw invalidField('subjectId', '该课题已是 ODM 主题', 'the subject is already a topic');
    await topicTrail.added(tx, ctx, Number(t.id), { subjectId, name: s.name });
    return Number(t.id);
  });
  return getTopic(ctx, id);
}

interface LockedTopic {
  id: number;
  domains: string[];
  from_date: string | null;
  to_date: string | null;
  elements: unknown;
}

async function lockTopic(tx: Tx, appId: number, id: number) {
  const [t] = rowsOf<LockedTopic>(
    await tx.execute(sql`select id, domains, to_char(from_date, 'YYYY-MM-DD') as from_date,
      to_char(to_date, 'YYYY-MM-DD') as to_date, elements
      from odm_topics where id = ${id} and app_id = ${appId} for update`),
  );
  if (!t) throw notFound('odm_topic');
  return t;
}

export async function deleteTopic(ctx: SignedIn, id: number, dataDir: string): Promise<null> {
  const jobIds = await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const t = await lockTopic(tx, ctx.appId, id);
    const gens = rowsOf<{ job_id: number | null; status: string | null }>(
      await tx.execute(sql`select g.job_id, j.status from odm_generations g left join jobs j on j.id = g.job_id
        where g.topic_id = ${id}`),
    );
    if (gens.some((g) => g.status === 'queued' || g.status === 'running'))
      throw invalidField(
        'topicId',
        '该主题的文件正在生成，结束后才能删除',
        'a file of the topic is being generated; delete it when it ends',
      );
    await tx.execute(sql`delete from odm_topics where id = ${id} and app_id = ${ctx.appId}`);
    await topicTrail.deleted(tx, ctx, id, t);
    return gens.map((g) => g.job_id).filter((j): j is number => j !== null);
  });
  for (const j of jobIds) await rm(odmFilePath(dataDir, ctx.appId, Number(j)), { force: true });
  return null;
}

/**
 * Changes one setting of a topic under its row lock and audits it as `action` with the before and
 * after that `change` answers; answers the topic.
 */
async function changeTopic(
  ctx: SignedIn,
  id: number,
  action: 'odm.topic.clinicalData' | 'odm.topic.elements',
  change: (tx: Tx, t: LockedTopic) => Promise<{ before: unknown; after: unknown }>,
): Promise<OdmTopic> {
  await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const { before, after } = await change(tx, await lockTopic(tx, ctx.appId, id));
    await audit(tx, ctx, { action, entity: 'odm_topic', entityId: id, before, after });
  });
  return getTopic(ctx, id);
}

export function setClinicalData(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof odmClinicalDataInput>,
): Promise<OdmTopic> {
  return changeTopic(ctx, id, 'odm.topic.clinicalData', async (tx, t) => {
    await tx.execute(sql`update odm_topics set domains = ${sql`array[${sql.join(
      input.domains.map((d) => sql`${d}`),
      sql`, `,
    )}]::text[]`}, from_date = ${input.fromDate}::date, to_date = ${input.toDate}::date, updated_at = now()
      where id = ${id}`);
    return { before: { domains: t.domains, fromDate: t.from_date, toDate: t.to_date }, after: input };
  });
}

export function setElements(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof odmElementsInput>,
): Promise<OdmTopic> {
  return changeTopic(ctx, id, 'odm.topic.elements', async (tx, t) => {
    if (input.elements.length) {
      const found = rowsOf<{ id: number }>(
        await tx.execute(
          sql`select id from data_elements where app_id = ${ctx.appId} and id in (${sql.join(
            input.elements.map((e) => sql`${e.elementId}`),
            sql`, `,
          )})`,
        ),
      ).map((r) => Number(r.id));
      const missing = input.elements.find((e) => !found.includes(e.elementId));
      if (missing)
        throw invalidField(
          'elements',
          `没有编号为 ${missing.elementId} 的数据元`,
          `no data element ${missing.elementId}`,
        );
    }
    await tx.execute(sql`update odm_topics set elements = ${JSON.stringify(input.elements)}::jsonb, updated_at = now()
      where id = ${id}`);
    return { before: { elements: t.elements }, after: { elements: input.elements } };
  });
}

/** The concepts of a domain among the topic's patients, most frequent first, to bind a data element. */
export async function topicConcepts(
  ctx: SignedIn,
  id: number,
  domain: ObservationDomain,
): Promise<OdmConceptList> {
  const t = await getTopic(ctx, id);
  const rows = rowsOf<{ concept: string; rows: number; patients: number }>(
    await ctx.db.execute(sql`select o.concept, count(*)::int as rows, count(distinct o.patient_id)::int as patients
      from observations o join research_enrolments e on e.patient_id = o.patient_id and e.subject_id = ${t.subjectId}
      where o.app_id = ${ctx.appId} and o.domain = ${domain}
      group by o.concept order by count(*) desc, o.concept limit 200`),
  );
  return {
    items: rows.map((r) => ({ concept: r.concept, rows: Number(r.rows), patients: Number(r.patients) })),
  };
}

export async function elementChoices(ctx: SignedIn): Promise<OdmElementChoices> {
  const rows = rowsOf<{ id: number; code: string; name: string; type: string; unit: string }>(
    await ctx.db.execute(sql`select e.id, e.code, v.definition->>'name' as name, v.definition->>'type' as type,
        coalesce(v.definition->>'unit', '') as unit
      from data_elements e join data_element_versions v on v.element_id = e.id and v.version = e.version
      where e.app_id = ${ctx.appId} order by e.code limit 500`),
  );
  return { items: rows.map((r) => ({ ...r, id: Number(r.id) })) };
}

export async function generate(ctx: SignedIn, id: number): Promise<OdmGeneration> {
  const genId = await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const t = await lockTopic(tx, ctx.appId, id);
    const [topic] = await topicRows(tx, ctx.appId, id);
    if (!t.domains.length && !(t.elements as unknown[]).length)
      throw invalidField(
        'topicId',
        '请先选择临床数据或数据元',
        'choose clinical data or data elements first',
      );
    if (!topic!.patients)
      throw invalidField('topicId', '该课题还没有入组患者', 'the research subject has no recruited patients');
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
    const fileName = `odm-topic${id}-${stamp}.xml`;
    await ensureDefaultLimit(tx, ctx.appId);
    const job = await enqueueJob(tx, {
      appId: ctx.appId,
      kind: ODM_JOB_KIND,
      params: { topicId: id, fileName },
      createdBy: ctx.userId,
    });
    const [g] = rowsOf<{ id: number }>(
      await tx.execute(sql`insert into odm_generations (app_id, topic_id, job_id, file_name, created_by, created_by_name)
        values (${ctx.appId}, ${id}, ${job.id}, ${fileName}, ${ctx.userId}, ${ctx.userName}) returning id`),
    );
    await audit(tx, ctx, {
      action: 'odm.generate',
      entity: 'odm_generation',
      entityId: Number(g!.id),
      after: { topicId: id, jobId: job.id },
    });
    return Number(g!.id);
  });
  const [row] = rowsOf<GenRow>(await ctx.db.execute(sql`${genSelect} where g.id = ${genId}`));
  return genView(row!, ctx);
}

export async function listGenerations(ctx: SignedIn, topicId?: number): Promise<OdmGenerationList> {
  const rows = rowsOf<GenRow>(
    await ctx.db.execute(sql`${genSelect} where g.app_id = ${ctx.appId}
      ${topicId === undefined ? sql`` : sql`and g.topic_id = ${topicId}`} order by g.id desc limit 100`),
  );
  return { items: rows.map((g) => genView(g, ctx)) };
}

export async function generationFile(ctx: SignedIn, id: number, dataDir: string) {
  const [g] = rowsOf<GenRow>(
    await ctx.db.execute(sql`${genSelect} where g.id = ${id} and g.app_id = ${ctx.appId}`),
  );
  if (!g) throw notFound('odm_generation');
  if (g.status !== 'succeeded' || g.job_id === null)
    throw invalidField('generationId', '文件尚未生成成功', 'the file has not been generated yet');
  const file = odmFilePath(dataDir, ctx.appId, Number(g.job_id));
  if (!(await stat(file).catch(() => null))) throw notFound('odm_generation');
  return { file, fileName: g.file_name };
}

export async function getConcurrency(ctx: SignedIn): Promise<OdmConcurrency> {
  const [s] = rowsOf<{ max_running: number | null; batch_size: number | null; updated_at: string | Date }>(
    await ctx.db.execute(sql`select max_running, batch_size, updated_at from job_kind_settings
      where app_id = ${ctx.appId} and kind = ${ODM_JOB_KIND}`),
  );
  const [c] = rowsOf<{ running: number; queued: number }>(
    await ctx.db.execute(sql`select count(*) filter (where status = 'running')::int as running,
      count(*) filter (where status = 'queued')::int as queued
      from jobs where app_id = ${ctx.appId} and kind = ${ODM_JOB_KIND} and status in ('running', 'queued')`),
  );
  return {
    maxRunning: Number(s?.max_running ?? ODM_DEFAULTS.maxRunning),
    batchSize: Number(s?.batch_size ?? ODM_DEFAULTS.batchSize),
    running: Number(c?.running ?? 0),
    queued: Number(c?.queued ?? 0),
    updatedAt: s ? iso(s.updated_at) : null,
  };
}

export async function setConcurrency(
  ctx: SignedIn,
  input: z.output<typeof odmConcurrencyInput>,
): Promise<OdmConcurrency> {
  await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const [before] = rowsOf<{ max_running: number | null; batch_size: number | null }>(
      await tx.execute(sql`select max_running, batch_size from job_kind_settings
        where app_id = ${ctx.appId} and kind = ${ODM_JOB_KIND} for update`),
    );
    await tx.execute(sql`insert into job_kind_settings (app_id, kind, max_running, batch_size, updated_by, updated_at)
      values (${ctx.appId}, ${ODM_JOB_KIND}, ${input.maxRunning}, ${input.batchSize}, ${ctx.userId}, now())
      on conflict (app_id, kind) do update set max_running = excluded.max_running, batch_size = excluded.batch_size,
        updated_by = excluded.updated_by, updated_at = now()`);
    await audit(tx, ctx, {
      action: 'odm.concurrency',
      entity: 'job_kind_settings',
      entityId: ODM_JOB_KIND,
      before: before ? { maxRunning: before.max_running, batchSize: before.batch_size } : null,
      after: input,
    });
  });
  return getConcurrency(ctx);
}

/** New topics get the default limit written, so the runner keeps it before anyone opens the settings. */
export async function ensureDefaultLimit(tx: Tx, appId: number) {
  await tx.execute(sql`insert into job_kind_settings (app_id, kind, max_running, batch_size)
    values (${appId}, ${ODM_JOB_KIND}, ${ODM_DEFAULTS.maxRunning}, ${ODM_DEFAULTS.batchSize})
    on conflict (app_id, kind) do nothing`);
}

export async function ownedTopicIds(db: Db, appId: number) {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`select id from odm_topics where app_id = ${appId} limit 3`),
  );
  return rows.map((r) => ({ topicId: Number(r.id) }));
}

export async function ownedGenerationIds(db: Db, appId: number) {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`select id from odm_generations where app_id = ${appId} limit 3`),
  );
  return rows.map((r) => ({ generationId: Number(r.id) }));
}
