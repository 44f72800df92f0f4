import type {
  CdrChildKind,
  CdrChildPage,
  cdrChildRows,
  cdrCounts,
  cdrExamReport,
  cdrLabItem,
  cdrPatient,
  cdrPerson,
  cdrVitals,
} from '@crdp/core';
import { and, asc, count, desc, eq, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { appRowOf } from '../db/app-rows.js';
import type { Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { examReports, patients, visits, vitalSigns } from '../db/schema/index.js';
import { notFound } from '../http/errors.js';
import { maskNationalId, maskPhone } from './privacy.js';
import { CDR_TABLES } from './records.js';

export type PatientRow = typeof patients.$inferSelect;
/** A patient as the API answers it (the `cdrPatient` contract). */
export type PatientView = z.input<typeof cdrPatient>;
/** A row of one kind as the API answers it (the contract of that kind). */
export type ChildRow<K extends CdrChildKind> = z.input<(typeof cdrChildRows)[K]>;

/** A patient as lists and the person view show it; identity masked unless `full`. */
export function patientView(p: PatientRow, full: boolean): PatientView {
  return {
    id: p.id,
    mrn: p.mrn,
    name: p.name,
    gender: p.gender,
    birthDate: p.birthDate,
    nationalId: full ? p.nationalId : maskNationalId(p.nationalId),
    phone: full ? p.phone : maskPhone(p.phone),
    address: p.address,
    contacts: full
      ? (p.contacts as PatientView['contacts'])
      : ((p.contacts as Array<{ phone?: string }>) ?? []).map((c) => ({
          ...c,
          phone: maskPhone(c.phone ?? ''),
        })),
    source: p.source,
    createdAt: p.createdAt.toISOString(),
    identityMasked: !full,
  };
}

export interface PatientSearch {
  keyword?: string | undefined;
  gender?: number | undefined;
  /** The last id of the previous page (keyset pagination: any page costs the same). */
  cursor?: number | undefined;
  size: number;
}

/**
 * The patient list of an app, newest first, by keyset on the id. The keyword is a national ID
 * number or medical record number (exact) or the start of a name.
 */
/**
 * The unfiltered list, page 1 and the pages after a cursor: the requests a person paging through
 * patients makes most, built and named once per database (bench/authed-list.ts).
 */
const plainPages = new WeakMap<Tx, ReturnType<typeof preparePlainPages>>();
function preparePlainPages(db: Tx) {
  const appId = sql.placeholder('appId');
  const limit = sql.placeholder('limit');
  return {
    first: db
      .select()
      .from(patients)
      .where(eq(patients.appId, appId))
      .orderBy(desc(patients.id))
      .limit(limit)
      .prepare('crdp_patients_first'),
    after: db
      .select()
      .from(patients)
      .where(and(eq(patients.appId, appId), lt(patients.id, sql.placeholder('cursor'))))
      .orderBy(desc(patients.id))
      .limit(limit)
      .prepare('crdp_patients_after'),
  };
}

export async function searchPatients(db: Tx, appId: number, q: PatientSearch) {
  const k = q.keyword?.trim();
  if (!k && q.gender === undefined) {
    let pages = plainPages.get(db);
    if (!pages) {
      pages = preparePlainPages(db);
      plainPages.set(db, pages);
    }
    const rows =
      q.cursor === undefined
        ? await pages.first.execute({ appId, limit: q.size + 1 })
        : await pages.after.execute({ appId, limit: q.size + 1, cursor: q.cursor });
    return pageOf(rows, q.size);
  }
  let byKeyword: SQL | undefined;
  if (k) {
    byKeyword = /^\d{15}$|^\d{17}[\dXx]$/.test(k)
      ? eq(patients.nationalId, k.toUpperCase())
      : or(eq(patients.mrn, k), ilike(patients.name, `${escapeLike(k)}%`));
  }
  const rows = await db
    .select()
    .from(patients)
    .where(
      and(
        eq(patients.appId, appId),
        byKeyword,
        q.gender !== undefined ? eq(patients.gender, q.gender) : undefined,
        q.cursor !== undefined ? lt(patients.id, q.cursor) : undefined,
      ),
    )
    .orderBy(desc(patients.id))
    .limit(q.size + 1);
  return pageOf(rows, q.size);
}

function pageOf(rows: PatientRow[], size: number) {
  const more = rows.length > size;
  const page = more ? rows.slice(0, size) : rows;
  return { rows: page, nextCursor: more ? String(page[page.length - 1]!.id) : null };
}

/** The patient, or 404 when it is not this app's. */
export const patientOf = appRowOf(patients, 'patient');
const examReportRow = appRowOf(examReports, 'exam report');

type ChildTable = PgTable & { id: PgColumn; appId: PgColumn; patientId: PgColumn };

/** A patient's rows of each kind, with the column that dates them: the CDR tables but `patients`. */
const { patients: _patients, ...children } = CDR_TABLES;
const CHILDREN = children satisfies Record<CdrChildKind, unknown>;
export type ChildKind = CdrChildKind;

/** Columns never sent to the browser. */
function clean<T extends object>(row: T): Omit<T, 'appId' | 'searchText'> {
  const { appId: _a, searchText: _s, ...rest } = row as T & { appId?: unknown; searchText?: unknown };
  return rest;
}

export interface ChildPage {
  page: number;
  size: number;
  where?: SQL | undefined;
  /** Oldest first (charts); newest first otherwise. */
  ascending?: boolean;
}

/** One page of a patient's rows of one kind, newest first, with the total. */
export async function listChildren<K extends ChildKind>(
  db: Tx,
  appId: number,
  patientId: number,
  kind: K,
  p: ChildPage,
): Promise<CdrChildPage<ChildRow<K>>> {
  const { table, time } = CHILDREN[kind];
  const t = table as unknown as ChildTable;
  const where = and(eq(t.appId, appId), eq(t.patientId, patientId), p.where);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(t)
      .where(where)
      .orderBy(p.ascending ? asc(time) : desc(time), p.ascending ? asc(t.id) : desc(t.id))
      .limit(p.size)
      .offset((p.page - 1) * p.size),
    db.select({ n: count() }).from(t).where(where),
  ]);
  return {
    // The table's own columns less app and search text: the row contract of the kind.
    items: (rows as object[]).map(clean) as ChildRow<K>[],
    total: Number(total?.n ?? 0),
    page: p.page,
    size: p.size,
  };
}

