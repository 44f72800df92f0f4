import type { CdrCoding, Locale } from '@crdp/core';
import { type Bilingual, bilingual } from '../../http/errors.js';
import { validationText, valueAt } from '../../http/validation-messages.js';
import type { PatientInput, RecordInput, RecordTable } from '../records.js';

/**
 * A row an import refused, and why. `row` counts from 1 (CSV line after the header, bundle entry).
 * `message` is English (what older reports kept); `text` words it in both languages.
 */
export interface RowError {
  row: number;
  field: string;
  message: string;
  text?: Bilingual;
  /** e.g. Observation/123, for FHIR. */
  ref?: string;
}

export interface MappedPatient {
  sourceId: string;
  row: number;
  input: PatientInput;
}

export interface MappedRecord<T extends RecordTable = RecordTable> {
  table: T;
  sourceId: string;
  row: number;
  /** The patient's source id in this import, or its medical record number (CSV). */
  patient: { sourceId: string } | { mrn: string };
  /** The visit's source id in this import, when the row belongs to one. */
  visitSourceId?: string;
  input: RecordInput<T>;
  /** Every coding of the source's coded field (FHIR), for the tables that keep them (CODED_TABLES). */
  codings?: CdrCoding[];
}

/** What a file becomes before anything is written: validated rows and refused ones. */
export interface MappedImport {
  total: number;
  skipped: number;
  patients: MappedPatient[];
  records: MappedRecord[];
  errors: RowError[];
}

/** Why a row was refused, in both languages (Chinese first). */
export const refused = (field: string, zh: string, en: string) => ({
  field,
  message: en,
  text: bilingual(zh, en),
});

/** The first problem of a failed zod parse, as a field path and a message in both languages. */
export function firstIssue(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string; code?: string }>,
  input?: unknown,
) {
  const i = issues[0];
  if (!i) return refused('', '无效', 'invalid');
  const path = i.path.map(String);
  const { path: _p, message: _m, code: _c, ...params } = i as Record<string, unknown>;
  const zh = validationText(
    { keyword: String(i.code ?? ''), message: i.message, params },
    'zh-CN',
    valueAt(input, path),
  );
  return refused(path.join('.'), zh, i.message);
}

/** A refused row as the API shows it: its message in the reader's language (older rows keep their English). */
export const rowErrorIn = (e: RowError, locale: Locale) => {
  const { text, ...rest } = e;
  return { ...rest, message: text?.[locale] ?? e.message };
};
