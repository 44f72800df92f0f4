import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CsvParseError, parseCsv } from '../../files/csv.js';
import { patientInput, RECORD_TABLES, type RecordTable, recordInputs, str } from '../records.js';
import { firstIssue, type MappedImport, refused } from './mapped.js';

export const CSV_TARGETS = ['patients', ...RECORD_TABLES.filter((t) => t !== 'visits')] as const;
export type CsvTarget = (typeof CSV_TARGETS)[number];

const NUMERIC = new Set(['gender', 'valueNum', 'refLow', 'refHigh']);

export const csvImportInput = z.object({
  fileName: str(200, 1),
  table: z.enum(CSV_TARGETS),
  /** Target field -> CSV column header. Rows of tables other than patients need `mrn`. */
  mapping: z.record(str(40, 1), str(100, 1)),
  text: z.string().min(1).max(20_000_000),
});
export type CsvImportInput = z.infer<typeof csvImportInput>;

/** The fields the user may map for a target (the column mapping form's choices). */
export function csvFields(table: CsvTarget): string[] {
  const shape =
    table === 'patients' ? patientInput.shape : (recordInputs[table] as unknown as { shape?: object }).shape;
  const own = Object.keys(
    shape ??
      (recordInputs[table as RecordTable] as unknown as { _def: { schema?: { shape: object } } })._def.schema
        ?.shape ??
      {},
  ).filter((f) => f !== 'visitId' && f !== 'contacts');
  return table === 'patients' ? own : ['mrn', 'sourceId', ...own];
}

/**
 * CSV + mapping -> rows. Patients are keyed by medical record number; other rows by the mapped
 * `sourceId` column, else by a hash of their content, so importing the same file twice
 * updates instead of duplicating.
 */
export function mapCsv(input: CsvImportInput): MappedImport {
  let rows: string[][];
  try {
    rows = parseCsv(input.text);
  } catch (e) {
    if (!(e instanceof CsvParseError)) throw e;
    // An unreadable file imports nothing: one refusal naming the line and column.
    const where = refused(
      'text',
      `第 ${e.line} 行第 ${e.column} 列：${e.zh}`,
      `line ${e.line}, column ${e.column}: ${e.en}`,
    );
    return { total: 0, skipped: 0, patients: [], records: [], errors: [{ row: 0, ...where }] };
  }
  const header = (rows[0] ?? []).map((h) => h.trim());
  const out: MappedImport = {
    total: Math.max(0, rows.length - 1),
    skipped: 0,
    patients: [],
    records: [],
    errors: [],
  };
  const col = new Map<string, number>();
  for (const [field, column] of Object.entries(input.mapping)) {
    const at = header.indexOf(column.trim());
    if (at < 0) {
      out.errors.push({
        row: 0,
        ...refused(`mapping.${field}`, `没有名为 ${column} 的列`, `no column named ${column}`),
      });
      return out;
    }
    col.set(field, at);
  }
  if (input.table !== 'patients' && !col.has('mrn')) {
    out.errors.push({
      row: 0,
      ...refused('mapping.mrn', '请映射病历号所在的列', 'map the medical record number column'),
    });
    return out;
  }
  rows.slice(1).forEach((cells, i) => {
    const row = i + 1;
    const values: Record<string, unknown> = {};
    for (const [field, at] of col) {
      const raw = (cells[at] ?? '').trim();
      if (raw === '') continue;
      values[field] = NUMERIC.has(field) && raw !== '' && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
    }
    if (input.table === 'patients') {
      const parsed = patientInput.safeParse(values);
      if (!parsed.success) out.errors.push({ row, ...firstIssue(parsed.error.issues, values) });
      else out.patients.push({ sourceId: parsed.data.mrn, row, input: parsed.data });
      return;
    }
    const { mrn, sourceId, ...rest } = values;
    if (typeof mrn !== 'string' || !mrn) {
      out.errors.push({ row, ...refused('mrn', '病历号为空', 'medical record number is empty') });
      return;
    }
    const table = input.table as RecordTable;
    const parsed = recordInputs[table].safeParse(rest);
    if (!parsed.success) {
      out.errors.push({ row, ...firstIssue(parsed.error.issues, rest) });
      return;
    }
    const key =
      typeof sourceId === 'string' && sourceId
        ? sourceId
        : createHash('sha1')
            .update(JSON.stringify([table, mrn, rest]))
            .digest('hex');
    out.records.push({ table, sourceId: key, row, patient: { mrn }, input: parsed.data as never });
  });
  return out;
}
