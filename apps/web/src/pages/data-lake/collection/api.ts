import type {
  CollectionChangePage,
  CollectionMonitoring,
  CollectionRejectPage,
  CollectionReport,
  CollectionRun,
  CollectionRunPage,
  CollectionRunStarted,
  CollectionSample,
  CollectionSource,
  CollectionSourceCreate,
  CollectionSourceList,
  CollectionSourcePatch,
  CollectionSourceProbe,
  CollectionTargets,
  CollectionTask,
  CollectionTaskCreate,
  CollectionTaskList,
  CollectionTaskPatch,
  CollectionTaskTest,
  CollectionTemplate,
  CollectionTemplateCreate,
  CollectionTemplateList,
  CollectionTemplatePatch,
  CollectionTemplateVersions,
  CollectionUnitTest,
  CollectionUnitTestBody,
} from '@crdp/core';
import { rest } from '../../../api/client';
import { downloadWithSession } from '../../crf/download';

const B = 'collection';

/** Calls of the data collection screens (`/api/v0.1/collection/*`). */
export const collectionApi = {
  sources: () => rest<CollectionSourceList>({ url: `${B}/sources` }),
  addSource: (s: CollectionSourceCreate) =>
    rest<CollectionSource>({ url: `${B}/sources`, method: 'POST', data: s, silent: true }),
  editSource: (id: number, s: CollectionSourcePatch) =>
    rest<CollectionSource>({ url: `${B}/sources/${id}`, method: 'PATCH', data: s, silent: true }),
  removeSource: (id: number) => rest<true>({ url: `${B}/sources/${id}`, method: 'DELETE' }),
  probe: (id: number) =>
    rest<CollectionSourceProbe>({ url: `${B}/sources/${id}/probe`, method: 'POST', data: {}, silent: true }),
  targets: () => rest<CollectionTargets>({ url: `${B}/targets` }),
  templates: () => rest<CollectionTemplateList>({ url: `${B}/templates` }),
  template: (id: number) => rest<CollectionTemplate>({ url: `${B}/templates/${id}` }),
  addTemplate: (t: CollectionTemplateCreate) =>
    rest<CollectionTemplate>({ url: `${B}/templates`, method: 'POST', data: t, silent: true }),
  editTemplate: (id: number, t: CollectionTemplatePatch) =>
    rest<CollectionTemplate>({ url: `${B}/templates/${id}`, method: 'PATCH', data: t, silent: true }),
  removeTemplate: (id: number) => rest<true>({ url: `${B}/templates/${id}`, method: 'DELETE' }),
  versions: (id: number) => rest<CollectionTemplateVersions>({ url: `${B}/templates/${id}/versions` }),
  sample: (id: number, limit = 50) =>
    rest<CollectionSample>({ url: `${B}/templates/${id}/sample`, params: { limit }, silent: true }),
  unitTest: (id: number, body: CollectionUnitTestBody) =>
    rest<CollectionUnitTest>({
      url: `${B}/templates/${id}/unit-test`,
      method: 'POST',
      data: body,
      silent: true,
    }),
  tasks: () => rest<CollectionTaskList>({ url: `${B}/tasks` }),
  addTask: (t: CollectionTaskCreate) =>
    rest<CollectionTask>({ url: `${B}/tasks`, method: 'POST', data: t, silent: true }),
  editTask: (id: number, t: CollectionTaskPatch) =>
    rest<CollectionTask>({ url: `${B}/tasks/${id}`, method: 'PATCH', data: t, silent: true }),
  removeTask: (id: number) => rest<true>({ url: `${B}/tasks/${id}`, method: 'DELETE' }),
  run: (id: number) => rest<CollectionRunStarted>({ url: `${B}/tasks/${id}/run`, method: 'POST', data: {} }),
  taskTest: (id: number, limit: number) =>
    rest<CollectionTaskTest>({ url: `${B}/tasks/${id}/test`, method: 'POST', data: { limit }, silent: true }),
  runs: (q: { page: number; size: number; taskId?: number; status?: string }) =>
    rest<CollectionRunPage>({ url: `${B}/runs`, params: q }),
  runOf: (id: number) => rest<CollectionRun>({ url: `${B}/runs/${id}` }),
  rejects: (id: number, q: { page: number; size: number }) =>
    rest<CollectionRejectPage>({
      url: `${B}/runs/${id}/rejects`,
      params: q,
    }),
  cancel: (id: number) => rest<CollectionRun>({ url: `${B}/runs/${id}/cancel`, method: 'POST', data: {} }),
  changes: (q: {
    page: number;
    size: number;
    table?: string;
    op?: string;
    runId?: number;
    patientId?: number;
  }) => rest<CollectionChangePage>({ url: `${B}/changes`, params: q }),
  monitoring: () => rest<CollectionMonitoring>({ url: `${B}/monitoring` }),
  report: (q: { from?: string; to?: string; period: string }) =>
    rest<CollectionReport>({ url: `${B}/report`, params: q }),
  exportReport: (q: { from?: string; to?: string; period: string }, format: 'csv' | 'xlsx') =>
    downloadWithSession(
      `/api/v0.1/${B}/report/export?${new URLSearchParams({ ...Object.fromEntries(Object.entries(q).filter(([, v]) => v)), format } as Record<string, string>)}`,
      `collection-report.${format}`,
    ),
};
