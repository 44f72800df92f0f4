import type {
  CleanedValue,
  CleaningRule,
  CleaningRuleInput,
  CleaningTask,
  CleaningTaskInput,
  ParagraphResult,
  SampleResult,
  SentenceTestResult,
} from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the data-cleaning screens (server: apps/server/src/cleaning/routes.ts). */
export type { CleanedValue, CleaningRule, CleaningTask, Extraction } from '@crdp/core';

type Page<T> = { items: T[]; total: number };
type Choice = { rules?: string[]; draft?: CleaningRuleInput | null };
const P = 'cleaning';

export const cleaningApi = {
  rules: () => rest<{ items: CleaningRule[] }>({ url: `${P}/rules` }),
  createRule: (body: CleaningRuleInput) =>
    rest<CleaningRule>({ url: `${P}/rules`, method: 'POST', data: body, silent: true }),
  updateRule: (id: number, body: CleaningRuleInput) =>
    rest<CleaningRule>({ url: `${P}/rules/${id}`, method: 'PUT', data: body, silent: true }),
  setEnabled: (id: number, enabled: boolean) =>
    rest<CleaningRule>({ url: `${P}/rules/${id}/enabled`, method: 'POST', data: { enabled } }),
  deleteRule: (id: number) => rest<{ id: number }>({ url: `${P}/rules/${id}`, method: 'DELETE' }),
  testSentences: (body: Choice & { sentences: string[] }) =>
    rest<SentenceTestResult>({ url: `${P}/test/sentences`, method: 'POST', data: body, silent: true }),
  paragraph: (body: Choice & { text: string }) =>
    rest<ParagraphResult>({ url: `${P}/test/paragraph`, method: 'POST', data: body, silent: true }),
  sample: (body: { rules: string[]; kinds: string[]; size: number; seed: number }) =>
    rest<SampleResult>({ url: `${P}/test/sample`, method: 'POST', data: body }),
  mark: (body: {
    documentId: number;
    ruleRef: string;
    code: string;
    start: number;
    correct: boolean | null;
  }) => rest<{ correct: boolean | null }>({ url: `${P}/test/marks`, method: 'PUT', data: body }),
  tasks: (params: { page: number; size: number }) => rest<Page<CleaningTask>>({ url: `${P}/tasks`, params }),
  createTask: (body: CleaningTaskInput) =>
    rest<CleaningTask>({ url: `${P}/tasks`, method: 'POST', data: body, silent: true }),
  rerun: (id: number) => rest<CleaningTask>({ url: `${P}/tasks/${id}/rerun`, method: 'POST', data: {} }),
  cancel: (id: number) => rest<CleaningTask>({ url: `${P}/tasks/${id}/cancel`, method: 'POST', data: {} }),
  deleteTask: (id: number) => rest<{ id: number }>({ url: `${P}/tasks/${id}`, method: 'DELETE' }),
  taskValues: (id: number, params: { page: number; size: number; faultsOnly?: boolean }) =>
    rest<Page<CleanedValue>>({ url: `${P}/tasks/${id}/values`, params }),
  patientValues: (id: number, params: { page: number; size: number }) =>
    rest<Page<CleanedValue>>({ url: `360/cleaned/${id}`, params }),
};
