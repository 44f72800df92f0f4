import { randomUUID } from 'node:crypto';
import type { cdrBrowserPage, cdrOverview, cdrTableInfo } from '@crdp/core';
import { and, desc, eq, getTableColumns, gte, ilike, lt, lte, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { nameTaken, updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { patients, visits } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { badRequest, bilingual } from '../http/errors.js';
import { patientOf, patientView } from './patient360.js';
import {
  CDR_TABLES,
  type CdrTable,
  type PatientInput,
  type RecordInput,
  type RecordTable,
  rowOf,
  upsertRows,
} from './records.js';

export const patientRow = (appId: number, p: PatientInput) => ({
  appId,
  mrn: p.mrn,
  name: p.name,
  gender: p.gender,
  birthDate: p.birthDate ?? null,
  nationalId: (p.nationalId ?? '').toUpperCase(),
  phone: p.phone ?? '',
  address: p.address ?? '',
  contacts: p.contacts ?? [],
});

async function assertMrnFree(db: Tx, appId: number, mrn: string, except?: number) {
  if (await nameTaken(db, patients, appId, mrn, except, patients.mrn))
    throw badRequest(
      bilingual(`body.mrn: 病案号 ${mrn} 已被使用`, `body.mrn: medical record number ${mrn} is already used`),
      'mrn',
    );
}

/** Registers a patient by hand (source manual), audited in the same transaction. */
export async function createPatient(db: Db, actor: SignedIn, input: PatientInput) {
  const { appId } = actor;
  return db.transaction(async (tx) => {
    await assertMrnFree(tx, appId, input.mrn);
    const [row] = await tx
      .insert(patients)
      .values({ ...patientRow(appId, input), source: 'manual', sourceId: `manual-${randomUUID()}` })
      .returning();
    await audit(tx, actor, {
      action: 'create',
      entity: 'patient',
      entityId: row!.id,
      after: patientView(row!, true),
    });
    return row!;
  });
}

export async function updatePatient(db: Db, actor: SignedIn, id: number, input: PatientInput) {
  const { appId } = actor;
  return db.transaction(async (tx) => {
    const before = await patientOf(tx, appId, id);
    await assertMrnFree(tx, appId, input.mrn, id);
    const row = await updateAppRow(tx, patients, appId, id, {
      ...patientRow(appId, input),
      updatedAt: new Date(),
    });
    await audit(tx, actor, {
      action: 'update',
      entity: 'patient',
      entityId: id,
      before: patientView(before, true),
      after: patientView(row!, true),
    });
    return row!;
  });
}

/** Adds one row of any kind to a patient by hand; a visit named must be the same patient's. */
export async function addRecord<T extends RecordTable>(
  db: Db,
  actor: SignedIn,
  patientId: number,
  table: T,
  input: RecordInput<T>,
): Promise<{ id: number }> {
  const { appId } = actor;
  return db.transaction(async (tx) => {
    await patientOf(tx, appId, patientId);
    const visitId = (input as { visitId?: number }).visitId;
    if (visitId !== undefined) {
      const [v] = await tx
        .select({ id: visits.id })
        .from(visits)
        .where(and(eq(visits.id, visitId), eq(visits.appId, appId), eq(visits.patientId, patientId)));
      if (!v)
        throw badRequest(
          bilingual(
            `body.row.visitId: 就诊 ${visitId} 不属于该患者`,
            `body.row.visitId: visit ${visitId} is not this patient's`,
          ),
          'row.visitId',
        );
    }
    const sourceId = `manual-${randomUUID()}`;
    const row = rowOf(table, input, { appId, patientId, source: 'manual', sourceId });
    const ids = await upsertRows(tx, table, [row]);
    const id = ids.get(sourceId)!;
    const { searchText: _s, ...shown } = row as Record<string, unknown>;
    await audit(tx, actor, { action: 'create', entity: table, entityId: id, after: shown });
    return { id };
  });
}

/** Text columns the CDR browser's keyword searches, per table. */
const KEYWORD_COLUMN: Partial<Record<CdrTable, string>> = {
  patients: 'name',
  visits: 'department',
  diagnoses: 'name',
  allergies: 'substance',
  orders: 'name',
  labResults: 'itemName',
  examReports: 'conclusion',
  operations: 'name',
  physicalExams: 'item',
  vitalSigns: 'itemName',
  documents: 'title',
};

export interface BrowseQuery {
  table: CdrTable;
  patientId?: number | undefined;
  keyword?: string | undefined;
  source?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  cursor?: number | undefined;
  size: number;
}

type AnyTable = PgTable & Record<string, PgColumn>;

/** Rows of one CDR table of the app, newest id first, keyset paged; identity masked unless `full`. */
export async function browseRows(
  db: Tx,
  appId: number,
  q: BrowseQuery,
  full: boolean,
): Promise<z.input<typeof cdrBrowserPage>> {
  const def = CDR_TABLES[q.table];
  const t = def.table as unknown as AnyTable;
  const kwCol = KEYWORD_COLUMN[q.table];
  const k = q.keyword?.trim();
  const where = and(
    eq(t.appId!, appId),
    q.patientId !== undefined && q.table !== 'patients' ? eq(t.patientId!, q.patientId) : undefined,
    q.patientId !== undefined && q.table === 'patients' ? eq(t.id!, q.patientId) : undefined,
    k && kwCol ? ilike(t[kwCol]!, `%${k.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
    q.source ? eq(t.source!, q.source) : undefined,
    q.from ? gte(def.time, new Date(q.from)) : undefined,
    q.to ? lte(def.time, new Date(q.to)) : undefined,
    q.cursor !== undefined ? lt(t.id!, q.cursor) : undefined,
  );
  const rows = (await db
    .select()
    .from(t)
    .where(where)
    .orderBy(desc(t.id!))
    .limit(q.size + 1)) as Array<Record<string, unknown>>;
  const more = rows.length > q.size;
  const page = more ? rows.slice(0, q.size) : rows;
  const items = page.map((r) => {
    if (q.table === 'patients') return patientView(r as typeof patients.$inferSelect, full);
    const { appId: _a, searchText: _s, ...rest } = r;
    return rest;
  });
  return { items, nextCursor: more ? String(page[page.length - 1]!.id) : null };
}

/** The columns of each table, for the CDR browser's header. */
export function tableCatalogue(): z.input<typeof cdrTableInfo>[] {
  return (Object.keys(CDR_TABLES) as CdrTable[]).map((key) => {
    const cols = Object.keys(getTableColumns(CDR_TABLES[key].table));
    return {
      key,
      label: CDR_TABLES[key].label,
      columns: cols.filter((c) => c !== 'appId' && c !== 'searchText'),
    };
  });
}

/** Row counts by table and source, and by table and month (last 24 months), for the overview. */
export async function overview(db: Tx, appId: number): Promise<z.input<typeof cdrOverview>> {
  const bySource: z.input<typeof cdrOverview>['bySource'] = [];
  const byMonth: z.input<typeof cdrOverview>['byMonth'] = [];
  for (const key of Object.keys(CDR_TABLES) as CdrTable[]) {
    const { table, time } = CDR_TABLES[key];
    const t = table as unknown as AnyTable;
    const s = await db
      .select({ source: t.source!, n: sql<number>`count(*)::int` })
      .from(t)
      .where(eq(t.appId!, appId))
      .groupBy(t.source!);
    for (const r of s) bySource.push({ table: key, source: String(r.source), n: Number(r.n) });
    const month = sql<string>`to_char(date_trunc('month', ${time}), 'YYYY-MM')`;
    const m = await db
      .select({ month, n: sql<number>`count(*)::int` })
      .from(t)
      .where(and(eq(t.appId!, appId), gte(time, sql`date_trunc('month', now()) - interval '23 months'`)))
      .groupBy(month)
      .orderBy(month);
    for (const r of m) byMonth.push({ table: key, month: r.month, n: Number(r.n) });
  }
  return { bySource, byMonth };
}
