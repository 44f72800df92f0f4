import type {
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
  download: (taskId: number) =>
    downloadWithSession(`/api/v0.1/record-qc/task/export?task_id=${taskId}`, `record-qc-${taskId}.csv`),
};
