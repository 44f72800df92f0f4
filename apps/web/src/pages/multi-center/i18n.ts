import { i18next } from '../../app/i18n';

type Tree = { [k: string]: string | Tree };
const zhCN = {
  topics: '研究主题',
  name: '主题名称',
  role: '本中心角色',
  lead: '牵头中心',
  member: '参与中心',
  centers: '中心数',
  create: '创建主题',
  centerIds: '参与中心（应用 ID，逗号分隔）',
  variables: '变量（键:名称:下限:上限，每行一个）',
  background: '研究背景',
  objectives: '研究目标',
  design: '研究设计',
  endpoints: '研究终点',
  save: '保存',
  saved: '已保存',
  pooled: '汇总数据（去标识）',
  cases: '病例数',
  detection: '数据检测',
  completeness: '完整度',
  missing: '缺失',
  outOfRange: '超出范围',
  duplicate: '重复',
  fix: '待修正',
  open: '详情',
  off: '多中心模式未开启',
};
const enUS: typeof zhCN = {
  topics: 'Topics',
  name: 'Topic',
  role: 'This center',
  lead: 'Leading center',
  member: 'Member center',
  centers: 'Centers',
  create: 'New topic',
  centerIds: 'Member centers (app ids, comma separated)',
  variables: 'Variables (key:label:min:max, one per line)',
  background: 'Background',
  objectives: 'Objectives',
  design: 'Design',
  endpoints: 'Endpoints',
  save: 'Save',
  saved: 'Saved',
  pooled: 'Pooled data (de-identified)',
  cases: 'Cases',
  detection: 'Data checks',
  completeness: 'Completeness',
  missing: 'Missing',
  outOfRange: 'Out of range',
  duplicate: 'Duplicates',
  fix: 'To fix',
  open: 'Open',
  off: 'Multi-center mode is off',
};
export const MC_NS = 'multiCenter';
if (!i18next.hasResourceBundle('zh-CN', MC_NS)) {
  i18next.addResourceBundle('zh-CN', MC_NS, zhCN as Tree);
  i18next.addResourceBundle('en-US', MC_NS, enUS as Tree);
}
