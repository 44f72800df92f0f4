import {
  type CleaningSection,
  RECORD_QC_CATALOGUE,
  type RecordQcCheck,
  type RecordQcParams,
  splitSections,
} from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';

/** The visits a task covers, as the plan's scope was when it was queued. */
export interface QcScope {
  departments: string[];
  admitFrom: string | null;
  admitTo: string | null;
}

/** The app's inpatient visits in scope: (visit_id, patient_id, department, doctor, admit_at, discharge_at). */
export function scopeBase(appId: number, s: QcScope): SQL {
  return sql`select v.id as visit_id, v.patient_id, v.department, v.doctor, v.admit_at, v.discharge_at
    from visits v where v.app_id = ${appId} and v.kind = 'inpatient'
    ${s.departments.length ? sql`and v.department = any(${sql.param(s.departments)}::text[])` : sql``}
    ${s.admitFrom ? sql`and v.admit_at >= ${s.admitFrom}::date` : sql``}
    ${s.admitTo ? sql`and v.admit_at < ${s.admitTo}::date + 1` : sql``}`;
}

interface Ctx {
  appId: number;
  taskId: number;
  base: SQL;
}

/**
 * The insert every check shares: one fault per row of `rows` (visit_id, patient_id, department,
 * document_id, detail, doctor). The fault is laid to the document's author when it names one,
 * else to the row's doctor (the stay's doctor, or the surgeon for a missing operation record).
 */
function insertFaults(c: Ctx, code: RecordQcCheck, p: RecordQcParams, rows: SQL): SQL {
  const severity = RECORD_QC_CATALOGUE[code].severity;
  return sql`insert into record_qc_faults (app_id, task_id, "check", severity, points, visit_id, patient_id, department, document_id, detail, doctor)
    select ${c.appId}, ${c.taskId}, ${code}, ${severity}, ${p.points}, f.visit_id, f.patient_id, f.department, f.document_id, f.detail,
      coalesce(nullif((select d.author from documents d where d.id = f.document_id and d.app_id = ${c.appId}), ''), f.doctor, '')
    from (${rows}) f`;
}

/** The first document of a kind for each visit of the scope, written at or after the visit's reference time. */
function timely(
  c: Ctx,
  kind: string,
  hours: number,
  ref: 'admit_at' | 'discharge_at',
  missingIsFault: boolean,
) {
  const refCol = sql.raw(`b.${ref}`);
  const limit = sql`${refCol} + ${hours} * interval '1 hour'`;
  return sql`select b.visit_id, b.patient_id, b.department, d.id as document_id, b.doctor,
      jsonb_build_object('hours', ${hours}::int, 'lateHours',
        case when d.id is null then null else ceil(extract(epoch from d.written_at - ${refCol}) / 3600)::int end) as detail
    from (${c.base}) b
    left join lateral (select id, written_at from documents
      where app_id = ${c.appId} and visit_id = b.visit_id and kind = ${kind}
      order by written_at, id limit 1) d on true
    where ${refCol} is not null and (d.written_at > ${limit}
      ${missingIsFault ? sql`or (d.id is null and now() > ${limit})` : sql``})`;
}

