import { and, desc, eq, like, sql } from 'drizzle-orm';
import { seedSynthetic } from '../../clinical/synthetic/seed.js';
import type { Db } from '../../db/client.js';
import { diagnoses, labResults, patients, physicalExams, visits } from '../../db/schema/index.js';
import type { DemoApi } from './api.js';
import {
  CHARTS,
  DASHBOARD_NAME,
  DEMO_SEED,
  HEPATITIS_B_CRITERIA,
  HEPATITIS_FORM,
  HEPATITIS_FORM_NAME,
  HOSPITAL_CAMPUS,
  HOSPITAL_DEPARTMENTS,
  LIBRARY_FORM,
  LIBRARY_FORM_NAME,
  LIBRARY_NAME,
  LIBRARY_RULES,
  OMOP_TASK_NAME,
  QC_PLAN_NAME,
  SCHEDULE_NAME,
  SUBJECT_NAME,
  SUBJECT_VARIABLES,
  T0_EVENT_NAME,
  TOPIC_NAME,
} from './definitions.js';

export interface StepContext {
  db: Db;
  api: DemoApi;
  appId: number;
  patients: number;
  /** Reports this step's share done, 0 to 1. */
  progress: (share: number) => Promise<void>;
  /** Waits until the jobs are over (the demo's own jobs run beside it). */
  waitForJobs: (ids: number[]) => Promise<void>;
}

/**
 * One part of the demo hospital. A step looks for what it made before (by name, by count), so a
 * step cut off by a restart is finished on the next start without making anything twice.
 */
export interface DemoStep {
  name: string;
  /** Its share of the progress bar. */
  weight: number;
  /** The job that runs it: a later phase is a job queued after the jobs the earlier one started. */
  phase: 1 | 2 | 3;
  run: (c: StepContext) => Promise<void>;
}

type Named = { id: number; name: string };
type Page<T> = { items: T[]; total?: number };

/**
 * Patients of a diagnosis code prefix (the chronic hepatitis B cohort), those with a hospital stay
 * first (their 360 view has a bedside chart), then oldest first.
 */
