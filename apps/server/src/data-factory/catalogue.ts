import {
  type DataFactoryDataset,
  type DataFactoryDetail,
  type DataFactoryEntry,
  type DataFactoryField,
  type DataFactoryKind,
  type DataFactoryList,
  type dataFactoryEntryCreate,
  type dataFactoryEntryPatch,
  type ReportLastRun,
  reportDefinition,
  reportFieldKind,
} from '@crdp/core';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { auditTrail } from '../audit/audit.js';
import { appRowOf, deleteAppRow, ownedIds, updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { dataFactoryEntries } from '../db/schema/reports.js';
import { withAppScope } from '../db/scoped.js';
import type { SignedIn } from '../http/context.js';
import { AppError, bilingual, notFound } from '../http/errors.js';

/**
 * The data factory directory (数据工厂目录): the app's derived datasets, found from the objects
 * that make them, with their facts computed from the data (rows, patients covered, fields with
 * fill rates, last refreshed), and the curation people add over them (data_factory_entries).
 * The raw CDR tables are 目录浏览's (clinical/directory.ts); this is what the platform derives.
 */

type Entry = typeof dataFactoryEntries.$inferSelect;

interface Found {
  kind: DataFactoryKind;
  sourceId: number;
  name: string;
  owner: string | null;
  source: string;
  rows: number | null;
  patients: number | null;
  refreshedAt: string | null;
}

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(String(v)).toISOString());
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Every dataset of one kind in the app (or the one with `id`), with its rows and patients. */
async function discover(tx: Tx, appId: number, kind: DataFactoryKind, id?: number): Promise<Found[]> {
  const one = (col: SQL) => (id === undefined ? sql`` : sql` and ${col} = ${id}`);
  switch (kind) {
    case 't0Event': {
      const rows = rowsOf<Record<string, unknown>>(
        await tx.execute(sql`select e.id, e.name, u.user_name as owner, e.materialized_at,
            (select count(*)::int from t0_patients tp where tp.event_id = e.id and tp.app_id = e.app_id) as n
          from t0_events e left join users u on u.user_id = e.created_by
          where e.app_id = ${appId}${one(sql`e.id`)} order by e.id`),
      );
      return rows.map((r) => {
        const made = r.materialized_at !== null;
        return {
          kind,
          sourceId: Number(r.id),
          name: String(r.name),
          owner: (r.owner as string | null) ?? null,
          source: 't0_patients',
          rows: made ? Number(r.n) : null,
          patients: made ? Number(r.n) : null,
          refreshedAt: iso(r.materialized_at),
        };
      });
    }
    case 'diseaseLibrary': {
      const rows = rowsOf<Record<string, unknown>>(
        await tx.execute(sql`select l.id, l.name, u.user_name as owner,
            greatest(l.last_push_at, l.last_fill_at) as refreshed,
            (select count(*)::int from disease_library_patients dp where dp.library_id = l.id and dp.app_id = l.app_id) as n,
            (select count(distinct dp.patient_id)::int from disease_library_patients dp where dp.library_id = l.id and dp.app_id = l.app_id) as patients
          from disease_libraries l left join users u on u.user_id = l.created_by
          where l.app_id = ${appId} and l.deleted_at is null${one(sql`l.id`)} order by l.id`),
      );
      return rows.map((r) => ({
        kind,
        sourceId: Number(r.id),
        name: String(r.name),
        owner: (r.owner as string | null) ?? null,
        source: 'disease_library_patients',
        rows: Number(r.n),
        patients: Number(r.patients),
        refreshedAt: iso(r.refreshed),
      }));
    }
    case 'researchDataset': {
      const rows = rowsOf<Record<string, unknown>>(
        await tx.execute(sql`select d.id, s.name as subject, d.name, u.user_name as owner, d.status, d.row_count, d.built_at
          from research_datasets d join research_subjects s on s.id = d.subject_id and s.app_id = d.app_id
          left join users u on u.user_id = d.created_by
          where d.app_id = ${appId}${one(sql`d.id`)} order by d.id`),
      );
      return rows.map((r) => {
        const ready = r.status === 'ready';
        return {
          kind,
          sourceId: Number(r.id),
          name: `${String(r.subject)} · ${String(r.name)}`,
          owner: (r.owner as string | null) ?? null,
          source: 'research_datasets.rows',
          // One row per enrolled patient.
          rows: ready ? Number(r.row_count) : null,
          patients: ready ? Number(r.row_count) : null,
          refreshedAt: iso(r.built_at),
        };
      });
    }
    case 'report': {
      const rows = rowsOf<Record<string, unknown>>(
        await tx.execute(sql`select r.id, r.name, u.user_name as owner, r.definition, r.last_run
          from reports r left join users u on u.user_id = r.created_by
          where r.app_id = ${appId}${one(sql`r.id`)} order by r.id`),
      );
      return rows.map((r) => {
        const last = parseJson<ReportLastRun | null>(r.last_run);
        const def = reportDefinition.safeParse(parseJson(r.definition));
        return {
          kind,
          sourceId: Number(r.id),
          name: String(r.name),
          owner: (r.owner as string | null) ?? null,
          source: `reports:${def.success ? def.data.source : ''}`,
          rows: last ? num(last.rows) : null,
          patients: last ? num(last.patients) : null,
          refreshedAt: last ? iso(last.at) : null,
        };
      });
    }
  }
}

