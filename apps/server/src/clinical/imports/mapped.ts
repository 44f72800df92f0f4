import type { PatientInput, RecordInput, RecordTable } from '../records.js';

/** A row an import refused, and why. `row` counts from 1 (CSV line after the header, bundle entry). */
export interface RowError {
  row: number;
  field: string;
  message: string;
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
}

/** What a file becomes before anything is written: validated rows and refused ones. */
export interface MappedImport {
  total: number;
  skipped: number;
  patients: MappedPatient[];
  records: MappedRecord[];
  errors: RowError[];
}

/** The first problem of a failed zod parse, as a field path and a message. */
export function firstIssue(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) {
  const i = issues[0];
  return { field: i ? i.path.map(String).join('.') : '', message: i?.message ?? 'invalid' };
}
