import type { ObservationDomain, ObservationDomainCounts } from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import type { JobContext } from '../jobs/runner.js';

/*
 * The transform of the CDR into the observation store: one set-based statement per domain that
 * inserts or updates the observations of the CDR rows new or changed since the task's watermark,
 * and one that deletes the observations whose CDR row is gone. No row is handled in JavaScript.
 *
 * The watermark is a transaction id (xid8, kept as a bigint): at the start of a run, every
 * transaction below `pg_snapshot_xmin(pg_current_snapshot())` has ended, so a CDR row written by
 * any of them is visible now; the next run takes only the rows whose `xmin` (the transaction that
 * inserted or last updated them) is at or after that mark: `age(xmin) <= current xid - mark`,
 * which holds across the 32-bit wrap of `xmin`. A row of a transaction still open at the start is
 * taken by the next run; a row seen twice is upserted twice with the same values (counted once:
 * an update that changes nothing is not written). The CDR needs no "updated at" column for this,
 * and imports, collection runs, HL7 messages and manual edits are all caught alike.
 */

export const TRANSFORM_KIND = 'observation.transform';

interface DomainSource {
  /** The CDR table and its alias `x`; `v` is the row's visit (left join), for the department. */
  from: SQL;
  filter: SQL;
  /** patient_id, visit_id, concept, local_code, start_at, end_at, value_num, value_text, unit, department, source_id. */
  columns: SQL;
}

const num = (col: string) =>
  sql.raw(`case when btrim(${col}) ~ '^-?[0-9]+(\\.[0-9]+)?$' then btrim(${col})::double precision end`);
const visitJoin = sql.raw('left join visits v on v.id = x.visit_id');

export const DOMAIN_SOURCES: Record<ObservationDomain, DomainSource> = {
  visit: {
    from: sql.raw('visits x'),
    filter: sql`true`,
    columns: sql.raw(
      `x.patient_id, x.id, x.kind, '', x.admit_at, x.discharge_at, null::double precision, '', '', x.department, x.id`,
    ),
  },
  diagnosis: {
    from: sql`diagnoses x ${visitJoin}`,
    filter: sql`true`,
    columns: sql.raw(
      `x.patient_id, x.visit_id, btrim(x.name), x.icd10, x.diagnosed_at, null::timestamptz, null::double precision, x.kind, '', coalesce(v.department, ''), x.id`,
    ),
  },
  lab: {
    from: sql`lab_results x ${visitJoin}`,
    filter: sql`true`,
    columns: sql.raw(
      `x.patient_id, x.visit_id, btrim(x.item_name), x.item_code, x.collected_at, null::timestamptz, x.value_num, x.value_text, x.unit, coalesce(v.department, ''), x.id`,
    ),
  },
  operation: {
    from: sql`operations x ${visitJoin}`,
    filter: sql`true`,
    columns: sql.raw(
      `x.patient_id, x.visit_id, btrim(x.name), x.code, x.operated_at, null::timestamptz, null::double precision, x.anaesthesia, '', coalesce(v.department, ''), x.id`,
    ),
  },
  drug: {
    from: sql`orders x ${visitJoin}`,
    filter: sql.raw(`x.category = 'drug'`),
    columns: sql`x.patient_id, x.visit_id, btrim(x.name), x.code, x.start_at, x.stop_at, ${num('x.dose')}, x.dose, x.dose_unit, coalesce(v.department, ''), x.id`,
  },
  vital: {
    from: sql`vital_signs x ${visitJoin}`,
    filter: sql`true`,
    columns: sql`x.patient_id, x.visit_id, x.item_name, '', x.record_dt, null::timestamptz, ${num('x.value')}, x.value, x.item_unit, coalesce(v.department, ''), x.id`,
  },
};

/** The watermark a run starts from: every transaction below it has ended. */
export async function currentWatermark(db: Db): Promise<number> {
  const [row] = rowsOf<{ w: string }>(
    await db.execute(sql`select pg_snapshot_xmin(pg_current_snapshot())::text as w`),
  );
  return Number(row!.w);
}

