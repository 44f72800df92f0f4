import type { Form } from '@crdp/crf';
import type { FastifyInstance } from 'fastify';
import { diagnoses, labResults, patients, visits } from '../../db/schema/index.js';
import { post, settleJob } from '../../test/helper.js';

/** A hepatitis B form: values a fill can compute, and a note only people write. */
export const HBV_FORM: Form = {
  pages: [
    {
      key: 'base',
      title: '乙肝专病',
      items: [
        { key: 'alt', type: 'textQuestion', title: '基线 ALT (U/L)', textType: 'number' },
        { key: 'k74Date', type: 'textQuestion', title: '首次肝硬化诊断日期', textType: 'text' },
        { key: 'admissions', type: 'textQuestion', title: '住院次数', textType: 'number' },
        { key: 'dischargeDx', type: 'textQuestion', title: '出院诊断', textType: 'text' },
        { key: 'age', type: 'textQuestion', title: '入库年龄', textType: 'number' },
        { key: 'note', type: 'textQuestion', title: '备注', textType: 'text' },
      ],
    },
  ],
};

export const HBV_RULES = {
  alt: 'latest lab.value where code = "ALT" before first_visit',
  k74Date: 'first diagnosis.date where code starts "K74"',
  admissions: 'count visit where kind = "inpatient"',
  dischargeDx: 'latest diagnosis.name where kind = "discharge"',
  age: 'value patient.age',
};

export const HBV_CRITERIA = {
  match: 'all' as const,
  inclusion: [{ kind: 'diagnosis' as const, codes: ['B18'] }],
  exclusion: [{ kind: 'diagnosis' as const, codes: ['C22'] }],
};

const d = (s: string) => new Date(`${s}T08:00:00Z`);
let seq = 0;

/** One patient with its rows; every row gets a fresh source id. */
export async function addPatient(
  app: FastifyInstance,
  appId: number,
  p: {
    mrn: string;
    name: string;
    gender?: number;
    birthDate?: string;
    visits?: Array<[kind: string, date: string]>;
    diagnoses?: Array<[icd10: string, name: string, date: string, kind?: string]>;
    labs?: Array<[code: string, value: number, date: string]>;
  },
) {
  const [row] = await app.db
    .insert(patients)
    .values({
      appId,
      mrn: p.mrn,
      name: p.name,
      gender: p.gender ?? 1,
      birthDate: p.birthDate ?? '1970-06-15',
      source: 'test',
      sourceId: p.mrn,
    })
    .returning();
  const patientId = row!.id;
  for (const [kind, date] of p.visits ?? [])
    await app.db
      .insert(visits)
      .values({ appId, patientId, kind, admitAt: d(date), source: 'test', sourceId: `v${++seq}` });
  for (const [icd10, name, date, kind] of p.diagnoses ?? [])
    await app.db.insert(diagnoses).values({
      appId,
      patientId,
      icd10,
      name,
      kind: kind ?? 'main',
      diagnosedAt: d(date),
      source: 'test',
      sourceId: `d${++seq}`,
    });
  for (const [itemCode, valueNum, date] of p.labs ?? [])
    await app.db.insert(labResults).values({
      appId,
      patientId,
      itemCode,
      itemName: itemCode,
      valueNum,
      collectedAt: d(date),
      source: 'test',
      sourceId: `l${++seq}`,
    });
  return patientId;
}

/**
 * The hepatitis B story's clinical data: 张一 and 李二 have chronic hepatitis B, 王三 too but
 * with liver cancer (excluded), 赵四 only hypertension.
 */
