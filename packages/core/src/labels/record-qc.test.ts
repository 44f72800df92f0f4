import { describe, expect, it } from 'vitest';
import { RECORD_QC_CHECKS } from '../contracts/record-qc.js';
import { recordQcMessage } from './record-qc.js';

describe('recordQcMessage', () => {
  it('words a late and a missing note in both languages', () => {
    expect(recordQcMessage('admission_note_timely', { hours: 24, lateHours: 30 }, 'zh-CN')).toBe(
      '入院记录在入院后 30 小时完成，超过 24 小时',
    );
    expect(recordQcMessage('first_progress_timely', { hours: 8, lateHours: null }, 'en-US')).toBe(
      'No first progress note within 8 h of admission',
    );
  });
  it('names the missing sections through the cleaning section labels', () => {
    const d = { missing: ['past_history', 'physical_exam'] };
    expect(recordQcMessage('admission_note_sections', d, 'zh-CN')).toBe('入院记录缺少：既往史、体格检查');
    expect(recordQcMessage('admission_note_sections', d, 'en-US')).toBe(
      'The admission note lacks: Past history, Physical examination',
    );
  });
  it('words the operation record and consistency faults', () => {
    expect(recordQcMessage('surgery_record_timely', { hours: 24, lateHours: 30 }, 'en-US')).toBe(
      'The operation record was written 30 h after the operation (limit 24 h)',
    );
    expect(
      recordQcMessage(
        'surgery_record_timely',
        { hours: 24, lateHours: null, operation: '肝部分切除术' },
        'zh-CN',
      ),
    ).toBe('手术后 24 小时内没有手术记录（肝部分切除术）');
    expect(recordQcMessage('discharge_diagnosis_in_notes', { diagnosis: '肝细胞癌' }, 'en-US')).toBe(
      'The discharge diagnosis “肝细胞癌” appears in none of the stay’s notes',
    );
    expect(
      recordQcMessage('operation_record_matches', { operation: '肝部分切除术', code: '47.0100' }, 'zh-CN'),
    ).toBe('手术记录未写明编码的手术：47.0100 肝部分切除术');
  });
  it('has words for every check', () => {
    for (const c of RECORD_QC_CHECKS)
      for (const l of ['zh-CN', 'en-US'] as const) expect(recordQcMessage(c, { hours: 1 }, l)).not.toBe('');
  });
});
