import { type CdrForecast, formatMessage, type Locale } from '@crdp/core';
import { StatsError, seasonalNaive } from '@crdp/stats';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';

/** Days are counted in the hospital's time zone. */
const ZONE = 'Asia/Shanghai';
const PERIOD = 7;
const HORIZON = 30;

const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/**
 * 医院预测浏览: visits of one kind per day over `history` days ending at the latest such visit
 * (days without one count 0), and a seasonal naive forecast of the next 30 days with a weekly
 * season (`@crdp/stats` seasonalNaive). Too little data gives no forecast and says why.
 */
export async function hospitalForecast(
  db: Db,
  appId: number,
  q: { kind: 'inpatient' | 'outpatient' | 'emergency'; history: number },
  locale: Locale,
): Promise<CdrForecast> {
  const day = sql`(admit_at at time zone ${ZONE})::date`;
  const [last] = rowsOf<{ d: string | null }>(
    await db.execute(
      sql`select to_char(max(${day}), 'YYYY-MM-DD') as d from visits where app_id = ${appId} and kind = ${q.kind}`,
    ),
  );
  const asOf = last?.d ?? null;
  if (!asOf)
    return {
      kind: q.kind,
      asOf: null,
      period: PERIOD,
      sigma: null,
      history: [],
      forecast: [],
      notice: formatMessage('forecast.tooShort', locale, { needed: 2 * PERIOD, have: 0 }),
    };
  const from = addDays(asOf, -(q.history - 1));
  const counts = rowsOf<{ d: string; n: number }>(
    await db.execute(sql`select to_char(${day}, 'YYYY-MM-DD') as d, count(*)::int as n from visits
      where app_id = ${appId} and kind = ${q.kind} and ${day} between ${from}::date and ${asOf}::date
      group by 1`),
  );
  const byDay = new Map(counts.map((c) => [c.d, Number(c.n)]));
  const history = Array.from({ length: q.history }, (_, i) => {
    const date = addDays(from, i);
    return { date, n: byDay.get(date) ?? 0 };
  });
  // The series starts at the first day with a visit, so a young hospital is not read as empty weeks.
  const first = history.findIndex((h) => h.n > 0);
  const series = history.slice(Math.max(0, first)).map((h) => h.n);
  try {
    const f = seasonalNaive(series, PERIOD, HORIZON, { nonNegative: true });
    return {
      kind: q.kind,
      asOf,
      period: PERIOD,
      sigma: f.sigma,
      history,
      forecast: f.points.map((p) => ({
        date: addDays(asOf, p.h),
        mean: p.mean,
        lo80: p.lo80,
        hi80: p.hi80,
        lo95: p.lo95,
        hi95: p.hi95,
      })),
      notice: null,
    };
  } catch (e) {
    if (!(e instanceof StatsError)) throw e;
    return {
      kind: q.kind,
      asOf,
      period: PERIOD,
      sigma: null,
      history,
      forecast: [],
      notice: formatMessage(e.key, locale, e.values),
    };
  }
}
