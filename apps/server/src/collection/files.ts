import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CollectionSourceProbe } from '@crdp/core';
import { arr, type Json, obj, personName } from '../clinical/imports/fhir.js';
import { CsvParseError, parseCsv } from '../files/csv.js';
import { AppError, bilingual } from '../http/errors.js';
import type { After, Keyset, SourceReader } from './connectors.js';

/**
 * File sources: a folder of CSV files, or of FHIR R4 bundles, inside the server's
 * COLLECTION_FILES_ROOT. Each is read as tables, so templates, unit tests, tasks, watermarks and
 * reruns work on them exactly as on a database:
 * - CSV: one table per `*.csv` file (its name), one column per header cell, every value text
 *   (an empty cell is null). A header that is not a plain identifier (a Chinese one) is named
 *   `col_<n>`; the probe shows the header as written beside it.
 * - FHIR: one table per resource type found in `*.json` bundles (or single resources) and
 *   `*.ndjson` files, with the resource's values flattened into columns (`FHIR_COLUMNS`):
 *   references are the bare ids (`Patient/123`, `urn:uuid:123` → `123`), so a template joins a
 *   result to its patient by `subject` with the patient collected by `id`.
 * Rows come in keyset order (watermark, key), compared as numbers when both are numbers, so a
 * run resumes after the last committed row and a rerun reads only what is new.
 */

const MAX_FILE_BYTES = 256 * 1024 * 1024;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Row = Record<string, unknown>;
interface Table {
  columns: Array<{ name: string; type: string }>;
  rows: Row[];
}

const fail = (zh: string, en: string, status = 422) =>
  new AppError(status, 'request.invalid', { detail: bilingual(zh, en) });

/** The folder of a source, checked to lie inside the root (also after following links). */
export async function sourceFolder(root: string, folder: string): Promise<string> {
  const base = path.resolve(root);
  const dir = path.resolve(base, folder);
  const inside = (p: string, r: string) => p === r || p.startsWith(r + path.sep);
  if (!inside(dir, base))
    throw fail(
      '文件夹必须位于采集文件目录之内',
      'the folder must lie inside the collection files folder',
      400,
    );
  let real: string;
  try {
    real = await realpath(dir);
  } catch {
    throw fail(`采集文件目录中没有文件夹 ${folder}`, `the collection files folder has no folder ${folder}`);
  }
  const realBase = await realpath(base).catch(() => base);
  if (!inside(real, realBase))
    throw fail(
      '文件夹必须位于采集文件目录之内',
      'the folder must lie inside the collection files folder',
      400,
    );
  if (!(await stat(real)).isDirectory()) throw fail(`${folder} 不是文件夹`, `${folder} is not a folder`);
  return real;
}

/** A name made of letters, digits and _ (what templates may name), or `fallback`. */
function identifier(raw: string, fallback: string, taken: Set<string>): string {
  let name = raw.trim();
  if (!IDENT.test(name)) {
    const ascii = name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
    name = ascii && /[A-Za-z]/.test(ascii) ? (/^[0-9]/.test(ascii) ? `_${ascii}` : ascii) : fallback;
  }
  let out = name;
  for (let i = 2; taken.has(out.toLowerCase()); i++) out = `${name}_${i}`;
  taken.add(out.toLowerCase());
  return out;
}

async function filesOf(dir: string, exts: string[]) {
  const names = (await readdir(dir)).filter((n) => exts.some((e) => n.toLowerCase().endsWith(e))).sort();
  const out: Array<{ name: string; text: string }> = [];
  for (const n of names) {
    const file = path.join(dir, n);
    const st = await stat(file);
    if (!st.isFile()) continue;
    if (st.size > MAX_FILE_BYTES) throw fail(`文件 ${n} 超过 256 MB`, `file ${n} is larger than 256 MB`);
    out.push({ name: n, text: await readFile(file, 'utf8') });
  }
  return out;
}

// ------------------------------------------------------------------ CSV

async function csvTables(dir: string): Promise<Map<string, Table>> {
  const tables = new Map<string, Table>();
  const takenTables = new Set<string>();
  for (const f of await filesOf(dir, ['.csv'])) {
    let rows: string[][];
    try {
      rows = parseCsv(f.text);
    } catch (e) {
      if (!(e instanceof CsvParseError)) throw e;
      throw fail(
        `${f.name} 第 ${e.line} 行第 ${e.column} 列：${e.zh}`,
        `${f.name} line ${e.line}, column ${e.column}: ${e.en}`,
      );
    }
    const [header = [], ...body] = rows;
    const taken = new Set<string>();
    const names = header.map((h, i) => identifier(h, `col_${i + 1}`, taken));
    const table = identifier(f.name.replace(/\.csv$/i, ''), `file_${tables.size + 1}`, takenTables);
    tables.set(table, {
      columns: names.map((n, i) => ({
        name: n,
        type: n === header[i]!.trim() ? 'text' : `text · ${header[i]!.trim() || `#${i + 1}`}`,
      })),
      rows: body.map((cells) =>
        Object.fromEntries(
          names.map((n, i) => [n, cells[i] === undefined || cells[i] === '' ? null : cells[i]]),
        ),
      ),
    });
  }
  return tables;
}

