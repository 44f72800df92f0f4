import type { Form } from '@crdp/crf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanBloodPressure } from '../cleaning/test/fixtures.js';
import { demoAppId } from '../research/test/support.js';
import { get, post, settleJob, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { addPatient, csvLines, exportLibrary } from './test/fixtures.js';

const P = '/api/v0.1/diseaselibrary';

/**
 * Issue 18: a value read from clinical text by a cleaning task is a column of a disease
 * library's dataset. The library's item takes its source rule from the template source
 * `cleaned` (the same indicator templates every other item uses); the fill writes it into the
 * patient's record and the export carries it as a column. Values worked out by hand:
 *
 *   张清 notes: 2024-01-02 血压138/80, 2024-01-05 血压1300/80 (out of range), 2024-01-10 血压126/80
 *   -> latest 收缩压 without the fault = 126; highest = 138.
 *   王清 has no note: no value, an empty cell.
 */
const FORM: Form = {
  pages: [
    {
      key: 'base',
      title: '高血压专病',
      items: [
        { key: 'sbpLatest', type: 'textQuestion', title: '最近收缩压 (mmHg)', textType: 'number' },
        { key: 'sbpMax', type: 'textQuestion', title: '最高收缩压 (mmHg)', textType: 'number' },
      ],
    },
  ],
};

describe('a disease-library column from cleaned values', () => {
  let t: TestApp;
  let admin: string;
  let zhang: number;
  let wang: number;
  let libId: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    const appId = await demoAppId(t.app);
    const dx: Array<[string, string, string]> = [['I10', '原发性高血压', '2024-01-02']];
    zhang = await addPatient(t.app, appId, { mrn: 'CLIB-1', name: '张清', diagnoses: dx });
    wang = await addPatient(t.app, appId, { mrn: 'CLIB-2', name: '王清', diagnoses: dx });
    for (const [body, at] of [
      ['体格检查：血压138/80mmHg。', '2024-01-02T12:00:00+08:00'],
      ['血压1300/80mmHg（录入错误）', '2024-01-05T12:00:00+08:00'],
      ['查体：血压126/80mmHg。', '2024-01-10T12:00:00+08:00'],
    ] as const) {
      const r = await post(
        t.app,
        `/api/v0.1/cdr/patients/${zhang}/records`,
        { table: 'documents', row: { kind: 'progress', title: '病程记录', body, writtenAt: at } },
        admin,
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    expect((await cleanBloodPressure(t.app, admin, '专病库血压')).status).toBe('succeeded');
  }, 120_000);
  afterAll(() => t?.close());

  it('fills an item whose rule reads cleaned values and exports it as a column', async () => {
    const form = await post(t.app, '/api/v0.1/crf/forms', { name: '高血压专病表', definition: FORM }, admin);
    const formId = form.body.data.id as number;
    await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: 'v1' }, admin);
    const lib = await post(
      t.app,
      `${P}/libraries`,
      {
        name: '高血压专病库（文本）',
        crfFormId: formId,
        criteria: { match: 'all', inclusion: [{ kind: 'diagnosis', codes: ['I10'] }], exclusion: [] },
        sourceRules: {
          sbpLatest: 'latest cleaned.value where name = "收缩压"',
          sbpMax: 'max cleaned.value where code = "SBP"',
        },
        filingRule: 'firstVisit',
      },
      admin,
    );
    expect(lib.status, JSON.stringify(lib.body)).toBe(200);
    libId = lib.body.data.id;
    const push = await post(t.app, `${P}/libraries/${libId}/push`, {}, admin);
    expect((await settleJob(t.app, admin, push.body.data.jobId)).result).toMatchObject({ added: 2 });
    const fill = await post(t.app, `${P}/libraries/${libId}/fill`, {}, admin);
    expect((await settleJob(t.app, admin, fill.body.data.jobId)).status).toBe('succeeded');

    const z = await get(t.app, `${P}/libraries/${libId}/patients/${zhang}`, admin);
    expect(z.body.data.record.answers).toEqual({ sbpLatest: 126, sbpMax: 138 });
    const log = await get(
      t.app,
      `${P}/libraries/${libId}/fill_log?patientId=${zhang}&itemKey=sbpLatest`,
      admin,
    );
    expect(log.body.data.items[0]).toMatchObject({ outcome: 'filled', source: { table: 'cleaned_values' } });

    const { file } = await exportLibrary(t.app, admin, libId, ['sbpLatest', 'sbpMax']);
    const lines = csvLines(file.body);
    expect(lines[0]).toBe('patient_id,mrn,name,filing_date,sbpLatest,sbpMax');
    expect(lines.slice(1).map((l: string) => l.split(',').slice(1, 3).concat(l.split(',').slice(4)))).toEqual(
      expect.arrayContaining([
        ['CLIB-1', '张清', '126', '138'],
        ['CLIB-2', '王清', '', ''],
      ]),
    );
    const w = await get(t.app, `${P}/libraries/${libId}/patients/${wang}`, admin);
    expect(w.body.data.record?.answers ?? {}).toEqual({});
  });
});
