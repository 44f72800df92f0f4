import { describe, expect, it } from 'vitest';
import { measureAccuracy } from './accuracy.js';

/**
 * Measured, not claimed: top-1 and top-5 accuracy of the suggestions on the labelled set of local
 * Chinese diagnosis terms (accuracy/README.md), with the abbreviation lexicon and without it.
 * The floors sit just under what was measured, so a change that makes the matcher worse fails here.
 */
describe('coding suggestions on the labelled diagnosis set', () => {
  it('prints top-1 and top-5 accuracy and keeps them above the measured floors', async () => {
    const withLexicon = await measureAccuracy();
    const plain = await measureAccuracy({ lexicon: false });
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    console.log(
      `coding accuracy over ${withLexicon.terms} terms: top-1 ${pct(withLexicon.top1)}, top-5 ${pct(withLexicon.top5)}` +
        ` (without the lexicon: top-1 ${pct(plain.top1)}, top-5 ${pct(plain.top5)})`,
    );
    expect(withLexicon.terms).toBeGreaterThanOrEqual(300);
    expect(withLexicon.top5).toBeGreaterThanOrEqual(0.88);
    expect(withLexicon.top1).toBeGreaterThanOrEqual(0.78);
    expect(plain.top5).toBeGreaterThanOrEqual(0.7);
  }, 120_000);
});
