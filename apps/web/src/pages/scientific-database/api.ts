import type {
  SciDatasetBody,
  SciDatasetMade,
  SciExportFormat,
  SciOverview,
  SciRows,
  SciRunQueued,
  SciSnapshotDetail,
  SciSnapshotList,
  SciSnapshotQuery,
  SciTask,
  SciTaskChoices,
  SciTaskCreate,
  SciTaskList,
  SciTaskPatch,
} from '@crdp/core';
import { rest } from '../../api/client';
import { downloadWithSession } from '../crf/download';

const P = 'scientific-database';

/** Which screen reads a snapshot: each lists and opens snapshots under its own function. */
export type SnapshotScreen = 'preview' | 'details' | 'dashboard';

/** The scientific database (科研数据库). */
export const sciApi = {
  tasks: () => rest<SciTaskList>({ url: `${P}/tasks` }),
  choices: () => rest<SciTaskChoices>({ url: `${P}/tasks/choices` }),
  addTask: (data: SciTaskCreate) => rest<SciTask>({ url: `${P}/tasks`, method: 'POST', data, silent: true }),
  editTask: (id: number, data: SciTaskPatch) =>
    rest<SciTask>({ url: `${P}/tasks/${id}`, method: 'PATCH', data, silent: true }),
  removeTask: (id: number) => rest<true>({ url: `${P}/tasks/${id}`, method: 'DELETE' }),
  run: (id: number) => rest<SciRunQueued>({ url: `${P}/tasks/${id}/run`, method: 'POST', data: {} }),
  snapshots: (params: SciSnapshotQuery) => rest<SciSnapshotList>({ url: `${P}/snapshots`, params }),
  removeSnapshot: (id: number) => rest<true>({ url: `${P}/snapshots/${id}`, method: 'DELETE' }),
  ready: (screen: SnapshotScreen) => rest<SciSnapshotList>({ url: `${P}/${screen}/snapshots` }),
  snapshot: (screen: SnapshotScreen, id: number) =>
    rest<SciSnapshotDetail>({ url: `${P}/${screen}/snapshots/${id}` }),
  rows: (id: number, page: number, size: number) =>
    rest<SciRows>({ url: `${P}/preview/snapshots/${id}/rows`, params: { page, size } }),
  download: (id: number, format: SciExportFormat, name: string) =>
    downloadWithSession(
      `/api/v0.1/${P}/details/snapshots/${id}/export?format=${format}`,
      `${name}.${format}`,
    ),
  toDataset: (id: number, data: SciDatasetBody) =>
    rest<SciDatasetMade>({
      url: `${P}/details/snapshots/${id}/research-dataset`,
      method: 'POST',
      data,
      silent: true,
    }),
  overview: () => rest<SciOverview>({ url: `${P}/overview` }),
};
