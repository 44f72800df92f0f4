import type {
  CohortCriteria,
  ResearchAnalysis,
  ResearchAnalysisQueued,
  ResearchAppUser,
  ResearchCatalogueItem,
  ResearchCrfForm,
  ResearchCrfItems,
  ResearchCriteriaCount,
  ResearchDataset,
  ResearchDatasetBody,
  ResearchDatasetQueued,
  ResearchDatasetRows,
  ResearchMembersInput,
  ResearchMoved,
  ResearchProjectData,
  ResearchProjectType,
  ResearchProjectTypeRecord,
  ResearchRecruited,
  ResearchReport,
  ResearchSubjectBody,
  ResearchSubjectList,
  ResearchSubjectQuery,
  ResearchSubjectRecord,
  ResearchSubjectView,
  ResearchTaskResult,
  ResearchTeam,
  ResearchTypeBody,
  TaskStatus,
} from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the research-subject pages (apps/server/src/research/routes.ts); shapes from @crdp/core. */
export type {
  ResearchAnalysis as Analysis,
  ResearchAppUser as AppUser,
  ResearchCrfItem as CrfItem,
  ResearchDataset as Dataset,
  ResearchDatasetColumn as DatasetColumn,
  ResearchMember as Member,
  ResearchProjectType as ProjectType,
  ResearchSubjectListItem as SubjectListItem,
  ResearchSubjectView as Subject,
  ResearchTaskResult as TaskResult,
} from '@crdp/core';
export { RESEARCH_PROJECT_ROLES as PROJECT_ROLES } from '@crdp/core';

const R = 'research';
export const researchApi = {
  types: () => rest<ResearchProjectType[]>({ url: `${R}/types` }),
  addType: (data: ResearchTypeBody) =>
    rest<ResearchProjectTypeRecord>({ url: `${R}/types`, method: 'POST', data }),
  deleteType: (code: string) => rest<null>({ url: `${R}/types/${code}`, method: 'DELETE' }),
  users: () => rest<ResearchAppUser[]>({ url: `${R}/users` }),
  crfForms: () => rest<ResearchCrfForm[]>({ url: `${R}/crf-forms` }),
  crfItems: (id: number) => rest<ResearchCrfItems>({ url: `${R}/subjects/${id}/crf-items` }),
  setMembers: (id: number, data: ResearchMembersInput) =>
    rest<ResearchTeam>({ url: `${R}/subjects/${id}/members`, method: 'PUT', data }),
  list: (params: Partial<ResearchSubjectQuery>) =>
    rest<ResearchSubjectList>({ url: `${R}/subjects`, params }),
  get: (id: number) => rest<ResearchSubjectView>({ url: `${R}/subjects/${id}` }),
  create: (data: ResearchSubjectBody) =>
    rest<ResearchSubjectRecord>({ url: `${R}/subjects`, method: 'POST', data }),
  catalogue: (params: { kind: 'lab' | 'diagnosis' | 't0'; q: string }) =>
    rest<ResearchCatalogueItem[]>({ url: `${R}/variable-catalogue`, params }),
  count: (criteria: CohortCriteria) =>
    rest<ResearchCriteriaCount>({ url: `${R}/criteria/count`, method: 'POST', data: criteria }),
  move: (id: number, to: TaskStatus, reason = '') =>
    rest<ResearchMoved>({ url: `${R}/subjects/${id}/status`, method: 'POST', data: { to, reason } }),
  recruit: (id: number) =>
    rest<ResearchRecruited>({
      url: `${R}/subjects/${id}/recruit`,
      method: 'POST',
      data: { mode: 'criteria' },
    }),
  data: (id: number, page = 1, size = 10) =>
    rest<ResearchProjectData>({ url: `${R}/subjects/${id}/data`, params: { page, size } }),
  report: (id: number) => rest<ResearchReport>({ url: `${R}/subjects/${id}/report` }),
  datasets: (id: number) => rest<ResearchDataset[]>({ url: `${R}/subjects/${id}/datasets` }),
  buildDataset: (id: number, data: ResearchDatasetBody) =>
    rest<ResearchDatasetQueued>({ url: `${R}/subjects/${id}/datasets`, method: 'POST', data }),
  dataset: (id: number, datasetId: number) =>
    rest<ResearchDatasetRows>({ url: `${R}/subjects/${id}/datasets/${datasetId}` }),
  analyses: (id: number) => rest<ResearchAnalysis[]>({ url: `${R}/subjects/${id}/analyses` }),
  analyse: (id: number, datasetId: number, params: unknown) =>
    rest<ResearchAnalysisQueued>({
      url: `${R}/subjects/${id}/analyses`,
      method: 'POST',
      data: { datasetId, params },
    }),
  taskResult: (taskId: number) =>
    rest<ResearchTaskResult>({ url: 'get_value_task_result', method: 'POST', data: { task_id: taskId } }),
};
