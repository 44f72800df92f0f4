import type { Form } from '@crdp/crf';
import { rest } from '../../api/client';

/** Calls of the disease-library pages (apps/server/src/disease-library/routes.ts). */
export interface Library {
  id: number;
  name: string;
  description: string;
  diseaseName: string | null;
  crfFormName: string | null;
  filingRule: string;
  status: string;
  patients: number;
  lastPushAt: string | null;
  lastFillAt: string | null;
}
export interface PatientListRequest {
  library_id: number;
  page: number;
  size: number;
  filters: Record<string, unknown>;
}
export interface PatientEntry {
  id: number;
  patient_id: number;
  Patient_name: string;
  Filing_date: string;
  mrn: string;
  gender: number;
  first_visit: string | null;
  reason: string[];
  completeness: number | null;
}
export interface PatientPage {
  total: number;
  page: number;
  size: number;
  items: PatientEntry[];
}
export interface LibraryPatient {
  libraryName: string;
  patient: { id: number; name: string; mrn: string };
  firstVisit: string | null;
  filingDate: string;
  reason: string[];
  itemMethods: Record<string, string>;
  record: {
    id: number;
    revision: number;
    status: string;
    answers: Record<string, unknown>;
    methods: Record<string, string>;
  } | null;
  definition: Form | null;
}
export interface Job {
  id: number;
  status: string;
  progress: number;
  result: Record<string, unknown> | null;
  error: string | null;
}

export interface LibraryItem {
  key: string;
  title: string;
  type: string;
}
export interface LibraryDetail extends Library {
  crfFormId: number;
  criteria: {
    match: 'all' | 'any';
    inclusion: Array<Record<string, unknown>>;
    exclusion: Array<Record<string, unknown>>;
  };
  sourceRules: Record<string, string>;
  searchFields: string[];
  pushEveryHours: number;
  items: LibraryItem[];
  definition: Form;
}
export interface LibraryJob extends Job {
  scheduled: boolean;
  createdAt: string;
  finishedAt: string | null;
}
export const SEARCH_OPS = ['=', '!=', '>', '>=', '<', '<=', 'contains', 'empty', 'notEmpty'] as const;
export type SearchOp = (typeof SEARCH_OPS)[number];
export interface SearchCondition {
  itemKey: string;
  op: SearchOp;
  value?: string | number;
}
export interface SearchRequest {
  conditions: SearchCondition[];
  match: 'all' | 'any';
  page: number;
  size: number;
}
export interface SearchRow {
  patientId: number;
  name: string;
  mrn: string;
  filingDate: string;
  values: Record<string, unknown>;
}
export interface SearchResult {
  total: number;
  columns: LibraryItem[];
  items: SearchRow[];
}
export interface MissingItem {
  key: string;
  title: string;
  hasRule: boolean;
  total: number;
  missing: number;
  unobtainable: number;
  missingRate: number;
}
export interface MissingOverview {
  items: MissingItem[];
  patients: Array<{ patientId: number; name: string; unobtainable: string | null }>;
}
export type Summary =
  | {
      kind: 'numeric';
      n: number;
      missing: number;
      mean: number;
      sd: number | null;
      median: number;
      q1: number;
      q3: number;
      min: number;
      max: number;
    }
  | {
      kind: 'categorical';
      n: number;
      missing: number;
      levels: Array<{ value: string; count: number; percent: number }>;
    };
export interface StatisticsRequest {
  itemKeys: string[];
  compare?: { itemKey: string; a: string | number; b: string | number };
}
export interface Comparison {
  key: string;
  groupA: Summary;
  groupB: Summary;
  tTest?: { t: number; df: number; p: number; difference: number; ci95: [number, number] };
  mannWhitney?: { W: number; z: number; p: number };
  chiSquare?: {
    levels: string[];
    table: number[][];
    chi2: number;
    df: number;
    p: number;
    smallExpected: boolean;
  };
  error?: string;
}
export interface StatisticsResult {
  patients: number;
  items: Array<{ key: string; title: string; summary: Summary }>;
  groups?: { a: number; b: number };
  comparisons?: Comparison[];
}
export interface Dashboard {
  library: {
    id: number;
    name: string;
    patients: number;
    lastPushAt: string | null;
    lastFillAt: string | null;
  };
  enrolment: Array<{ month: string; count: number }>;
  ageBands: Array<{ band: string; count: number }>;
  gender: Array<{ gender: number; count: number }>;
  completeness: Array<{ key: string; title: string; completeness: number }>;
}
export interface StorageRow {
  id: number;
  name: string;
  patients: number;
  values: number;
  logs: number;
}
export interface CommonTemplate {
  id: number;
  name: string;
  description: string;
  crfFormId: number;
  crfFormName: string | null;
  sourceRules: Record<string, string>;
  createdAt: string;
}
export interface TemplateInput {
  name: string;
  description: string;
  crfFormId: number;
  sourceRules: Record<string, string>;
}

