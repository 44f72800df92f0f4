import { describe, expect, it } from 'vitest';
import { describeCondition, reasonCodes, wordReason } from './reason.js';

const names = { diagnosis: new Map([['C22', '肝恶性肿瘤']]), lab: new Map([['ALT', '丙氨酸氨基转移酶']]) };

describe('inclusion reasons in words', () => {
  it('names a diagnosis code in the reader’s language (not "diagnosis C22")', () => {
    const kept = describeCondition({ kind: 'diagnosis', codes: ['C22'] });
    expect(kept).toBe('diagnosis C22');
    expect(wordReason(kept, 'zh-CN', names)).toBe('诊断：肝恶性肿瘤 (C22)');
    expect(wordReason(kept, 'en-US', names)).toBe('Diagnosis: 肝恶性肿瘤 (C22)');
    expect(wordReason('diagnosis C22/K74', 'en-US', names)).toBe('Diagnosis: 肝恶性肿瘤 (C22) or K74');
  });

  it('words lab ranges with their window, sex, visit kinds, age and document text', () => {
    const lab = describeCondition({ kind: 'lab', itemCode: 'ALT', min: 40, from: '2024-01-01' });
    expect(wordReason(lab, 'zh-CN', names)).toBe('检验：丙氨酸氨基转移酶 (ALT) ≥ 40（2024-01-01 起）');
    expect(wordReason(lab, 'en-US', names)).toBe('Lab: 丙氨酸氨基转移酶 (ALT) ≥ 40 (from 2024-01-01)');
    expect(wordReason(describeCondition({ kind: 'gender', codes: [2] }), 'en-US')).toBe('Sex: Female');
    expect(wordReason(describeCondition({ kind: 'visit', visitKinds: ['inpatient'] }), 'zh-CN')).toBe(
      '就诊：住院',
    );
    expect(wordReason(describeCondition({ kind: 'age', min: 18 }), 'zh-CN')).toBe('年龄 ≥ 18');
    expect(wordReason(describeCondition({ kind: 'documentText', text: '肝硬化' }), 'zh-CN')).toBe(
      '文书含“肝硬化”',
    );
    expect(wordReason('typed by hand', 'zh-CN')).toBe('typed by hand');
  });

  it('lists the codes to look up', () => {
    expect(reasonCodes(['diagnosis C22/K74', 'lab ALT ≥40', 'age ≥18'])).toEqual({
      diagnosis: ['C22', 'K74'],
      lab: ['ALT'],
    });
  });
});
