import type { Form } from '../types.js';

/**
 * A small hepatitis follow-up form that uses every item type, container, rule and
 * calculation kind; tests build on it. A fresh copy per call, so tests may change it.
 */
export function sampleForm(): Form {
  return {
    key: 'hbv-followup',
    title: '乙肝随访',
    pages: [
      {
        key: 'p1',
        title: '基本信息',
        items: [
          { key: 'intro', type: 'paragraph', title: '请如实填写' },
          {
            key: 'name',
            type: 'textQuestion',
            title: '姓名',
            isRequired: 1,
            minNub: 2,
            maxNub: 20,
            code: 'DE02.01.039.00',
          },
          {
            key: 'sex',
            type: 'radio',
            title: '性别',
            isRequired: true,
            options: [
              { name: '男', code: '1' },
              { name: '女', code: '2' },
            ],
            ShowItemRelationFlg: 1,
            showRules: [{ condition: 'equals', indicatorVal: '2', selectItems: ['pregnant'] }],
          },
          {
            key: 'pregnant',
            type: 'radio',
            title: '是否妊娠',
            isRequired: 1,
            options: [
              { name: '是', code: 'Y' },
              { name: '否', code: 'N' },
            ],
          },
          { key: 'birth', type: 'textQuestion', title: '出生日期', textType: 'date' },
          { key: 'visitDate', type: 'textQuestion', title: '随访日期', textType: 'date' },
          {
            key: 'age',
            type: 'textQuestion',
            title: '年龄',
            fxTopicData: { func: 'age', xyValue: { x: 'birth', y: 'visitDate' } },
          },
          {
            key: 'height',
            type: 'textQuestion',
            title: '身高(cm)',
            textType: 'number',
            minVal: 50,
            maxVal: 250,
          },
          { key: 'weight', type: 'textQuestion', title: '体重(kg)', textType: 'number' },
          {
            key: 'bmi',
            type: 'textQuestion',
            title: '体重指数(BMI)',
            fixed: 1,
            fxTopicData: { compulateType: 'bmi', xyValue: { x: 'weight', y: 'height' } },
          },
        ],
      },
      {
        key: 'p2',
        title: '病史',
        groups: [
          {
            key: 'history',
            title: '病史',
            items: [
              {
                key: 'symptoms',
                type: 'checkbox',
                title: '症状',
                isRequired: 1,
                selectLeastValue: 1,
                selectMostValue: 3,
                options: ['乏力', '纳差', '尿黄', '腹胀', '其他'].map((name, i) => ({
                  name,
                  code: String.fromCharCode(97 + i),
                })),
              },
              {
                key: 'hbsag',
                type: 'radio',
                title: '乙肝表面抗原(HBsAg)',
                options: [
                  { name: '阳性', code: 'pos' },
                  { name: '阴性', code: 'neg' },
                ],
              },
            ],
          },
          {
            key: 'hbvPanel',
            type: 'panel',
            panel: [
              { key: 'hbvDna', type: 'textQuestion', title: 'HBV DNA', textType: 'number', isRequired: 1 },
            ],
          },
          {
            key: 'vitals',
            type: 'gapFilling',
            title: '血压 ___/___ mmHg，备注 ___',
            isRequired: 1,
            gapFilling: [
              { key: 'sbp', gapFillingProperty: 'number', minVal: 60, maxVal: 250 },
              { key: 'dbp', gapFillingProperty: 'number', minVal: 30, maxVal: 150 },
              { key: 'note', gapFillingProperty: 'text', maxNub: 10, minNub: 2 },
            ],
          },
          {
            key: 'qol',
            type: 'matrix',
            title: '生活质量',
            isRequired: 1,
            forM: 'radio',
            rows: [
              { key: 'sleep', name: '睡眠' },
              { key: 'appetite', name: '食欲' },
            ],
            columns: [
              { name: '好', code: 1, score: 2 },
              { name: '一般', code: 2, score: 1 },
              { name: '差', code: 3, score: 0 },
            ],
          },
          {
            key: 'fatigue',
            type: 'score',
            title: '乏力程度',
            options: [
              { name: '无', code: 0, score: 0 },
              { name: '轻', code: 1, score: 1 },
              { name: '重', code: 2, score: 3 },
            ],
          },
          {
            key: 'appetiteScore',
            type: 'score',
            title: '食欲评分',
            options: [
              { name: '好', code: 'g', score: 0 },
              { name: '差', code: 'b', score: 2 },
            ],
          },
          {
            key: 'totalScore',
            type: 'score',
            title: '总分',
            fxTopicData: { func: 'score', fields: ['fatigue', 'appetiteScore', 'symptoms'] },
          },
          {
            key: 'reason',
            type: 'textQuestion',
            title: '就诊原因',
            requiredRule: {
              condition: 'any',
              rules: [
                { indicatorName: 'symptoms', condition: 'contains', indicatorVal: 'e' },
                { indicatorName: 'hbsag', condition: 'equals', indicatorVal: 'pos' },
              ],
            },
          },
          { key: 'dose1', type: 'textQuestion', title: '剂量1', textType: 'number' },
          { key: 'dose2', type: 'textQuestion', title: '剂量2', textType: 'number' },
          {
            key: 'totalDose',
            type: 'textQuestion',
            title: '总剂量',
            fxManual: 1,
            fixed: 2,
            fxTopicData: { func: 'sum', fields: ['dose1', 'dose2'] },
          },
          { key: 'report', type: 'upload', title: '检验报告', isRequired: 1 },
        ],
      },
    ],
    showRules: [
      { indicatorName: 'hbsag', condition: 'equals', indicatorVal: 'pos', selectPanel: ['hbvPanel'] },
    ],
  };
}