/** Set-based SQL per check; the sections check reads the notes through the cleaning area's splitter. */
export async function runCheck(tx: Tx, c: Ctx, code: RecordQcCheck, p: RecordQcParams): Promise<number> {
  const count = async (q: SQL) =>
    rowsOf<{ n: number }>(
      await tx.execute(sql`with ins as (${q} returning 1) select count(*)::int as n from ins`),
    )[0]?.n ?? 0;
  switch (code) {
    case 'admission_note_timely':
      return count(insertFaults(c, code, p, timely(c, 'admission', p.hours ?? 24, 'admit_at', true)));
    case 'first_progress_timely':
      return count(insertFaults(c, code, p, timely(c, 'progress', p.hours ?? 8, 'admit_at', true)));
    case 'discharge_summary_timely':
      return count(insertFaults(c, code, p, timely(c, 'discharge', p.hours ?? 24, 'discharge_at', false)));
    case 'discharge_summary_present':
      return count(
        insertFaults(
          c,
          code,
          p,
          sql`select b.visit_id, b.patient_id, b.department, null::bigint as document_id, '{}'::jsonb as detail, b.doctor
          from (${c.base}) b where b.discharge_at is not null and not exists (
            select 1 from documents d where d.app_id = ${c.appId} and d.visit_id = b.visit_id and d.kind = 'discharge')`,
        ),
      );
    case 'progress_note_copied':
      return count(
        insertFaults(
          c,
          code,
          p,
          sql`select x.visit_id, x.patient_id, x.department, x.id as document_id, '{}'::jsonb as detail, x.doctor from (
            select b.visit_id, b.patient_id, b.department, b.doctor, d.id, d.body, d.written_at,
              lag(d.body) over w as prev_body, lag(d.written_at) over w as prev_at
            from (${c.base}) b join documents d on d.app_id = ${c.appId} and d.visit_id = b.visit_id and d.kind = 'progress'
            window w as (partition by d.visit_id order by d.written_at, d.id)) x
          where x.prev_body is not null and btrim(x.body) <> '' and btrim(x.body) = btrim(x.prev_body)
            and x.written_at::date > x.prev_at::date`,
        ),
      );
    case 'admission_note_sections':
      return sectionsCheck(tx, c, p);
    case 'surgery_record_timely':
      return count(insertFaults(c, code, p, surgeryRecordTimely(c, p.hours ?? 24)));
    case 'discharge_diagnosis_in_notes':
      return count(insertFaults(c, code, p, dischargeDiagnosisInNotes(c)));
    case 'operation_record_matches':
      return count(insertFaults(c, code, p, operationRecordMatches(c)));
  }
}

/** The coded operations (`operations`) of the scope's stays. */
const operationsOf = (c: Ctx) => sql`select b.visit_id, b.patient_id, b.department, b.doctor,
    o.id as operation_id, o.code, o.name, o.operated_at, nullif(o.surgeon, '') as surgeon
  from (${c.base}) b join operations o on o.app_id = ${c.appId} and o.visit_id = b.visit_id`;

/**
 * Every coded operation needs an operation record (documents.kind 'operation') of its stay written
 * within `hours` after it: the first one written at or after the operation counts. Late, or
 * missing once the limit has passed, is a fault, laid to the record's author or the surgeon.
 */
function surgeryRecordTimely(c: Ctx, hours: number): SQL {
  const limit = sql`o.operated_at + ${hours} * interval '1 hour'`;
  return sql`select o.visit_id, o.patient_id, o.department, d.id as document_id,
      coalesce(o.surgeon, o.doctor) as doctor,
      jsonb_build_object('hours', ${hours}::int, 'operation', o.name, 'lateHours',
        case when d.id is null then null else ceil(extract(epoch from d.written_at - o.operated_at) / 3600)::int end) as detail
    from (${operationsOf(c)}) o
    left join lateral (select id, written_at from documents
      where app_id = ${c.appId} and visit_id = o.visit_id and kind = 'operation' and written_at >= o.operated_at
      order by written_at, id limit 1) d on true
    where d.written_at > ${limit} or (d.id is null and now() > ${limit})`;
}

/**
 * Each discharge diagnosis of a discharged stay (diagnoses.kind 'discharge'; the 'main' ones when
 * the stay has none of that kind) must be named, word for word, by at least one of the stay's
 * notes. The fault points at the discharge summary when there is one.
 */
