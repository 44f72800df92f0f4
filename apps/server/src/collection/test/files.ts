import { genderField } from './his.js';

/**
 * The patient template of a HIS export folder whose `patients.csv` has the Chinese headers
 * 病案号, 姓名, 性别 (and 出生日期 when `birth` is set): read as col_1 … col_4.
 */
export const csvPatientTemplate = (sourceId: number, name: string, birth = false) => ({
  name,
  sourceId,
  target: 'patients',
  spec: {
    table: 'patients',
    keyColumn: 'col_1',
    fields: [
      { field: 'mrn', column: 'col_1' },
      { field: 'name', column: 'col_2' },
      genderField('col_3'),
      ...(birth
        ? [{ field: 'birthDate', column: 'col_4', transforms: [{ kind: 'date', format: 'yyyyMMdd' }] }]
        : []),
    ],
  },
});