export async function seedHepatitisB(app: FastifyInstance, appId: number) {
  const zhang = await addPatient(app, appId, {
    mrn: 'HB-1',
    name: '张一',
    birthDate: '1970-06-15',
    visits: [
      ['outpatient', '2024-01-05'],
      ['inpatient', '2024-02-01'],
      ['inpatient', '2024-03-01'],
    ],
    diagnoses: [
      ['B18.1', '慢性乙型病毒性肝炎', '2024-01-10'],
      ['B18.1', '慢性乙型病毒性肝炎（出院）', '2024-02-05', 'discharge'],
      ['K74.6', '肝硬化', '2024-03-05'],
      ['K74.6', '肝硬化', '2024-04-01'],
    ],
    labs: [
      ['ALT', 50, '2024-01-03'],
      ['ALT', 80, '2024-01-05'],
      ['ALT', 30, '2024-02-10'],
    ],
  });
  const li = await addPatient(app, appId, {
    mrn: 'HB-2',
    name: '李二',
    gender: 2,
    birthDate: '1954-03-01',
    visits: [['inpatient', '2024-02-20']],
    diagnoses: [['B18.1', '慢性乙型病毒性肝炎', '2024-02-20']],
  });
  const wang = await addPatient(app, appId, {
    mrn: 'HB-3',
    name: '王三',
    visits: [['outpatient', '2024-01-15']],
    diagnoses: [
      ['B18.0', '慢性乙型肝炎伴δ因子', '2024-01-15'],
      ['C22.0', '肝细胞癌', '2024-01-20'],
    ],
  });
  const zhao = await addPatient(app, appId, {
    mrn: 'HB-4',
    name: '赵四',
    visits: [['outpatient', '2024-01-15']],
    diagnoses: [['I10', '高血压', '2024-01-15']],
  });
  return { zhang, li, wang, zhao };
}

/** A published form of the app (the library's CRF). */
export async function publishedHbvForm(app: FastifyInstance, key: string, name = '乙肝专病表') {
  const form = await post(app, '/api/v0.1/crf/forms', { name, definition: HBV_FORM }, key);
  const formId = form.body.data.id as number;
  await post(app, `/api/v0.1/crf/forms/${formId}/publish`, { note: 'v1' }, key);
  return formId;
}

/** Harness objects: a library with one pushed and filled patient, a template and an export. */
export async function makeDiseaseLibraryObjects(app: FastifyInstance, adminKey: string, appId: number) {
  await addPatient(app, appId, {
    mrn: 'MATRIX-HB',
    name: '矩阵乙肝',
    visits: [['inpatient', '2024-01-01']],
    diagnoses: [['B18.1', '慢性乙型病毒性肝炎', '2024-01-01']],
  });
  const formId = await publishedHbvForm(app, adminKey, '矩阵专病表');
  const lib = await post(
    app,
    '/api/v0.1/diseaselibrary/libraries',
    { name: '矩阵专病库', crfFormId: formId, criteria: HBV_CRITERIA, sourceRules: HBV_RULES },
    adminKey,
  );
  const id = lib.body.data.id as number;
  await post(app, `/api/v0.1/diseaselibrary/libraries/${id}/push`, {}, adminKey);
  await app.jobs.drain();
  await post(app, `/api/v0.1/diseaselibrary/libraries/${id}/fill`, {}, adminKey);
  await post(
    app,
    `/api/v0.1/diseaselibrary/libraries/${id}/export`,
    { itemKeys: ['alt'], format: 'csv' },
    adminKey,
  );
  await post(
    app,
    '/api/v0.1/diseaselibrary/templates',
    { name: '矩阵模板', crfFormId: formId, sourceRules: HBV_RULES },
    adminKey,
  );
  await app.jobs.drain();
}

/**
 * Exports items of a library (`disease-library/export`), runs the job and downloads the file:
 * answers the job id and the download's response.
 */
export async function exportLibrary(
  app: FastifyInstance,
  key: string,
  libId: number,
  itemKeys: string[],
  format: 'csv' | 'xlsx' = 'csv',
) {
  const P = '/api/v0.1/diseaselibrary';
  const job = await post(app, `${P}/libraries/${libId}/export`, { itemKeys, format }, key);
  const jobId = job.body.data.jobId as number;
  await settleJob(app, key, jobId);
  const file = await app.inject({
    method: 'GET',
    url: `${P}/exports/${jobId}/download`,
    headers: { WeAppAuthorization: key },
  });
  return { jobId, file };
}

/** The lines of a CSV export (its byte-order mark and last line end dropped). */
export const csvLines = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
