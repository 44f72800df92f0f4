import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber } from './format.js';
import { checkNationalId, randomNationalId } from './national-id.js';
import { ellipsisLength, truncateText } from './text.js';

describe('helper invariants', () => {
  it('checkNationalId never throws and always answers one of the four tips', () => {
    const tips = new Set(['', '身份证号格式错误', '身份证号地址编码错误', '身份证号校验位错误']);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\d{15,18}X?$/), fc.anything()), (id) => {
        const r = checkNationalId(id);
        expect(tips.has(r.tip)).toBe(true);
        expect(r.pass).toBe(r.tip === '');
      }),
    );
  });

  it('every generated number passes, and changing one of its first 17 digits never does silently', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 0, max: 16 }),
        (seed, pos) => {
          let s = seed;
          const rng = () => (s = (s * 9301 + 0.49297) % 1);
          const id = randomNationalId(rng);
          expect(checkNationalId(id).pass).toBe(true);
          const digit = (Number(id[pos]) + 1) % 10;
          const changed = id.slice(0, pos) + digit + id.slice(pos + 1);
          // A one-digit change always breaks the mod-11 check (or the format/province before it).
          expect(checkNationalId(changed).pass).toBe(false);
        },
      ),
    );
  });

  it('truncateText keeps the width within the limit plus the ellipsis and is a prefix', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 0, max: 40 }), (text, limit) => {
        const out = truncateText(text, limit);
        if (ellipsisLength(text) <= limit) {
          expect(out).toBe(text);
          return;
        }
        expect(out.endsWith('...')).toBe(true);
        expect(ellipsisLength(out.slice(0, -3))).toBeLessThanOrEqual(limit);
        expect(text.startsWith(out.slice(0, -3))).toBe(true);
      }),
    );
  });

  it('formatNumber round-trips integers once the separators are removed', () => {
    fc.assert(
      fc.property(fc.integer(), (n) => {
        expect(Number(formatNumber(n).replace(/,/g, ''))).toBe(n);
      }),
    );
  });
});
