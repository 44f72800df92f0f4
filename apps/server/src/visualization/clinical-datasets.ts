import type { Locale } from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Dataset, Dimension, Measure, Text } from './catalogue.js';

/**
 * Datasets over the clinical data repository (patients, diagnoses, lab results, visits).
 * Code values are translated in SQL so the grouping and the label are one expression.
 */
const t = (zh: string, en: string): Text => ({ 'zh-CN': zh, 'en-US': en });
const fixed = (e: SQL) => () => e;
const byLocale = (m: Record<Locale, SQL>) => (l: Locale) => m[l];

/**
 * A translated code label. Plain values become one jsonb lookup per row (`{code: label} ->>
 * subject`), much cheaper than a CASE of many branches over 100,000 rows; conditions
 * (`between`, `<`) use a searched CASE.
 */
function caseOf(
  subject: SQL,
  when: Array<[SQL | string | number, string, string]>,
  otherwise: [string, string],
) {
  const simple = when.every(([v]) => typeof v === 'string' || typeof v === 'number');
  const build = (pick: (zh: string, en: string) => string, other: string) => {
    if (simple) {
      const labels = JSON.stringify(Object.fromEntries(when.map(([v, zh, en]) => [String(v), pick(zh, en)])));
      return sql`coalesce(${labels}::jsonb ->> (${subject})::text, ${other})`;
    }
    return sql`(case ${sql.join(
      when.map(([v, zh, en]) => sql`when ${subject} ${v as SQL} then ${pick(zh, en)}`),
      sql` `,
    )} else ${other} end)`;
  };
  return byLocale({
    'zh-CN': build((zh) => zh, otherwise[0]),
    'en-US': build((_zh, en) => en, otherwise[1]),
  });
}

/** Province of the first two digits of a national ID (GB/T 2260), named as on the China map. */
export const PROVINCE_BY_CODE: Record<string, string> = {
  '11': '北京',
  '12': '天津',
  '13': '河北',
  '14': '山西',
  '15': '内蒙古',
  '21': '辽宁',
  '22': '吉林',
  '23': '黑龙江',
  '31': '上海',
  '32': '江苏',
  '33': '浙江',
  '34': '安徽',
  '35': '福建',
  '36': '江西',
  '37': '山东',
  '41': '河南',
  '42': '湖北',
  '43': '湖南',
  '44': '广东',
  '45': '广西',
  '46': '海南',
  '50': '重庆',
  '51': '四川',
  '52': '贵州',
  '53': '云南',
  '54': '西藏',
  '61': '陕西',
  '62': '甘肃',
  '63': '青海',
  '64': '宁夏',
  '65': '新疆',
  '71': '台湾',
  '81': '香港',
  '82': '澳门',
};
const province = caseOf(
  sql`substr(p.national_id, 1, 2)`,
  Object.entries(PROVINCE_BY_CODE).map(([code, name]) => [code, name, name]),
  ['未知', 'Unknown'],
);

const gender = caseOf(
  sql`p.gender`,
  [
    [1, '男', 'Male'],
    [2, '女', 'Female'],
    [3, '其他', 'Other'],
  ],
  ['未知', 'Unknown'],
);

const ageYears = sql`extract(year from age(current_date, p.birth_date))::int`;
// width_bucket computes the age once per row: 0 under 18, 1 for 18-44, 2 for 45-64, 3 from 65.
const ageBand = caseOf(
  sql`width_bucket(${ageYears}, array[18, 45, 65])`,
  [
    [0, '0-17岁', '0-17'],
    [1, '18-44岁', '18-44'],
    [2, '45-64岁', '45-64'],
    [3, '65岁及以上', '65+'],
  ],
  ['未知', 'Unknown'],
);

