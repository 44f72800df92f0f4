import { i18next } from '../../app/i18n';

type Tree = { [k: string]: string | Tree };

/** Text of the condition builder (research subjects, disease libraries): namespace `cohort`. */
const zhCN = {
  match: '纳入条件之间',
  matchAll: '全部满足',
  matchAny: '满足任一',
  inclusion: '纳入条件',
  exclusion: '排除条件',
  exclusionHint: '满足任一排除条件的患者不入选',
  add: '添加条件',
  remove: '删除',
  none: '（无）',
  incomplete: '有 {{count}} 个条件未填完整，保存时不会计入',
  kinds: {
    diagnosis: '诊断编码',
    lab: '检验结果',
    age: '年龄',
    gender: '性别',
    visit: '就诊类型',
    documentText: '文书内容',
  },
  codes: 'ICD-10 编码，回车分隔（B18 可匹配 B18.1）',
  itemCode: '检验项目编码',
  min: '最小值',
  max: '最大值',
  ageMin: '最小年龄',
  ageMax: '最大年龄',
  from: '开始日期',
  to: '结束日期',
  text: '文书中包含的文字',
  gender: { 0: '未知', 1: '男', 2: '女', 3: '其他' },
  visitKinds: { outpatient: '门诊', inpatient: '住院', emergency: '急诊' },
};
const enUS: typeof zhCN = {
  match: 'Inclusion conditions',
  matchAll: 'all must hold',
  matchAny: 'any may hold',
  inclusion: 'Include',
  exclusion: 'Exclude',
  exclusionHint: 'A patient meeting any exclusion condition is left out',
  add: 'Add a condition',
  remove: 'Remove',
  none: '(none)',
  incomplete: '{{count}} conditions are not complete and will not be saved',
  kinds: {
    diagnosis: 'Diagnosis code',
    lab: 'Lab result',
    age: 'Age',
    gender: 'Gender',
    visit: 'Visit type',
    documentText: 'Document text',
  },
  codes: 'ICD-10 codes, Enter after each (B18 matches B18.1)',
  itemCode: 'Lab item code',
  min: 'Min',
  max: 'Max',
  ageMin: 'Min age',
  ageMax: 'Max age',
  from: 'From',
  to: 'To',
  text: 'Text the document contains',
  gender: { 0: 'Unknown', 1: 'Male', 2: 'Female', 3: 'Other' },
  visitKinds: { outpatient: 'Outpatient', inpatient: 'Inpatient', emergency: 'Emergency' },
};
export const COHORT_NS = 'cohort';
if (!i18next.hasResourceBundle('zh-CN', COHORT_NS)) {
  i18next.addResourceBundle('zh-CN', COHORT_NS, zhCN as unknown as Tree);
  i18next.addResourceBundle('en-US', COHORT_NS, enUS as unknown as Tree);
}
