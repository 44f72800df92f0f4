import type {
  QcCatalogue,
  QcDeleted,
  QcFault,
  QcPage,
  QcPlan,
  QcPlanBody,
  QcReport,
  QcRule,
  QcRuleBody,
  QcTask,
} from '@crdp/core';
import { RequestError, rest } from '../../api/client';
import { hasApiId } from '../../app/access';
import { useSession } from '../../app/session';
import { downloadWithSession } from '../crf/download';

/** Calls of the data-QC pages (apps/server/src/data-qc/routes.ts); the shapes are @crdp/core's contract. */
export type {
  QcCatalogue as Catalogue,
  QcColumnType as ColumnType,
  QcFault as Fault,
  QcPlan as Plan,
  QcPlanBody as PlanInput,
  QcReport as Report,
  QcReportRule as ReportRule,
  QcRule as Rule,
  QcRuleBody as RuleInput,
  QcRuleKind as RuleKind,
  QcTask as Task,
} from '@crdp/core';

type ListParams = { page: number; size: number; keyword?: string; enabled?: string };

const P = 'data-qc';
export const qcApi = {
  catalogue: () => rest<QcCatalogue>({ url: `${P}/catalogue` }),
  rules: (params: ListParams) => rest<QcPage<QcRule>>({ url: `${P}/rules`, params }),
  createRule: (body: QcRuleBody) =>
    rest<QcRule>({ url: `${P}/rules`, method: 'POST', data: body, silent: true }),
  updateRule: (id: number, body: QcRuleBody) =>
    rest<QcRule>({ url: `${P}/rules/${id}`, method: 'PUT', data: body, silent: true }),
  deleteRule: (id: number) => rest<QcDeleted>({ url: `${P}/rules/${id}`, method: 'DELETE' }),
  setRuleEnabled: (id: number, on: boolean) =>
    rest<QcRule>({ url: `${P}/rules/${id}/${on ? 'enable' : 'disable'}`, method: 'POST' }),
  plans: (params: ListParams) => rest<QcPage<QcPlan>>({ url: `${P}/plans`, params }),
  createPlan: (body: QcPlanBody) =>
    rest<QcPlan>({ url: `${P}/plans`, method: 'POST', data: body, silent: true }),
  updatePlan: (id: number, body: QcPlanBody) =>
    rest<QcPlan>({ url: `${P}/plans/${id}`, method: 'PUT', data: body, silent: true }),
  deletePlan: (id: number) => rest<QcDeleted>({ url: `${P}/plans/${id}`, method: 'DELETE' }),
  setPlanEnabled: (id: number, on: boolean) =>
    rest<QcPlan>({ url: `${P}/plans/${id}/${on ? 'enable' : 'disable'}`, method: 'POST' }),
  tasks: (params: { page: number; size: number }) => rest<QcPage<QcTask>>({ url: `${P}/tasks`, params }),
  runPlan: (planId: number) =>
    rest<QcTask>({ url: `${P}/tasks`, method: 'POST', data: { planId }, silent: true }),
  deleteTask: (id: number) => rest<QcDeleted>({ url: `${P}/tasks/${id}`, method: 'DELETE' }),
  reports: (params: { page: number; size: number }) => rest<QcPage<QcTask>>({ url: `${P}/reports`, params }),
  report: (taskId: number) => rest<QcReport>({ url: `${P}/reports/${taskId}` }),
  faults: (taskId: number, params: { page: number; size: number; taskRuleId?: number; keyword?: string }) =>
    rest<QcPage<QcFault>>({ url: `${P}/reports/${taskId}/faults`, params }),
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
