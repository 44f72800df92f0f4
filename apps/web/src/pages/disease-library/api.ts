import type {
  AdminDiseasePage,
  JobView,
  LibraryComparison,
  LibraryComputeBody,
  LibraryComputed,
  LibraryCount,
  LibraryCreateBody,
  LibraryDashboard,
  LibraryDetail as LibraryDetailContract,
  LibraryExportBody,
  LibraryFillLogEntry,
  LibraryFillLogPage,
  LibraryFillLogQuery,
  LibraryItem,
  LibraryJob,
  LibraryJobQueued,
  LibraryListItem,
  LibraryListQuery,
  LibraryMissingItem,
  LibraryMissingOverview,
  LibraryPage,
  LibraryPatchBody,
  LibraryPatient as LibraryPatientContract,
  LibraryPatientEntry,
  LibraryPatientListInput,
  LibraryPatientPage,
  LibraryRecordSaveBody,
  LibraryRecordSaved,
  LibrarySaved,
  LibrarySearchBody,
  LibrarySearchCondition,
  LibrarySearchOp,
  LibrarySearchResult,
  LibrarySearchRow,
  LibraryStatistics,
  LibraryStatisticsInput,
  LibraryStorageRow,
  LibraryTemplate,
  LibraryTemplateBody,
  LibraryTemplatePatchBody,
  LibraryUnobtainableBody,
  LibraryUnobtainableMarks,
  LibraryValueSummary,
  ResearchCatalogueItem,
} from '@crdp/core';
import type { CrfFormPage, CrfVersion, Form } from '@crdp/crf';
import { rest } from '../../api/client';

/**
 * Calls of the disease-library pages (apps/server/src/disease-library/routes.ts). The shapes are
 * the contracts of @crdp/core (contracts/disease-library.ts); a form definition travels as JSON
 * there, and is read here as the `@crdp/crf` Form it is.
 */
export type Library = LibraryListItem;
/** The previous list request of the patient list (page, size, filters). */
export type PatientListRequest = LibraryPatientListInput;
export type PatientEntry = LibraryPatientEntry;
export type PatientPage = LibraryPatientPage;
export type LibraryPatient = Omit<LibraryPatientContract, 'definition'> & { definition: Form | null };
/** A job as `GET /jobs/:id` answers it. */
export type Job = JobView;
export type { LibraryItem, LibraryJob };
export type LibraryDetail = Omit<LibraryDetailContract, 'definition'> & { definition: Form };
export { LIBRARY_SEARCH_OPS as SEARCH_OPS } from '@crdp/core';
export type SearchOp = LibrarySearchOp;
export type SearchCondition = LibrarySearchCondition;
export type SearchRequest = LibrarySearchBody;
export type SearchRow = LibrarySearchRow;
export type SearchResult = LibrarySearchResult;
export type MissingItem = LibraryMissingItem;
export type MissingOverview = LibraryMissingOverview;
export type Summary = LibraryValueSummary;
export type StatisticsRequest = LibraryStatisticsInput;
export type Comparison = LibraryComparison;
export type StatisticsResult = LibraryStatistics;
export type Dashboard = LibraryDashboard;
export type StorageRow = LibraryStorageRow;
export type CommonTemplate = LibraryTemplate;
export type TemplateInput = LibraryTemplateBody;
export type FillLogEntry = LibraryFillLogEntry;

