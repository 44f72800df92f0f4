import {
  chiSquareUpper,
  fUpper,
  normalQuantile,
  normalTwoSided,
  tQuantile,
  tTwoSided,
} from './distributions.js';
import { StatsError } from './errors.js';
import { invert, mulVec, weightedNormal } from './linalg.js';

/**
 * The statistical methods of analysis-mining. Each takes plain arrays and returns plain JSON,
 * so a job can store the result as it is. Conventions follow R's defaults (Welch t-test,
 * quantile type 7, Wilcoxon rank-sum with normal approximation, tie and continuity correction,
 * Pearson chi-square, Wald tests for glm), so results can be checked against R output.
 */
const Z975 = normalQuantile(0.975);

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
export const mean = (xs: number[]) => sum(xs) / xs.length;
export function variance(xs: number[]) {
  const m = mean(xs);
  return sum(xs.map((x) => (x - m) ** 2)) / (xs.length - 1);
}

/** Quantile type 7 (R's default). */
export function quantile(sorted: number[], q: number) {
  if (!sorted.length) return Number.NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export interface NumericSummary {
  kind: 'numeric';
  n: number;
  missing: number;
  mean: number | null;
  sd: number | null;
  median: number | null;
  q1: number | null;
  q3: number | null;
  min: number | null;
  max: number | null;
}
export interface CategoricalSummary {
  kind: 'categorical';
  n: number;
  missing: number;
  levels: Array<{ value: string; count: number; percent: number }>;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const present = (v: unknown) => v !== null && v !== undefined && v !== '';

/** Numeric when every present value is a number; otherwise counted by level. */
export function describe(values: unknown[]): NumericSummary | CategoricalSummary {
  const given = values.filter(present);
  const missing = values.length - given.length;
  if (given.length && given.every(finite)) {
    const xs = (given as number[]).slice().sort((a, b) => a - b);
    return {
      kind: 'numeric',
      n: xs.length,
      missing,
      mean: mean(xs),
      sd: xs.length > 1 ? Math.sqrt(variance(xs)) : null,
      median: quantile(xs, 0.5),
      q1: quantile(xs, 0.25),
      q3: quantile(xs, 0.75),
      min: xs[0]!,
      max: xs[xs.length - 1]!,
    };
  }
  const counts = new Map<string, number>();
  for (const v of given) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
  return {
    kind: 'categorical',
    n: given.length,
    missing,
    levels: [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([value, count]) => ({ value, count, percent: given.length ? (100 * count) / given.length : 0 })),
  };
}

/** Welch's two-sample t-test (R: t.test(x, y)). */
export function welchTTest(x: number[], y: number[]) {
  if (x.length < 2 || y.length < 2) throw new StatsError('research.stats.twoPerGroup');
  const vx = variance(x) / x.length;
  const vy = variance(y) / y.length;
  const se = Math.sqrt(vx + vy);
  if (se === 0) throw new StatsError('research.stats.constantGroups');
  const diff = mean(x) - mean(y);
  const t = diff / se;
  const df = (vx + vy) ** 2 / (vx ** 2 / (x.length - 1) + vy ** 2 / (y.length - 1));
  const q = tQuantile(0.05, df);
  return {
    method: 'welch-t' as const,
    meanX: mean(x),
    meanY: mean(y),
    difference: diff,
    t,
    df,
    p: tTwoSided(t, df),
    ci95: [diff - q * se, diff + q * se] as [number, number],
  };
}

/** Average ranks, ties sharing their mean rank. */
function ranks(values: number[]) {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(values.length);
  const tieSizes: number[] = [];
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    const avg = (i + j + 2) / 2;
    for (let k = i; k <= j; k++) r[order[k]![1]] = avg;
    if (j > i) tieSizes.push(j - i + 1);
    i = j + 1;
  }
  return { r, tieSizes };
}

/** Wilcoxon rank-sum / Mann-Whitney U (R: wilcox.test(x, y, exact = FALSE)). */
export function mannWhitney(x: number[], y: number[]) {
  const n1 = x.length;
  const n2 = y.length;
  if (!n1 || !n2) throw new StatsError('research.stats.onePerGroup');
  const { r, tieSizes } = ranks([...x, ...y]);
  const w = sum(r.slice(0, n1)) - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const tieTerm = sum(tieSizes.map((t) => t ** 3 - t));
  const sigma = Math.sqrt((n1 * n2 * (n + 1 - tieTerm / (n * (n - 1)))) / 12);
  const d = w - (n1 * n2) / 2;
  const z = sigma === 0 ? 0 : (d - Math.sign(d) * 0.5) / sigma;
  return { method: 'mann-whitney' as const, W: w, z, p: sigma === 0 ? 1 : normalTwoSided(z) };
}

/**
 * Counts of each pair of levels: rows by the first value, columns by the second, levels sorted as
 * text (the table chiSquareTest takes).
 */
export function crossTable(rowValues: unknown[], colValues: unknown[]) {
  const rowLevels = [...new Set(rowValues.map(String))].sort();
  const colLevels = [...new Set(colValues.map(String))].sort();
  const table = rowLevels.map(() => new Array<number>(colLevels.length).fill(0));
  const ri = new Map(rowLevels.map((l, i) => [l, i]));
  const ci = new Map(colLevels.map((l, i) => [l, i]));
  rowValues.forEach((r, k) => {
    table[ri.get(String(r))!]![ci.get(String(colValues[k]))!]! += 1;
  });
  return { rowLevels, colLevels, table };
}

/** Pearson's chi-square test of independence on an r x c table (R: chisq.test(t, correct = FALSE)). */
export function chiSquareTest(table: number[][]) {
  const rows = table.map(sum);
  const cols = table[0]!.map((_, j) => sum(table.map((r) => r[j]!)));
  const total = sum(rows);
  if (table.length < 2 || cols.length < 2) throw new StatsError('research.stats.tableSize');
  if (rows.some((r) => r === 0) || cols.some((c) => c === 0))
    throw new StatsError('research.stats.emptyCell');
  let chi2 = 0;
  const expected = table.map((row, i) =>
    row.map((o, j) => {
      const e = (rows[i]! * cols[j]!) / total;
      chi2 += (o - e) ** 2 / e;
      return e;
    }),
  );
  const df = (table.length - 1) * (cols.length - 1);
  return {
    method: 'chi-square' as const,
    chi2,
    df,
    p: chiSquareUpper(chi2, df),
    expected,
    smallExpected: expected.flat().some((e) => e < 5),
  };
}

export interface Coefficient {
  name: string;
  estimate: number;
  se: number;
  statistic: number;
  p: number;
  ci95: [number, number];
  oddsRatio?: number;
  oddsRatioCi95?: [number, number];
}

/** Ordinary least squares with an intercept (R: summary(lm(y ~ x1 + ...))). */
export function linearRegression(y: number[], xs: number[][], names: string[]) {
  const n = y.length;
  const x = xs.map((row) => [1, ...row]);
  const p = x[0]!.length;
  if (n <= p) throw new StatsError('research.stats.tooFewRows', { n, p });
  const { xtx, xtz } = weightedNormal(x, new Array<number>(n).fill(1), y);
  const inv = invert(xtx);
  const beta = mulVec(inv, xtz);
  const fitted = x.map((row) => row.reduce((s, v, j) => s + v * beta[j]!, 0));
  const rss = sum(y.map((v, i) => (v - fitted[i]!) ** 2));
  const my = mean(y);
  const tss = sum(y.map((v) => (v - my) ** 2));
  const df = n - p;
  const s2 = rss / df;
  const q = tQuantile(0.05, df);
  const coefficients: Coefficient[] = beta.map((b, j) => {
    const se = Math.sqrt(s2 * inv[j]![j]!);
    const t = b / se;
    return {
      name: ['(Intercept)', ...names][j]!,
      estimate: b,
      se,
      statistic: t,
      p: tTwoSided(t, df),
      ci95: [b - q * se, b + q * se],
    };
  });
  const r2 = 1 - rss / tss;
  const f = (tss - rss) / (p - 1) / s2;
  return {
    method: 'linear' as const,
    n,
    coefficients,
    rSquared: r2,
    adjRSquared: 1 - ((1 - r2) * (n - 1)) / df,
    sigma: Math.sqrt(s2),
    fStatistic: f,
    fDf: [p - 1, df] as [number, number],
    fP: fUpper(f, p - 1, df),
  };
}

/** Logistic regression by iteratively reweighted least squares (R: glm(y ~ ..., binomial)). */
export function logisticRegression(y: number[], xs: number[][], names: string[]) {
  if (y.some((v) => v !== 0 && v !== 1)) throw new StatsError('research.stats.binaryOutcome');
  const n = y.length;
  const x = xs.map((row) => [1, ...row]);
  const p = x[0]!.length;
  if (n <= p) throw new StatsError('research.stats.tooFewRows', { n, p });
  let beta = new Array<number>(p).fill(0);
  let deviance = Number.POSITIVE_INFINITY;
  let iterations = 0;
  let converged = false;
  let inv: number[][] = [];
  const devOf = (b: number[]) =>
    -2 *
    sum(
      x.map((row, i) => {
        const eta = row.reduce((s, v, j) => s + v * b[j]!, 0);
        const mu = 1 / (1 + Math.exp(-eta));
        return y[i] === 1 ? Math.log(Math.max(mu, 1e-300)) : Math.log(Math.max(1 - mu, 1e-300));
      }),
    );
  for (iterations = 1; iterations <= 50; iterations++) {
    const eta = x.map((row) => row.reduce((s, v, j) => s + v * beta[j]!, 0));
    const mu = eta.map((e) => 1 / (1 + Math.exp(-e)));
    const w = mu.map((m) => Math.max(m * (1 - m), 1e-10));
    const z = eta.map((e, i) => e + (y[i]! - mu[i]!) / w[i]!);
    const { xtx, xtz } = weightedNormal(x, w, z);
    inv = invert(xtx);
    beta = mulVec(inv, xtz);
    const dev = devOf(beta);
    if (Math.abs(dev - deviance) / (Math.abs(dev) + 0.1) < 1e-10) {
      deviance = dev;
      converged = true;
      break;
    }
    deviance = dev;
  }
  // The covariance at the final estimate.
  const mu = x.map((row) => 1 / (1 + Math.exp(-row.reduce((s, v, j) => s + v * beta[j]!, 0))));
  inv = invert(
    weightedNormal(
      x,
      mu.map((m) => m * (1 - m)),
      new Array<number>(n).fill(0),
    ).xtx,
  );
  const ybar = mean(y);
  const nullDeviance = -2 * sum(y.map((v) => (v === 1 ? Math.log(ybar) : Math.log(1 - ybar))));
  const coefficients: Coefficient[] = beta.map((b, j) => {
    const se = Math.sqrt(inv[j]![j]!);
    const z = b / se;
    const ci: [number, number] = [b - Z975 * se, b + Z975 * se];
    return {
      name: ['(Intercept)', ...names][j]!,
      estimate: b,
      se,
      statistic: z,
      p: normalTwoSided(z),
      ci95: ci,
      oddsRatio: Math.exp(b),
      oddsRatioCi95: [Math.exp(ci[0]), Math.exp(ci[1])],
    };
  });
  return {
    method: 'logistic' as const,
    n,
    coefficients,
    deviance,
    nullDeviance,
    aic: deviance + 2 * p,
    iterations,
    converged,
  };
}

export interface SurvivalPoint {
  time: number;
  atRisk: number;
  events: number;
  censored: number;
  survival: number;
  lower: number;
  upper: number;
}

/** Kaplan-Meier estimate with Greenwood's variance and log-scale 95% limits (R: survfit's default). */
export function kaplanMeier(time: number[], event: number[]) {
  const idx = time.map((_, i) => i).sort((a, b) => time[a]! - time[b]!);
  const points: SurvivalPoint[] = [];
  let atRisk = time.length;
  let s = 1;
  let greenwood = 0;
  for (let k = 0; k < idx.length; ) {
    const t = time[idx[k]!]!;
    let d = 0;
    let c = 0;
    while (k < idx.length && time[idx[k]!] === t) {
      if (event[idx[k]!] === 1) d++;
      else c++;
      k++;
    }
    if (d > 0) {
      s *= 1 - d / atRisk;
      if (atRisk > d) greenwood += d / (atRisk * (atRisk - d));
    }
    const se = Math.sqrt(greenwood);
    points.push({
      time: t,
      atRisk,
      events: d,
      censored: c,
      survival: s,
      lower: s > 0 ? Math.max(0, s * Math.exp(-Z975 * se)) : 0,
      upper: s > 0 ? Math.min(1, s * Math.exp(Z975 * se)) : 0,
    });
    atRisk -= d + c;
  }
  const median = points.find((p) => p.survival <= 0.5)?.time ?? null;
  return { n: time.length, events: sum(event), median, points };
}

/** Log-rank test over two or more groups (R: survdiff). */
export function logRank(time: number[], event: number[], group: string[]) {
  const levels = [...new Set(group)].sort();
  if (levels.length < 2) throw new StatsError('research.stats.logRankGroups');
  const g = levels.length;
  const times = [...new Set(time.filter((_, i) => event[i] === 1))].sort((a, b) => a - b);
  const observed = new Array<number>(g).fill(0);
  const expected = new Array<number>(g).fill(0);
  const cov: number[][] = Array.from({ length: g }, () => new Array<number>(g).fill(0));
  for (const t of times) {
    const n = levels.map((l) => time.filter((ti, i) => group[i] === l && ti >= t).length);
    const d = levels.map((l) => time.filter((ti, i) => group[i] === l && ti === t && event[i] === 1).length);
    const N = sum(n);
    const D = sum(d);
    for (let a = 0; a < g; a++) {
      observed[a]! += d[a]!;
      expected[a]! += (D * n[a]!) / N;
      if (N > 1) {
        for (let b = 0; b < g; b++) {
          const delta = a === b ? 1 : 0;
          cov[a]![b]! += (D * (N - D) * n[a]! * (delta * N - n[b]!)) / (N * N * (N - 1));
        }
      }
    }
  }
  // Chi-square on the first g-1 groups: (O-E)' V^-1 (O-E).
  const k = g - 1;
  const oe = observed.slice(0, k).map((o, i) => o - expected[i]!);
  const v = cov.slice(0, k).map((row) => row.slice(0, k));
  const vinv = invert(v);
  const chi2 = oe.reduce((s, a, i) => s + a * mulVec(vinv, oe)[i]!, 0);
  return {
    method: 'log-rank' as const,
    groups: levels.map((l, i) => ({
      group: l,
      n: group.filter((x) => x === l).length,
      observed: observed[i]!,
      expected: expected[i]!,
    })),
    chi2,
    df: k,
    p: chiSquareUpper(chi2, k),
  };
}