function dischargeDiagnosisInNotes(c: Ctx): SQL {
  return sql`select x.visit_id, x.patient_id, x.department,
      (select id from documents where app_id = ${c.appId} and visit_id = x.visit_id and kind = 'discharge'
        order by written_at, id limit 1) as document_id,
      jsonb_build_object('diagnosis', x.name) as detail, x.doctor
    from (select b.visit_id, b.patient_id, b.department, b.doctor, btrim(g.name) as name
      from (${c.base}) b join diagnoses g on g.app_id = ${c.appId} and g.visit_id = b.visit_id
      where b.discharge_at is not null and btrim(g.name) <> '' and (g.kind = 'discharge' or (g.kind = 'main'
        and not exists (select 1 from diagnoses g2 where g2.app_id = ${c.appId} and g2.visit_id = b.visit_id and g2.kind = 'discharge')))
    ) x
    where not exists (select 1 from documents d where d.app_id = ${c.appId} and d.visit_id = x.visit_id
      and strpos(d.body, x.name) > 0)`;
}

/**
 * A stay's operation records must name each of its coded operations, by name or by code; a stay
 * without an operation record is the timeliness check's business, not this one's.
 */
function operationRecordMatches(c: Ctx): SQL {
  return sql`select o.visit_id, o.patient_id, o.department,
      (select id from documents where app_id = ${c.appId} and visit_id = o.visit_id and kind = 'operation'
        order by written_at, id limit 1) as document_id,
      jsonb_build_object('operation', o.name, 'code', o.code) as detail, coalesce(o.surgeon, o.doctor) as doctor
    from (${operationsOf(c)}) o
    where exists (select 1 from documents d where d.app_id = ${c.appId} and d.visit_id = o.visit_id and d.kind = 'operation')
      and not exists (select 1 from documents d where d.app_id = ${c.appId} and d.visit_id = o.visit_id and d.kind = 'operation'
        and ((btrim(o.name) <> '' and strpos(d.body, btrim(o.name)) > 0) or (btrim(o.code) <> '' and strpos(d.body, btrim(o.code)) > 0)))`;
}

/** Sections a note has with some text under them; a general 诊断 heading counts as the admission diagnosis. */
function sectionsOf(body: string): Set<CleaningSection> {
  const have = new Set<CleaningSection>();
  for (const s of splitSections(body)) {
    if (!body.slice(s.start, s.end).trim()) continue;
    have.add(s.key);
    if (s.key === 'diagnosis') have.add('admission_diagnosis');
  }
  return have;
}

async function sectionsCheck(tx: Tx, c: Ctx, p: RecordQcParams): Promise<number> {
  const required = p.sections ?? RECORD_QC_CATALOGUE.admission_note_sections.defaults.sections ?? [];
  const notes = rowsOf<{
    visit_id: number;
    patient_id: number;
    department: string;
    doctor: string;
    id: number;
    body: string;
  }>(
    await tx.execute(sql`select b.visit_id::int, b.patient_id::int, b.department, b.doctor, d.id::int, d.body
      from (${c.base}) b join lateral (select id, body from documents
        where app_id = ${c.appId} and visit_id = b.visit_id and kind = 'admission'
        order by written_at, id limit 1) d on true`),
  );
  const faults = notes.flatMap((n) => {
    const have = sectionsOf(n.body);
    const missing = required.filter((k) => !have.has(k));
    return missing.length ? [{ ...n, missing }] : [];
  });
  for (let i = 0; i < faults.length; i += 500) {
    const chunk = faults.slice(i, i + 500);
    const values = chunk.map(
      (f) =>
        sql`(${f.visit_id}::bigint, ${f.patient_id}::bigint, ${f.department}, ${f.id}::bigint, ${JSON.stringify({ missing: f.missing })}::jsonb, ${f.doctor})`,
    );
    await tx.execute(
      insertFaults(
        c,
        'admission_note_sections',
        p,
        sql`select * from (values ${sql.join(values, sql`, `)}) as v(visit_id, patient_id, department, document_id, detail, doctor)`,
      ),
    );
  }
  return faults.length;
}
