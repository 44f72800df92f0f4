import type {
  ResearchDataset,
  ResearchDatasetColumn,
  ResearchDatasetQueued,
  ResearchDatasetRow,
} from '@crdp/core';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { ownedKeys } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { researchDatasets } from '../db/schema/index.js';
import { notFound } from '../http/errors.js';
import { queueJobFor } from '../jobs/request.js';
import type { JobContext } from '../jobs/runner.js';
import { cellOf, columnKeyOf, latestVersionOf } from './crf-items.js';
import { type DerivedDef, type VariableDef, variableSchema } from './inputs.js';
import { type Actor, assertMember, assertStatus, invalid, subjectOf } from './subjects.js';

/**
 * The analysis dataset (data-reduction): one row per enrolled patient, a column per chosen
 * variable, plus derived columns. Built by the `research.dataset` job, so a large subject does
 * not hold a request open. Rows carry a study number, not the patient's identity.
 */
/** A column; the two columns of a survival variable say which part and the variable's own label, so the screen can word it per language. */
export type Column = ResearchDatasetColumn;
export type Row = ResearchDatasetRow;

const codesSql = (alias: string, codes: string[]) =>
  sql.join(
    codes.map((c) => sql`${sql.raw(alias)}.icd10 ilike ${`${c.replace(/[%_\\]/g, '\\$&')}%`}`),
    sql` or `,
  );

/** One SQL per variable over the subject's enrolment: (patient_id, v[, v2]). */
export function variableSql(v: VariableDef, subjectId: number): SQL {
  const enrolled = sql`select e.patient_id from research_enrolments e where e.subject_id = ${subjectId}`;
  switch (v.source) {
    case 'age':
      return sql`select p.id as patient_id, extract(year from age(current_date, p.birth_date))::float8 as v
        from patients p where p.id in (${enrolled})`;
    case 'gender':
      return sql`select p.id as patient_id, p.gender::float8 as v from patients p where p.id in (${enrolled})`;
    case 'lab': {
      const agg =
        v.aggregate === 'first'
          ? sql`(array_agg(l.value_num order by l.collected_at))[1]`
          : v.aggregate === 'last'
            ? sql`(array_agg(l.value_num order by l.collected_at desc))[1]`
            : v.aggregate === 'mean'
              ? sql`avg(l.value_num)`
              : sql.raw(`${v.aggregate}(l.value_num)`);
      // With a T0 event, only results on the chosen side of each patient's T0 count.
      const window = v.t0EventId
        ? sql`join t0_patients z on z.patient_id = l.patient_id and z.event_id = ${v.t0EventId}
            and ${v.t0Window === 'afterT0' ? sql`l.collected_at > z.t0` : sql`l.collected_at <= z.t0`}`
        : sql``;
      return sql`select l.patient_id, ${agg}::float8 as v from lab_results l ${window}
        where l.patient_id in (${enrolled}) and l.item_code = ${v.itemCode} and l.value_num is not null
        group by l.patient_id`;
    }
    case 'diagnosis':
      return sql`select p.id as patient_id,
        (case when exists (select 1 from diagnoses d where d.patient_id = p.id and (${codesSql('d', v.codes)})) then 1 else 0 end)::float8 as v
        from patients p where p.id in (${enrolled})`;
    case 'visitCount':
      return sql`select p.id as patient_id, (select count(*) from visits vi where vi.patient_id = p.id)::float8 as v
        from patients p where p.id in (${enrolled})`;
    case 't0Days':
      return sql`select z.patient_id, (extract(epoch from (now() - z.t0)) / 86400.0)::float8 as v
        from t0_patients z where z.event_id = ${v.t0EventId} and z.patient_id in (${enrolled})`;
    case 'survival': {
      // The origin: the patient's T0 of the event when one is named (no T0, no row), else the first visit.
      const origin = v.t0EventId
        ? sql`select z.patient_id, z.t0 as origin from t0_patients z
            where z.event_id = ${v.t0EventId} and z.patient_id in (${enrolled})`
        : sql`select p.id as patient_id,
            coalesce((select min(vi.admit_at) from visits vi where vi.patient_id = p.id),
              (select e.enrolled_at from research_enrolments e where e.subject_id = ${subjectId} and e.patient_id = p.id)) as origin
          from patients p where p.id in (${enrolled})`;
      return sql`with o as (${origin}), x as (
          select o.patient_id, o.origin,
            (select min(d.diagnosed_at) from diagnoses d where d.patient_id = o.patient_id
              and d.diagnosed_at >= o.origin and (${codesSql('d', v.codes)})) as event_at,
            greatest(
              (select max(coalesce(vi.discharge_at, vi.admit_at)) from visits vi where vi.patient_id = o.patient_id),
              (select max(d.diagnosed_at) from diagnoses d where d.patient_id = o.patient_id),
              (select max(l.collected_at) from lab_results l where l.patient_id = o.patient_id)) as last_at
          from o
        )
        select patient_id,
          (extract(epoch from (coalesce(event_at, last_at, origin) - origin)) / 86400.0)::float8 as v,
          (case when event_at is null then 0 else 1 end)::float8 as v2
        from x`;
    }
  }
}

