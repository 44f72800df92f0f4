import betainc from '@stdlib/math-base-special-betainc';
import gammainc from '@stdlib/math-base-special-gammainc';
import normalCdfOf from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantileOf from '@stdlib/stats-base-dists-normal-quantile';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantileOf from '@stdlib/stats-base-dists-t-quantile';

/**
 * The tails the tests need, taken from stdlib's distribution functions (ports of Boost and Cephes,
 * tested by stdlib against reference values). Upper tails are computed as upper tails, never as
 * 1 - CDF, so a p-value of 1e-12 keeps its digits: t and normal by symmetry (the lower tail of
 * -|x|); chi-square and F through the regularized incomplete gamma and beta functions that their
 * CDFs are defined by. Checked against R and printed tables in stats.test.ts.
 */

/** Standard normal CDF. */
export const normalCdf = (z: number): number => normalCdfOf(z, 0, 1);

/** The standard normal quantile. */
export const normalQuantile = (p: number): number => normalQuantileOf(p, 0, 1);

/** Two-sided p of a standard normal statistic. */
export const normalTwoSided = (z: number): number => Math.min(1, 2 * normalCdf(-Math.abs(z)));

/** Two-sided p of a Student t statistic with df degrees of freedom. */
export const tTwoSided = (t: number, df: number): number => Math.min(1, 2 * tCdf(-Math.abs(t), df));

/** Upper tail of chi-square with k degrees of freedom: Q(k/2, x/2). */
export const chiSquareUpper = (x: number, k: number): number =>
  x <= 0 ? 1 : gammainc(x / 2, k / 2, true, true);

/** Upper tail of F with (d1, d2) degrees of freedom: I_{d2/(d2+d1 f)}(d2/2, d1/2). */
export const fUpper = (f: number, d1: number, d2: number): number =>
  f <= 0 ? 1 : betainc(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);

/** The t quantile that leaves `twoSidedAlpha` in the two tails together (2.228 for 0.05 and 10 df). */
export const tQuantile = (twoSidedAlpha: number, df: number): number =>
  tQuantileOf(1 - twoSidedAlpha / 2, df);
