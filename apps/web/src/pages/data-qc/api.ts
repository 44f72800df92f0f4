import { RequestError, rest } from '../../api/client';
import { hasApiId } from '../../app/access';
import { useSession } from '../../app/session';
import { downloadWithSession } from '../crf/download';

/** Calls of the data-QC pages (apps/server/src/data-qc/routes.ts). */
export type ColumnType = 'text' | 'number' | 'date' | 'datetime';
export type RuleKind = 'required' | 'range' | 'pattern' | 'allowed' | 'date_order' | 'future_date';
export interface Catalogue {
  kinds: Array<{ key: RuleKind; label: string; types: ColumnType[] }>;
  tables: Array<{
    key: string;
    label: string;
    columns: Array<{ key: string; label: string; type: ColumnType }>;
  }>;
}
export interface RuleInput {
  name: string;
  description?: string;
  table: string;
  kind: RuleKind;
  column: string;
  severity: 'error' | 'warning';
  enabled: boolean;
  min?: number | null;
  max?: number | null;
  pattern?: string | null;
  values?: string[] | null;
  otherColumn?: string | null;
  filterColumn?: string | null;
  filterValue?: string | null;
}
export interface Rule extends RuleInput {
  id: number;
  description: string;
  createdAt: string;
  updatedAt: string;
}
export interface PlanInput {
  name: string;
  description?: string;
  enabled: boolean;
  ruleIds: number[];
}
export interface Plan extends PlanInput {
  id: number;
  description: string;
  rules: Array<{
    id: number;
    name: string;
    kind: RuleKind;
    table: string;
    enabled: boolean;
    severity: string;
  }>;
  updatedAt: string;
}
export interface Task {
  id: number;
  planId: number | null;
  planName: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  progress: number;
  error: string | null;
  createdByName: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  rules: number;
  skipped: number;
  checked: number;
  faults: number;
}
export interface ReportRule {
  id: number;
  ruleId: number | null;
  name: string;
  kind: RuleKind;
  kindLabel: string;
  table: string;
  tableLabel: string;
  condition: string;
  severity: string;
  skipped: boolean;
  checked: number;
  faults: number;
  stored: number;
  passRate: number | null;
}
export interface Report {
  task: Task;
  overall: {
    rules: number;
    skipped: number;
    checked: number;
    faults: number;
    passRate: number | null;
    errorFaults: number;
    warningFaults: number;
    patientsWithFaults: number;
  };
  rules: ReportRule[];
}
export interface Fault {
  id: number;
  taskRuleId: number;
  ruleName: string;
  severity: string;
  table: string;
  tableLabel: string;
  rowId: number;
  patientId: number;
  patientName: string | null;
  patientMrn: string | null;
  value: string | null;
  otherValue: string | null;
  message: string;
}
export interface Page<T> {
  total: number;
  page: number;
  size: number;
  items: T[];
}
type ListParams = { page: number; size: number; keyword?: string; enabled?: string };

const P = 'data-qc';
export const qcApi = {
  catalogue: () => rest<Catalogue>({ url: `${P}/catalogue` }),
  rules: (params: ListParams) => rest<Page<Rule>>({ url: `${P}/rules`, params }),
  createRule: (body: RuleInput) =>
    rest<Rule>({ url: `${P}/rules`, method: 'POST', data: body, silent: true }),
  updateRule: (id: number, body: RuleInput) =>
    rest<Rule>({ url: `${P}/rules/${id}`, method: 'PUT', data: body, silent: true }),
  deleteRule: (id: number) => rest({ url: `${P}/rules/${id}`, method: 'DELETE' }),
  setRuleEnabled: (id: number, on: boolean) =>
    rest<Rule>({ url: `${P}/rules/${id}/${on ? 'enable' : 'disable'}`, method: 'POST' }),
  plans: (params: ListParams) => rest<Page<Plan>>({ url: `${P}/plans`, params }),
  createPlan: (body: PlanInput) =>
    rest<Plan>({ url: `${P}/plans`, method: 'POST', data: body, silent: true }),
  updatePlan: (id: number, body: PlanInput) =>
    rest<Plan>({ url: `${P}/plans/${id}`, method: 'PUT', data: body, silent: true }),
  deletePlan: (id: number) => rest({ url: `${P}/plans/${id}`, method: 'DELETE' }),
  setPlanEnabled: (id: number, on: boolean) =>
    rest<Plan>({ url: `${P}/plans/${id}/${on ? 'enable' : 'disable'}`, method: 'POST' }),
  tasks: (params: { page: number; size: number }) => rest<Page<Task>>({ url: `${P}/tasks`, params }),
  runPlan: (planId: number) =>
    rest<Task>({ url: `${P}/tasks`, method: 'POST', data: { planId }, silent: true }),
  deleteTask: (id: number) => rest({ url: `${P}/tasks/${id}`, method: 'DELETE' }),
  reports: (params: { page: number; size: number }) => rest<Page<Task>>({ url: `${P}/reports`, params }),
  report: (taskId: number) => rest<Report>({ url: `${P}/reports/${taskId}` }),
  faults: (taskId: number, params: { page: number; size: number; taskRuleId?: number; keyword?: string }) =>
    rest<Page<Fault>>({ url: `${P}/reports/${taskId}/faults`, params }),
  download: (taskId: number, format: 'csv' | 'xlsx') =>
    downloadWithSession(
      `/api/v0.1/${P}/reports/${taskId}/export?format=${format}`,
      `data-qc-report-${taskId}.${format}`,
    ),
};

/** The server's 400 names the field (`body.min`): the form shows the message next to it. */
export function fieldError(e: unknown): { name: string; message: string } | null {
  if (!(e instanceof RequestError)) return null;
  const body = e.body as { field?: string; message?: string } | undefined;
  const field = body?.field?.replace(/^body\./, '').split('.')[0];
  return field ? { name: field, message: body?.message ?? e.message } : null;
}

/** Whether the user holds a function of a data-QC menu (the server checks it again). */
export function useCan() {
  const { access } = useSession();
  return (apiId: string) => !!access && hasApiId(access, apiId);
}
