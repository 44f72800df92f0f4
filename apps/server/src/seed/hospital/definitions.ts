import type { Form } from '@crdp/crf';

/** The demo hospital's synthetic patients: seed 2026, so every start makes the same people. */
export const DEMO_SEED = 2026;

/**
 * The hepatitis B case report form of the demo, after the sample hepatitis case record of spec 001
 * (clinical observation, lab tests, disease, medication, past and family history, treatment plan).
 */
export const HEPATITIS_FORM: Form = {
  pages: [
    {
      key: 'base',
      title: '基本信息与体征',
      items: [
        { key: 'visitDate', type: 'textQuestion', title: '随访日期', textType: 'date', isRequired: 1 },
        {
          key: 'weight',
          type: 'textQuestion',
          title: '体重 (kg)',
          textType: 'number',
          isRequired: 1,
          minVal: 20,
          maxVal: 250,
        },
        {
          key: 'height',
          type: 'textQuestion',
          title: '身高 (cm)',
          textType: 'number',
          isRequired: 1,
          minVal: 100,
          maxVal: 230,
        },
        {
          key: 'bmi',
          type: 'textQuestion',
          title: 'BMI',
          textType: 'number',
          fixed: 1,
          fxTopicData: { func: 'bmi', fields: ['weight', 'height'] },
        },
        {
          key: 'familyHistory',
          type: 'radio',
          title: '乙肝家族史',
          options: [
            { name: '无', code: 'no' },
            { name: '有', code: 'yes' },
          ],
        },
      ],
    },
    {
      key: 'lab',
      title: '实验室检查',
      items: [
        {
          key: 'hbsag',
          type: 'radio',
          title: '乙肝表面抗原',
          isRequired: 1,
          options: [
            { name: '阴性', code: 'neg' },
            { name: '阳性', code: 'pos' },
          ],
        },
        {
          key: 'hbeag',
          type: 'radio',
          title: '乙肝 e 抗原',
          options: [
            { name: '阴性', code: 'neg' },
            { name: '阳性', code: 'pos' },
          ],
        },
        { key: 'hbvDna', type: 'textQuestion', title: 'HBV DNA (IU/mL)', textType: 'number', minVal: 0 },
        { key: 'alt', type: 'textQuestion', title: 'ALT (U/L)', textType: 'number', minVal: 0 },
        { key: 'ast', type: 'textQuestion', title: 'AST (U/L)', textType: 'number', minVal: 0 },
        { key: 'tbil', type: 'textQuestion', title: '总胆红素 (μmol/L)', textType: 'number', minVal: 0 },
      ],
    },
    {
      key: 'treatment',
      title: '治疗与计划',
      items: [
        {
          key: 'antiviral',
          type: 'radio',
          title: '抗病毒药物',
          options: [
            { name: '恩替卡韦', code: 'etv' },
            { name: '替诺福韦', code: 'tdf' },
            { name: '未用药', code: 'none' },
          ],
        },
        { key: 'plan', type: 'textQuestion', title: '诊疗计划', textType: 'textarea', maxNub: 500 },
      ],
    },
  ],
};
export const HEPATITIS_FORM_NAME = '慢性乙型肝炎随访 CRF';