const P = 'diseaselibrary';
export const libraryApi = {
  list: (params: Record<string, unknown>) =>
    rest<{ total: number; items: Library[] }>({ url: `${P}/libraries`, params }),
  create: (data: unknown) => rest<{ id: number }>({ url: `${P}/libraries`, method: 'POST', data }),
  count: (criteria: unknown) =>
    rest<{ count: number }>({ url: `${P}/criteria/count`, method: 'POST', data: criteria }),
  push: (id: number) =>
    rest<{ jobId: number }>({ url: `${P}/libraries/${id}/push`, method: 'POST', data: {} }),
  fill: (id: number) =>
    rest<{ jobId: number }>({ url: `${P}/libraries/${id}/fill`, method: 'POST', data: {} }),
  job: (id: number) => rest<Job>({ url: `jobs/${id}` }),
  patients: (data: PatientListRequest) =>
    rest<PatientPage>({ url: `${P}/get_page_disease_library_patient_list`, method: 'POST', data }),
  patient: (id: number, patientId: number) =>
    rest<LibraryPatient>({ url: `${P}/libraries/${id}/patients/${patientId}` }),
  save: (id: number, patientId: number, data: { answers: Record<string, unknown>; revision: number }) =>
    rest<{ record: { revision: number } }>({
      url: `${P}/libraries/${id}/patients/${patientId}/record`,
      method: 'PUT',
      data,
    }),
  fillLog: (id: number, params: Record<string, unknown>) =>
    rest<{ total: number; items: Array<Record<string, unknown>> }>({
      url: `${P}/libraries/${id}/fill_log`,
      params,
    }),
  detail: (id: number) => rest<LibraryDetail>({ url: `${P}/libraries/${id}` }),
  update: (id: number, data: Record<string, unknown>) =>
    rest<unknown>({ url: `${P}/libraries/${id}`, method: 'PUT', data }),
  remove: (id: number) => rest<null>({ url: `${P}/libraries/${id}`, method: 'DELETE' }),
  compute: (data: { template_str: string; library_id?: number; patient_ids?: number[] }) =>
    rest<unknown>({ url: `${P}/compute_indicator`, method: 'POST', data }),
  data: (id: number, data: { page: number; size: number }) =>
    rest<SearchResult>({ url: `${P}/libraries/${id}/data`, method: 'POST', data }),
  search: (id: number, data: SearchRequest) =>
    rest<SearchResult>({ url: `${P}/libraries/${id}/search`, method: 'POST', data }),
  missing: (id: number, itemKey?: string) =>
    rest<MissingOverview>({ url: `${P}/libraries/${id}/missing`, params: itemKey ? { itemKey } : {} }),
  unobtainable: (
    id: number,
    patientId: number,
    data: { itemKey: string; unobtainable: boolean; reason: string },
  ) =>
    rest<unknown>({
      url: `${P}/libraries/${id}/patients/${patientId}/unobtainable`,
      method: 'POST',
      data,
    }),
  statistics: (id: number, data: StatisticsRequest) =>
    rest<StatisticsResult>({ url: `${P}/libraries/${id}/statistics`, method: 'POST', data }),
  dashboard: (id: number) => rest<Dashboard>({ url: `${P}/libraries/${id}/dashboard` }),
  storage: () => rest<StorageRow[]>({ url: `${P}/storage` }),
  exportStart: (id: number, data: { itemKeys: string[]; format: 'csv' | 'xlsx' }) =>
    rest<{ jobId: number }>({ url: `${P}/libraries/${id}/export`, method: 'POST', data }),
  exports: (id: number) => rest<LibraryJob[]>({ url: `${P}/libraries/${id}/exports` }),
  pushes: (id: number) => rest<LibraryJob[]>({ url: `${P}/libraries/${id}/pushes` }),
  fills: (id: number) => rest<LibraryJob[]>({ url: `${P}/libraries/${id}/fills` }),
  downloadUrl: (jobId: number, dictionary = false) =>
    `/api/v0.1/${P}/exports/${jobId}/download${dictionary ? '?dictionary=1' : ''}`,
  templates: () => rest<CommonTemplate[]>({ url: `${P}/templates` }),
  createTemplate: (data: TemplateInput) => rest<unknown>({ url: `${P}/templates`, method: 'POST', data }),
  updateTemplate: (id: number, data: Partial<TemplateInput>) =>
    rest<unknown>({ url: `${P}/templates/${id}`, method: 'PUT', data }),
  removeTemplate: (id: number) => rest<null>({ url: `${P}/templates/${id}`, method: 'DELETE' }),
  /** The disease dictionary's enabled entries matching a keyword (name, ICD-10 code), one short page. */
  diseases: (keyword = '') =>
    rest<{ items: Array<{ id: number; name: string; icd10: string }> }>({
      url: 'disease',
      params: { page: 1, size: 20, enabled: true, ...(keyword ? { keyword } : {}) },
    }),
  forms: () =>
    rest<{ items: Array<{ id: number; name: string; latestVersion: number }> }>({
      url: 'crf/forms',
      params: { size: 100 },
    }),
};