/** A column read from the subject's CRF form: the item's answer in the patient's latest submitted record. */
export interface CrfColumn {
  key: string;
  label: string;
  itemKey: string;
  kind: 'number' | 'choice';
  numericCodes: boolean;
  /** A choice item's options (datasets built before they were kept have none). */
  options?: Array<{ code: string | number; name: string }>;
}
export interface CrfSpec {
  formId: number;
  version: number;
  items: CrfColumn[];
}

export function columnsOf(vars: VariableDef[], derived: DerivedDef[], crf: CrfColumn[] = []): Column[] {
  const cols: Column[] = [];
  for (const v of vars) {
    if (v.source === 'survival') {
      cols.push({
        key: `${v.key}_time`,
        label: `${v.label} (days)`,
        type: 'number',
        survival: { part: 'time', of: v.label },
      });
      cols.push({
        key: `${v.key}_event`,
        label: `${v.label} (event)`,
        type: 'number',
        survival: { part: 'event', of: v.label },
      });
    } else if (v.source === 'gender')
      cols.push({ key: v.key, label: v.label, type: 'category', codeFamily: 'gender' });
    else cols.push({ key: v.key, label: v.label, type: 'number' });
  }
  for (const c of crf)
    cols.push({
      key: c.key,
      label: c.label,
      type: c.kind === 'number' || c.numericCodes ? 'number' : 'category',
      // Numeric option codes stay numbers (a 0/1 item feeds a regression), but they are codes.
      ...(c.kind === 'choice' && c.options?.length
        ? {
            options: c.options.map((o) => ({
              value: c.numericCodes && typeof o.code === 'string' ? Number(o.code) : o.code,
              label: o.name,
            })),
          }
        : {}),
    });
  for (const d of derived) cols.push({ key: d.key, label: d.label, type: 'number' });
  return cols;
}

export function applyDerived(row: Row, derived: DerivedDef[]) {
  const num = (k: string) => (typeof row[k] === 'number' ? (row[k] as number) : null);
  for (const d of derived) {
    const a = num(d.from);
    let v: number | null = null;
    if (a !== null) {
      if (d.op === 'threshold') v = a >= d.value ? 1 : 0;
      else if (d.op === 'log') v = a > 0 ? Math.log(a) : null;
      else {
        const b = num(d.over);
        v = b ? a / b : null;
      }
    }
    row[d.key] = v;
  }
}

/** Resolves the CRF items a dataset asks for against the latest published version of the subject's form. */
async function planCrf(
  db: Tx,
  appId: number,
  formId: number | null,
  wanted: string[],
): Promise<CrfSpec | null> {
  if (!wanted.length) return null;
  if (!formId) throw invalid('crfItems', '该课题未关联 CRF 表单', 'the subject links no CRF form');
  const form = await latestVersionOf(db, appId, formId);
  if (!form)
    throw invalid(
      'crfItems',
      '该课题的 CRF 表单还没有发布的版本',
      'the subject’s CRF form has no published version',
    );
  const items: CrfColumn[] = [];
  wanted.forEach((k, i) => {
    const info = form.items.find((x) => x.key === k);
    if (!info)
      throw invalid(
        `crfItems.${i}`,
        `表单 ${form.name} 没有题目 ${k}`,
        `the form ${form.name} has no item ${k}`,
      );
    if (info.kind === 'other')
      throw invalid(
        `crfItems.${i}`,
        `题目 ${k} 不是数值题或单选题，不能作为一列`,
        `item ${k} is not a number or a single choice, so it cannot be a column`,
      );
    if (wanted.indexOf(k) !== i)
      throw invalid(`crfItems.${i}`, `题目 ${k} 重复列出`, `item ${k} is listed twice`);
    items.push({
      key: columnKeyOf(k),
      label: info.title,
      itemKey: k,
      kind: info.kind,
      numericCodes: info.numericCodes,
      options: info.options,
    });
  });
  return { formId, version: form.version, items };
}