/** ICD-10 chapters by the three-character category. */
const ICD10_CHAPTERS: Array<[string, string, string, string]> = [
  ['A00', 'B99', '传染病和寄生虫病', 'Infectious and parasitic'],
  ['C00', 'D48', '肿瘤', 'Neoplasms'],
  ['D50', 'D89', '血液及造血器官疾病', 'Blood and immune'],
  ['E00', 'E90', '内分泌、营养和代谢疾病', 'Endocrine and metabolic'],
  ['F00', 'F99', '精神和行为障碍', 'Mental and behavioural'],
  ['G00', 'G99', '神经系统疾病', 'Nervous system'],
  ['H00', 'H59', '眼和附器疾病', 'Eye and adnexa'],
  ['H60', 'H95', '耳和乳突疾病', 'Ear and mastoid'],
  ['I00', 'I99', '循环系统疾病', 'Circulatory system'],
  ['J00', 'J99', '呼吸系统疾病', 'Respiratory system'],
  ['K00', 'K93', '消化系统疾病', 'Digestive system'],
  ['L00', 'L99', '皮肤和皮下组织疾病', 'Skin'],
  ['M00', 'M99', '肌肉骨骼系统疾病', 'Musculoskeletal'],
  ['N00', 'N99', '泌尿生殖系统疾病', 'Genitourinary'],
  ['O00', 'O99', '妊娠、分娩和产褥期', 'Pregnancy and childbirth'],
  ['P00', 'P96', '围生期情况', 'Perinatal'],
  ['Q00', 'Q99', '先天性畸形', 'Congenital'],
  ['R00', 'R99', '症状、体征和异常所见', 'Symptoms and signs'],
  ['S00', 'T98', '损伤、中毒', 'Injury and poisoning'],
  ['V01', 'Y98', '疾病和死亡的外因', 'External causes'],
  ['Z00', 'Z99', '影响健康状态的因素', 'Factors influencing health'],
  ['U00', 'U99', '特殊目的编码', 'Special purposes'],
];
const icdCategory = sql`upper(substr(d.icd10, 1, 3))`;
const icdChapter = caseOf(
  icdCategory,
  ICD10_CHAPTERS.map(([from, to, zh, en]) => [sql`between ${from} and ${to}`, zh, en]),
  ['未编码', 'Not coded'],
);

const month = (col: SQL) => sql`to_char(${col}, 'YYYY-MM')`;
const flag = (cond: SQL) => sql`(${cond})`;
const hasDiagnosis = (from: string, to: string) =>
  flag(
    sql`exists (select 1 from diagnoses dx where dx.patient_id = p.id and upper(substr(dx.icd10, 1, 3)) between ${from} and ${to})`,
  );

const count = (label: Text, expr = sql`count(*)::int`): Measure => ({
  key: 'count',
  label,
  expr,
  rollup: 'sum',
});
const distinctPatients = (col: SQL): Measure => ({
  key: 'patients',
  label: t('患者数', 'Patients'),
  expr: sql`count(distinct ${col})::int`,
  rollup: 'sum',
});
const avg = (key: string, label: Text, expr: SQL): Measure => ({
  key,
  label,
  expr: sql`round(avg(${expr})::numeric, 2)::float8`,
  rollup: 'average',
});
/** Count, distinct patients, average, minimum and maximum of a numeric value (lab or cleaned values). */
const valueMeasures = (countLabel: Text, patientCol: SQL, value: SQL): Measure[] => [
  count(countLabel),
  distinctPatients(patientCol),
  avg('avg_value', t('平均值', 'Average value'), value),
  { key: 'min_value', label: t('最小值', 'Minimum'), expr: sql`min(${value})::float8`, rollup: 'min' },
  { key: 'max_value', label: t('最大值', 'Maximum'), expr: sql`max(${value})::float8`, rollup: 'max' },
];
const dim = (key: string, label: Text, type: Dimension['type'], expr: Dimension['expr']): Dimension => ({
  key,
  label,
  type,
  expr,
});

const patientDims = [
  dim('gender', t('性别', 'Gender'), 'string', gender),
  dim('age_band', t('年龄段', 'Age band'), 'string', ageBand),
];

