import type { Form } from '@crdp/crf';
import { rest } from '../../api/client';

/** Calls of the disease-library pages (apps/server/src/disease-library/routes.ts). */
export interface Library {
  id: number;
  name: string;
  description: string;
  diseaseName: string | null;
  crfFormName: string | null;
  filingRule: string;
  status: string;
  patients: number;
  lastPushAt: string | null;
  lastFillAt: string | null;
}
export interface PatientListRequest {
  library_id: number;
  page: number;
  size: number;
  filters: Record<string, unknown>;
}
export interface PatientEntry {
  id: number;
  patient_id: number;
  Patient_name: string;
  Filing_date: string;
  mrn: string;
  gender: number;
  first_visit: string | null;
  reason: string[];
  completeness: number | null;
}
export interface PatientPage {
  total: number;
  page: number;
  size: number;
  items: PatientEntry[];
}
export interface LibraryPatient {
  libraryName: string;
  patient: { id: number; name: string; mrn: string };
  firstVisit: string | null;
  filingDate: string;
  reason: string[];
  itemMethods: Record<string, string>;
  record: {
    id: number;
    revision: number;
    status: string;
    answers: Record<string, unknown>;
    methods: Record<string, string>;
  } | null;
  definition: Form | null;
}
export interface Job {
  id: number;
  status: string;
  progress: number;
  result: Record<string, unknown> | null;
  error: string | null;
}

const P = 'diseaselibrary';
export const libraryApi = {
  list: (params: Record<string, unknown>) =>
    rest<{ total: number; items: Library[] }>({ url: `${P}/libraries`, params }),
  create: (data: unknown) => rest<{ id: number }>({ url: `${P}/libraries`, method: 'POST', data }),
  count: (criteria: unknown) =>
    rest<{ count: number }>({ url: `${P}/criteria/count`, method: 'POST', data: criteria }),
  push: (id: number) =>
    rest<{ jobId: number }>({ url: `${P}/libraries/${id}/push`, method: 'POST', data: {} }),
  fill: (id: number) =>
    rest<{ jobId: number }>({ url: `${P}/libraries/${id}/fill`, method: 'POST', data: {} }),
  job: (id: number) => rest<Job>({ url: `jobs/${id}` }),
  patients: (data: PatientListRequest) =>
    rest<PatientPage>({ url: `${P}/get_page_disease_library_patient_list`, method: 'POST', data }),
  patient: (id: number, patientId: number) =>
    rest<LibraryPatient>({ url: `${P}/libraries/${id}/patients/${patientId}` }),
  save: (id: number, patientId: number, data: { answers: Record<string, unknown>; revision: number }) =>
    rest<{ record: { revision: number } }>({
      url: `${P}/libraries/${id}/patients/${patientId}/record`,
      method: 'PUT',
      data,
    }),
  fillLog: (id: number, params: Record<string, unknown>) =>
    rest<{ total: number; items: Array<Record<string, unknown>> }>({
      url: `${P}/libraries/${id}/fill_log`,
      params,
    }),
  forms: () =>
    rest<{ items: Array<{ id: number; name: string; latestVersion: number }> }>({
      url: 'crf/forms',
      params: { size: 100 },
    }),
};

/** Polls a job until it ends. */
export async function waitForJob(jobId: number, onProgress?: (p: number) => void): Promise<Job> {
  for (;;) {
    const j = await libraryApi.job(jobId);
    onProgress?.(j.progress);
    if (j.status === 'succeeded' || j.status === 'failed') return j;
    await new Promise((r) => setTimeout(r, 500));
  }
}