/** Checks a dataset request against the subject's variables before anything is queued. */
function planDataset(
  subjectVars: VariableDef[],
  wanted: string[],
  derived: DerivedDef[],
  crf: CrfColumn[] = [],
) {
  const byKey = new Map(subjectVars.map((v) => [v.key, v]));
  wanted.forEach((k, i) => {
    if (!byKey.has(k))
      throw invalid(`variables.${i}`, `该课题没有变量 ${k}`, `the subject has no variable ${k}`);
  });
  const vars = wanted.length ? wanted.map((k) => byKey.get(k)!) : subjectVars;
  if (!vars.length && !crf.length)
    throw invalid('variables', '该课题未定义任何变量', 'the subject defines no variables');
  const known = new Set(columnsOf(vars, []).map((c) => c.key));
  crf.forEach((c, i) => {
    if (known.has(c.key)) throw invalid(`crfItems.${i}`, `${c.key} 已是一列`, `${c.key} is already a column`);
    known.add(c.key);
  });
  derived.forEach((d, i) => {
    if (known.has(d.key))
      throw invalid(`derived.${i}.key`, `${d.key} 已是一列`, `${d.key} is already a column`);
    if (!known.has(d.from)) throw invalid(`derived.${i}.from`, `没有列 ${d.from}`, `no column ${d.from}`);
    if (d.op === 'ratio' && !known.has(d.over))
      throw invalid(`derived.${i}.over`, `没有列 ${d.over}`, `no column ${d.over}`);
    known.add(d.key);
  });
  return vars;
}

export async function requestDataset(
  db: Db,
  actor: Actor,
  subjectId: number,
  input: { name: string; variables: string[]; derived: DerivedDef[]; crfItems?: string[] | undefined },
): Promise<ResearchDatasetQueued> {
  const s = await subjectOf(db, actor.appId, subjectId);
  await assertMember(db, s, actor);
  assertStatus(s, 'buildDataset', actor.locale);
  const subjectVars = variableSchema.array().parse(s.variables);
  const crf = await planCrf(db, actor.appId, s.crfFormId, input.crfItems ?? []);
  const vars = planDataset(subjectVars, input.variables, input.derived, crf?.items);
  return db.transaction(async (tx) => {
    const [ds] = await tx
      .insert(researchDatasets)
      .values({
        appId: actor.appId,
        subjectId,
        name: input.name,
        spec: { variables: vars, derived: input.derived, crf },
        columns: columnsOf(vars, input.derived, crf?.items),
        createdBy: actor.userId,
      })
      .returning();
    const job = await queueJobFor(
      tx,
      actor,
      {
        kind: 'research.dataset',
        params: { subjectId, datasetId: ds!.id },
        link: { table: researchDatasets, id: ds!.id },
      },
      { action: 'create', entity: 'research_dataset', after: ds },
    );
    return { datasetId: ds!.id, jobId: job.id };
  });
}

