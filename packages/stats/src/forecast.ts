import { normalQuantile } from './distributions.js';
import { StatsError } from './errors.js';

/**
 * Seasonal naive forecasts with prediction intervals, as Hyndman & Athanasopoulos describe them
 * (Forecasting: Principles and Practice, 3rd ed., §5.2 and §5.5): the forecast for h steps ahead
 * is the last observed value of the same season, ŷ(T+h) = y(T+h−m(k+1)) with k = ⌊(h−1)/m⌋; the
 * residuals are e(t) = y(t) − y(t−m); σ̂ is their root mean square (no parameters are estimated,
 * the first m values have no residual); the h-step standard deviation is σ̂·√(k+1). Daily
 * hospital volumes have a weekly season (m = 7). Intervals are normal ones, with the lower bound
 * cut at zero for counts.
 */

export interface ForecastPoint {
  /** Steps ahead, 1-based. */
  h: number;
  mean: number;
  lo80: number;
  hi80: number;
  lo95: number;
  hi95: number;
}

export interface SeasonalNaive {
  /** Root mean square of the seasonal differences. */
  sigma: number;
  points: ForecastPoint[];
}

export function seasonalNaive(
  series: readonly number[],
  period: number,
  horizon: number,
  opts: { nonNegative?: boolean } = {},
): SeasonalNaive {
  if (!Number.isInteger(period) || period < 1)
    throw new RangeError('the season must be a whole number of steps');
  if (series.length < 2 * period)
    throw new StatsError('forecast.tooShort', { needed: 2 * period, have: series.length });
  if (series.some((v) => !Number.isFinite(v))) throw new StatsError('forecast.badSeries');
  let sum = 0;
  for (let t = period; t < series.length; t += 1) sum += (series[t]! - series[t - period]!) ** 2;
  const sigma = Math.sqrt(sum / (series.length - period));
  const z80 = normalQuantile(0.9);
  const z95 = normalQuantile(0.975);
  const floor = opts.nonNegative ? 0 : Number.NEGATIVE_INFINITY;
  const T = series.length;
  const points: ForecastPoint[] = [];
  for (let h = 1; h <= horizon; h += 1) {
    const k = Math.floor((h - 1) / period);
    const mean = series[T + h - period * (k + 1) - 1]!;
    const sd = sigma * Math.sqrt(k + 1);
    points.push({
      h,
      mean,
      lo80: Math.max(floor, mean - z80 * sd),
      hi80: mean + z80 * sd,
      lo95: Math.max(floor, mean - z95 * sd),
      hi95: mean + z95 * sd,
    });
  }
  return { sigma, points };
}
