import dayjs, { type Dayjs } from 'dayjs';
import { DATE_TIME_FORMAT } from '../constants.js';

/** How a number is shown: also the number format of a chart channel field (spec 001 section 3). */
export interface NumberFormat {
  prefix?: string;
  suffix?: string;
  /** Thousands separators; on unless turned off. */
  grouping?: boolean;
  /** Fixed decimals; when absent the number keeps the decimals it has. */
  decimals?: number;
  /** Applied before formatting, e.g. 100 to show a ratio as a percentage. */
  multiplier?: number;
}

const groupInteger = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function plain(abs: number): string {
  const s = String(abs);
  // Very large or very small numbers print in exponent form; spell them out instead.
  if (!s.includes('e')) return s;
  return new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 20 }).format(abs);
}

/**
 * Formats a number with thousands separators (and the optional prefix, suffix, decimals and
 * multiplier). Numeric strings are read as numbers; null, undefined, '' and NaN give '';
 * any other text is returned unchanged so a stray label never disappears.
 */
export function formatNumber(value: number | string | null | undefined, format: NumberFormat = {}): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  if (Number.isNaN(n)) return typeof value === 'string' ? value : '';
  const { prefix = '', suffix = '', grouping = true, decimals, multiplier = 1 } = format;
  if (!Number.isFinite(n)) return `${prefix}${n > 0 ? '∞' : '-∞'}${suffix}`;
  // toPrecision(15) drops the binary noise a multiplier adds (0.07 * 100 = 7.000000000000001).
  const scaled = multiplier === 1 ? n : Number((n * multiplier).toPrecision(15));
  const body =
    decimals === undefined
      ? plain(Math.abs(scaled))
      : new Intl.NumberFormat('en-US', {
          useGrouping: false,
          minimumFractionDigits: Math.max(0, Math.min(20, Math.trunc(decimals))),
          maximumFractionDigits: Math.max(0, Math.min(20, Math.trunc(decimals))),
        }).format(Math.abs(scaled));
  const [int = '0', frac] = body.split('.');
  const digits = grouping ? groupInteger(int) : int;
  const negative = scaled < 0 && /[1-9]/.test(body);
  return `${prefix}${negative ? '-' : ''}${digits}${frac !== undefined ? `.${frac}` : ''}${suffix}`;
}

/** Formats a date; the default pattern is spec 001's YYYY-MM-DD HH:mm:ss. Empty or invalid input gives ''. */
export function formatDate(
  value: string | number | Date | Dayjs | null | undefined,
  pattern: string = DATE_TIME_FORMAT,
): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value);
  return d.isValid() ? d.format(pattern) : '';
}

export type DeviceMode = 'mobile' | 'tablet' | 'desktop';

/** Spec 001 section 9: under 576 px mobile, 576 to 1199 tablet, 1200 and over desktop. */
export function deviceMode(width: number): DeviceMode {
  if (width < 576) return 'mobile';
  if (width < 1200) return 'tablet';
  return 'desktop';
}
