import type {
  LibraryPage,
  LibraryPatientEntry,
  LibraryPatientListInput,
  LibraryPatientPage,
} from '@crdp/core';
import { rest } from '../../api/client';
import { readStored, writeStored } from '../../app/storage';

export type LibraryPatient = LibraryPatientEntry;
/** The patient-list request (spec 001 section 7): the next page repeats it with page + 1. */
export type PatientListRequest = Omit<LibraryPatientListInput, 'filters'> & {
  filters?: LibraryPatientListInput['filters'];
};

export const pocApi = {
  libraries: () =>
    rest<LibraryPage>({
      url: 'diseaselibrary/libraries',
      params: { page: 1, size: 200 },
    }),
  patients: (req: PatientListRequest) =>
    rest<LibraryPatientPage>({
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