/** How many rows of each kind the patient has (the person view's tab badges). */
export async function childCounts(
  db: Tx,
  appId: number,
  patientId: number,
): Promise<z.input<typeof cdrCounts>> {
  const kinds = Object.keys(CHILDREN) as ChildKind[];
  const parts = kinds.map((k) => {
    const t = CHILDREN[k].table as unknown as ChildTable;
    return sql`(select count(*) from ${t} where ${t.appId} = ${appId} and ${t.patientId} = ${patientId})::int as ${sql.identifier(k)}`;
  });
  const res = await db.execute(sql`select ${sql.join(parts, sql`, `)}`);
  const row = (res as unknown as { rows: Array<Record<string, number>> }).rows[0] ?? {};
  return Object.fromEntries(kinds.map((k) => [k, Number(row[k] ?? 0)])) as Record<ChildKind, number>;
}

/** The person view: the patient, recent visits, diagnoses and allergies, and counts per kind. */
export async function personView(
  db: Tx,
  appId: number,
  id: number,
  full: boolean,
): Promise<z.input<typeof cdrPerson>> {
  const p = await patientOf(db, appId, id);
  const [visitPage, diagnosisPage, allergyPage, counts] = await Promise.all([
    listChildren(db, appId, id, 'visits', { page: 1, size: 50 }),
    listChildren(db, appId, id, 'diagnoses', { page: 1, size: 50 }),
    listChildren(db, appId, id, 'allergies', { page: 1, size: 50 }),
    childCounts(db, appId, id),
  ]);
  return {
    patient: patientView(p, full),
    visits: visitPage.items,
    diagnoses: diagnosisPage.items,
    allergies: allergyPage.items,
    counts,
  };
}

/** Lab items the patient has, with how many results and the latest value: the trend picker. */
export async function labItems(
  db: Tx,
  appId: number,
  patientId: number,
): Promise<z.input<typeof cdrLabItem>[]> {
  const res = await db.execute(sql`
    select item_code as "itemCode", max(item_name) as "itemName", max(unit) as unit, count(*)::int as n,
      count(*) filter (where abnormal_flag in ('H','L','A'))::int as abnormal,
      min(ref_low) as "refLow", max(ref_high) as "refHigh"
    from lab_results where app_id = ${appId} and patient_id = ${patientId}
    group by item_code order by max(item_name)`);
  return (res as unknown as { rows: z.input<typeof cdrLabItem>[] }).rows;
}

/** The vital signs of one visit (the inpatient visit asked for, else the latest), oldest first. */
export async function vitalSignsOf(
  db: Tx,
  appId: number,
  patientId: number,
  visitId?: number,
): Promise<z.input<typeof cdrVitals>> {
  let visit: typeof visits.$inferSelect | undefined;
  if (visitId) {
    [visit] = await db
      .select()
      .from(visits)
      .where(and(eq(visits.id, visitId), eq(visits.appId, appId), eq(visits.patientId, patientId)));
    if (!visit) throw notFound('visit');
  } else {
    [visit] = await db
      .select()
      .from(visits)
      .where(
        and(
          eq(visits.appId, appId),
          eq(visits.patientId, patientId),
          sql`exists (select 1 from vital_signs v where v.visit_id = ${visits.id})`,
        ),
      )
      .orderBy(desc(visits.admitAt))
      .limit(1);
  }
  const rows = await db
    .select()
    .from(vitalSigns)
    .where(
      and(
        eq(vitalSigns.appId, appId),
        eq(vitalSigns.patientId, patientId),
        visit ? eq(vitalSigns.visitId, visit.id) : undefined,
      ),
    )
    .orderBy(asc(vitalSigns.recordDt), asc(vitalSigns.id))
    .limit(5000);
  return {
    visit: visit ? clean(visit) : null,
    points: rows.map((r) => ({
      _id: r.id,
      Item_name: r.itemName,
      value: r.value,
      Item_unit: r.itemUnit,
      Record_dt: r.recordDt.toISOString(),
    })),
  };
}

/** One exam report of the app, or 404. */
export async function examReportOf(
  db: Tx,
  appId: number,
  id: number,
): Promise<z.input<typeof cdrExamReport>> {
  return clean(await examReportRow(db, appId, id));
}
