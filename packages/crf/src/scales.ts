import { defaultFunctions } from './functions.js';
import type { FormItem } from './types.js';

/**
 * Assessment scales (评估量表): scored instruments such as Child-Pugh, GCS and NRS-2002. A
 * scale is a CRF-style form of single-choice score items (each option carries its points) and
 * bands over the total (Child-Pugh A 5–6, B 7–9, C 10–15). The total is the CRF engine's own
 * `score` calculation over those items, so a scale scores exactly as a CRF score field does.
 */

export interface ScaleOption {
  code: string;
  label: string;
  points: number;
}
export interface ScaleItem {
  key: string;
  title: string;
  options: ScaleOption[];
}
export interface ScaleBand {
  min: number;
  max: number;
  label: string;
  advice?: string;
}
export interface ScaleDefinition {
  items: ScaleItem[];
  bands: ScaleBand[];
}

/** A problem of a definition, in both languages, with the path of the field at fault. */
export interface ScaleIssue {
  path: string;
  zh: string;
  en: string;
}

/** The lowest and highest total the items allow. */
export function scaleRange(def: ScaleDefinition): { min: number; max: number } {
  let min = 0;
  let max = 0;
  for (const item of def.items) {
    const pts = item.options.map((o) => o.points);
    if (!pts.length) continue;
    min += Math.min(...pts);
    max += Math.max(...pts);
  }
  return { min, max };
}

/** Duplicate keys and codes, empty option lists, reversed or overlapping bands. */
export function scaleIssues(def: ScaleDefinition): ScaleIssue[] {
  const out: ScaleIssue[] = [];
  const keys = new Set<string>();
  def.items.forEach((item, i) => {
    if (keys.has(item.key))
      out.push({
        path: `items.${i}.key`,
        zh: `条目编码“${item.key}”重复`,
        en: `the item code "${item.key}" is used twice`,
      });
    keys.add(item.key);
    if (item.options.length < 2)
      out.push({
        path: `items.${i}.options`,
        zh: `条目“${item.title}”至少需要两个选项`,
        en: `the item "${item.title}" needs at least two options`,
      });
    const codes = new Set<string>();
    item.options.forEach((o, j) => {
      if (codes.has(o.code))
        out.push({
          path: `items.${i}.options.${j}.code`,
          zh: `条目“${item.title}”的选项编码“${o.code}”重复`,
          en: `the option code "${o.code}" of "${item.title}" is used twice`,
        });
      codes.add(o.code);
    });
  });
  def.bands.forEach((b, i) => {
    if (b.min > b.max)
      out.push({
        path: `bands.${i}.min`,
        zh: `分级“${b.label}”的下限大于上限`,
        en: `the band "${b.label}" starts above its end`,
      });
  });
  const sorted = def.bands.map((b, i) => ({ ...b, i })).sort((a, b) => a.min - b.min);
  for (let k = 1; k < sorted.length; k++) {
    const prev = sorted[k - 1]!;
    const cur = sorted[k]!;
    if (cur.min <= prev.max)
      out.push({
        path: `bands.${cur.i}.min`,
        zh: `分级“${cur.label}”与“${prev.label}”的分值范围重叠`,
        en: `the bands "${cur.label}" and "${prev.label}" overlap`,
      });
  }
  return out;
}

/** A filled scale that cannot be scored: the items left blank or answered with an unknown code. */
export class ScaleAnswerError extends Error {
  readonly zh: string;
  readonly en: string;
  constructor(
    readonly missing: string[],
    readonly unknown: string[],
  ) {
    const zh: string[] = [];
    const en: string[] = [];
    if (missing.length) {
      zh.push(`未回答：${missing.join('、')}`);
      en.push(`not answered: ${missing.join(', ')}`);
    }
    if (unknown.length) {
      zh.push(`选项不存在：${unknown.join('、')}`);
      en.push(`no such option: ${unknown.join(', ')}`);
    }
    super(en.join('; '));
    this.name = 'ScaleAnswerError';
    this.zh = zh.join('；');
    this.en = en.join('; ');
  }
}

export interface ScaleScore {
  total: number;
  /** Index of the band the total falls in, or -1 when none does. */
  bandIndex: number;
  band: ScaleBand | null;
  items: { key: string; code: string; points: number }[];
}

/** The scale's items as CRF radio items whose options carry their points as scores. */
export function scaleFormItems(def: ScaleDefinition): FormItem[] {
  return def.items.map((item) => ({
    key: item.key,
    type: 'radio',
    title: item.title,
    isRequired: true,
    options: item.options.map((o) => ({ name: o.label, code: o.code, score: o.points })),
  }));
}

/** The band a total falls in (bands are inclusive at both ends). */
export function bandOf(def: ScaleDefinition, total: number): number {
  return def.bands.findIndex((b) => total >= b.min && total <= b.max);
}

/**
 * Scores a filled scale: every item answered with one of its option codes. The total comes
 * from the CRF engine's `score` function; a ScaleAnswerError names what is missing or unknown.
 */
export function scoreScale(def: ScaleDefinition, answers: Readonly<Record<string, string>>): ScaleScore {
  const missing: string[] = [];
  const unknown: string[] = [];
  const items: ScaleScore['items'] = [];
  for (const item of def.items) {
    const code = answers[item.key];
    if (code === undefined || code === null || String(code).trim() === '') {
      missing.push(item.title);
      continue;
    }
    const option = item.options.find((o) => o.code === String(code));
    if (!option) unknown.push(`${item.title}=${String(code)}`);
    else items.push({ key: item.key, code: option.code, points: option.points });
  }
  if (missing.length || unknown.length) throw new ScaleAnswerError(missing, unknown);
  const formItems = scaleFormItems(def);
  const total =
    defaultFunctions.score!({
      values: def.items.map((i) => answers[i.key]),
      items: formItems,
      x: undefined,
      y: undefined,
      compare: undefined,
      now: () => new Date(),
    }) ?? 0;
  // Float sums of points such as 0.5 are kept to 6 decimals.
  const rounded = Math.round(total * 1e6) / 1e6;
  const bandIndex = bandOf(def, rounded);
  return { total: rounded, bandIndex, band: bandIndex >= 0 ? def.bands[bandIndex]! : null, items };
}
