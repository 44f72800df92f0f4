import { describe, expect, it } from 'vitest';
import { formatMessage } from '../messages.js';
import { patientInput, recordInputs } from './cdr-input.js';

/** The CDR input rules travel with their message keys, so the server words them in zh-CN too. */
describe('CDR input contract', () => {
  const keyOf = (r: { success: boolean; error?: { issues: readonly object[] } }) => {
    const issue = r.error?.issues[0] as { params?: { messageKey?: string } } | undefined;
    return issue?.params?.messageKey;
  };

  it('refuses a date-time that does not exist, by key', () => {
    const r = recordInputs.visits.safeParse({ kind: 'inpatient', admitAt: '2024-02-30T08:00:00' });
    expect(r.success).toBe(false);
    expect(keyOf(r)).toBe('cdr.dateTimeNotReal');
    expect(r.error?.issues[0]?.message).toBe(formatMessage('cdr.dateTimeNotReal', 'en-US'));
  });

  it('refuses a lab result with neither number nor text, naming valueNum', () => {
    const r = recordInputs.labResults.safeParse({
      itemCode: 'ALT',
      itemName: 'ALT',
      collectedAt: '2024-03-01',
    });
    expect(r.success).toBe(false);
    expect(keyOf(r)).toBe('cdr.labNeedsValue');
    expect(r.error?.issues[0]?.path).toEqual(['valueNum']);
  });

  it('trims names and refuses a blank one', () => {
    expect(patientInput.parse({ mrn: ' M1 ', name: ' 张三 ', gender: 1 })).toMatchObject({
      mrn: 'M1',
      name: '张三',
    });
    const r = patientInput.safeParse({ mrn: 'M1', name: '   ', gender: 1 });
    expect(keyOf(r)).toBe('text.blank');
    expect(formatMessage('text.blank', 'zh-CN')).toBe('不能为空');
  });
});

describe('CDR dates', () => {
  it.each([
    '2024-02-30',
    '2024-02-30T08:00:00',
    '2023-02-29 08:00',
    '2024-03-01T24:00:00',
    '2024-03-01T08:60:00',
  ])('refuses %s', (at) => {
    expect(recordInputs.visits.safeParse({ kind: 'inpatient', admitAt: at }).success).toBe(false);
  });
  it.each(['2024-02-29', '2024-02-29T23:59:59+08:00', '2024-03-01 08:00', '2024-03-01T08:00:00.123Z'])(
    'takes %s',
    (at) => {
      expect(recordInputs.visits.safeParse({ kind: 'inpatient', admitAt: at }).success).toBe(true);
    },
  );
});