function parseJson<T>(v: unknown): T {
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
}

const entryView = (e: Entry | undefined) =>
  e
    ? {
        id: e.id,
        description: e.description,
        tags: e.tags,
        steward: e.steward,
        updatedAt: e.updatedAt.toISOString(),
      }
    : null;

/** The entry with the dataset it is over, as the API answers it. */
const entryFull = (e: Entry): DataFactoryEntry => ({
  kind: e.kind as DataFactoryKind,
  sourceId: e.sourceId,
  ...entryView(e)!,
});

const KINDS: DataFactoryKind[] = ['t0Event', 'diseaseLibrary', 'researchDataset', 'report'];

/** Every derived dataset of the app with its curation; filtered by kind and a word of its name, description or tags. */
export async function listDatasets(
  db: Db,
  appId: number,
  q: { kind?: DataFactoryKind | undefined; keyword?: string | undefined },
): Promise<DataFactoryList> {
  return withAppScope(db, appId, async (tx) => {
    const entries = await tx.select().from(dataFactoryEntries).where(eq(dataFactoryEntries.appId, appId));
    const byKey = new Map(entries.map((e) => [`${e.kind}:${e.sourceId}`, e]));
    const items: DataFactoryDataset[] = [];
    for (const kind of q.kind ? [q.kind] : KINDS)
      for (const f of await discover(tx, appId, kind))
        items.push({ ...f, entry: entryView(byKey.get(`${kind}:${f.sourceId}`)) });
    const word = q.keyword?.toLowerCase();
    return {
      items: word
        ? items.filter((i) =>
            [
              i.name,
              i.entry?.description ?? '',
              ...(i.entry?.tags ?? []),
              i.entry?.steward ?? '',
              i.owner ?? '',
            ]
              .join('\n')
              .toLowerCase()
              .includes(word),
          )
        : items,
    };
  });
}

async function foundOf(tx: Tx, appId: number, kind: DataFactoryKind, id: number): Promise<Found> {
  const [f] = await discover(tx, appId, kind, id);
  if (!f) throw notFound('data_factory_dataset');
  return f;
}

/** Filled rows per field of a table's rows picked by `where` (the directory's count-filter pass). */
async function fillCounts(
  tx: Tx,
  from: SQL,
  fields: Array<{ key: string; label: string; kind: DataFactoryField['kind']; column: string }>,
): Promise<DataFactoryField[]> {
  const parts = sql.join(
    fields.map((f, i) => {
      const c = sql.identifier(f.column);
      const filled =
        f.kind === 'text'
          ? sql`${c} is not null and ${c} <> ''`
          : f.kind === 'json'
            ? sql`${c} is not null and ${c}::text not in ('[]', '{}', 'null', '""')`
            : sql`${c} is not null`;
      return sql`count(*) filter (where ${filled})::int as ${sql.identifier(`f${i}`)}`;
    }),
    sql`, `,
  );
  const [row] = rowsOf<Record<string, number>>(await tx.execute(sql`select ${parts} ${from}`));
  return fields.map((f, i) => ({
    key: f.key,
    label: f.label,
    kind: f.kind,
    filled: Number(row?.[`f${i}`] ?? 0),
  }));
}