/** The disease library's own form: what its source rules fill, and a note only people write. */
export const LIBRARY_FORM: Form = {
  pages: [
    {
      key: 'base',
      title: '慢性乙型肝炎专病',
      items: [
        { key: 'age', type: 'textQuestion', title: '入库年龄', textType: 'number' },
        { key: 'alt', type: 'textQuestion', title: '最近 ALT (U/L)', textType: 'number' },
        { key: 'hbvDna', type: 'textQuestion', title: '最近 HBV DNA (IU/mL)', textType: 'number' },
        { key: 'admissions', type: 'textQuestion', title: '住院次数', textType: 'number' },
        { key: 'cirrhosisDate', type: 'textQuestion', title: '首次肝硬化诊断日期', textType: 'text' },
        { key: 'note', type: 'textQuestion', title: '随访备注', textType: 'text' },
      ],
    },
  ],
};
export const LIBRARY_FORM_NAME = '慢性乙型肝炎专病表';
export const LIBRARY_NAME = '慢性乙型肝炎专病库';
export const LIBRARY_RULES = {
  age: 'value patient.age',
  alt: 'latest lab.value where code = "ALT"',
  hbvDna: 'latest lab.value where code = "HBVDNA"',
  admissions: 'count visit where kind = "inpatient"',
  cirrhosisDate: 'first diagnosis.date where code starts "K74"',
};
export const HEPATITIS_B_CRITERIA = {
  match: 'all' as const,
  inclusion: [{ kind: 'diagnosis' as const, codes: ['B18.1'] }],
  exclusion: [{ kind: 'diagnosis' as const, codes: ['C22'] }],
};

export const SUBJECT_NAME = '慢性乙型肝炎抗病毒治疗队列研究';
export const SUBJECT_VARIABLES = [
  { key: 'age', label: '年龄', source: 'age' },
  { key: 'sex', label: '性别', source: 'gender' },
  { key: 'alt', label: 'ALT', source: 'lab', itemCode: 'ALT', aggregate: 'last' },
  { key: 'hbvdna', label: 'HBV DNA', source: 'lab', itemCode: 'HBVDNA', aggregate: 'last' },
  { key: 'cirrhosis', label: '肝硬化', source: 'diagnosis', codes: ['K74'] },
];

export const TOPIC_NAME = '多中心慢性乙型肝炎真实世界研究';
export const QC_PLAN_NAME = '检验与患者信息质控方案';
export const OMOP_TASK_NAME = '示范医院 OMOP 导出';
export const SCHEDULE_NAME = '专病库每周推送';
export const DASHBOARD_NAME = '示范医院概览';

/**
 * Saved charts of the workbench and the chart builder (dataset, dimensions, the chart's channels),
 * with axis titles in words as a person names them in the builder (else the field keys show).
 */
export const CHARTS = [
  {
    name: '各年龄段患者数',
    query: { dataset: 'patients', dimensions: ['age_band'], measures: ['count'] },
    spec: {
      subtype: 'column',
      channels: {
        x: [{ field: 'age_band', labelOverride: '年龄段' }],
        y: [{ field: 'count', aggregate: 'sum', labelOverride: '患者数' }],
      },
    },
  },
  {
    name: '诊断构成',
    query: { dataset: 'diagnoses', dimensions: ['diagnosis'], measures: ['count'] },
    spec: {
      subtype: 'pie',
      channels: {
        category: [{ field: 'diagnosis', labelOverride: '诊断' }],
        value: [{ field: 'count', aggregate: 'sum', labelOverride: '诊断数' }],
      },
    },
  },
  {
    name: '每月就诊人次',
    query: { dataset: 'visits', dimensions: ['month'], measures: ['count'] },
    spec: {
      subtype: 'line',
      channels: {
        x: [{ field: 'month', labelOverride: '月份' }],
        y: [{ field: 'count', aggregate: 'sum', labelOverride: '就诊人次' }],
      },
    },
  },
];

/**
 * The demo hospital's structure: one campus, the departments the synthetic visits name (so each
 * department shows its visits), and a ward under each department that admits patients.
 */
export const HOSPITAL_CAMPUS = { code: '01', name: '本部院区' } as const;
export const HOSPITAL_DEPARTMENTS = [
  { code: '0301', name: '消化内科', ward: '消化内科病区' },
  { code: '0302', name: '感染科', ward: '感染科病区' },
  { code: '0303', name: '心内科', ward: '心内科病区' },
  { code: '0401', name: '肝胆外科', ward: '肝胆外科病区' },
] as const;

/** The demo's T0 event: the first chronic hepatitis B diagnosis. */
export const T0_EVENT_NAME = '首次诊断慢性乙型肝炎';
