import { rest } from '../../api/client';

/** Calls of the research-subject pages (apps/server/src/research/routes.ts). */
export interface Subject {
  id: number;
  name: string;
  typeCode: string;
  typeName?: string;
  /** The PI's login name and display name (list rows). */
  piName?: string;
  piNickname?: string;
  description: string;
  status: string;
  allowedMoves: string[];
  startDate: string | null;
  endDate: string | null;
  targetSize: number;
  enrolled: number;
  variables: Array<{ key: string; label: string; source: string }>;
  piUserId: number | null;
  centers: string[];
  crfFormId: number | null;
  members?: Member[];
  canManageMembers?: boolean;
  history?: Array<{ from: string; to: string; userName: string; reason: string; at: string }>;
  myRole?: string | null;
  createdAt: string;
}
/** Roles on a project; the server's PROJECT_ROLES. */
export const PROJECT_ROLES = ['pi', 'coordinator', 'investigator', 'statistician', 'dataManager'] as const;
export interface Member {
  userId: number;
  userName: string;
  nickname?: string;
  role: string;
}
export interface AppUser {
  userId: number;
  userName: string;
  nickname: string;
}
export interface CrfItem {
  key: string;
  title: string;
  page: number;
  type: string;
  kind: 'number' | 'choice' | 'other';
  options: Array<{ code: string | number; name: string }>;
  numericCodes: boolean;
}
export interface ProjectType {
  code: string;
  name: string;
  description: string;
  builtIn: boolean;
}
export interface DatasetColumn {
  key: string;
  label: string;
  type: string;
  /** The two columns of a survival variable (built since the screen words them per language). */
  survival?: { part: 'time' | 'event'; of: string };
}
export interface Dataset {
  id: number;
  name: string;
  status: string;
  rowCount: number;
  columns: DatasetColumn[];
  jobId: number | null;
  builtAt: string | null;
}
export interface TaskResult {
  task_id: number;
  status: string;
  progress: number;
  result: Record<string, unknown> | null;
  error: string | null;
  params: Record<string, unknown>;
}

const R = 'research';
export const researchApi = {
  types: () => rest<ProjectType[]>({ url: `${R}/types` }),
  addType: (data: { code: string; name: string; description?: string }) =>
    rest<ProjectType>({ url: `${R}/types`, method: 'POST', data }),
  deleteType: (code: string) => rest<null>({ url: `${R}/types/${code}`, method: 'DELETE' }),
  users: () => rest<AppUser[]>({ url: `${R}/users` }),
  crfForms: () =>
    rest<Array<{ id: number; name: string; category: string; latestVersion: number }>>({
      url: `${R}/crf-forms`,
    }),
  crfItems: (id: number) =>
    rest<{ formId: number; name: string; version: number; items: CrfItem[] } | null>({
      url: `${R}/subjects/${id}/crf-items`,
    }),
  setMembers: (id: number, data: { piUserId?: number; members: Array<{ userId: number; role: string }> }) =>
    rest<{ piUserId: number; members: Member[] }>({
      url: `${R}/subjects/${id}/members`,
      method: 'PUT',
      data,
    }),
  list: (params: Record<string, unknown>) =>
    rest<{ total: number; items: Subject[] }>({ url: `${R}/subjects`, params }),
  get: (id: number) => rest<Subject>({ url: `${R}/subjects/${id}` }),
  create: (data: unknown) => rest<Subject>({ url: `${R}/subjects`, method: 'POST', data }),
  count: (criteria: unknown) =>
    rest<{ count: number }>({ url: `${R}/criteria/count`, method: 'POST', data: criteria }),
  move: (id: number, to: string, reason = '') =>
    rest<unknown>({ url: `${R}/subjects/${id}/status`, method: 'POST', data: { to, reason } }),
  recruit: (id: number) =>
    rest<{ matched: number; added: number }>({
      url: `${R}/subjects/${id}/recruit`,
      method: 'POST',
      data: { mode: 'criteria' },
    }),
  data: (id: number, page = 1, size = 10) =>
    rest<{
      enrolled: number;
      variables: Array<{
        key: string;
        label: string;
        completeness: number;
        summary: Record<string, unknown>;
      }>;
      patients: {
        total: number;
        items: Array<{
          id: number;
          mrn: string;
          name: string;
          gender: number;
          birthDate: string | null;
          enrolledAt: string;
        }>;
      };
    }>({ url: `${R}/subjects/${id}/data`, params: { page, size } }),
  // biome-ignore lint/suspicious/noExplicitAny: result JSON of the server, read field by field
  report: (id: number) => rest<Record<string, any>>({ url: `${R}/subjects/${id}/report` }),
  datasets: (id: number) => rest<Dataset[]>({ url: `${R}/subjects/${id}/datasets` }),
  buildDataset: (id: number, data: unknown) =>
    rest<{ datasetId: number; jobId: number }>({ url: `${R}/subjects/${id}/datasets`, method: 'POST', data }),
  dataset: (id: number, datasetId: number) =>
    rest<Dataset & { rows: Array<Record<string, unknown>> }>({
      url: `${R}/subjects/${id}/datasets/${datasetId}`,
    }),
  analyses: (id: number) => rest<TaskResult[]>({ url: `${R}/subjects/${id}/analyses` }),
  analyse: (id: number, datasetId: number, params: unknown) =>
    rest<{ task_id: number }>({
      url: `${R}/subjects/${id}/analyses`,
      method: 'POST',
      data: { datasetId, params },
    }),
  taskResult: (taskId: number) =>
    rest<TaskResult>({ url: 'get_value_task_result', method: 'POST', data: { task_id: taskId } }),
};
