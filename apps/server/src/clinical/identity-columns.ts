import { patients } from '../db/schema/index.js';

/**
 * The columns that say who a patient is (id, name, MRN, gender, birth date), as the lists that
 * show a patient select them: the CRF patient picker, a library's patient page, a subject's
 * enrolled patients. What a viewer may see of them is decided by clinical/privacy.ts.
 */
export const patientIdentityColumns = {
  id: patients.id,
  name: patients.name,
  mrn: patients.mrn,
  gender: patients.gender,
  birthDate: patients.birthDate,
};
