import type { CollectionTarget } from '@crdp/core';
import { and, eq, getTableColumns, getTableName, inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { patientRow } from '../clinical/cdr.js';
import { firstIssue } from '../clinical/imports/mapped.js';
import { CDR_TABLES, patientInput, type RecordTable, recordInputs, rowOf } from '../clinical/records.js';
import type { Tx } from '../db/client.js';
import { collectionChanges, collectionRejects, patients, visits } from '../db/schema/index.js';
import type { Bilingual } from '../http/errors.js';
import { bilingual } from '../http/errors.js';

/**
 * Writes one batch of mapped source rows into a CDR table, in the caller's transaction: each row
 * is checked by the table's entry-form schema, finds its patient (and visit) among the rows
 * collected from the same source, and is upserted by (app, source, source id). Rows that did
 * not change are left alone; every inserted or updated row gets a change record (updates with
 * their fields before and after), written by the same statement. Refused rows are returned
 * with their reason; the caller stores them.
 */

export interface MappedSourceRow {
  /** The source row's key: the CDR row's source id. */
  key: string;
  /** The patient's key in the source (its source id or its medical record number). */
  patientKey?: string;
  visitKey?: string;
  values: Record<string, unknown>;
  /** The row as read (kept with a refusal). */
  raw: Record<string, unknown>;
}

export interface Refusal {
  key: string;
  field: string;
  reason: Bilingual;
  raw: Record<string, unknown>;
}

export interface BatchResult {
  inserted: number;
  updated: number;
  unchanged: number;
  refused: Refusal[];
}

/** Columns an update never changes, and columns whose change is not worth a diff. */
const KEEP = new Set(['id', 'appId', 'source', 'sourceId', 'createdAt', 'patientId']);
const NO_DIFF = new Set(['updatedAt', 'searchText']);

export interface BatchTarget {
  appId: number;
  /** The run whose change records these are. */
  runId?: number;
  /** The HL7 message whose change records these are (no change records without a run or a message). */
  messageId?: number;
  /** The collection source of the rows. */
  sourceId: number;
  templateId: number;
  /** The CDR `source` of the rows: `collect:<source id>`. */
  source: string;
  target: CollectionTarget;
  patientBy: 'sourceId' | 'mrn';
}

export async function writeBatch(tx: Tx, t: BatchTarget, rows: MappedSourceRow[]): Promise<BatchResult> {
  const refused: Refusal[] = [];
  // A key read twice in one batch keeps its last row (an upsert cannot touch a row twice).
  const byKey = new Map<string, MappedSourceRow>();
  for (const r of rows) byKey.set(r.key, r);
  const unique = [...byKey.values()];
  const refuse = (r: MappedSourceRow, field: string, reason: Bilingual) =>
    refused.push({ key: r.key, field, reason, raw: r.raw });
  const out: Array<Record<string, unknown>> = [];

  if (t.target === 'patients') {
    const good: Array<{ r: MappedSourceRow; input: ReturnType<typeof patientInput.parse> }> = [];
    for (const r of unique) {
      const p = patientInput.safeParse(r.values);
      if (!p.success) {
        const i = firstIssue(p.error.issues, r.values);
        refuse(r, i.field, i.text);
      } else good.push({ r, input: p.data });
    }
    // A medical record number held by another patient of the app refuses the row.
    const mrns = good.map((g) => g.input.mrn);
    const taken = mrns.length
      ? await tx
          .select({ mrn: patients.mrn, source: patients.source, sourceId: patients.sourceId })
          .from(patients)
          .where(and(eq(patients.appId, t.appId), inArray(patients.mrn, mrns)))
      : [];
    const owner = new Map(taken.map((o) => [o.mrn, o]));
    const seen = new Map<string, string>();
    for (const g of good) {
      const o = owner.get(g.input.mrn);
      const other = seen.get(g.input.mrn);
      if (
        (o && !(o.source === t.source && o.sourceId === g.r.key)) ||
        (other !== undefined && other !== g.r.key)
      ) {
        refuse(
          g.r,
          'mrn',
          bilingual(
            `病案号 ${g.input.mrn} 已属于另一位患者`,
            `medical record number ${g.input.mrn} belongs to another patient`,
          ),
        );
        continue;
      }
      seen.set(g.input.mrn, g.r.key);
      out.push({
        ...patientRow(t.appId, g.input),
        source: t.source,
        sourceId: g.r.key,
        updatedAt: new Date(),
      });
    }
  } else {
    const table = t.target as RecordTable;
    const patientKeys = [...new Set(unique.flatMap((r) => (r.patientKey ? [r.patientKey] : [])))];
    const found = patientKeys.length
      ? await tx
          .select({ id: patients.id, key: t.patientBy === 'mrn' ? patients.mrn : patients.sourceId })
          .from(patients)
          .where(
            and(
              eq(patients.appId, t.appId),
              t.patientBy === 'mrn'
                ? inArray(patients.mrn, patientKeys)
                : and(eq(patients.source, t.source), inArray(patients.sourceId, patientKeys)),
            ),
          )
      : [];
    const patientOf = new Map(found.map((f) => [f.key, Number(f.id)]));
    const visitKeys = [...new Set(unique.flatMap((r) => (r.visitKey ? [r.visitKey] : [])))];
    const vs = visitKeys.length
      ? await tx
          .select({ id: visits.id, key: visits.sourceId })
          .from(visits)
          .where(
            and(eq(visits.appId, t.appId), eq(visits.source, t.source), inArray(visits.sourceId, visitKeys)),
          )
      : [];
    const visitOf = new Map(vs.map((v) => [v.key, Number(v.id)]));
    const schema = recordInputs[table];
    for (const r of unique) {
      const patientId = r.patientKey ? patientOf.get(r.patientKey) : undefined;
      if (!patientId) {
        refuse(
          r,
          'patient',
          r.patientKey
            ? t.patientBy === 'mrn'
              ? bilingual(
                  `没有病案号为 ${r.patientKey} 的患者`,
                  `no patient with medical record number ${r.patientKey}`,
                )
              : bilingual(
                  `该数据源中还没有采集到患者 ${r.patientKey}（请先采集患者）`,
                  `no patient ${r.patientKey} collected from this source yet (collect the patients first)`,
                )
            : bilingual('患者列为空', 'the patient column is empty'),
        );
        continue;
      }
      const p = schema.safeParse(r.values);
      if (!p.success) {
        const i = firstIssue(p.error.issues, r.values);
        refuse(r, i.field, i.text);
        continue;
      }
      const row = rowOf(table, p.data as never, {
        appId: t.appId,
        patientId,
        source: t.source,
        sourceId: r.key,
      }) as Record<string, unknown>;
      if (table !== 'visits' && 'visitId' in row)
        row.visitId = r.visitKey ? (visitOf.get(r.visitKey) ?? null) : null;
      out.push(row);
    }
  }
  if (!out.length) return { inserted: 0, updated: 0, unchanged: 0, refused };
  const counts = await upsertWithChanges(tx, t, out);
  return { ...counts, unchanged: out.length - counts.inserted - counts.updated, refused };
}

/** One statement: the old rows, the upsert of the changed ones, and their change records. */
async function upsertWithChanges(tx: Tx, t: BatchTarget, rows: Array<Record<string, unknown>>) {
  const table = CDR_TABLES[t.target].table as unknown as PgTable;
  const cols = getTableColumns(table) as Record<string, PgColumn>;
  const keys = Object.keys(rows[0]!).filter((k) => cols[k]);
  const q = (k: string) => sql.raw(`"${cols[k]!.name}"`);
  const changing = keys.filter((k) => !KEEP.has(k));
  const compared = changing.filter((k) => !NO_DIFF.has(k));
  const tname = sql.raw(`"${getTableName(table)}"`);
  // The rows travel as one jsonb parameter read by jsonb_to_recordset: one bound value instead
  // of rows × columns (much faster to build than a VALUES list of that many parameters, and no
  // 65,535-parameter limit on large batches).
  const defs = sql.raw(keys.map((k) => `"${cols[k]!.name}" ${recordType(cols[k]!)}`).join(', '));
  const payload = JSON.stringify(
    rows.map((r) => {
      const o: Record<string, unknown> = {};
      for (const k of keys) o[cols[k]!.name] = jsonValue(r[k]);
      return o;
    }),
  );
  // The batch, read once from the payload; the upsert and the lookup of the old rows both use it.
  const batch = sql`batch as materialized (select * from jsonb_to_recordset(${payload}::jsonb) as x(${defs}))`;
  const values = sql`select ${sql.join(keys.map(q), sql`, `)} from batch`;
  const set = sql.join(
    changing.map((k) => sql`${q(k)} = excluded.${q(k)}`),
    sql`, `,
  );
  const differs = sql`(${sql.join(
    compared.map((k) => sql`${tname}.${q(k)}`),
    sql`, `,
  )}) is distinct from (${sql.join(
    compared.map((k) => sql`excluded.${q(k)}`),
    sql`, `,
  )})`;
  const patientCol = t.target === 'patients' ? sql`up."id"` : sql`up."patient_id"`;
  const diff = sql`jsonb_strip_nulls(jsonb_build_object(${sql.join(
    compared.map(
      (k) =>
        sql`${k}::text, case when old.${q(k)} is distinct from up.${q(k)} then jsonb_build_array(old.${q(k)}, up.${q(k)}) end`,
    ),
    sql`, `,
  )}))`;
  if (t.runId === undefined && t.messageId === undefined) {
    const plain = await tx.execute(sql`
      with ${batch}, up as (
        insert into ${tname} (${sql.join(keys.map(q), sql`, `)}) ${values}
        on conflict ("app_id", "source", "source_id") do update set ${set} where ${differs}
        returning (xmax = 0) as inserted_now
      )
      select count(*) filter (where inserted_now)::int as inserted, count(*) filter (where not inserted_now)::int as updated from up`);
    const [c] = (plain as unknown as { rows: Array<{ inserted: number; updated: number }> }).rows;
    return { inserted: Number(c?.inserted ?? 0), updated: Number(c?.updated ?? 0) };
  }
  // The old rows are found by the unique (app, source, source id) index, one probe per row of the
  // batch (a list of the keys made the planner scan every row of the source: quadratic in a big load).
  const result = await tx.execute(sql`
    with ${batch}, old as (
      select o."id", ${sql.join(
        compared.map((k) => sql`o.${q(k)}`),
        sql`, `,
      )} from batch b join ${tname} o
        on o."app_id" = ${t.appId} and o."source" = ${t.source} and o."source_id" = b."source_id"
    ), up as (
      insert into ${tname} (${sql.join(keys.map(q), sql`, `)}) ${values}
      on conflict ("app_id", "source", "source_id") do update set ${set} where ${differs}
      returning ${tname}.*, (xmax = 0) as inserted_now
    ), ch as (
      insert into ${collectionChanges} ("app_id", "run_id", "message_id", "source_id", "template_id", "table_name", "record_id", "patient_id", "op", "diff")
      select ${t.appId}, ${t.runId ?? null}::int, ${t.messageId ?? null}::bigint, ${t.sourceId}, ${t.templateId}, ${t.target}, up."id", ${patientCol},
             case when up.inserted_now then 'insert' else 'update' end,
             case when up.inserted_now then null else ${diff} end
        from up left join old on old."id" = up."id"
      returning "op"
    )
    select "op", count(*)::int as n from ch group by "op"`);
  const counted = (result as unknown as { rows: Array<{ op: string; n: number }> }).rows;
  const n = (op: string) => Number(counted.find((c) => c.op === op)?.n ?? 0);
  return { inserted: n('insert'), updated: n('update') };
}

/** A value as jsonb_to_recordset reads it into its column (dates as ISO text). */
function jsonValue(v: unknown): unknown {
  if (v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  return v;
}

/** The column's type in the recordset definition (serials are their integer types). */
function recordType(col: PgColumn): string {
  const t = col.getSQLType();
  if (t === 'bigserial') return 'bigint';
  if (t === 'serial') return 'integer';
  if (t === 'smallserial') return 'smallint';
  return t;
}

/** Stores a batch's refused rows for the run's detail page. */
export async function storeRefusals(
  tx: Tx,
  appId: number,
  runId: number,
  templateId: number,
  refused: Refusal[],
) {
  for (let i = 0; i < refused.length; i += 500)
    await tx.insert(collectionRejects).values(
      refused.slice(i, i + 500).map((r) => ({
        appId,
        runId,
        templateId,
        sourceKey: r.key.slice(0, 200),
        field: r.field,
        reason: r.reason,
        row: jsonSafe(r.raw),
      })),
    );
}

/** A source row as JSON (dates as ISO text, big numbers as text, NUL removed). */
export function jsonSafe(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (v instanceof Date) out[k] = v.toISOString();
    else if (typeof v === 'bigint') out[k] = String(v);
    else if (Buffer.isBuffer(v)) out[k] = `<${v.length} bytes>`;
    else if (typeof v === 'string') out[k] = v.replaceAll(String.fromCharCode(0), '');
    else out[k] = v;
  }
  return out;
}
