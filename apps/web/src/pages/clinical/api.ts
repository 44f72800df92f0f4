import { rest } from '../../api/client';

/** Calls of the clinical data repository: patient 360, imports, the CDR browser and the search. */
export interface Patient {
  id: number;
  mrn: string;
  name: string;
  gender: number;
  birthDate: string | null;
  nationalId: string;
  phone: string;
  address: string;
  source: string;
  createdAt: string;
  identityMasked: boolean;
}
export type Row = Record<string, unknown> & { id: number };
export interface Paged<T = Row> {
  items: T[];
  total: number;
  page: number;
  size: number;
}
export interface Visit extends Row {
  kind: 'outpatient' | 'inpatient' | 'emergency';
  department: string;
  admitAt: string;
  dischargeAt: string | null;
}
export interface Person {
  patient: Patient;
  visits: Visit[];
  diagnoses: Row[];
  allergies: Row[];
  counts: Record<string, number>;
}
export interface LabItem {
  itemCode: string;
  itemName: string;
  unit: string;
  n: number;
  abnormal: number;
  refLow: number | null;
  refHigh: number | null;
}
export interface VitalPoint {
  _id: number;
  Item_name: string;
  value: string;
  Item_unit: string;
  Record_dt: string;
}
export interface ImportRecord {
  id: number;
  jobId: number | null;
  format: 'fhir' | 'csv';
  fileName: string;
  status: 'queued' | 'running' | 'succeeded' | 'partial' | 'failed' | 'cancelled';
  total: number;
  succeeded: number;
  failed: number;
  counts: Record<string, number>;
  errorCount?: number;
  errors?: Array<{ row: number; field: string; message: string; ref?: string }>;
  progress?: number;
  createdAt: string;
  finishedAt: string | null;
}
export interface Segment {
  text: string;
  hit: boolean;
}
export interface SearchHit extends Patient {
  documents: Array<{
    documentId: number;
    kind: string;
    title: string;
    writtenAt: string;
    snippet: Segment[];
  }>;
  diagnoses: string[];
  labs: Array<{ itemCode: string; itemName: string; valueNum: number; unit: string; collectedAt: string }>;
}
export interface SearchConditions {
  diagnosis?: string;
  labs?: Array<{ itemCode: string; min?: number; max?: number }>;
  dateFrom?: string;
  dateTo?: string;
  gender?: number;
  ageMin?: number;
  ageMax?: number;
  text?: string;
}

type Q = Record<string, string | number | boolean | undefined>;
const page = (q: { page?: number; size?: number } = {}) => ({ page: q.page ?? 1, size: q.size ?? 20 });

export const patient360 = {
  search: (q: { keyword?: string; gender?: number; cursor?: string; size?: number }) =>
    rest<{ items: Patient[]; nextCursor: string | null }>({ url: '360', params: q }),
  person: (id: number) => rest<Person>({ url: `360/person/${id}` }),
  list: (
    kind:
      | 'visits'
      | 'diagnoses'
      | 'allergies'
      | 'examinelist'
      | 'operationlist'
      | 'physicalexams'
      | 'documents',
    id: number,
    q?: { page?: number; size?: number },
  ) => rest<Paged>({ url: `360/${kind}/${id}`, params: page(q) }),
  labs: (id: number, q: { itemCode?: string; abnormalOnly?: boolean; page?: number; size?: number }) =>
    rest<Paged & { labItems: LabItem[] }>({
      url: `360/measurementlist/${id}`,
      params: { ...page(q), itemCode: q.itemCode, abnormalOnly: q.abnormalOnly ? 'true' : undefined },
    }),
  drugs: (patientId: number, q: { category?: 'drug' | 'other'; page?: number; size?: number }) =>
    rest<Paged>({ url: '360/druglist', params: { ...page(q), patientId, category: q.category } }),
  examReport: (id: number) => rest<Row>({ url: `360/examinereport/${id}` }),
  vitalSigns: (id: number, visitId?: number) =>
    rest<{ visit: Visit | null; points: VitalPoint[] }>({ url: `360/vitalsigns/${id}`, params: { visitId } }),
};

export const imports = {
  list: (q: { page: number; size: number }) => rest<Paged<ImportRecord>>({ url: 'imports', params: q }),
  get: (id: number) => rest<ImportRecord>({ url: `imports/${id}` }),
  fhir: (fileName: string, bundle: unknown) =>
    rest<ImportRecord>({ url: 'imports/fhir', method: 'POST', data: { fileName, bundle }, silent: true }),
  csv: (body: { fileName: string; table: string; mapping: Record<string, string>; text: string }) =>
    rest<ImportRecord>({ url: 'imports/csv', method: 'POST', data: body, silent: true }),
  csvFields: () => rest<Record<string, string[]>>({ url: 'imports/csv-fields' }),
  rerun: (id: number) => rest<ImportRecord>({ url: `imports/${id}/rerun`, method: 'POST', data: {} }),
  synthetic: (patients: number, seed: number) =>
    rest<{ id: number }>({ url: 'cdr/synthetic', method: 'POST', data: { patients, seed } }),
};

export const cdr = {
  tables: () =>
    rest<Array<{ key: string; label: Record<string, string>; columns: string[] }>>({ url: 'cdr/tables' }),
  rows: (q: Q) => rest<{ items: Row[]; nextCursor: string | null }>({ url: 'cdr/rows', params: q }),
  overview: () =>
    rest<{
      bySource: Array<{ table: string; source: string; n: number }>;
      byMonth: Array<{ table: string; month: string; n: number }>;
    }>({ url: 'cdr/overview' }),
};

export const fullText = {
  search: (c: SearchConditions & { cursor?: number; size?: number }) =>
    rest<{ items: SearchHit[]; total: number | null; nextCursor: string | null; terms: string[] }>({
      url: 'fulltext/search',
      method: 'POST',
      data: c,
      silent: true,
    }),
  exportUrl: 'fulltext/export',
};