/** The job: reads every variable for the enrolled patients and stores the rows. Idempotent. */
export async function buildDatasetJob({ db, job, progress }: JobContext) {
  const { datasetId, subjectId } = job.params as { datasetId: number; subjectId: number };
  const [ds] = await db
    .select()
    .from(researchDatasets)
    .where(and(eq(researchDatasets.id, datasetId), eq(researchDatasets.appId, job.appId)));
  if (!ds) throw new Error('dataset not found');
  try {
    const spec = ds.spec as { variables: VariableDef[]; derived: DerivedDef[]; crf?: CrfSpec | null };
    const enrolled = rowsOf<{ patient_id: number | string }>(
      await db.execute(
        sql`select patient_id from research_enrolments where subject_id = ${subjectId} and app_id = ${job.appId} order by enrolled_at, patient_id`,
      ),
    ).map((r) => Number(r.patient_id));
    const rows = new Map<number, Row>();
    for (const [i, pid] of enrolled.entries())
      rows.set(pid, { studyNo: `S${String(i + 1).padStart(4, '0')}` });
    for (const [i, v] of spec.variables.entries()) {
      const res = rowsOf<{ patient_id: number | string; v: number | null; v2?: number | null }>(
        await db.execute(variableSql(v, subjectId)),
      );
      const got = new Map(res.map((r) => [Number(r.patient_id), r]));
      for (const [pid, row] of rows) {
        const r = got.get(pid);
        const val = r?.v === null || r?.v === undefined ? null : Number(r.v);
        if (v.source === 'survival') {
          row[`${v.key}_time`] = val;
          row[`${v.key}_event`] = r?.v2 === null || r?.v2 === undefined ? null : Number(r.v2);
        } else row[v.key] = val;
      }
      await progress(((i + 1) / spec.variables.length) * 80);
    }
    if (spec.crf?.items.length) {
      // Per patient the latest record of the form that was submitted (or since verified or
      // locked); drafts and deleted records do not count. No record: the cells stay empty.
      const recs = rowsOf<{ patient_id: number | string; answers: Record<string, unknown> }>(
        await db.execute(
          sql`select distinct on (r.patient_id) r.patient_id, r.answers from crf_records r
            where r.app_id = ${job.appId} and r.form_id = ${spec.crf.formId}
              and r.status in ('submitted', 'verified', 'locked') and r.deleted_at is null
              and r.patient_id in (select e.patient_id from research_enrolments e where e.subject_id = ${subjectId})
            order by r.patient_id, r.submitted_at desc nulls last, r.id desc`,
        ),
      );
      const byPatient = new Map(
        recs.map((r) => [
          Number(r.patient_id),
          (typeof r.answers === 'string' ? JSON.parse(r.answers) : (r.answers ?? {})) as Record<
            string,
            unknown
          >,
        ]),
      );
      for (const [pid, row] of rows) {
        const answers = byPatient.get(pid);
        for (const c of spec.crf.items) row[c.key] = answers ? cellOf(c, answers[c.itemKey]) : null;
      }
      await progress(90);
    }
    const out = [...rows.values()];
    for (const row of out) applyDerived(row, spec.derived);
    await db
      .update(researchDatasets)
      .set({ rows: out, rowCount: out.length, status: 'ready', builtAt: new Date() })
      .where(eq(researchDatasets.id, datasetId));
    return { datasetId, rows: out.length, columns: (ds.columns as Column[]).length };
  } catch (e) {
    await db.update(researchDatasets).set({ status: 'failed' }).where(eq(researchDatasets.id, datasetId));
    throw e;
  }
}

export async function listDatasets(db: Tx, appId: number, subjectId: number): Promise<ResearchDataset[]> {
  const rows = await db
    .select({
      id: researchDatasets.id,
      name: researchDatasets.name,
      status: researchDatasets.status,
      rowCount: researchDatasets.rowCount,
      columns: researchDatasets.columns,
      jobId: researchDatasets.jobId,
      createdAt: researchDatasets.createdAt,
      builtAt: researchDatasets.builtAt,
    })
    .from(researchDatasets)
    .where(and(eq(researchDatasets.appId, appId), eq(researchDatasets.subjectId, subjectId)))
    .orderBy(desc(researchDatasets.id));
  return rows.map((r) => ({
    ...r,
    columns: r.columns as Column[],
    createdAt: r.createdAt.toISOString(),
    builtAt: r.builtAt?.toISOString() ?? null,
  }));
}

export async function datasetOf(db: Tx, appId: number, subjectId: number, datasetId: number) {
  const [ds] = await db
    .select()
    .from(researchDatasets)
    .where(
      and(
        eq(researchDatasets.id, datasetId),
        eq(researchDatasets.appId, appId),
        eq(researchDatasets.subjectId, subjectId),
      ),
    );
  if (!ds) throw notFound('research_dataset');
  return ds;
}

export const ownedDatasetIds = ownedKeys(
  researchDatasets,
  { id: researchDatasets.subjectId, datasetId: researchDatasets.id },
  { limit: 3 },
);