/** The item of a lab result (alias l), by name and code. */
const labItemDims = [
  dim('item', t('检验项目', 'Item'), 'string', fixed(sql`l.item_name`)),
  dim('item_code', t('项目代码', 'Item code'), 'string', fixed(sql`l.item_code`)),
];

/** Whole days from the patient's T0 to a moment (negative before T0). */
const daysFromT0 = (at: SQL) => sql`floor(extract(epoch from (${at} - z.t0)) / 86400)::int`;

/** Results of a lab item counted from each patient's T0 of each calculated T0 event. */
const LAB_FROM_T0: Dataset = {
  id: 'lab_results_from_t0',
  source: 'clinical',
  label: t('检验结果（距 T0）', 'Lab results from T0'),
  description: t(
    '检验结果按距患者 T0 的天数、周数或月数：以 T0 事件为时间零点，看指标在 T0 前后如何变化',
    "Lab results by days, weeks or months from the patient's T0: a T0 event as the zero point, to see how a value moves around it",
  ),
  dimensions: [
    dim('t0_event', t('T0 事件', 'T0 event'), 'string', fixed(sql`e.name`)),
    dim(
      'period',
      t('T0 前后', 'Before or after T0'),
      'string',
      caseOf(
        sql`l.collected_at`,
        [
          [sql`< z.t0`, 'T0 前', 'Before T0'],
          [sql`= z.t0`, 'T0 当时', 'At T0'],
        ],
        ['T0 后', 'After T0'],
      ),
    ),
    dim('days_from_t0', t('距 T0 天数', 'Days from T0'), 'number', fixed(daysFromT0(sql`l.collected_at`))),
    dim(
      'weeks_from_t0',
      t('距 T0 周数', 'Weeks from T0'),
      'number',
      fixed(sql`floor(${daysFromT0(sql`l.collected_at`)} / 7.0)::int`),
    ),
    dim(
      'months_from_t0',
      t('距 T0 月数（30 天）', 'Months from T0 (30 days)'),
      'number',
      fixed(sql`floor(${daysFromT0(sql`l.collected_at`)} / 30.0)::int`),
    ),
    ...labItemDims,
    ...patientDims,
  ],
  measures: valueMeasures(t('结果数', 'Results'), sql`l.patient_id`, sql`l.value_num`),
  from: (appId) => sql`lab_results l join t0_patients z on z.patient_id = l.patient_id and z.app_id = ${appId}
    join t0_events e on e.id = z.event_id join patients p on p.id = l.patient_id where l.app_id = ${appId}`,
};

/** The patients of each T0 event, by the month of their T0 and how long they have been followed. */
const T0_PATIENTS: Dataset = {
  id: 't0_patients',
  source: 'clinical',
  label: t('T0 患者', 'Patients by T0'),
  description: t(
    '各 T0 事件的患者，按 T0 月份与 T0 以来的随访年数',
    'The patients of each T0 event, by the month of their T0 and the years since it',
  ),
  dimensions: [
    dim('t0_event', t('T0 事件', 'T0 event'), 'string', fixed(sql`e.name`)),
    dim('t0_month', t('T0 月份', 'T0 month'), 'date', fixed(month(sql`z.t0`))),
    dim(
      'years_since_t0',
      t('T0 以来年数', 'Years since T0'),
      'number',
      fixed(sql`floor(${daysFromT0(sql`now()`)} / 365.25)::int`),
    ),
    ...patientDims,
  ],
  measures: [count(t('患者数', 'Patients'))],
  from: (appId) =>
    sql`t0_patients z join t0_events e on e.id = z.event_id join patients p on p.id = z.patient_id where z.app_id = ${appId}`,
};

/**
 * Values the cleaning tasks read from clinical text (cleaned_values, cleaning/README.md): by name,
 * unit, the kind of document, day or month, and the department of the document's visit. A value
 * with a QC fault (out of range, unknown unit) is a row with its fault, so a chart can count
 * faults; the average, minimum and maximum leave it out, as a disease library's indicator does.
 */
