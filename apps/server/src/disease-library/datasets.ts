import type { Locale } from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Dataset, Text } from '../visualization/catalogue.js';

/**
 * The disease-library dataset of the chart builder: one row per patient of a library, with the
 * library, its disease, the filing month, gender and age at filing. Lets people chart
 * enrolment across libraries next to the clinical datasets.
 */
const t = (zh: string, en: string): Text => ({ 'zh-CN': zh, 'en-US': en });
const fixed = (e: SQL) => () => e;
const ageAtFiling = sql`extract(year from age(lp.filing_date, p.birth_date))::int`;

const gender = (l: Locale) =>
  l === 'zh-CN'
    ? sql`(case p.gender when 1 then '男' when 2 then '女' when 3 then '其他' else '未知' end)`
    : sql`(case p.gender when 1 then 'Male' when 2 then 'Female' when 3 then 'Other' else 'Unknown' end)`;
const ageBand = (l: Locale) =>
  sql`(case when p.birth_date is null then ${l === 'zh-CN' ? '未知' : 'Unknown'}
    when ${ageAtFiling} < 18 then '<18' when ${ageAtFiling} < 45 then '18-44'
    when ${ageAtFiling} < 65 then '45-64' else '≥65' end)`;

export const DISEASE_LIBRARY_DATASETS: Dataset[] = [
  {
    id: 'library_patients',
    source: 'disease-library',
    label: t('专病库患者', 'Disease-library patients'),
    description: t(
      '专病库中的患者：所属专病库、病种、入库月份、性别与入库年龄',
      'Patients of the disease libraries: library, disease, filing month, gender and age at filing',
    ),
    dimensions: [
      { key: 'library', label: t('专病库', 'Library'), type: 'string', expr: fixed(sql`l.name`) },
      {
        key: 'disease',
        label: t('病种', 'Disease'),
        type: 'string',
        expr: (l) => sql`coalesce(dz.name, ${l === 'zh-CN' ? '未指定' : 'Not set'})`,
      },
      {
        key: 'filing_month',
        label: t('入库月份', 'Filing month'),
        type: 'date',
        expr: fixed(sql`to_char(lp.filing_date, 'YYYY-MM')`),
      },
      { key: 'gender', label: t('性别', 'Gender'), type: 'string', expr: gender },
      { key: 'age_band', label: t('入库年龄段', 'Age band at filing'), type: 'string', expr: ageBand },
    ],
    measures: [
      { key: 'count', label: t('患者数', 'Patients'), expr: sql`count(*)::int`, rollup: 'sum' },
      {
        key: 'avg_age',
        label: t('平均入库年龄', 'Average age at filing'),
        expr: sql`round(avg(${ageAtFiling}), 1)::float8`,
        rollup: 'average',
      },
    ],
    from: (
      appId,
    ) => sql`disease_library_patients lp join disease_libraries l on l.id = lp.library_id and l.deleted_at is null
      join patients p on p.id = lp.patient_id left join diseases dz on dz.disease_id = l.disease_id
      where lp.app_id = ${appId}`,
  },
];