// ------------------------------------------------------------------ FHIR

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** `Patient/12`, `urn:uuid:12`, `#12` → `12`. */
const refId = (v: unknown): string | null => {
  const r = str(obj(v).reference);
  return r ? (r.split(/[/:#]/).pop() ?? null) : null;
};
const coding = (cc: unknown) => obj(arr(obj(cc).coding)[0]);
const codeOf = (cc: unknown) => str(coding(cc).code);
const systemOf = (cc: unknown) => str(coding(cc).system);
const displayOf = (cc: unknown) => str(obj(cc).text) ?? str(coding(cc).display);
const period = (r: Json, key: string) => obj(r[key]);

function mrnOf(p: Json): string | null {
  const ids = arr(p.identifier).map(obj);
  const mr = ids.find((i) => arr(obj(i.type).coding).some((c) => obj(c).code === 'MR'));
  return str((mr ?? ids[0])?.value);
}
function telecom(p: Json, system: string): string | null {
  return str(
    arr(p.telecom)
      .map(obj)
      .find((t) => t.system === system)?.value,
  );
}
function addressOf(p: Json): string | null {
  const a = obj(arr(p.address)[0]);
  return (
    str(a.text) ??
    ([...arr(a.line).filter((l): l is string => typeof l === 'string'), str(a.city), str(a.state)]
      .filter(Boolean)
      .join(' ') ||
      null)
  );
}

type Flatten = (r: Json) => Row;
const common = (r: Json) => ({
  id: str(r.id),
  subject: refId(r.subject) ?? refId(r.patient),
  encounter: refId(r.encounter),
});

/** The columns of each resource type a FHIR folder offers (other types are not offered). */
export const FHIR_COLUMNS: Record<string, Flatten> = {
  Patient: (r) => ({
    id: str(r.id),
    mrn: mrnOf(r),
    name: personName(r) || null,
    gender: str(r.gender),
    birth_date: str(r.birthDate),
    deceased: str(r.deceasedDateTime),
    phone: telecom(r, 'phone'),
    address: addressOf(r),
  }),
  Encounter: (r) => ({
    ...common(r),
    class_code: str(obj(r.class).code),
    type: displayOf(arr(r.type)[0]),
    start: str(period(r, 'period').start),
    end: str(period(r, 'period').end),
    department: str(obj(r.serviceProvider).display),
    status: str(r.status),
  }),
  Condition: (r) => ({
    ...common(r),
    code_system: systemOf(r.code),
    code: codeOf(r.code),
    display: displayOf(r.code),
    onset: str(r.onsetDateTime) ?? str(period(r, 'onsetPeriod').start),
    recorded: str(r.recordedDate),
    clinical_status: codeOf(r.clinicalStatus),
  }),
  Observation: (r) => ({
    ...common(r),
    category: codeOf(arr(r.category)[0]),
    code_system: systemOf(r.code),
    code: codeOf(r.code),
    display: displayOf(r.code),
    value: num(obj(r.valueQuantity).value),
    value_text:
      str(r.valueString) ??
      displayOf(r.valueCodeableConcept) ??
      (num(obj(r.valueQuantity).value) === null ? null : String(num(obj(r.valueQuantity).value))),
    unit: str(obj(r.valueQuantity).unit) ?? str(obj(r.valueQuantity).code),
    effective: str(r.effectiveDateTime) ?? str(period(r, 'effectivePeriod').start) ?? str(r.issued),
    ref_low: num(obj(obj(arr(r.referenceRange)[0]).low).value),
    ref_high: num(obj(obj(arr(r.referenceRange)[0]).high).value),
    interpretation: codeOf(arr(r.interpretation)[0]),
    status: str(r.status),
  }),
  Procedure: (r) => ({
    ...common(r),
    code_system: systemOf(r.code),
    code: codeOf(r.code),
    display: displayOf(r.code),
    performed: str(r.performedDateTime) ?? str(period(r, 'performedPeriod').start),
    status: str(r.status),
  }),
  MedicationRequest: (r) => ({
    ...common(r),
    code: codeOf(r.medicationCodeableConcept),
    display: displayOf(r.medicationCodeableConcept),
    authored: str(r.authoredOn),
    dosage: str(obj(arr(r.dosageInstruction)[0]).text),
    status: str(r.status),
  }),
  AllergyIntolerance: (r) => ({
    ...common(r),
    code: codeOf(r.code),
    display: displayOf(r.code),
    recorded: str(r.recordedDate),
    criticality: str(r.criticality),
  }),
  DiagnosticReport: (r) => ({
    ...common(r),
    code: codeOf(r.code),
    display: displayOf(r.code),
    effective: str(r.effectiveDateTime) ?? str(r.issued),
    conclusion: str(r.conclusion),
  }),
};

function resourcesOf(name: string, text: string): Json[] {
  const parse = (t: string, line?: number) => {
    try {
      return JSON.parse(t) as unknown;
    } catch (e) {
      throw fail(
        `${name}${line ? ` 第 ${line} 行` : ''}不是有效的 JSON：${(e as Error).message}`,
        `${name}${line ? ` line ${line}` : ''} is not valid JSON: ${(e as Error).message}`,
      );
    }
  };
  const docs = name.toLowerCase().endsWith('.ndjson')
    ? text.split(/\r?\n/).flatMap((l, i) => (l.trim() ? [parse(l, i + 1)] : []))
    : [parse(text)];
  return docs.flatMap((d) => {
    const r = obj(d);
    return r.resourceType === 'Bundle' ? arr(r.entry).map((e) => obj(obj(e).resource)) : [r];
  });
}

async function fhirTables(dir: string): Promise<Map<string, Table>> {
  const rows = new Map<string, Row[]>();
  for (const f of await filesOf(dir, ['.json', '.ndjson']))
    for (const r of resourcesOf(f.name, f.text)) {
      const type = str(r.resourceType);
      const flat = type ? FHIR_COLUMNS[type] : undefined;
      if (!flat || !str(r.id)) continue;
      const list = rows.get(type!) ?? [];
      list.push(flat(r));
      rows.set(type!, list);
    }
  const tables = new Map<string, Table>();
  for (const [type, list] of rows) {
    const columns = Object.keys(list[0]!).map((name) => ({
      name,
      type: list.some((r) => typeof r[name] === 'number') ? 'number' : 'text',
    }));
    tables.set(type, { columns, rows: list });
  }
  return tables;
}

// ------------------------------------------------------------------ the reader

/** Numbers compare as numbers, other values as text; null first. */
function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  const x = Number(a);
  const y = Number(b);
  if (a !== '' && b !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y || 0;
  const s = String(a);
  const t = String(b);
  return s < t ? -1 : s > t ? 1 : 0;
}

export class FileReader implements SourceReader {
  private readonly sorted = new Map<string, Row[]>();

  private constructor(
    readonly version: string,
    private readonly tables: Map<string, Table>,
  ) {}

  static async open(kind: 'csv' | 'fhir', root: string, folder: string): Promise<FileReader> {
    const dir = await sourceFolder(root, folder);
    const tables = kind === 'csv' ? await csvTables(dir) : await fhirTables(dir);
    return new FileReader(kind === 'csv' ? `CSV · ${folder}` : `FHIR R4 · ${folder}`, tables);
  }

  async probe(): Promise<CollectionSourceProbe['tables']> {
    return [...this.tables].map(([name, t]) => ({ name, columns: t.columns }));
  }

  private table(name: string, columns: string[]) {
    const t = this.tables.get(name);
    if (!t) throw fail(`数据源中没有该表（${name}）`, `the source has no such table (${name})`);
    const missing = columns.find((c) => !t.columns.some((x) => x.name === c));
    if (missing)
      throw fail(`数据源的表中没有该列（${missing}）`, `the source table has no such column (${missing})`);
    return t;
  }

  private inOrder(name: string, ks: Keyset): Row[] {
    const id = `${name}\u0000${ks.watermark}\u0000${ks.key}`;
    let rows = this.sorted.get(id);
    if (!rows) {
      rows = [...this.table(name, [ks.watermark, ks.key].filter(Boolean)).rows].sort(
        (a, b) =>
          (ks.watermark ? compare(a[ks.watermark], b[ks.watermark]) : 0) || compare(a[ks.key], b[ks.key]),
      );
      this.sorted.set(id, rows);
    }
    return rows;
  }

  /** The index of the first row after `after` (rows are in keyset order). */
  private start(rows: Row[], ks: Keyset, after: After) {
    if (!after) return 0;
    const past = (r: Row) => {
      if (!ks.watermark) return compare(r[ks.key], after.key) > 0;
      const w = compare(r[ks.watermark], after.watermark);
      return w > 0 || (w === 0 && compare(r[ks.key], after.key) > 0);
    };
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (past(rows[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  async read(table: string, columns: string[], ks: Keyset, after: After, limit: number) {
    this.table(table, columns);
    const rows = this.inOrder(table, ks);
    const from = this.start(rows, ks, after);
    return rows
      .slice(from, from + Math.floor(limit))
      .map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));
  }

  async byKeys(table: string, columns: string[], key: string, keys: string[]) {
    const wanted = new Set(keys);
    return this.table(table, [...columns, key])
      .rows.filter((r) => wanted.has(String(r[key])))
      .sort((a, b) => compare(a[key], b[key]))
      .map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));
  }

  async count(table: string, ks: Keyset, after: After) {
    const rows = this.inOrder(table, ks);
    return rows.length - this.start(rows, ks, after);
  }

  async close() {}
}