const cleanValue = sql`(case when c.fault = '' then c.value_num end)`;
const CLEANED_VALUES: Dataset = {
  id: 'cleaned_values',
  source: 'clinical',
  label: t('文本结构化结果', 'Values from clinical text'),
  description: t(
    '清洗任务从病历文本中提取的结构化值，按名称、单位、文书类型、日期与就诊科室；质控问题值计数但不计入平均、最小与最大值',
    'Structured values the cleaning tasks read from clinical text, by name, unit, document kind, date and department; values with a QC fault are counted but left out of the average, minimum and maximum',
  ),
  dimensions: [
    dim('name', t('名称', 'Name'), 'string', fixed(sql`c.name`)),
    dim('code', t('代码', 'Code'), 'string', fixed(sql`c.code`)),
    dim('unit', t('单位', 'Unit'), 'string', fixed(sql`coalesce(nullif(c.unit, ''), '-')`)),
    dim(
      'document_kind',
      t('文书类型', 'Document kind'),
      'string',
      caseOf(
        sql`d.kind`,
        [
          ['admission', '入院记录', 'Admission note'],
          ['progress', '病程记录', 'Progress note'],
          ['discharge', '出院小结', 'Discharge summary'],
        ],
        ['其他文书', 'Other document'],
      ),
    ),
    dim('day', t('记录日期', 'Day'), 'date', fixed(sql`to_char(c.observed_at, 'YYYY-MM-DD')`)),
    dim('month', t('记录月份', 'Month'), 'date', fixed(month(sql`c.observed_at`))),
    dim(
      'department',
      t('就诊科室', 'Department'),
      'string',
      fixed(sql`coalesce(nullif(v.department, ''), '-')`),
    ),
    dim(
      'fault',
      t('质控问题', 'QC fault'),
      'string',
      caseOf(
        sql`c.fault`,
        [
          ['', '无', 'None'],
          ['out_of_range', '超出范围', 'Out of range'],
          ['unknown_unit', '未知单位', 'Unknown unit'],
          ['bad_number', '数值无法识别', 'Unreadable number'],
        ],
        ['其他问题', 'Other fault'],
      ),
    ),
    dim(
      'negated',
      t('否定', 'Negated'),
      'boolean',
      fixed(flag(sql`coalesce((c.qualifiers ->> 'negated')::boolean, false)`)),
    ),
    ...patientDims,
  ],
  measures: valueMeasures(t('值个数', 'Values'), sql`c.patient_id`, cleanValue),
  from: (appId) => sql`cleaned_values c join documents d on d.id = c.document_id
    left join visits v on v.id = c.visit_id join patients p on p.id = c.patient_id where c.app_id = ${appId}`,
};

