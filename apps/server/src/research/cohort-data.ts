import type { researchProjectData, researchReport, researchVariableSummary } from '@crdp/core';
import { describe } from '@crdp/stats';
import { and, count, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { patientIdentityColumns } from '../clinical/identity-columns.js';
import { canSeeIdentity } from '../clinical/privacy.js';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { patients, researchEnrolments, researchStatusLog } from '../db/schema/index.js';
import { variableSql } from './datasets.js';
import { type VariableDef, variableSchema } from './inputs.js';
import { type Actor, subjectDetail, subjectOf } from './subjects.js';

/**
 * project-data and report: the enrolled cohort seen through the subject's variables, read live
 * from the CDR (a dataset is the frozen copy for analysis).
 */

async function variableValues(db: Tx, subjectId: number, v: VariableDef) {
  const res = rowsOf<{ patient_id: number | string; v: number | null; v2?: number | null }>(
    await db.execute(variableSql(v, subjectId)),
  );
  return res;
}

/** Per variable: its summary over the enrolled patients and how complete it is. */
export async function variableSummaries(
  db: Tx,
  subjectId: number,
  variables: VariableDef[],
  enrolled: number,
): Promise<Array<z.input<typeof researchVariableSummary>>> {
  const out: Array<z.input<typeof researchVariableSummary>> = [];
  for (const v of variables) {
    const res = await variableValues(db, subjectId, v);
    // Gender is a code, not a quantity: summarise it by level.
    const values = res.map((r) => (r.v === null ? null : v.source === 'gender' ? String(r.v) : Number(r.v)));
    const present = values.filter((x) => x !== null).length;
    out.push({
      key: v.key,
      label: v.label,
      source: v.source,
      completeness: enrolled ? present / enrolled : 0,
      summary: describe([...values, ...new Array(Math.max(0, enrolled - values.length)).fill(null)]),
      ...(v.source === 'survival' ? { events: res.filter((r) => Number(r.v2) === 1).length } : {}),
    });
  }
  return out;
}

export async function projectData(
  db: Tx,
  actor: Actor,
  id: number,
  page: { page: number; size: number },
): Promise<z.input<typeof researchProjectData>> {
  const s = await subjectOf(db, actor.appId, id);
  const variables = variableSchema.array().parse(s.variables);
  const [n] = await db
    .select({ n: count() })
    .from(researchEnrolments)
    .where(eq(researchEnrolments.subjectId, id));
  const enrolled = n?.n ?? 0;
  const full = canSeeIdentity(actor);
  const list = await db
    .select({ ...patientIdentityColumns, enrolledAt: researchEnrolments.enrolledAt })
    .from(researchEnrolments)
    .innerJoin(patients, and(eq(patients.id, researchEnrolments.patientId), eq(patients.appId, actor.appId)))
    .where(eq(researchEnrolments.subjectId, id))
    .orderBy(researchEnrolments.enrolledAt, patients.id)
    .limit(page.size)
    .offset((page.page - 1) * page.size);
  return {
    enrolled,
    variables: await variableSummaries(db, id, variables, enrolled),
    patients: {
      total: enrolled,
      items: list.map((p) => ({
        ...p,
        // Without the identity function a researcher sees the cohort, not who is in it.
        name: full ? p.name : `${p.name.slice(0, 1)}**`,
        enrolledAt: p.enrolledAt.toISOString(),
      })),
    },
  };
}

export async function subjectReport(
  db: Tx,
  actor: Actor,
  id: number,
): Promise<z.input<typeof researchReport>> {
  const detail = await subjectDetail(db, actor, id);
  const variables = variableSchema.array().parse(detail.variables);
  const byMonth = rowsOf<{ month: string; n: number }>(
    await db.execute(sql`select to_char(enrolled_at, 'YYYY-MM') as month, count(*)::int as n
      from research_enrolments where subject_id = ${id} and app_id = ${actor.appId} group by 1 order by 1`),
  );
  const demo = rowsOf<{ gender: number; age: number | null }>(
    await db.execute(sql`select p.gender, extract(year from age(current_date, p.birth_date))::float8 as age
      from research_enrolments e join patients p on p.id = e.patient_id
      where e.subject_id = ${id} and p.app_id = ${actor.appId}`),
  );
  const summaries = await variableSummaries(db, id, variables, detail.enrolled);
  const [moves] = await db
    .select({ n: count() })
    .from(researchStatusLog)
    .where(eq(researchStatusLog.subjectId, id));
  return {
    subject: detail,
    recruitment: {
      enrolled: detail.enrolled,
      target: detail.targetSize,
      progress: detail.targetSize ? detail.enrolled / detail.targetSize : null,
      byMonth: byMonth.map((r) => ({ month: r.month, count: Number(r.n) })),
    },
    completeness: summaries.map((s) => ({ key: s.key, label: s.label, completeness: s.completeness })),
    keyStatistics: {
      age: describe(demo.map((d) => (d.age === null ? null : Number(d.age)))),
      gender: describe(demo.map((d) => String(d.gender))),
      variables: summaries,
    },
    statusMoves: moves?.n ?? 0,
    generatedAt: new Date().toISOString(),
  };
}
