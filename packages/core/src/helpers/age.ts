import dayjs, { type Dayjs } from 'dayjs';
import type { Locale } from '../messages.js';

export type AgeUnit = 'year' | 'month' | 'day';

export interface FormattedAge {
  /** null when the age is blank (unknown birth date, the 0001-01-01 placeholder, or a birth after now). */
  value: number | null;
  unit: AgeUnit | null;
  text: Record<Locale, string>;
}

type DateInput = string | number | Date | Dayjs | null | undefined;

const BLANK: FormattedAge = { value: null, unit: null, text: { 'zh-CN': '', 'en-US': '' } };

// The older product stored an unknown birth date as the .NET minimum date.
const PLACEHOLDER = '0001-01-01';

const ZH_UNITS: Record<AgeUnit, string> = { year: '岁', month: '个月', day: '天' };

function ageText(value: number, unit: AgeUnit): Record<Locale, string> {
  return { 'zh-CN': `${value}${ZH_UNITS[unit]}`, 'en-US': `${value} ${unit}${value === 1 ? '' : 's'}` };
}

/**
 * Age for display (spec 001 section 9): whole years from one year on; below that, 30-day
 * months when there is at least one; otherwise days. Dates are compared as calendar days.
 */
export function formatAge(birth: DateInput, now: DateInput = new Date()): FormattedAge {
  if (birth === null || birth === undefined || birth === '') return BLANK;
  if (typeof birth === 'string' && birth.trim().startsWith(PLACEHOLDER)) return BLANK;
  const from = dayjs(birth);
  const to = dayjs(now ?? undefined);
  if (!from.isValid() || !to.isValid() || from.year() <= 1) return BLANK;
  const start = from.startOf('day');
  const end = to.startOf('day');
  if (end.isBefore(start)) return BLANK;
  const years = end.diff(start, 'year');
  if (years >= 1) return { value: years, unit: 'year', text: ageText(years, 'year') };
  // Round to whole days so a daylight-saving shift does not drop a day.
  const days = Math.round(end.diff(start, 'hour') / 24);
  const months = Math.floor(days / 30);
  if (months >= 1) return { value: months, unit: 'month', text: ageText(months, 'month') };
  return { value: days, unit: 'day', text: ageText(days, 'day') };
}
