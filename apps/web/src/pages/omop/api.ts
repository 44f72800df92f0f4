import { rest } from '../../api/client';

/** Calls of the OMOP CDM pages (apps/server/src/omop/routes.ts). */
export const MAPPING_KINDS = ['condition', 'measurement', 'drug', 'gender', 'visit', 'unit'] as const;
export type MappingKind = (typeof MAPPING_KINDS)[number];

export interface Mapping {
  id: number;
  kind: MappingKind;
  sourceCode: string;
  conceptId: number;
  conceptName: string;
  note: string;
  createdAt: string;
  updatedAt: string;
}
export type MappingInput = Pick<Mapping, 'kind' | 'sourceCode' | 'conceptId' | 'conceptName'> & {
  note?: string;
};
export interface BuiltinMapping {
  kind: MappingKind;
  sourceCode: string;
  conceptId: number;
  conceptName: string;
  overridden: boolean;
}
export interface MappingPage {
  total: number;
  page: number;
  size: number;
  items: Mapping[];
  builtin: BuiltinMapping[];
}
export interface ImportReport {
  stored: boolean;
  total: number;
  inserted: number;
  updated: number;
  faultCount: number;
  faults: Array<{ row: number; field: string; message: string }>;
}

export interface Rule {
  id: number | null;
  name: string;
  sourceTable: string;
  targetTable: string;
  enabled: boolean;
  builtin: boolean;
  note: string;
  updatedAt: string | null;
}
export interface RuleList {
  stored: boolean;
  items: Rule[];
  catalogue: Array<{ sourceTable: string; targetTable: string; name: string }>;
}

export interface Unmapped {
  rows: number;
  codes: number;
  top: Array<{ code: string; example: string; count: number }>;
}
export interface ExportResult {
  cdmVersion: string;
  fileName: string;
  bytes: number;
  tables: string[];
  counts: Record<string, number>;
  personsWithoutBirthDate: number;
  unmapped: Partial<Record<MappingKind, Unmapped>>;
}
export type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export interface Task {
  id: number;
  name: string;
  note: string;
  createdByName: string;
  createdAt: string;
  jobId: number;
  status: TaskStatus;
  progress: number;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  tables: string[];
  result: ExportResult | null;
}

const P = 'omop';
export const omopApi = {
  mappings: (params: { kind?: string; keyword?: string; page: number; size: number }) =>
    rest<MappingPage>({ url: `${P}/mappings`, params }),
  createMapping: (data: MappingInput) => rest<Mapping>({ url: `${P}/mappings`, method: 'POST', data }),
  updateMapping: (id: number, data: MappingInput) =>
    rest<Mapping>({ url: `${P}/mappings/${id}`, method: 'PUT', data }),
  removeMapping: (id: number) => rest<null>({ url: `${P}/mappings/${id}`, method: 'DELETE' }),
  importMappings: (data: { fileName: string; text: string }) =>
    rest<ImportReport>({ url: `${P}/mappings/import`, method: 'POST', data }),
  exportUrl: () => `/api/v0.1/${P}/mappings/export`,

  rules: () => rest<RuleList>({ url: `${P}/rules` }),
  writeDefaults: () => rest<RuleList>({ url: `${P}/rules/defaults`, method: 'POST', data: {} }),
  createRule: (data: { sourceTable: string; targetTable: string; name?: string; note?: string }) =>
    rest<Rule>({ url: `${P}/rules`, method: 'POST', data }),
  updateRule: (id: number, data: { name: string; note?: string }) =>
    rest<Rule>({ url: `${P}/rules/${id}`, method: 'PUT', data }),
  removeRule: (id: number) => rest<null>({ url: `${P}/rules/${id}`, method: 'DELETE' }),
  switchRule: (id: number, on: boolean) =>
    rest<Rule>({ url: `${P}/rules/${id}/${on ? 'enable' : 'disable'}`, method: 'POST', data: {} }),

  tasks: (params: { page: number; size: number }) =>
    rest<{ total: number; items: Task[] }>({ url: `${P}/tasks`, params }),
  task: (id: number) => rest<Task>({ url: `${P}/tasks/${id}` }),
  startTask: (data: { name?: string; note?: string }) =>
    rest<Task>({ url: `${P}/tasks`, method: 'POST', data }),
  updateTask: (id: number, data: { name: string; note?: string }) =>
    rest<Task>({ url: `${P}/tasks/${id}`, method: 'PUT', data }),
  removeTask: (id: number) => rest<null>({ url: `${P}/tasks/${id}`, method: 'DELETE' }),
  downloadUrl: (id: number) => `/api/v0.1/${P}/tasks/${id}/download`,
};
