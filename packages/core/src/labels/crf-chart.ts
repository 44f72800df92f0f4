import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/**
 * CRF item types (`ITEM_TYPES` of @crdp/crf, which depends on this package; its test checks
 * every type has words here). The designer's palette and the server's form checks use them.
 */
export const CRF_ITEM_TYPE_LABELS = {
  radio: both('单选题', 'Single choice'),
  checkbox: both('多选题', 'Multiple choice'),
  textQuestion: both('填空题', 'Text / number'),
  gapFilling: both('多项填空题', 'Fill in the blanks'),
  paragraph: both('说明文字', 'Description'),
  matrix: both('矩阵题', 'Matrix'),
  upload: both('上传题', 'File upload'),
  score: both('评分题', 'Score'),
} as const satisfies Record<string, LabelText>;

/**
 * The 27 chart subtypes of spec 001 section 3 (`CHART_SUBTYPES` of @crdp/charts, whose test
 * checks every subtype has words here), in the order the chart builder lists them.
 */
export const CHART_SUBTYPE_LABELS = {
  'rich-text': both('富文本', 'Rich text'),
  table: both('表格', 'Table'),
  column: both('柱状图', 'Column'),
  'stacked-column': both('堆叠柱状图', 'Stacked column'),
  'per-stacked-column': both('百分比堆叠柱状图', '100% stacked column'),
  bar: both('条形图', 'Bar'),
  'stacked-bar': both('堆叠条形图', 'Stacked bar'),
  'per-stacked-bar': both('百分比堆叠条形图', '100% stacked bar'),
  line: both('折线图', 'Line'),
  area: both('面积图', 'Area'),
  'stacked-area': both('堆叠面积图', 'Stacked area'),
  coordinates: both('平行坐标图', 'Parallel coordinates'),
  pie: both('饼图', 'Pie'),
  rose: both('玫瑰图', 'Rose'),
  sunburst: both('旭日图', 'Sunburst'),
  map: both('地图', 'Map'),
  radar: both('雷达图', 'Radar'),
  'word-cloud': both('词云', 'Word cloud'),
  'scatter-plot': both('散点图', 'Scatter plot'),
  bubble: both('气泡图', 'Bubble'),
  'sankey-diagram': both('桑基图', 'Sankey diagram'),
  heatmap: both('热力图', 'Heatmap'),
  box: both('箱线图', 'Box plot'),
  funnel: both('漏斗图', 'Funnel'),
  'tree-map': both('矩形树图', 'Tree map'),
  venn: both('韦恩图', 'Venn'),
} as const satisfies Record<string, LabelText>;

/** The chart builder's channels (`CHANNELS` of @crdp/charts). */
export const CHART_CHANNEL_LABELS = {
  x: both('X 轴', 'X axis'),
  y: both('Y 轴', 'Y axis'),
  color: both('颜色', 'Colour'),
  label: both('标签', 'Label'),
  value: both('数值', 'Value'),
  group: both('分组', 'Group'),
  column: both('列', 'Columns'),
  text: both('文本', 'Text'),
  size: both('大小', 'Size'),
  xs: both('多个 X 轴', 'X axes'),
  ys: both('多个 Y 轴', 'Y axes'),
  category: both('类别', 'Category'),
  intensity: both('强度', 'Intensity'),
  conditions: both('条件', 'Conditions'),
  sets: both('集合', 'Sets'),
} as const satisfies Record<string, LabelText>;