const P = 'diseaselibrary';
export const libraryApi = {
  list: (params: LibraryListQuery) => rest<LibraryPage>({ url: `${P}/libraries`, params }),
  create: (data: LibraryCreateBody) => rest<LibrarySaved>({ url: `${P}/libraries`, method: 'POST', data }),
  count: (criteria: LibraryCreateBody['criteria']) =>
    rest<LibraryCount>({ url: `${P}/criteria/count`, method: 'POST', data: criteria }),
  push: (id: number) =>
    rest<LibraryJobQueued>({ url: `${P}/libraries/${id}/push`, method: 'POST', data: {} }),
  fill: (id: number) =>
    rest<LibraryJobQueued>({ url: `${P}/libraries/${id}/fill`, method: 'POST', data: {} }),
  job: (id: number) => rest<Job>({ url: `jobs/${id}` }),
  patients: (data: PatientListRequest) =>
    rest<PatientPage>({ url: `${P}/get_page_disease_library_patient_list`, method: 'POST', data }),
  patient: (id: number, patientId: number) =>
    rest<LibraryPatient>({ url: `${P}/libraries/${id}/patients/${patientId}` }),
  save: (id: number, patientId: number, data: LibraryRecordSaveBody) =>
    rest<LibraryRecordSaved>({
      url: `${P}/libraries/${id}/patients/${patientId}/record`,
      method: 'PUT',
      data,
    }),
  fillLog: (id: number, params: LibraryFillLogQuery) =>
    rest<LibraryFillLogPage>({
      url: `${P}/libraries/${id}/fill_log`,
      params,
    }),
  detail: (id: number) => rest<LibraryDetail>({ url: `${P}/libraries/${id}` }),
  update: (id: number, data: LibraryPatchBody) =>
    rest<LibrarySaved>({ url: `${P}/libraries/${id}`, method: 'PUT', data }),
  remove: (id: number) => rest<null>({ url: `${P}/libraries/${id}`, method: 'DELETE' }),
  compute: (data: LibraryComputeBody) =>
    rest<LibraryComputed>({ url: `${P}/compute_indicator`, method: 'POST', data }),
  data: (id: number, data: Pick<LibrarySearchBody, 'page' | 'size'>) =>
    rest<SearchResult>({ url: `${P}/libraries/${id}/data`, method: 'POST', data }),
  search: (id: number, data: SearchRequest) =>
    rest<SearchResult>({ url: `${P}/libraries/${id}/search`, method: 'POST', data }),
  missing: (id: number, itemKey?: string) =>
    rest<MissingOverview>({ url: `${P}/libraries/${id}/missing`, params: itemKey ? { itemKey } : {} }),
  unobtainable: (id: number, patientId: number, data: LibraryUnobtainableBody) =>
    rest<LibraryUnobtainableMarks>({
      url: `${P}/libraries/${id}/patients/${patientId}/unobtainable`,
      method: 'POST',
      data,
    }),
  statistics: (id: number, data: StatisticsRequest) =>
    rest<StatisticsResult>({ url: `${P}/libraries/${id}/statistics`, method: 'POST', data }),
  dashboard: (id: number) => rest<Dashboard>({ url: `${P}/libraries/${id}/dashboard` }),
  storage: () => rest<StorageRow[]>({ url: `${P}/storage` }),
  exportStart: (id: number, data: LibraryExportBody) =>
    rest<LibraryJobQueued>({ url: `${P}/libraries/${id}/export`, method: 'POST', data }),
  exports: (id: number) => rest<LibraryJob[]>({ url: `${P}/libraries/${id}/exports` }),
  pushes: (id: number) => rest<LibraryJob[]>({ url: `${P}/libraries/${id}/pushes` }),
  fills: (id: number) => rest<LibraryJob[]>({ url: `${P}/libraries/${id}/fills` }),
  downloadUrl: (jobId: number, dictionary = false) =>
    `/api/v0.1/${P}/exports/${jobId}/download${dictionary ? '?dictionary=1' : ''}`,
  templates: () => rest<CommonTemplate[]>({ url: `${P}/templates` }),
  createTemplate: (data: TemplateInput) =>
    rest<LibraryTemplate>({ url: `${P}/templates`, method: 'POST', data }),
  updateTemplate: (id: number, data: LibraryTemplatePatchBody) =>
    rest<LibraryTemplate>({ url: `${P}/templates/${id}`, method: 'PUT', data }),
  removeTemplate: (id: number) => rest<null>({ url: `${P}/templates/${id}`, method: 'DELETE' }),
  /** The disease dictionary's enabled entries matching a keyword (name, ICD-10 code), one short page. */
  diseases: (keyword = '') =>
    rest<AdminDiseasePage>({
      url: 'disease',
      params: { page: 1, size: 20, enabled: true, ...(keyword ? { keyword } : {}) },
    }),
  /** Lab items or diagnosis categories of the app's data, for the source-rule builder. */
  ruleCatalogue: (params: { kind: 'lab' | 'diagnosis' | 't0'; q: string }) =>
    rest<ResearchCatalogueItem[]>({ url: `${P}/rule-catalogue`, params }),
  /** A published version of a CRF form (its items are what source rules fill). */
  formVersion: (formId: number, version: number) =>
    rest<CrfVersion>({ url: `crf/forms/${formId}/versions/${version}` }),
  forms: () =>
    rest<CrfFormPage>({
      url: 'crf/forms',
      params: { size: 100 },
    }),
};
