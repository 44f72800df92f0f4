import { type SQL, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import * as schema from '../db/schema/index.js';
import { csvLines, csvText } from '../files/csv.js';
import { streamZip, type ZipEntry } from '../files/zip.js';

/**
 * The export of one app's (hospital's) own data: every table that carries `app_id`, only this
 * app's rows, one CSV file per table in a ZIP, with a manifest. Tables are found from the schema,
 * so a new area's tables are exported without anyone remembering to add them. Left out: the
 * credentials (session, free-access key and sign-in hand-off code hashes), which would let a reader act as a user.
 * Whole-site backups (every app, for restoring the server) are the operator's command line
 * (`npm run backup`, `pg_dump`): no app's administrator may download other apps' data.
 */
const LEFT_OUT = new Set(['sessions', 'free_access_keys', 'session_handoffs']);
/**
 * Columns left out of tables that are exported: the sealed passwords of collection sources (a
 * reader with the server's key could open them; the hospital re-enters them after a restore).
 */
const LEFT_OUT_COLUMNS: Record<string, readonly string[]> = { collection_sources: ['secret'] };
/** The tables left out, in name order (the manifest and the database screen say which). */
export const leftOutTables = () => [...LEFT_OUT].sort();

export interface ExportTable {
  name: string;
  columns: string[];
  /** Primary-key columns: rows are read in their order, a batch at a time (keyset, not OFFSET). */
  key: string[];
}

let tables: ExportTable[] | null = null;

/** The tables of the schema that hold app-scoped rows, in name order. */
export function exportTables(): ExportTable[] {
  if (tables) return tables;
  const found: ExportTable[] = [];
  for (const value of Object.values(schema)) {
    if (!(value instanceof PgTable)) continue;
    const config = getTableConfig(value);
    const columns = config.columns
      .map((c) => c.name)
      .filter((c) => !LEFT_OUT_COLUMNS[config.name]?.includes(c));
    if (!columns.includes('app_id') || LEFT_OUT.has(config.name)) continue;
    const single = config.columns.filter((c) => c.primary).map((c) => c.name);
    const composite = config.primaryKeys[0]?.columns.map((c) => c.name) ?? [];
    const key = single.length ? single : composite.length ? composite : columns;
    found.push({ name: config.name, columns, key });
  }
  tables = found.sort((a, b) => a.name.localeCompare(b.name));
  return tables;
}

const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);

/** Row counts of this app's rows per table. */
export async function tableCounts(db: Db, appId: number) {
  const out: Array<{ name: string; rows: number }> = [];
  for (const t of exportTables()) {
    const [row] = rowsOf<{ n: number | string }>(
      await db.execute(sql`select count(*) as n from ${ident(t.name)} where app_id = ${appId}`),
    );
    out.push({ name: t.name, rows: Number(row?.n ?? 0) });
  }
  return out;
}

// Values are exact (no spreadsheet formula guard): the files are for loading into a database.
// Timestamps are ISO 8601 (UTC), JSON columns JSON, null an empty cell (`files/csv.ts`).
const exact = { formulaGuard: false } as const;

/** One table's CSV: header, then this app's rows in key order, read a batch at a time. */
async function* tableCsv(db: Db, appId: number, t: ExportTable, counted: Map<string, number>, batch: number) {
  yield csvText([t.columns], exact);
  const keyCols = sql.join(
    t.key.map((k) => ident(k)),
    sql`, `,
  );
  let after: unknown[] | null = null;
  let n = 0;
  for (;;) {
    const where: SQL = after
      ? sql`app_id = ${appId} and (${keyCols}) > (${sql.join(
          after.map((v) => sql`${v}`),
          sql`, `,
        )})`
      : sql`app_id = ${appId}`;
    const rows = rowsOf<Record<string, unknown>>(
      await db.execute(
        sql`select ${sql.join(
          t.columns.map((c) => ident(c)),
          sql`, `,
        )} from ${ident(t.name)} where ${where} order by ${keyCols} limit ${batch}`,
      ),
    );
    if (!rows.length) break;
    n += rows.length;
    yield csvLines(
      rows.map((r) => t.columns.map((c) => r[c])),
      exact,
    );
    const last = rows[rows.length - 1]!;
    after = t.key.map((k) => last[k]);
    if (rows.length < batch) break;
  }
  counted.set(t.name, n);
}

export interface ExportManifest {
  format: 'crdp-app-export';
  version: 1;
  app: { id: number; name: string };
  exportedAt: string;
  exportedBy: string;
  tables: Array<{ name: string; file: string; rows: number; columns: string[] }>;
  leftOut: string[];
  note: string;
}

/**
 * The ZIP: `<table>.csv` for each table (UTF-8 with BOM, CRLF), then `manifest.json` with the
 * row count of each file as written. Tables are read one after another, not in one snapshot:
 * rows written during the export may be in it or not; for a consistent copy of the whole site,
 * the operator's backup is the tool.
 */
export function appExport(
  db: Db,
  app: { id: number; name: string },
  by: string,
  { now = new Date(), batch = 1000 }: { now?: Date; batch?: number } = {},
): AsyncGenerator<Buffer> {
  const counted = new Map<string, number>();
  const list = exportTables();
  const entries: ZipEntry[] = list.map((t) => ({
    name: `${t.name}.csv`,
    content: tableCsv(db, app.id, t, counted, batch),
  }));
  entries.push({
    name: 'manifest.json',
    // Written last, when every table has been read: its counts are those of the files.
    content: (async function* () {
      const manifest: ExportManifest = {
        format: 'crdp-app-export',
        version: 1,
        app,
        exportedAt: now.toISOString(),
        exportedBy: by,
        tables: list.map((t) => ({
          name: t.name,
          file: `${t.name}.csv`,
          rows: counted.get(t.name) ?? 0,
          columns: t.columns,
        })),
        leftOut: leftOutTables(),
        note: 'Rows of this app only. Tables were read one after another (not one snapshot). Session and access-key hashes are left out.',
      };
      yield JSON.stringify(manifest, null, 2);
    })(),
  });
  return streamZip(entries, { mtime: now });
}
