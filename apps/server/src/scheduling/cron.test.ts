import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.js';
import { AppError } from '../http/errors.js';
import { nextRun, nextRuns, normalizeCron, scheduleTimezone } from './cron.js';

describe('cron expressions (croner, five fields, a time zone)', () => {
  it('reads the time zone from SCHEDULE_TIMEZONE, Asia/Shanghai by default, and refuses a bad one by name', () => {
    expect(scheduleTimezone({})).toBe('Asia/Shanghai');
    expect(scheduleTimezone({ SCHEDULE_TIMEZONE: 'Europe/Berlin' })).toBe('Europe/Berlin');
    expect(() => scheduleTimezone({ SCHEDULE_TIMEZONE: 'Mars/Olympus' })).toThrow(ConfigError);
    expect(() => scheduleTimezone({ SCHEDULE_TIMEZONE: 'Mars/Olympus' })).toThrow(/SCHEDULE_TIMEZONE/);
  });

  it('computes run times in the zone: 02:00 in Shanghai is 18:00 UTC the day before', () => {
    const from = new Date('2030-01-01T00:00:00Z');
    expect(nextRun('0 2 * * *', 'Asia/Shanghai', from)?.toISOString()).toBe('2030-01-01T18:00:00.000Z');
    expect(nextRuns('30 8 * * 1-5', 'Asia/Shanghai', 3, from).map((d) => d.toISOString())).toEqual([
      '2030-01-01T00:30:00.000Z',
      '2030-01-02T00:30:00.000Z',
      '2030-01-03T00:30:00.000Z',
    ]);
    // Strictly after: a due time equal to `from` is not returned again.
    expect(nextRun('0 2 * * *', 'Asia/Shanghai', new Date('2030-01-01T18:00:00Z'))?.toISOString()).toBe(
      '2030-01-02T18:00:00.000Z',
    );
  });

  it('stores single spaces and refuses seconds, bad fields and expressions that never fire, naming the field', () => {
    expect(normalizeCron('  0   2 * *  * ', 'Asia/Shanghai')).toBe('0 2 * * *');
    expect(normalizeCron('@daily', 'Asia/Shanghai')).toBe('@daily');
    for (const bad of ['', '0 0 2 * * *', '61 * * * *', '* * * 13 *', 'every day', '0 0 31 2 *']) {
      let err: unknown;
      try {
        normalizeCron(bad, 'Asia/Shanghai');
      } catch (e) {
        err = e;
      }
      expect(err, bad).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(400);
      expect((err as AppError).field).toBe('body.cron');
    }
  });
});
