import type { Locale } from '../messages.js';
import { FAMILY_NAMES, LABEL_FAMILIES } from './families.js';

export type LabelFamily = keyof typeof LABEL_FAMILIES;
/** The codes a family knows (what its contract union allows). */
export type LabelCode<F extends LabelFamily> = keyof (typeof LABEL_FAMILIES)[F] & (string | number);

type UnknownLabelReporter = (family: LabelFamily, code: string) => void;

const reported = new Set<string>();
let reporter: UnknownLabelReporter | null = (family, code) => {
  const key = `${family}:${code}`;
  if (reported.has(key)) return;
  reported.add(key);
  console.warn(`[labels] no label for ${family} "${code}"`);
};

/**
 * Who hears of a code without a label: by default a console warning once per code (dev and
 * tests see it); a production build may pass null to stay quiet.
 */
export function setUnknownLabelReporter(next: UnknownLabelReporter | null) {
  reporter = next;
}

/** Whether the family has words for the code. */
export function hasLabel(family: LabelFamily, code: string | number): boolean {
  return Object.hasOwn(LABEL_FAMILIES[family], String(code));
}

/**
 * A code in words in the reader's language. Never the bare code: a code the family does not
 * know (a newer server, an old row) reads as the family's name with the code, e.g.
 * "任务（demo.seed）", and is reported.
 */
export function label<F extends LabelFamily>(
  family: F,
  code: LabelCode<F> | (string & {}) | number | null | undefined,
  locale: Locale,
): string {
  const table = LABEL_FAMILIES[family] as Record<string, Record<Locale, string>>;
  const key = String(code ?? '');
  if (Object.hasOwn(table, key)) return table[key]![locale];
  if (key === '') return '—';
  reporter?.(family, key);
  const name = FAMILY_NAMES[family][locale];
  return locale === 'zh-CN' ? `${name}（${key}）` : `${name} (${key})`;
}

/** The family's codes with their words, for a select's options. */
export function labelOptions<F extends LabelFamily>(family: F, locale: Locale) {
  return Object.entries(LABEL_FAMILIES[family] as Record<string, Record<Locale, string>>).map(
    ([value, text]) => ({
      value,
      label: text[locale],
    }),
  );
}

/** A CDR row's source in words: 数据采集 #3 for rows collected from source 3. */
export function cdrSourceLabel(source: string, locale: Locale): string {
  const m = /^collect:(\d+)$/.exec(source);
  return m ? `${label('cdrSource', 'collect', locale)} #${m[1]}` : label('cdrSource', source, locale);
}