/** Fields of a dataset and how many of its rows fill each. */
async function fieldsOf(tx: Tx, appId: number, f: Found): Promise<DataFactoryField[]> {
  switch (f.kind) {
    case 't0Event':
      return fillCounts(tx, sql`from t0_patients where event_id = ${f.sourceId} and app_id = ${appId}`, [
        { key: 'patientId', label: '', kind: 'id', column: 'patient_id' },
        { key: 't0', label: '', kind: 'date', column: 't0' },
        { key: 'sourceTable', label: '', kind: 'text', column: 'source_table' },
        { key: 'sourceId', label: '', kind: 'id', column: 'source_id' },
      ]);
    case 'diseaseLibrary':
      return fillCounts(
        tx,
        sql`from disease_library_patients where library_id = ${f.sourceId} and app_id = ${appId}`,
        [
          { key: 'patientId', label: '', kind: 'id', column: 'patient_id' },
          { key: 'recordId', label: '', kind: 'id', column: 'record_id' },
          { key: 'filingDate', label: '', kind: 'date', column: 'filing_date' },
          { key: 'reason', label: '', kind: 'json', column: 'reason' },
          { key: 'addedAt', label: '', kind: 'date', column: 'added_at' },
        ],
      );
    case 'researchDataset': {
      const [d] = rowsOf<{ columns: unknown }>(
        await tx.execute(
          sql`select columns from research_datasets where id = ${f.sourceId} and app_id = ${appId}`,
        ),
      );
      const columns = parseJson<Array<{ key: string; label?: string; type?: string }>>(d?.columns ?? []);
      if (!columns.length) return [];
      const parts = sql.join(
        columns.map(
          (c, i) =>
            sql`count(*) filter (where coalesce(x ->> ${c.key}, '') <> '')::int as ${sql.identifier(`f${i}`)}`,
        ),
        sql`, `,
      );
      const [row] = rowsOf<Record<string, number>>(
        await tx.execute(sql`select ${parts} from research_datasets d, jsonb_array_elements(d.rows) x
          where d.id = ${f.sourceId} and d.app_id = ${appId}`),
      );
      return columns.map((c, i) => ({
        key: c.key,
        label: c.label ?? '',
        kind: c.type === 'number' ? 'number' : c.type === 'date' ? 'date' : 'text',
        filled: Number(row?.[`f${i}`] ?? 0),
      }));
    }
    case 'report': {
      const [r] = rowsOf<{ definition: unknown; last_run: unknown }>(
        await tx.execute(
          sql`select definition, last_run from reports where id = ${f.sourceId} and app_id = ${appId}`,
        ),
      );
      const def = reportDefinition.safeParse(parseJson(r?.definition));
      const last = parseJson<ReportLastRun | null>(r?.last_run ?? null);
      if (!def.success) return [];
      return def.data.columns.map((ref) => {
        const kind = reportFieldKind(def.data.source, ref);
        return {
          key: ref,
          label: '',
          kind: kind === 'number' || kind === 'date' ? kind : 'text',
          filled: Number(last?.filled?.[ref] ?? 0),
        };
      });
    }
  }
}

/** One dataset with its fields' fill rates. */
export async function datasetDetail(
  db: Db,
  appId: number,
  kind: DataFactoryKind,
  id: number,
): Promise<DataFactoryDetail> {
  return withAppScope(db, appId, async (tx) => {
    const f = await foundOf(tx, appId, kind, id);
    const [e] = await tx
      .select()
      .from(dataFactoryEntries)
      .where(
        and(
          eq(dataFactoryEntries.appId, appId),
          eq(dataFactoryEntries.kind, kind),
          eq(dataFactoryEntries.sourceId, id),
        ),
      );
    return { ...f, entry: entryView(e), fields: await fieldsOf(tx, appId, f) };
  });
}

export const entryOf: (db: Tx, appId: number, id: number) => Promise<Entry> = appRowOf(
  dataFactoryEntries,
  'data_factory_entry',
);

export const entriesOf = ownedIds(dataFactoryEntries);
const trail = auditTrail('data_factory_entry', 'dataFactory');

export const datasetsOf = async (db: Db, appId: number) => {
  const out: Array<{ kind: string; id: number }> = [];
  await withAppScope(db, appId, async (tx) => {
    for (const kind of KINDS)
      for (const f of await discover(tx, appId, kind)) out.push({ kind, id: f.sourceId });
  });
  return out;
};

/** Curates a discovered dataset: one entry per dataset. */
export async function addEntry(ctx: SignedIn, input: z.output<typeof dataFactoryEntryCreate>) {
  return ctx.db.transaction(async (tx) => {
    await foundOf(tx, ctx.appId, input.kind, input.sourceId);
    const [taken] = await tx
      .select({ id: dataFactoryEntries.id })
      .from(dataFactoryEntries)
      .where(
        and(
          eq(dataFactoryEntries.appId, ctx.appId),
          eq(dataFactoryEntries.kind, input.kind),
          eq(dataFactoryEntries.sourceId, input.sourceId),
        ),
      );
    if (taken)
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(
          'sourceId: 这个数据集已有目录条目，请编辑它',
          'sourceId: this dataset has an entry already; edit it',
        ),
      });
    const [row] = await tx
      .insert(dataFactoryEntries)
      .values({ appId: ctx.appId, ...input, createdBy: ctx.userId })
      .returning();
    const after = entryFull(row!);
    return trail.added(tx, ctx, row!.id, after);
  });
}

export async function editEntry(ctx: SignedIn, id: number, input: z.output<typeof dataFactoryEntryPatch>) {
  return ctx.db.transaction(async (tx) => {
    const before = await entryOf(tx, ctx.appId, id);
    const row = await updateAppRow(tx, dataFactoryEntries, ctx.appId, id, {
      ...input,
      updatedAt: new Date(),
    });
    const after = entryFull(row);
    return trail.edited(tx, ctx, id, entryFull(before), after);
  });
}

export async function deleteEntry(ctx: SignedIn, id: number): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    const before = await entryOf(tx, ctx.appId, id);
    await deleteAppRow(tx, dataFactoryEntries, ctx.appId, id);
    await trail.deleted(tx, ctx, id, entryFull(before));
    return true as const;
  });
}