export const CLINICAL_DATASETS: Dataset[] = [
  {
    id: 'patients',
    source: 'clinical',
    label: t('患者', 'Patients'),
    description: t(
      '患者人口学：性别、年龄、籍贯省份（身份证号前两位）',
      'Demographics: gender, age, province of the national ID',
    ),
    dimensions: [
      ...patientDims,
      dim('age', t('年龄（岁）', 'Age (years)'), 'number', fixed(ageYears)),
      dim('province', t('省份', 'Province'), 'string', province),
      dim(
        'birth_year',
        t('出生年份', 'Birth year'),
        'number',
        fixed(sql`extract(year from p.birth_date)::int`),
      ),
      dim('filing_month', t('建档月份', 'Filing month'), 'date', fixed(month(sql`p.created_at`))),
      dim('data_source', t('数据来源', 'Data source'), 'string', fixed(sql`p.source`)),
      dim('hypertension', t('高血压', 'Hypertension'), 'boolean', fixed(hasDiagnosis('I10', 'I15'))),
      dim('diabetes', t('糖尿病', 'Diabetes'), 'boolean', fixed(hasDiagnosis('E10', 'E14'))),
      dim('liver_disease', t('肝病', 'Liver disease'), 'boolean', fixed(hasDiagnosis('K70', 'K77'))),
      dim('elderly', t('65岁及以上', 'Aged 65+'), 'boolean', fixed(flag(sql`${ageYears} >= 65`))),
    ],
    measures: [count(t('患者数', 'Patients')), avg('avg_age', t('平均年龄', 'Average age'), ageYears)],
    from: (appId) => sql`patients p where p.app_id = ${appId}`,
  },
  {
    id: 'diagnoses',
    source: 'clinical',
    label: t('诊断', 'Diagnoses'),
    description: t(
      '诊断按 ICD-10 章节、类目、名称与类型',
      'Diagnoses by ICD-10 chapter, category, name and kind',
    ),
    dimensions: [
      dim('icd10_chapter', t('ICD-10 章节', 'ICD-10 chapter'), 'string', icdChapter),
      dim('icd10_category', t('ICD-10 类目', 'ICD-10 category'), 'string', fixed(icdCategory)),
      dim('diagnosis', t('诊断名称', 'Diagnosis'), 'string', fixed(sql`d.name`)),
      dim('kind', t('诊断类型', 'Kind'), 'string', fixed(sql`d.kind`)),
      dim('month', t('诊断月份', 'Month'), 'date', fixed(month(sql`d.diagnosed_at`))),
      ...patientDims,
    ],
    measures: [count(t('诊断数', 'Diagnoses')), distinctPatients(sql`d.patient_id`)],
    from: (appId) => sql`diagnoses d join patients p on p.id = d.patient_id where d.app_id = ${appId}`,
  },
  {
    id: 'lab_results',
    source: 'clinical',
    label: t('检验结果', 'Lab results'),
    description: t('检验结果按项目与月份', 'Lab results by item and month'),
    dimensions: [
      ...labItemDims,
      dim('month', t('采集月份', 'Month'), 'date', fixed(month(sql`l.collected_at`))),
      dim(
        'abnormal',
        t('异常标志', 'Flag'),
        'string',
        caseOf(
          sql`l.abnormal_flag`,
          [
            ['H', '偏高', 'High'],
            ['L', '偏低', 'Low'],
            ['N', '正常', 'Normal'],
            ['A', '异常', 'Abnormal'],
          ],
          ['未标记', 'Not flagged'],
        ),
      ),
      ...patientDims,
    ],
    measures: valueMeasures(t('结果数', 'Results'), sql`l.patient_id`, sql`l.value_num`),
    from: (appId) => sql`lab_results l join patients p on p.id = l.patient_id where l.app_id = ${appId}`,
  },
  {
    id: 'visits',
    source: 'clinical',
    label: t('就诊', 'Visits'),
    description: t('门诊、住院与急诊就诊，按科室、类型与月份', 'Visits by department, kind and month'),
    dimensions: [
      dim(
        'department',
        t('科室', 'Department'),
        'string',
        fixed(sql`coalesce(nullif(v.department, ''), '-')`),
      ),
      dim(
        'kind',
        t('就诊类型', 'Kind'),
        'string',
        caseOf(
          sql`v.kind`,
          [
            ['outpatient', '门诊', 'Outpatient'],
            ['inpatient', '住院', 'Inpatient'],
            ['emergency', '急诊', 'Emergency'],
          ],
          ['其他', 'Other'],
        ),
      ),
      dim('month', t('就诊月份', 'Month'), 'date', fixed(month(sql`v.admit_at`))),
      ...patientDims,
    ],
    measures: [
      count(t('就诊人次', 'Visits')),
      distinctPatients(sql`v.patient_id`),
      avg(
        'avg_stay_days',
        t('平均住院天数', 'Average stay (days)'),
        sql`extract(epoch from (v.discharge_at - v.admit_at)) / 86400`,
      ),
    ],
    from: (appId) => sql`visits v join patients p on p.id = v.patient_id where v.app_id = ${appId}`,
  },
  LAB_FROM_T0,
  T0_PATIENTS,
  CLEANED_VALUES,
];
