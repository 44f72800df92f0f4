import { Cron } from 'croner';
import { ConfigError } from '../config.js';
import { invalidField } from '../http/errors.js';

/**
 * Cron expressions, read by croner: five fields (minute hour day-of-month month day-of-week,
 * Sunday 0 or 7; nicknames like `@daily` too), in an IANA time zone. A scheduler ticking every
 * 30 seconds has no use for seconds, so six- and seven-field patterns are refused.
 */
export const DEFAULT_TIMEZONE = 'Asia/Shanghai';

/** The time zone schedules are read in: `SCHEDULE_TIMEZONE`, else Asia/Shanghai; a bad value stops the start. */
export function scheduleTimezone(env: NodeJS.ProcessEnv = process.env): string {
  const tz = env.SCHEDULE_TIMEZONE?.trim() || DEFAULT_TIMEZONE;
  if (!validTimezone(tz))
    throw new ConfigError(
      `SCHEDULE_TIMEZONE=${JSON.stringify(tz)}: not an IANA time zone (e.g. Asia/Shanghai)`,
    );
  return tz;
}

export function validTimezone(tz: string) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function pattern(expr: string, timezone: string, field: string) {
  const text = expr.trim().replace(/\s+/g, ' ');
  if (!text) throw invalidField(field, '请填写 Cron 表达式', 'enter a cron expression');
  try {
    return new Cron(text, { timezone, paused: true, mode: '5-part' });
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^CronPattern:\s*/, '') : String(e);
    throw invalidField(
      field,
      `Cron 表达式无效，应为 5 段：分 时 日 月 周（例如 0 2 * * * 表示每天 2:00）。详情：${why}`,
      `not a valid cron expression; five fields are expected: minute hour day month weekday (e.g. 0 2 * * * is 2:00 every day). ${why}`,
    );
  }
}

/** The expression in its stored form (single spaces), or a 400 naming the field. */
export function normalizeCron(expr: string, timezone: string, field = 'body.cron') {
  const c = pattern(expr, timezone, field);
  if (!c.nextRun())
    throw invalidField(field, '该 Cron 表达式以后不会再触发', 'this cron expression never fires again');
  return expr.trim().replace(/\s+/g, ' ');
}

/** The next `n` run times strictly after `from`. */
export function nextRuns(expr: string, timezone: string, n: number, from: Date, field = 'body.cron'): Date[] {
  return pattern(expr, timezone, field).nextRuns(n, from);
}

/** The first run time strictly after `from`, or null when the expression never fires again. */
export function nextRun(expr: string, timezone: string, from: Date): Date | null {
  return pattern(expr, timezone, 'cron').nextRun(from);
}
