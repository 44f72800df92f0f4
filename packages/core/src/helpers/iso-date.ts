import { z } from 'zod';
import { formatMessage } from '../messages.js';

/** True for a calendar date written YYYY-MM-DD that exists (2026-02-30 does not). */
export function isRealIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * A date YYYY-MM-DD that exists. A regular expression alone let 2026-02-30 through to
 * PostgreSQL's `::date`, which refused it with a 500. The message carries its catalogue key in
 * `params.messageKey`, so the server words it in the reader's language.
 */
export const isoDateSchema = () =>
  z.string().superRefine((s, ctx) => {
    if (!isRealIsoDate(s))
      ctx.addIssue({
        code: 'custom',
        message: formatMessage('date.notReal', 'en-US'),
        params: { messageKey: 'date.notReal' },
      });
  });
