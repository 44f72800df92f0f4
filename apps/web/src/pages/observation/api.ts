import type {
  ObservationActivity,
  ObservationActivityQuery,
  ObservationRun,
  ObservationRunInput,
  ObservationRunList,
  ObservationTask,
  ObservationTaskInput,
  ObservationTaskList,
  ObservationTermMap,
  ObservationTermPage,
  ObservationTermQuery,
} from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the observation database pages (apps/server/src/observation/routes.ts); shapes from @crdp/core. */
const P = 'observation';
export const observationApi = {
  tasks: () => rest<ObservationTaskList>({ url: `${P}/tasks` }),
  createTask: (data: ObservationTaskInput) =>
    rest<ObservationTask>({ url: `${P}/tasks`, method: 'POST', data }),
  updateTask: (id: number, data: ObservationTaskInput) =>
    rest<ObservationTask>({ url: `${P}/tasks/${id}`, method: 'PUT', data }),
  removeTask: (id: number) => rest<null>({ url: `${P}/tasks/${id}`, method: 'DELETE' }),
  run: (id: number, data: ObservationRunInput) =>
    rest<ObservationRun>({ url: `${P}/tasks/${id}/run`, method: 'POST', data }),
  runs: (id: number) => rest<ObservationRunList>({ url: `${P}/tasks/${id}/runs` }),
  terms: (params: ObservationTermQuery) => rest<ObservationTermPage>({ url: `${P}/terms`, params }),
  mapTerm: (data: ObservationTermMap) => rest<null>({ url: `${P}/terms/map`, method: 'POST', data }),
  activity: (params: ObservationActivityQuery) => rest<ObservationActivity>({ url: `${P}/activity`, params }),
};
