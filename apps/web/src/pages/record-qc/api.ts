import type {
  RecordQcDoctorScoreList,
  RecordQcDocumentPage,
  RecordQcDocumentsBody,
  RecordQcFaultPage,
  RecordQcFaultsBody,
  RecordQcPlan,
  RecordQcPlanList,
  RecordQcPlanSaveBody,
  RecordQcRule,
  RecordQcRuleList,
  RecordQcRuleSaveBody,
  RecordQcScoreList,
  RecordQcTaskList,
  RecordQcTrend,
} from '@crdp/core';
import { rest } from '../../api/client';
import { downloadWithSession } from '../crf/download';

/** Calls of the medical-record QC screens (apps/server/src/record-qc/routes.ts, POST under record-qc/). */
const call = <T>(path: string, data: unknown, silent = false) =>
  rest<T>({ url: `record-qc/${path}`, method: 'POST', data, silent });

export const recordQcApi = {
  rules: () => call<RecordQcRuleList>('rule/list', {}),
  saveRule: (b: RecordQcRuleSaveBody) => call<RecordQcRule>('rule/save', b, true),
  departments: () => call<{ items: string[] }>('plan/departments', {}),
  plans: () => call<RecordQcPlanList>('plan/list', {}),
  savePlan: (b: RecordQcPlanSaveBody) => call<RecordQcPlan>('plan/save', b, true),
  deletePlan: (id: number) => call<true>('plan/delete', { id }),
  run: (planId: number) => call<{ taskId: number; jobId: number }>('task/run', { plan_id: planId }),
  tasks: () => call<RecordQcTaskList>('task/list', {}),
  faults: (b: RecordQcFaultsBody) => call<RecordQcFaultPage>('task/faults', b),
  scores: (taskId: number) => call<RecordQcScoreList>('task/scores', { task_id: taskId }),
  doctors: (taskId: number) => call<RecordQcDoctorScoreList>('task/doctors', { task_id: taskId }),
  documents: (b: RecordQcDocumentsBody) => call<RecordQcDocumentPage>('task/documents', b),
  trend: (taskId: number, department?: string) =>
    call<RecordQcTrend>('task/trend', { task_id: taskId, department }),
  download: (taskId: number, format: 'csv' | 'xlsx') =>
    downloadWithSession(
      `/api/v0.1/record-qc/task/export?task_id=${taskId}&format=${format}`,
      `record-qc-${taskId}.${format}`,
    ),
};
