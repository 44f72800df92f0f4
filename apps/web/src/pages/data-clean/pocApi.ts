import { rest } from '../../api/client';
import { readStored, writeStored } from '../../app/storage';

export interface LibrarySummary {
  id: number;
  name: string;
  crfFormId: number | null;
  crfFormName: string | null;
}

export interface LibraryPatient {
  id: number;
  patient_id: number;
  record_id: number | null;
  Patient_name: string;
  Filing_date: string | null;
  mrn: string;
}

/** The patient-list request (spec 001 section 7): the next page repeats it with page + 1. */
export interface PatientListRequest {
  library_id: number;
  page: number;
  size: number;
  filters?: { name?: string; mrn?: string };
}

export const pocApi = {
  libraries: () =>
    rest<{ items: LibrarySummary[]; total: number }>({
      url: 'diseaselibrary/libraries',
      params: { page: 1, size: 200 },
    }),
  patients: (req: PatientListRequest) =>
    rest<{ items: LibraryPatient[]; total: number; page: number; size: number }>({
      url: 'diseaselibrary/get_page_disease_library_patient_list',
      method: 'POST',
      data: req,
    }),
};

/** The list the record form walks with its next button: the last request and its page of patients. */
export interface WalkState {
  request: PatientListRequest;
  items: LibraryPatient[];
  index: number;
  crfFormId: number;
}

const KEY = 'CRF_POC_WALK';
export const readWalk = () => readStored<WalkState | null>(KEY, null);
export const writeWalk = (w: WalkState) => writeStored(KEY, w);
