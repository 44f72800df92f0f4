import type { FormulaVariable } from './formula.js';
import type { ScaleDefinition } from './scales.js';

/**
 * Built-in formulas and scales a user adds to an app with one click (they are not created
 * until then). Each text is given in both languages; the app receives the adding user's one.
 * Laboratory units are the ones Chinese laboratories report (μmol/L), converted in the
 * expression to the units of the published equations (mg/dL).
 */

type Locale = 'zh-CN' | 'en-US';
type Both = { 'zh-CN': string; 'en-US': string };
const both = (zh: string, en: string): Both => ({ 'zh-CN': zh, 'en-US': en });

export interface BuiltinFormula {
  key: string;
  name: Both;
  description: Both;
  unit: string;
  decimals: number;
  expression: string;
  variables: FormulaVariable[];
}

/** κ and α of CKD-EPI 2021 by gender (2 female), with creatinine in μmol/L over 88.4 as mg/dL. */
const SCR = '(crea / 88.4 / (gender == 2 ? 0.7 : 0.9))';

export const BUILTIN_FORMULAS: readonly BuiltinFormula[] = [
  {
    key: 'bmi',
    name: both('体重指数 BMI', 'Body mass index (BMI)'),
    description: both(
      '体重(kg) / 身高(m)²，取最近一次体格检查的身高和体重',
      'Weight (kg) / height (m)², from the latest physical exam',
    ),
    unit: 'kg/m²',
    decimals: 1,
    expression: '体重 / (身高 / 100) ^ 2',
    variables: [
      { name: '体重', source: 'exam', code: '体重' },
      { name: '身高', source: 'exam', code: '身高' },
    ],
  },
  {
    key: 'egfr-ckd-epi-2021',
    name: both('eGFR（CKD-EPI 2021）', 'eGFR (CKD-EPI 2021)'),
    description: both(
      '142 × min(Scr/κ, 1)^α × max(Scr/κ, 1)^−1.200 × 0.9938^年龄 × 1.012[女性]；κ 女 0.7 男 0.9，α 女 −0.241 男 −0.302；肌酐 CREA 单位 μmol/L',
      '142 × min(Scr/κ, 1)^α × max(Scr/κ, 1)^−1.200 × 0.9938^age × 1.012 [female]; κ 0.7 female, 0.9 male; α −0.241 female, −0.302 male; creatinine CREA in μmol/L',
    ),
    unit: 'mL/min/1.73m²',
    decimals: 1,
    expression: `142 * min(${SCR}, 1) ^ (gender == 2 ? -0.241 : -0.302) * max(${SCR}, 1) ^ -1.2 * 0.9938 ^ age * (gender == 2 ? 1.012 : 1)`,
    variables: [
      { name: 'crea', source: 'lab', code: 'CREA' },
      { name: 'age', source: 'age', code: '' },
      { name: 'gender', source: 'gender', code: '' },
    ],
  },
  {
    key: 'meld',
    name: both('MELD 评分', 'MELD score'),
    description: both(
      '3.78×ln(胆红素 mg/dL) + 11.2×ln(INR) + 9.57×ln(肌酐 mg/dL) + 6.43，各项小于 1 按 1 计，肌酐上限 4；TBIL、CREA 单位 μmol/L',
      '3.78×ln(bilirubin mg/dL) + 11.2×ln(INR) + 9.57×ln(creatinine mg/dL) + 6.43, values below 1 set to 1, creatinine capped at 4; TBIL and CREA in μmol/L',
    ),
    unit: '',
    decimals: 0,
    expression:
      'round(3.78 * ln(max(tbil / 17.1, 1)) + 11.2 * ln(max(inr, 1)) + 9.57 * ln(clamp(crea / 88.4, 1, 4)) + 6.43)',
    variables: [
      { name: 'tbil', source: 'lab', code: 'TBIL' },
      { name: 'inr', source: 'lab', code: 'INR' },
      { name: 'crea', source: 'lab', code: 'CREA' },
    ],
  },
  {
    key: 'days-diagnosis-to-operation',
    name: both('首次诊断至首次手术天数', 'Days from first diagnosis to first operation'),
    description: both(
      '首次诊断肝癌（ICD-10 C22）到首次手术的天数',
      'Days from the first diagnosis of liver cancer (ICD-10 C22) to the first operation',
    ),
    unit: '天',
    decimals: 0,
    expression: 'days(dx, op)',
    variables: [
      { name: 'dx', source: 'firstDiagnosis', code: 'C22' },
      { name: 'op', source: 'firstOperation', code: '' },
    ],
  },
];

