import { readFile } from 'node:fs/promises';
import { parseCsv } from '../files/csv.js';
import { Vocabulary, type VocabularyName } from './match.js';

/*
 * The accuracy of the suggestions on the labelled set (accuracy/README.md): local Chinese
 * diagnosis terms → ICD-10 categories, matched against the shipped ICD-10 list alone (no database:
 * the engine is pure; pg_trgm adds one more signal in a task). Top-1: the first candidate is the
 * labelled code; top-5: it is among the five shown.
 */

export interface AccuracyReport {
  terms: number;
  top1: number;
  top5: number;
  misses: Array<{ term: string; expected: string; got: string[] }>;
}

const here = (file: string) => new URL(file, import.meta.url);

/** The shipped ICD-10 list as matching names (categories only: block ranges such as A00-A09 are not codes to assign). */
export async function icd10Names(): Promise<VocabularyName[]> {
  const text = await readFile(new URL('../../terminologies/icd10-cn.csv', import.meta.url), 'utf8');
  const [head, ...rows] = parseCsv(text);
  const at = (name: string) => head!.indexOf(name);
  return rows
    .filter((r) => !r[at('code')]!.includes('-'))
    .map((r) => ({
      code: r[at('code')]!,
      displayZh: r[at('display_zh')]!,
      name: r[at('display_zh')]!,
      synonym: false,
    }));
}

export async function labelledDiagnoses(): Promise<Array<{ term: string; code: string }>> {
  const text = await readFile(here('./accuracy/diagnoses-icd10.csv'), 'utf8').catch(() =>
    readFile(new URL('../../src/coding/accuracy/diagnoses-icd10.csv', import.meta.url), 'utf8'),
  );
  const [, ...rows] = parseCsv(text);
  return rows.filter((r) => r[0]).map((r) => ({ term: r[0]!, code: r[1]! }));
}

export async function measureAccuracy(opts: { lexicon?: boolean } = {}): Promise<AccuracyReport> {
  const vocabulary = new Vocabulary(await icd10Names());
  const set = await labelledDiagnoses();
  let top1 = 0;
  let top5 = 0;
  const misses: AccuracyReport['misses'] = [];
  for (const { term, code } of set) {
    const got = vocabulary.suggest(term, { limit: 5, lexicon: opts.lexicon ?? true }).map((c) => c.code);
    if (got[0] === code) top1++;
    if (got.includes(code)) top5++;
    else misses.push({ term, expected: code, got });
  }
  return { terms: set.length, top1: top1 / set.length, top5: top5 / set.length, misses };
}
