import { addScreenTexts } from '../../app/i18n';

/** Screen text of MIMIC 分析 (namespace `mimic`). */
const zhCN = {
  title: '外部数据集分析（MIMIC）',
  hint: '导入一张 CSV 表格作为分析数据源（表头一行，逗号分隔，UTF-8），用课题分析的同一套统计方法分析。含 subject_id、hadm_id、stay_id（或 icustay_id）的表按 MIMIC ICU 住院表识别，并由 intime、outtime 算出住 ICU 天数 los。取值很多的文字列（时间、自由文本）只在预览中显示，不作分类变量。',
  import: '导入 CSV',
  name: '数据集名称',
  file: 'CSV 文件',
  chooseFile: '选择文件',
  noFile: '请选择 CSV 文件',
  imported: '已导入 {{n}} 行',
  datasets: '数据集',
  empty: '还没有外部数据集',
  layout: '格式',
  rows: '行数',
  columns: '列',
  preview: '前 20 行',
  analyse: '分析',
  history: '分析记录',
  pick: '请选择一个数据集',
  delete: '删除',
};
const enUS: typeof zhCN = {
  title: 'External dataset analysis (MIMIC)',
  hint: 'Import a CSV table (a header line, comma separated, UTF-8) as an analysis source and analyse it with the research subjects’ statistical methods. A table with subject_id, hadm_id and stay_id (or icustay_id) is read as a MIMIC ICU stay table and gains its ICU length of stay (los, days) from intime and outtime. Text columns with many values (times, free text) show in the preview only, not as categories.',
  import: 'Import CSV',
  name: 'Dataset name',
  file: 'CSV file',
  chooseFile: 'Choose file',
  noFile: 'Choose a CSV file',
  imported: '{{n}} rows imported',
  datasets: 'Datasets',
  empty: 'No external datasets yet',
  layout: 'Layout',
  rows: 'Rows',
  columns: 'Columns',
  preview: 'First 20 rows',
  analyse: 'Analyse',
  history: 'Analyses',
  pick: 'Choose a dataset',
  delete: 'Delete',
};
export const MIMIC_NS = addScreenTexts('mimic', zhCN, enUS);