/**
 * Upserts the observations of one domain from the CDR rows of the app changed at or after
 * `since` (every row when null), then deletes those whose CDR row is gone. Two statements in one
 * transaction; returns what they changed.
 */
export async function transformDomain(
  db: Db,
  appId: number,
  domain: ObservationDomain,
  since: number | null,
): Promise<{ upserted: number; deleted: number }> {
  const s = DOMAIN_SOURCES[domain];
  return db.transaction(async (tx) => {
    // age(xmin) counts back from this transaction's own id, so take it first.
    const [cur] = rowsOf<{ x: string }>(await tx.execute(sql`select pg_current_xact_id()::text as x`));
    const changed = since === null ? sql`true` : sql`age(x.xmin) <= ${Number(cur!.x) - since}::bigint`;
    const [up] = rowsOf<{ n: number }>(
      await tx.execute(sql`
        with src (patient_id, visit_id, concept, local_code, start_at, end_at, value_num, value_text, unit, department, source_id) as (
          select ${s.columns} from ${s.from}
          where x.app_id = ${appId} and ${s.filter} and ${changed}
        ), up as (
          insert into observations as o (app_id, patient_id, visit_id, domain, concept, local_code, start_at, end_at,
            value_num, value_text, unit, department, source_id)
          select ${appId}, src.patient_id, src.visit_id, ${domain}, src.concept, coalesce(src.local_code, ''), src.start_at,
            src.end_at, src.value_num, coalesce(src.value_text, ''), coalesce(src.unit, ''), coalesce(src.department, ''), src.source_id
          from src
          on conflict (app_id, domain, source_id) do update set
            patient_id = excluded.patient_id, visit_id = excluded.visit_id, concept = excluded.concept,
            local_code = excluded.local_code, start_at = excluded.start_at, end_at = excluded.end_at,
            value_num = excluded.value_num, value_text = excluded.value_text, unit = excluded.unit,
            department = excluded.department, transformed_at = now()
          where (o.patient_id, o.visit_id, o.concept, o.local_code, o.start_at, o.end_at, o.value_num, o.value_text,
                 o.unit, o.department)
            is distinct from (excluded.patient_id, excluded.visit_id, excluded.concept, excluded.local_code,
                 excluded.start_at, excluded.end_at, excluded.value_num, excluded.value_text, excluded.unit,
                 excluded.department)
          returning 1
        ) select count(*)::int as n from up`),
    );
    const [del] = rowsOf<{ n: number }>(
      await tx.execute(sql`
        with gone as (
          delete from observations o
          where o.app_id = ${appId} and o.domain = ${domain}
            and not exists (select 1 from ${s.from} where x.id = o.source_id and x.app_id = ${appId} and ${s.filter})
          returning 1
        ) select count(*)::int as n from gone`),
    );
    return { upserted: Number(up!.n), deleted: Number(del!.n) };
  });
}

/** The job: runs one observation_runs row's domains, then moves its task's watermark. */
export async function transformJob({ db, job, progress }: JobContext) {
  const { runId } = job.params as { runId: number };
  const [run] = rowsOf<{
    task_id: number;
    mode: string;
    domains: ObservationDomain[];
    watermark: string | null;
  }>(
    await db.execute(sql`select r.task_id, r.mode, t.domains, t.watermark::text as watermark
      from observation_runs r join observation_tasks t on t.id = r.task_id
      where r.id = ${runId} and r.app_id = ${job.appId}`),
  );
  if (!run) return { skipped: 'the task was deleted' };
  const since = run.mode === 'full' || run.watermark === null ? null : Number(run.watermark);
  const mark = await currentWatermark(db);
  const counts: ObservationDomainCounts = {};
  let i = 0;
  for (const domain of run.domains) {
    counts[domain] = await transformDomain(db, job.appId, domain, since);
    await progress((++i / run.domains.length) * 95);
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`update observation_runs set counts = ${JSON.stringify(counts)}::jsonb, finished_at = now(),
      from_watermark = ${since}, to_watermark = ${mark} where id = ${runId}`);
    await tx.execute(sql`update observation_tasks set watermark = ${mark}, updated_at = now()
      where id = ${run.task_id} and app_id = ${job.appId}`);
  });
  return { counts };
}
