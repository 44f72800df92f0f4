/**
 * Distribution functions for p-values: log-gamma (Lanczos), the regularized incomplete gamma
 * and beta functions (series and continued fractions, after Numerical Recipes 6.1-6.4), and the
 * normal, Student t, chi-square and F tails built on them. Checked against table values in
 * stats.test.ts.
 */
const EPS = 1e-15;
const FPMIN = 1e-300;
const MAX_IT = 1000;

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Regularized lower incomplete gamma P(a, x). */
export function gammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  if (x < a + 1) {
    let sum = 1 / a;
    let del = sum;
    let ap = a;
    for (let n = 0; n < MAX_IT; n++) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (Math.abs(del) < Math.abs(sum) * EPS) break;
    }
    return sum * Math.exp(-x + a * Math.log(x) - lnGamma(a));
  }
  return 1 - gammaQcf(a, x);
}

/** Regularized upper incomplete gamma Q(a, x) = 1 - P(a, x), accurate in the far tail. */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  if (x < a + 1) return 1 - gammaP(a, x);
  return gammaQcf(a, x);
}

function gammaQcf(a: number, x: number) {
  let b = x + 1 - a;
  let c = 1 / FPMIN;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_IT; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = b + an / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - lnGamma(a)) * h;
}

function betacf(a: number, b: number, x: number) {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < FPMIN) d = FPMIN;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_IT; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b). */
export function betaI(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const bt = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return (bt * betacf(a, b, x)) / a;
  return 1 - (bt * betacf(b, a, 1 - x)) / b;
}

/** Standard normal CDF, through erf(x) = P(1/2, x²). */
export function normalCdf(z: number): number {
  if (z === 0) return 0.5;
  const tail = 0.5 * gammaQ(0.5, (z * z) / 2);
  return z > 0 ? 1 - tail : tail;
}

/** Two-sided p of a standard normal statistic. */
export const normalTwoSided = (z: number) => gammaQ(0.5, (z * z) / 2);

/** Two-sided p of a Student t statistic with df degrees of freedom. */
export const tTwoSided = (t: number, df: number) => betaI(df / 2, 0.5, df / (df + t * t));

/** Upper tail of chi-square with k degrees of freedom. */
export const chiSquareUpper = (x: number, k: number) => gammaQ(k / 2, x / 2);

/** Upper tail of F with (d1, d2) degrees of freedom. */
export const fUpper = (f: number, d1: number, d2: number) => betaI(d2 / 2, d1 / 2, d2 / (d2 + d1 * f));

/** The t quantile for a two-sided confidence level, by bisection on tTwoSided. */
export function tQuantile(twoSidedAlpha: number, df: number) {
  let lo = 0;
  let hi = 1000;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (tTwoSided(mid, df) > twoSidedAlpha) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