async function patientsWith(db: Db, appId: number, prefix: string, limit: number) {
  // Qualified by hand: drizzle writes a column of a one-table select unqualified (v's own inside).
  const stayed = sql<boolean>`exists (select 1 from ${visits} v where v.patient_id = diagnoses.patient_id and v.kind = 'inpatient')`;
  const rows = await db
    .selectDistinct({ id: diagnoses.patientId, stayed })
    .from(diagnoses)
    .where(and(eq(diagnoses.appId, appId), like(diagnoses.icd10, `${prefix}%`)))
    // By position: DISTINCT wants its ORDER BY in the select list.
    .orderBy(sql.raw('2 desc, 1'))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** The latest value of each lab item and of weight and height of a patient, for a CRF record. */
async function latestFindings(db: Db, patientId: number) {
  const labs = await db
    .select({ code: labResults.itemCode, value: labResults.valueNum })
    .from(labResults)
    .where(eq(labResults.patientId, patientId))
    .orderBy(desc(labResults.collectedAt));
  const lab = (code: string) => labs.find((l) => l.code === code)?.value ?? undefined;
  const exams = await db
    .select({ item: physicalExams.item, value: physicalExams.value })
    .from(physicalExams)
    .where(eq(physicalExams.patientId, patientId))
    .orderBy(desc(physicalExams.recordedAt));
  const exam = (item: string) => {
    const v = Number(exams.find((e) => e.item === item)?.value);
    return Number.isFinite(v) ? v : undefined;
  };
  return {
    weight: exam('体重'),
    height: exam('身高'),
    alt: lab('ALT'),
    ast: lab('AST'),
    tbil: lab('TBIL'),
    hbvDna: lab('HBVDNA'),
  };
}

async function publishedForm(api: DemoApi, name: string, definition: unknown) {
  const found = await api.find<Named & { status: string }>('/api/v0.1/crf/forms?size=100', name);
  const id =
    found?.id ??
    (await api.post<{ id: number }>('/api/v0.1/crf/forms', { name, category: '肝病', definition })).id;
  if (found?.status !== 'published')
    await api.post(`/api/v0.1/crf/forms/${id}/publish`, { note: '示范医院第 1 版' });
  return id;
}

const patientsStep: DemoStep = {
  phase: 1,
  name: 'patients',
  weight: 70,
  async run({ db, appId, patients: wanted, progress }) {
    // Batches are transactions written one after another: the patients present are indexes 0..n-1.
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(patients)
      .where(and(eq(patients.appId, appId), like(patients.sourceId, `syn-${DEMO_SEED}-%`)));
    const from = row?.n ?? 0;
    if (from >= wanted) return;
    await seedSynthetic(db, {
      appId,
      patients: wanted,
      seed: DEMO_SEED,
      from,
      // Small batches with a pause between them: the server keeps answering while the demo is made.
      batchSize: 10,
      pauseMs: 30,
      onProgress: (done) => progress(done / wanted),
    });
  },
};

/** The hepatitis CRF with records in every status, each for a patient of the cohort. */
const crfStep: DemoStep = {
  phase: 1,
  name: 'crf',
  weight: 4,
  async run({ db, api, appId }) {
    const formId = await publishedForm(api, HEPATITIS_FORM_NAME, HEPATITIS_FORM);
    const existing = await api.get<Page<unknown> & { total: number }>(
      `/api/v0.1/crf/forms/${formId}/records?size=1`,
    );
    if (existing.total > 0) return;
    // Chronic hepatitis B only (B18.1): B18.2 is hepatitis C, whose patients are HBsAg negative.
    const cohort = await patientsWith(db, appId, 'B18.1', 16);
    let i = 0;
    for (const patientId of cohort) {
      const f = await latestFindings(db, patientId);
      const status = (['draft', 'submitted', 'verified', 'locked'] as const)[i % 4]!;
      const answers: Record<string, unknown> = {
        visitDate: `2025-0${1 + (i % 6)}-${String(10 + i).padStart(2, '0')}`,
        weight: f.weight ?? 58 + (i % 7) * 3,
        height: f.height ?? 160 + (i % 5) * 4,
        familyHistory: i % 3 === 0 ? 'yes' : 'no',
        hbsag: 'pos',
        hbeag: i % 2 ? 'neg' : 'pos',
        ...(f.hbvDna !== undefined ? { hbvDna: f.hbvDna } : {}),
        ...(f.alt !== undefined ? { alt: f.alt } : {}),
        ...(f.ast !== undefined ? { ast: f.ast } : {}),
        ...(f.tbil !== undefined ? { tbil: f.tbil } : {}),
        antiviral: i % 3 === 0 ? 'tdf' : 'etv',
        plan: '继续抗病毒治疗，3 个月后复查肝功能及 HBV DNA。',
      };
      // A draft is half-way through: the lab section still to do.
      if (status === 'draft') for (const k of ['hbeag', 'hbvDna', 'alt', 'ast', 'tbil']) delete answers[k];
      const record = await api.post<{ id: number }>(`/api/v0.1/crf/forms/${formId}/records`, {
        patientId,
        answers,
        submit: status !== 'draft',
      });
      if (status === 'verified' || status === 'locked')
        await api.post(`/api/v0.1/crf/records/${record.id}/verify`, { reason: '已与原始病历核对' });
      if (status === 'locked')
        await api.post(`/api/v0.1/crf/records/${record.id}/lock`, { reason: '数据锁定' });
      i++;
    }
  },
};

/** The 慢性乙型肝炎 disease library: its disease, form, rules and a push of the cohort. */
const libraryStep: DemoStep = {
  phase: 1,
  name: 'library',
  weight: 4,
  async run({ api }) {
    const formId = await publishedForm(api, LIBRARY_FORM_NAME, LIBRARY_FORM);
    const diseases = await api.get<Page<Named>>(
      `/api/v0.1/disease?size=100&keyword=${encodeURIComponent('慢性乙型肝炎')}`,
    );
    const disease =
      diseases.items.find((d) => d.name === '慢性乙型肝炎') ??
      (await api.post<Named>('/api/v0.1/disease', {
        name: '慢性乙型肝炎',
        icd10: 'B18.1',
        category: '感染性疾病',
      }));
    const library =
      (await api.find<Named>('/api/v0.1/diseaselibrary/libraries?size=100', LIBRARY_NAME)) ??
      (await api.post<Named>('/api/v0.1/diseaselibrary/libraries', {
        name: LIBRARY_NAME,
        description: '慢性乙型病毒性肝炎（B18.1）患者，除外肝细胞癌；每周自动推送新患者。',
        diseaseId: disease.id,
        crfFormId: formId,
        criteria: HEPATITIS_B_CRITERIA,
        sourceRules: LIBRARY_RULES,
      }));
    const pushes = await api.get<unknown[]>(`/api/v0.1/diseaselibrary/libraries/${library.id}/pushes`);
    if (!pushes.length) await api.post(`/api/v0.1/diseaselibrary/libraries/${library.id}/push`);
  },
};

const move = (api: DemoApi, id: number, to: string) =>
  api.post(`/api/v0.1/research/subjects/${id}/status`, { to, reason: '示范医院课题进展' });

/** A research subject recruited from the cohort, now in data preparation with a dataset. */
const researchStep: DemoStep = {
  phase: 1,
  name: 'research',
  weight: 4,
  async run({ api }) {
    const subject =
      (await api.find<Named & { status: string }>('/api/v0.1/research/subjects?size=100', SUBJECT_NAME)) ??
      (await api.post<Named & { status: string }>('/api/v0.1/research/subjects', {
        name: SUBJECT_NAME,
        typeCode: 'cohort',
        startDate: '2025-01-01',
        endDate: '2027-12-31',
        targetSize: 300,
        criteria: HEPATITIS_B_CRITERIA,
        variables: SUBJECT_VARIABLES,
      }));
    let status = subject.status;
    if (status === 'staged') {
      await move(api, subject.id, 'recruiting');
      status = 'recruiting';
    }
    if (status === 'recruiting') {
      await api.post(`/api/v0.1/research/subjects/${subject.id}/recruit`, { mode: 'criteria' });
      await move(api, subject.id, 'recruitmentStopped');
      status = 'recruitmentStopped';
    }
    if (status === 'recruitmentStopped') await move(api, subject.id, 'dataPreparing');
    const datasets = await api.get<unknown[]>(`/api/v0.1/research/subjects/${subject.id}/datasets`);
    if (!datasets.length)
      await api.post(`/api/v0.1/research/subjects/${subject.id}/datasets`, { name: '基线数据集' });
  },
};

/** Multi-center mode on, and a topic this hospital leads. */
const multiCenterStep: DemoStep = {
  phase: 1,
  name: 'multicenter',
  weight: 1,
  async run({ api }) {
    const settings = await api.get<{ mode: string }>('/api/v0.1/config/module');
    if (settings.mode !== 'multi-center')
      await api.call('PUT', '/api/v0.1/config/module', { ...settings, mode: 'multi-center' });
    if (await api.find<Named>('/api/v0.1/mc/topics?size=100', TOPIC_NAME)) return;
    await api.post('/api/v0.1/mc/topics', {
      name: TOPIC_NAME,
      variables: [
        { key: 'alt', label: 'ALT (U/L)' },
        { key: 'hbvdna', label: 'HBV DNA (IU/mL)' },
        { key: 'cirrhosis', label: '肝硬化' },
      ],
    });
  },
};

/** Saved charts and a dashboard of them. */
const chartsStep: DemoStep = {
  phase: 1,
  name: 'charts',
  weight: 1,
  async run({ api }) {
    const ids: number[] = [];
    for (const chart of CHARTS) {
      const found = await api.find<Named>('/api/v0.1/visualization/charts?size=100', chart.name);
      ids.push(found?.id ?? (await api.post<Named>('/api/v0.1/visualization/charts', chart)).id);
    }
    if (await api.find<Named>('/api/v0.1/visualization/dashboards?size=100', DASHBOARD_NAME)) return;
    await api.post('/api/v0.1/visualization/dashboards', {
      name: DASHBOARD_NAME,
      description: '示范医院的患者、诊断与就诊概况',
      tiles: ids.map((chartId, i) => ({ chartId, span: i === 2 ? 24 : 12 })),
    });
  },
};

/** A data-quality plan of patient-record rules, run once (its report). */
const qcStep: DemoStep = {
  phase: 1,
  name: 'dataQc',
  weight: 2,
  async run({ api }) {
    const rules = [
      { name: '患者联系电话必填', table: 'patients', kind: 'required', column: 'phone' },
      { name: '患者住址必填', table: 'patients', kind: 'required', column: 'address' },
    ];
    const ruleIds: number[] = [];
    for (const rule of rules) {
      const found = await api.find<Named>('/api/v0.1/data-qc/rules?size=100', rule.name);
      ruleIds.push(found?.id ?? (await api.post<Named>('/api/v0.1/data-qc/rules', rule)).id);
    }
    const plan =
      (await api.find<Named>('/api/v0.1/data-qc/plans?size=100', QC_PLAN_NAME)) ??
      (await api.post<Named>('/api/v0.1/data-qc/plans', {
        name: QC_PLAN_NAME,
        description: '每月检查患者基本信息是否完整',
        ruleIds,
      }));
    const tasks = await api.get<Page<unknown>>('/api/v0.1/data-qc/tasks?size=1');
    if (!tasks.items.length) await api.post('/api/v0.1/data-qc/tasks', { planId: plan.id });
  },
};

/** OMOP: the app's own code maps, the default rules, and one export. */
const omopStep: DemoStep = {
  phase: 1,
  name: 'omop',
  weight: 2,
  async run({ api }) {
    const maps = await api.get<Page<unknown> | unknown[]>('/api/v0.1/omop/mappings?size=1');
    if (!(Array.isArray(maps) ? maps : maps.items).length) {
      for (const m of [
        { kind: 'condition', sourceCode: 'I10', conceptId: 320128, conceptName: 'Essential hypertension' },
        {
          kind: 'condition',
          sourceCode: 'E11.9',
          conceptId: 201826,
          conceptName: 'Type 2 diabetes mellitus',
        },
      ])
        await api.post('/api/v0.1/omop/mappings', { ...m, note: '示范医院映射' });
      await api.post('/api/v0.1/omop/rules/defaults');
    }
    const tasks = await api.get<Page<unknown> | unknown[]>('/api/v0.1/omop/tasks?size=1');
    if (!(Array.isArray(tasks) ? tasks : tasks.items).length)
      await api.post('/api/v0.1/omop/tasks', { name: OMOP_TASK_NAME });
  },
};

/** A weekly push of the library (Mondays 02:00). */
const scheduleStep: DemoStep = {
  phase: 1,
  name: 'schedule',
  weight: 1,
  async run({ api }) {
    if (await api.find<Named>('/api/v0.1/task-scheduling/schedules?size=100', SCHEDULE_NAME)) return;
    const library = await api.find<Named>('/api/v0.1/diseaselibrary/libraries?size=100', LIBRARY_NAME);
    if (!library) throw new Error('demo hospital: the disease library is missing');
    await api.post('/api/v0.1/task-scheduling/schedules', {
      name: SCHEDULE_NAME,
      kind: 'diseaseLibrary.push',
      params: { libraryId: library.id },
      cron: '0 2 * * 1',
    });
  },
};

type LibraryJob = { id: number; status: string };

/** After the push: the library's patients filled from their data (people's notes stay empty). */
const fillStep: DemoStep = {
  phase: 2,
  name: 'fill',
  weight: 6,
  async run({ api, waitForJobs }) {
    const library = await api.find<Named>('/api/v0.1/diseaselibrary/libraries?size=100', LIBRARY_NAME);
    if (!library) throw new Error('demo hospital: the disease library is missing');
    const base = `/api/v0.1/diseaselibrary/libraries/${library.id}`;
    await waitForJobs((await api.get<LibraryJob[]>(`${base}/pushes`)).map((j) => j.id));
    const fills = await api.get<LibraryJob[]>(`${base}/fills`);
    if (!fills.length) await api.post(`${base}/fill`);
  },
};

/**
 * The end: the fill and the analysis are over. A phase waits only for jobs of earlier phases,
 * which run before it in queue order, so the demo works with one job at a time too.
 */
const finishStep: DemoStep = {
  name: 'finish',
  weight: 4,
  phase: 3,
  async run({ api, waitForJobs }) {
    const library = await api.find<Named>('/api/v0.1/diseaselibrary/libraries?size=100', LIBRARY_NAME);
    const subject = await api.find<Named>('/api/v0.1/research/subjects?size=100', SUBJECT_NAME);
    if (!library || !subject) throw new Error('demo hospital: the library or the subject is missing');
    const fills = await api.get<LibraryJob[]>(`/api/v0.1/diseaselibrary/libraries/${library.id}/fills`);
    const analyses = await api.get<Array<{ task_id: number }>>(
      `/api/v0.1/research/subjects/${subject.id}/analyses`,
    );
    await waitForJobs([...fills.map((j) => j.id), ...analyses.map((a) => a.task_id)]);
    // The study team goes on preparing data (a second dataset with follow-up values to come).
    const { status } = await api.get<{ status: string }>(`/api/v0.1/research/subjects/${subject.id}`);
    if (status === 'dataPrepared') await move(api, subject.id, 'dataPreparing');
  },
};

/** After the dataset: analysis results (a description; ALT by sex, Welch's t-test) on the prepared data. */
const analysisStep: DemoStep = {
  phase: 2,
  name: 'analysis',
  weight: 5,
  async run({ api, waitForJobs }) {
    const subject = await api.find<Named>('/api/v0.1/research/subjects?size=100', SUBJECT_NAME);
    if (!subject) throw new Error('demo hospital: the research subject is missing');
    const base = `/api/v0.1/research/subjects/${subject.id}`;
    const built = await api.get<Array<{ id: number; jobId: number | null }>>(`${base}/datasets`);
    await waitForJobs(built.flatMap((d) => (d.jobId ? [d.jobId] : [])));
    const datasets = await api.get<Array<{ id: number; rowCount?: number }>>(`${base}/datasets`);
    const analyses = await api.get<unknown[]>(`${base}/analyses`);
    if (analyses.length || !datasets[0]) return;
    // Analyses run on prepared data; finishStep takes the subject back to data preparation.
    const { status } = await api.get<{ status: string }>(base);
    if (status === 'dataPreparing') await move(api, subject.id, 'dataPrepared');
    const datasetId = datasets[0].id;
    await api.post(`${base}/analyses`, {
      datasetId,
      params: { method: 'descriptive', variables: ['age', 'sex', 'alt', 'hbvdna', 'cirrhosis'] },
    });
    // A comparison needs enough patients of each sex (a small DEMO_PATIENTS has a handful).
    if ((datasets[0].rowCount ?? 0) >= 40)
      await api.post(`${base}/analyses`, {
        datasetId,
        params: { method: 'groupCompare', test: 'ttest', outcome: 'alt', group: 'sex' },
      });
  },
};

type Unit = { id: number; code: string; kind: string };

/**
 * Reference data: the campus, its departments and wards (医院信息维护), and the basic dictionaries
 * (made the first time they are asked for). A unit already there (by code) is left as it is.
 */
const referenceStep: DemoStep = {
  phase: 1,
  name: 'reference',
  weight: 1,
  async run({ api }) {
    await api.get('/api/v0.1/basic-dictionaries');
    const have = async () =>
      new Map((await api.get<{ items: Unit[] }>('/api/v0.1/hospital-units')).items.map((u) => [u.code, u]));
    const units = await have();
    const campus =
      units.get(HOSPITAL_CAMPUS.code) ??
      (await api.post<Unit>('/api/v0.1/hospital-units', { kind: 'campus', ...HOSPITAL_CAMPUS }));
    for (const d of HOSPITAL_DEPARTMENTS) {
      const dept =
        units.get(d.code) ??
        (await api.post<Unit>('/api/v0.1/hospital-units', {
          kind: 'department',
          code: d.code,
          name: d.name,
          parentId: campus.id,
        }));
      const wardCode = `${d.code}01`;
      if (!units.has(wardCode))
        await api.post('/api/v0.1/hospital-units', {
          kind: 'ward',
          code: wardCode,
          name: d.ward,
          parentId: dept.id,
        });
    }
    // The cohort's index date: the first chronic hepatitis B diagnosis, worked out by its job.
    const events = await api.get<{
      items: Array<{ id: number; name: string; materializedAt: string | null }>;
    }>('/api/v0.1/t0-events');
    const t0 =
      events.items.find((e) => e.name === T0_EVENT_NAME) ??
      (await api.post<{ id: number; name: string; materializedAt: null }>('/api/v0.1/t0-events', {
        name: T0_EVENT_NAME,
        description: '慢性乙型肝炎队列的 T0：首次诊断 B18.1 的时间',
        rule: { kind: 'firstDiagnosis', icd10Prefix: 'B18.1' },
      }));
    if (!t0.materializedAt) await api.post(`/api/v0.1/t0-events/${t0.id}/run`);
  },
};

/** In order; the last two wait for jobs the earlier ones started. */
export const DEMO_STEPS: DemoStep[] = [
  patientsStep,
  crfStep,
  libraryStep,
  researchStep,
  multiCenterStep,
  chartsStep,
  qcStep,
  omopStep,
  scheduleStep,
  referenceStep,
  fillStep,
  analysisStep,
  finishStep,
];
