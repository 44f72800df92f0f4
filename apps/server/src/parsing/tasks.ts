import type { Form, ImportedRecord, RedcapCounts } from '@crdp/crf';
import type { CsvImportInput } from '../clinical/imports/csv.js';
import type { MappedImport } from '../clinical/imports/mapped.js';
import type { MessageValue } from '../http/errors.js';

/** What the parse worker can do: every parse of an uploaded file, keyed by kind. */
export type ParseTask =
  | { kind: 'crf.odm'; text: string; formOid?: string | undefined }
  | { kind: 'crf.odm.study'; text: string }
  /** The records of one FormDef in an ODM file's ClinicalData, for the form imported from it. */
  | { kind: 'crf.odm.data'; text: string; form: Form; formOid?: string | undefined }
  /** The records of a REDCap records CSV export, for the form imported from the project's dictionary. */
  | { kind: 'crf.redcap.data'; text: string; form: Form }
  | { kind: 'crf.redcap'; text: string }
  | { kind: 'crf.json'; text: string }
  /** RFC 4180 rows (`files/csv.ts`); an unreadable file is a 400 on `field` naming line and column. */
  | { kind: 'csv.rows'; text: string; field: string }
  | { kind: 'cdr.csv'; input: CsvImportInput }
  | { kind: 'cdr.fhir'; bundle: unknown };

/** The answer of each kind of task. */
export interface ParseResults {
  'crf.odm': { form: Form; unsupported: string[] };
  'crf.odm.study': {
    study: string;
    forms: { formOid: string; name: string; form: Form; unsupported: string[] }[];
    skipped: string[];
  };
  'crf.odm.data': { formOid: string; records: ImportedRecord[]; faults: string[] };
  'crf.redcap.data': { records: ImportedRecord[]; faults: string[]; notes: string[] };
  'crf.redcap': { form: Form; unsupported: string[]; counts: RedcapCounts };
  'crf.json': unknown;
  'csv.rows': string[][];
  'cdr.csv': MappedImport;
  'cdr.fhir': MappedImport;
}

/** A typed refusal as plain data (it crosses the thread boundary by structured clone). */
export interface ParseRefusal {
  status: number;
  key: string;
  values: Record<string, MessageValue>;
  field: string | undefined;
}

export type ParseOutcome = { ok: true; value: unknown } | { ok: false; error: ParseRefusal };
