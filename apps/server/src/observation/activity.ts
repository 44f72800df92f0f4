import type { ObservationActivity, observationActivityQuery } from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { rowsOf } from '../db/rows.js';
import type { SignedIn } from '../http/context.js';

/*
 * The clinical-activity dashboard (ObservationDashboard), read from the observation store only:
 * admissions (inpatient visits by admission day), lab results (by collection day) and operations
 * per day and per department, between two dates (calendar days in Asia/Shanghai, the hospital's).
 */
const TZ = 'Asia/Shanghai';

export async function clinicalActivity(
  ctx: SignedIn,
  q: z.output<typeof observationActivityQuery>,
): Promise<ObservationActivity> {
  const day = sql.raw(`(o.start_at at time zone '${TZ}')::date`);
  const where = sql`o.app_id = ${ctx.appId}
    and ((o.domain = 'visit' and o.concept = 'inpatient') or o.domain in ('lab', 'operation'))
    and ${day} between ${q.from}::date and ${q.to}::date
    ${q.department ? sql`and o.department = ${q.department}` : sql``}`;
  const counts = sql`count(*) filter (where o.domain = 'visit')::int as admissions,
    count(*) filter (where o.domain = 'lab')::int as labs,
    count(*) filter (where o.domain = 'operation')::int as operations`;
  const [days, byDept, totals, depts, last] = await Promise.all([
    ctx.db.execute(sql`
      select to_char(d.day, 'YYYY-MM-DD') as date, coalesce(c.admissions, 0)::int as admissions,
        coalesce(c.labs, 0)::int as labs, coalesce(c.operations, 0)::int as operations
      from generate_series(${q.from}::date, ${q.to}::date, interval '1 day') as d(day)
      left join (select ${day} as day, ${counts} from observations o where ${where} group by 1) c
        on c.day = d.day::date
      order by d.day`),
    ctx.db.execute(sql`select o.department, ${counts} from observations o where ${where}
      group by o.department order by count(*) desc, o.department limit 30`),
    ctx.db.execute(
      sql`select ${counts}, count(distinct o.patient_id)::int as patients from observations o where ${where}`,
    ),
    ctx.db.execute(sql`select distinct department from observations
      where app_id = ${ctx.appId} and domain = 'visit' and department <> '' order by department limit 200`),
    ctx.db.execute(sql`select max(finished_at) as at from observation_runs where app_id = ${ctx.appId}`),
  ]);
  const n = (v: unknown) => Number(v ?? 0);
  const t = rowsOf<Record<string, number>>(totals)[0] ?? {};
  const lastAt = rowsOf<{ at: string | Date | null }>(last)[0]?.at ?? null;
  return {
    days: rowsOf<{ date: string; admissions: number; labs: number; operations: number }>(days).map((r) => ({
      date: r.date,
      admissions: n(r.admissions),
      labs: n(r.labs),
      operations: n(r.operations),
    })),
    byDepartment: rowsOf<{ department: string; admissions: number; labs: number; operations: number }>(
      byDept,
    ).map((r) => ({
      department: r.department,
      admissions: n(r.admissions),
      labs: n(r.labs),
      operations: n(r.operations),
    })),
    totals: {
      admissions: n(t.admissions),
      labs: n(t.labs),
      operations: n(t.operations),
      patients: n(t.patients),
    },
    departments: rowsOf<{ department: string }>(depts).map((r) => r.department),
    lastTransformAt: lastAt ? new Date(lastAt).toISOString() : null,
  };
}