interface BuiltinScaleText {
  key: string;
  name: Both;
  description: Both;
  items: { key: string; title: Both; options: { code: string; label: Both; points: number }[] }[];
  bands: { min: number; max: number; label: Both; advice: Both }[];
}

const opts = (...list: [string, string, number][]) =>
  list.map(([zh, en, points], i) => ({ code: String(i + 1), label: both(zh, en), points }));

export const BUILTIN_SCALES: readonly BuiltinScaleText[] = [
  {
    key: 'child-pugh',
    name: both('Child-Pugh 肝功能分级', 'Child-Pugh score'),
    description: both(
      '肝硬化患者肝脏储备功能评估（5 项，5–15 分）',
      'Liver reserve in cirrhosis (5 items, 5–15 points)',
    ),
    items: [
      {
        key: 'bilirubin',
        title: both('总胆红素', 'Total bilirubin'),
        options: opts(
          ['<34 μmol/L', '<34 μmol/L', 1],
          ['34–50 μmol/L', '34–50 μmol/L', 2],
          ['>50 μmol/L', '>50 μmol/L', 3],
        ),
      },
      {
        key: 'albumin',
        title: both('白蛋白', 'Albumin'),
        options: opts(['>35 g/L', '>35 g/L', 1], ['28–35 g/L', '28–35 g/L', 2], ['<28 g/L', '<28 g/L', 3]),
      },
      {
        key: 'inr',
        title: both('凝血酶原时间 INR', 'Prothrombin time (INR)'),
        options: opts(['<1.7', '<1.7', 1], ['1.7–2.3', '1.7–2.3', 2], ['>2.3', '>2.3', 3]),
      },
      {
        key: 'ascites',
        title: both('腹水', 'Ascites'),
        options: opts(['无', 'None', 1], ['轻度', 'Mild', 2], ['中重度', 'Moderate to severe', 3]),
      },
      {
        key: 'encephalopathy',
        title: both('肝性脑病', 'Hepatic encephalopathy'),
        options: opts(['无', 'None', 1], ['I–II 级', 'Grade I–II', 2], ['III–IV 级', 'Grade III–IV', 3]),
      },
    ],
    bands: [
      { min: 5, max: 6, label: both('A 级', 'Class A'), advice: both('肝功能代偿良好', 'Well-compensated') },
      {
        min: 7,
        max: 9,
        label: both('B 级', 'Class B'),
        advice: both('肝功能明显受损', 'Significant functional compromise'),
      },
      { min: 10, max: 15, label: both('C 级', 'Class C'), advice: both('肝功能失代偿', 'Decompensated') },
    ],
  },
  {
    key: 'gcs',
    name: both('格拉斯哥昏迷评分 GCS', 'Glasgow Coma Scale (GCS)'),
    description: both('睁眼、语言、运动三项，3–15 分', 'Eye, verbal and motor response, 3–15 points'),
    items: [
      {
        key: 'eye',
        title: both('睁眼反应', 'Eye opening'),
        options: opts(
          ['不睁眼', 'None', 1],
          ['刺痛睁眼', 'To pain', 2],
          ['呼唤睁眼', 'To voice', 3],
          ['自动睁眼', 'Spontaneous', 4],
        ),
      },
      {
        key: 'verbal',
        title: both('语言反应', 'Verbal response'),
        options: opts(
          ['无反应', 'None', 1],
          ['只能发音', 'Incomprehensible sounds', 2],
          ['语无伦次', 'Inappropriate words', 3],
          ['回答错误', 'Confused', 4],
          ['回答正确', 'Oriented', 5],
        ),
      },
      {
        key: 'motor',
        title: both('运动反应', 'Motor response'),
        options: opts(
          ['无反应', 'None', 1],
          ['刺痛伸直（去大脑强直）', 'Extension to pain', 2],
          ['刺痛屈曲（去皮质强直）', 'Abnormal flexion to pain', 3],
          ['刺痛躲避', 'Withdraws from pain', 4],
          ['刺痛定位', 'Localises pain', 5],
          ['遵嘱动作', 'Obeys commands', 6],
        ),
      },
    ],
    bands: [
      { min: 3, max: 8, label: both('重度', 'Severe'), advice: both('重度意识障碍', 'Severe impairment') },
      {
        min: 9,
        max: 12,
        label: both('中度', 'Moderate'),
        advice: both('中度意识障碍', 'Moderate impairment'),
      },
      { min: 13, max: 15, label: both('轻度', 'Mild'), advice: both('轻度意识障碍或正常', 'Mild or none') },
    ],
  },
  {
    key: 'nrs-2002',
    name: both('营养风险筛查 NRS-2002', 'Nutritional Risk Screening (NRS-2002)'),
    description: both(
      '营养状况受损 + 疾病严重程度 + 年龄，0–7 分',
      'Impaired nutrition + disease severity + age, 0–7 points',
    ),
    items: [
      {
        key: 'nutrition',
        title: both('营养状况受损', 'Impaired nutritional status'),
        options: opts(
          ['正常营养状态', 'Normal', 0],
          [
            '3 个月内体重下降 >5% 或近 1 周进食减少 25–50%',
            'Weight loss >5 % in 3 months or intake 50–75 % of needs in the last week',
            1,
          ],
          [
            '2 个月内体重下降 >5% 或 BMI 18.5–20.5 伴一般情况差或进食减少 50–75%',
            'Weight loss >5 % in 2 months, or BMI 18.5–20.5 with impaired condition, or intake 25–50 %',
            2,
          ],
          [
            '1 个月内体重下降 >5% 或 BMI <18.5 伴一般情况差或进食减少 75–100%',
            'Weight loss >5 % in 1 month, or BMI <18.5 with impaired condition, or intake 0–25 %',
            3,
          ],
        ),
      },
      {
        key: 'severity',
        title: both('疾病严重程度', 'Severity of disease'),
        options: opts(
          ['正常营养需要', 'Normal requirements', 0],
          [
            '髋部骨折、慢性病急性发作（肝硬化、COPD）、血液透析、糖尿病、一般肿瘤',
            'Hip fracture, chronic disease with complications (cirrhosis, COPD), haemodialysis, diabetes, oncology',
            1,
          ],
          [
            '腹部大手术、卒中、重症肺炎、血液系统恶性肿瘤',
            'Major abdominal surgery, stroke, severe pneumonia, haematological malignancy',
            2,
          ],
          [
            '颅脑损伤、骨髓移植、APACHE II >10 的 ICU 患者',
            'Head injury, bone marrow transplant, ICU patients with APACHE II >10',
            3,
          ],
        ),
      },
      {
        key: 'age',
        title: both('年龄', 'Age'),
        options: opts(['<70 岁', 'Under 70', 0], ['≥70 岁', '70 or older', 1]),
      },
    ],
    bands: [
      {
        min: 0,
        max: 2,
        label: both('无营养风险', 'No nutritional risk'),
        advice: both('每周复筛', 'Screen again weekly'),
      },
      {
        min: 3,
        max: 7,
        label: both('有营养风险', 'At nutritional risk'),
        advice: both('需制订营养支持计划', 'Start a nutritional care plan'),
      },
    ],
  },
];

/** A built-in scale in one language, as it is stored for an app. */
export function builtinScale(
  key: string,
  locale: Locale,
): { name: string; description: string; definition: ScaleDefinition } | undefined {
  const s = BUILTIN_SCALES.find((b) => b.key === key);
  if (!s) return undefined;
  return {
    name: s.name[locale],
    description: s.description[locale],
    definition: {
      items: s.items.map((i) => ({
        key: i.key,
        title: i.title[locale],
        options: i.options.map((o) => ({ code: o.code, label: o.label[locale], points: o.points })),
      })),
      bands: s.bands.map((b) => ({
        min: b.min,
        max: b.max,
        label: b.label[locale],
        advice: b.advice[locale],
      })),
    },
  };
}
