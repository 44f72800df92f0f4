import type {
  CleanedValuePage,
  CleaningMarkResult,
  CleaningRule,
  CleaningRuleInput,
  CleaningRuleList,
  CleaningTask,
  CleaningTaskInput,
  CleaningTaskPage,
  DeletedId,
  MarkBody,
  ParagraphBody,
  ParagraphResult,
  SampleBody,
  SampleResult,
  SentenceTestBody,
  SentenceTestResult,
} from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the data-cleaning screens (server: apps/server/src/cleaning/routes.ts). */
export type { CleanedValue, CleaningRule, CleaningTask, Extraction } from '@crdp/core';

const P = 'cleaning';

export const cleaningApi = {
  rules: () => rest<CleaningRuleList>({ url: `${P}/rules` }),
  createRule: (body: CleaningRuleInput) =>
    rest<CleaningRule>({ url: `${P}/rules`, method: 'POST', data: body, silent: true }),
  updateRule: (id: number, body: CleaningRuleInput) =>
    rest<CleaningRule>({ url: `${P}/rules/${id}`, method: 'PUT', data: body, silent: true }),
  setEnabled: (id: number, enabled: boolean) =>
    rest<CleaningRule>({ url: `${P}/rules/${id}/enabled`, method: 'POST', data: { enabled } }),
  deleteRule: (id: number) => rest<DeletedId>({ url: `${P}/rules/${id}`, method: 'DELETE' }),
  testSentences: (body: SentenceTestBody) =>
    rest<SentenceTestResult>({ url: `${P}/test/sentences`, method: 'POST', data: body, silent: true }),
  paragraph: (body: ParagraphBody) =>
    rest<ParagraphResult>({ url: `${P}/test/paragraph`, method: 'POST', data: body, silent: true }),
  sample: (body: SampleBody) => rest<SampleResult>({ url: `${P}/test/sample`, method: 'POST', data: body }),
  mark: (body: MarkBody) => rest<CleaningMarkResult>({ url: `${P}/test/marks`, method: 'PUT', data: body }),
  tasks: (params: { page: number; size: number }) => rest<CleaningTaskPage>({ url: `${P}/tasks`, params }),
  createTask: (body: CleaningTaskInput) =>
    rest<CleaningTask>({ url: `${P}/tasks`, method: 'POST', data: body, silent: true }),
  rerun: (id: number) => rest<CleaningTask>({ url: `${P}/tasks/${id}/rerun`, method: 'POST', data: {} }),
  cancel: (id: number) => rest<CleaningTask>({ url: `${P}/tasks/${id}/cancel`, method: 'POST', data: {} }),
  deleteTask: (id: number) => rest<DeletedId>({ url: `${P}/tasks/${id}`, method: 'DELETE' }),
  taskValues: (id: number, params: { page: number; size: number; faultsOnly?: boolean }) =>
    rest<CleanedValuePage>({ url: `${P}/tasks/${id}/values`, params }),
  patientValues: (id: number, params: { page: number; size: number }) =>
    rest<CleanedValuePage>({ url: `360/cleaned/${id}`, params }),
};
