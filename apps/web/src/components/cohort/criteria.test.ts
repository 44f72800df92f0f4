import { describe, expect, it } from 'vitest';
import { completeCriteria, emptyDraft, incompleteCount, newCondition } from './criteria';

describe('completeCriteria', () => {
  it('keeps the conditions the shared schema accepts and drops half-written ones', () => {
    const d = emptyDraft();
    d.inclusion.push({ kind: 'diagnosis', codes: ['B18'], from: '' });
    d.inclusion.push(newCondition('diagnosis'));
    d.inclusion.push({ kind: 'lab', itemCode: 'ALT', min: 40, max: undefined });
    d.exclusion.push({ kind: 'age', min: 90, max: 10 });
    d.exclusion.push({ kind: 'documentText', text: '肝癌' });
    const c = completeCriteria(d);
    expect(c.inclusion).toEqual([
      { kind: 'diagnosis', codes: ['B18'] },
      { kind: 'lab', itemCode: 'ALT', min: 40 },
    ]);
    expect(c.exclusion).toEqual([{ kind: 'documentText', text: '肝癌' }]);
    expect(incompleteCount(d)).toBe(2);
  });

  it('starts a visit condition with inpatient visits so it is complete at once', () => {
    const d = { ...emptyDraft(), match: 'any' as const, inclusion: [newCondition('visit')] };
    expect(completeCriteria(d)).toEqual({
      match: 'any',
      inclusion: [{ kind: 'visit', visitKinds: ['inpatient'] }],
      exclusion: [],
    });
  });
});
