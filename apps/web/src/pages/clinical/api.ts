import type {
  CdrBrowserPage,
  CdrChildPage,
  CdrChildRow,
  CdrCsvFields,
  CdrDirectory,
  CdrExamReport,
  CdrFieldProfile,
  CdrImport,
  CdrImportDetail,
  CdrImportPage,
  CdrLabPage,
  CdrOrder,
  CdrOverview,
  CdrPatient,
  CdrPatientSearch,
  CdrPerson,
  CdrSearchConditions,
  CdrSearchResult,
  CdrSyntheticRun,
  CdrTableInfo,
  CdrVitals,
  JobView,
  PatientInputBody,
} from '@crdp/core';
import { rest } from '../../api/client';

/** Calls of the clinical data repository: patient 360, imports, the CDR browser and the search. */
export type {
  CdrChildPage as Paged,
  CdrImport as ImportRecord,
  CdrLabItem as LabItem,
  CdrPatient as Patient,
  CdrPerson as Person,
  CdrSearchConditions as SearchConditions,
  CdrSearchHit as SearchHit,
  CdrTextSegment as Segment,
  CdrVisit as Visit,
  CdrVitalPoint as VitalPoint,
} from '@crdp/core';

/** The kinds of rows `patient360.list` pages through, by the path segment of their call. */
interface ListRows {
  visits: CdrChildRow<'visits'>;
  diagnoses: CdrChildRow<'diagnoses'>;
  allergies: CdrChildRow<'allergies'>;
  examinelist: CdrChildRow<'examReports'>;
  operationlist: CdrChildRow<'operations'>;
  physicalexams: CdrChildRow<'physicalExams'>;
  documents: CdrChildRow<'documents'>;
}

type Q = Record<string, string | number | boolean | undefined>;
const page = (q: { page?: number; size?: number } = {}) => ({ page: q.page ?? 1, size: q.size ?? 20 });

export const patient360 = {
  search: (q: { keyword?: string; gender?: number; cursor?: string; size?: number }) =>
    rest<CdrPatientSearch>({ url: '360', params: q }),
  person: (id: number) => rest<CdrPerson>({ url: `360/person/${id}` }),
  list: <K extends keyof ListRows>(kind: K, id: number, q?: { page?: number; size?: number }) =>
    rest<CdrChildPage<ListRows[K]>>({ url: `360/${kind}/${id}`, params: page(q) }),
  labs: (id: number, q: { itemCode?: string; abnormalOnly?: boolean; page?: number; size?: number }) =>
    rest<CdrLabPage>({
      url: `360/measurementlist/${id}`,
      params: { ...page(q), itemCode: q.itemCode, abnormalOnly: q.abnormalOnly ? 'true' : undefined },
    }),
  drugs: (patientId: number, q: { category?: 'drug' | 'other'; page?: number; size?: number }) =>
    rest<CdrChildPage<CdrOrder>>({
      url: '360/druglist',
      params: { ...page(q), patientId, category: q.category },
    }),
  examReport: (id: number) => rest<CdrExamReport>({ url: `360/examinereport/${id}` }),
  vitalSigns: (id: number, visitId?: number) =>
    rest<CdrVitals>({ url: `360/vitalsigns/${id}`, params: { visitId } }),
};

export const imports = {
  list: (q: { page: number; size: number }) => rest<CdrImportPage>({ url: 'imports', params: q }),
  get: (id: number) => rest<CdrImportDetail>({ url: `imports/${id}` }),
  fhir: (fileName: string, bundle: unknown) =>
    rest<CdrImport>({ url: 'imports/fhir', method: 'POST', data: { fileName, bundle }, silent: true }),
  csv: (body: { fileName: string; table: string; mapping: Record<string, string>; text: string }) =>
    rest<CdrImport>({ url: 'imports/csv', method: 'POST', data: body, silent: true }),
  csvFields: () => rest<CdrCsvFields>({ url: 'imports/csv-fields' }),
  rerun: (id: number) => rest<CdrImport>({ url: `imports/${id}/rerun`, method: 'POST', data: {} }),
  synthetic: (patients: number, seed: number) =>
    rest<JobView>({ url: 'cdr/synthetic', method: 'POST', data: { patients, seed } }),
  syntheticRuns: () => rest<CdrSyntheticRun[]>({ url: 'cdr/synthetic' }),
};

export const cdr = {
  tables: () => rest<CdrTableInfo[]>({ url: 'cdr/tables' }),
  rows: (q: Q) => rest<CdrBrowserPage>({ url: 'cdr/rows', params: q }),
  overview: () => rest<CdrOverview>({ url: 'cdr/overview' }),
  /** The directory (目录浏览): each table's rows and each field's filled rows. */
  directory: () => rest<CdrDirectory>({ url: 'cdr/directory' }),
  fieldProfile: (table: string, field: string) =>
    rest<CdrFieldProfile>({ url: 'cdr/directory/field', params: { table, field } }),
  /** Registers a patient by hand (the server checks the national ID again). */
  createPatient: (input: CdrPatientInput) =>
    rest<CdrPatient>({ url: 'cdr/patients', method: 'POST', data: input }),
  /** Corrects a patient's registration (every field; audited with before and after). */
  updatePatient: (id: number, input: CdrPatientInput) =>
    rest<CdrPatient>({ url: `cdr/patients/${id}`, method: 'PUT', data: input }),
};

/** What the patient registration form sends (the server's patient input, from core). */
export type CdrPatientInput = PatientInputBody;

export const fullText = {
  search: (c: CdrSearchConditions) =>
    rest<CdrSearchResult>({
      url: 'fulltext/search',
      method: 'POST',
      data: c,
      silent: true,
    }),
  exportUrl: 'fulltext/export',
};
