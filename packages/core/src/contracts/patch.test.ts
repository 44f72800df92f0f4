import { describe, expect, it } from 'vitest';
import * as contracts from './index.js';

/**
 * A PATCH body holds only what the client sent: a schema that fills in defaults would write
 * them over the stored values of every field the client left out (a research subject's
 * criteria, variables and members were wiped by a rename).
 */
describe('PATCH contracts', () => {
  const patches = Object.entries(contracts).filter(
    ([name, s]) => /Patch$/.test(name) && typeof (s as { safeParse?: unknown }).safeParse === 'function',
  ) as Array<[string, { safeParse: (v: unknown) => { success: boolean; data?: unknown } }]>;

  it('finds the PATCH schemas', () => {
    expect(patches.length).toBeGreaterThanOrEqual(8);
  });

  it.each(patches.map(([n]) => n))('%s adds nothing to an empty body', (name) => {
    const schema = patches.find(([n]) => n === name)![1];
    const r = schema.safeParse({});
    if (r.success) expect(r.data).toEqual({});
  });

  it('keeps what was sent', () => {
    expect(contracts.researchSubjectPatch.parse({ name: '新名称' })).toEqual({ name: '新名称' });
    expect(contracts.dictionaryEntryPatch.parse({ enabled: false })).toEqual({ enabled: false });
  });
});
