import { describe, expect, it } from 'vitest';
import { chiSquareUpper, fUpper, normalCdf, tTwoSided } from './distributions.js';
import {
  chiSquareTest,
  crossTable,
  describe as describeValues,
  kaplanMeier,
  linearRegression,
  logisticRegression,
  logRank,
  mannWhitney,
  welchTTest,
} from './methods.js';
import { MTCARS } from './testdata/mtcars.js';

// Reference values are R 4.x output on R's own textbook datasets (sleep, cars, mtcars, aml)
// and printed statistical tables.
const SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

describe('distribution tails match the printed tables', () => {
  it('normal, t, chi-square and F critical values give alpha = 0.05', () => {
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 10);
    expect(normalCdf(-1)).toBeCloseTo(0.158655254, 8);
    expect(tTwoSided(2.228138852, 10)).toBeCloseTo(0.05, 8);
    expect(tTwoSided(12.7062047, 1)).toBeCloseTo(0.05, 8);
    expect(chiSquareUpper(3.841458821, 1)).toBeCloseTo(0.05, 8);
    expect(chiSquareUpper(5.991464547, 2)).toBeCloseTo(0.05, 8);
    expect(chiSquareUpper(18.30703805, 10)).toBeCloseTo(0.05, 8);
    expect(fUpper(4.964602744, 1, 10)).toBeCloseTo(0.05, 8);
  });
  it('keeps the digits of far upper tails (R: pchisq(100, 1, lower.tail = FALSE) = 2 * pnorm(-10))', () => {
    expect(chiSquareUpper(100, 1) / 1.523971e-23).toBeCloseTo(1, 6);
    expect(normalCdf(-10) / 7.619853e-24).toBeCloseTo(1, 6);
    expect(tTwoSided(0, 5)).toBe(1);
    expect(chiSquareUpper(0, 3)).toBe(1);
  });
});

describe('descriptive statistics', () => {
  it('summarises a numeric variable like R summary() and sd()', () => {
    const s = describeValues([...SLEEP_1, null]);
    expect(s.kind).toBe('numeric');
    if (s.kind !== 'numeric') return;
    expect(s.n).toBe(10);
    expect(s.missing).toBe(1);
    expect(s.mean).toBeCloseTo(0.75, 10);
    expect(s.sd).toBeCloseTo(1.78901, 5);
    expect(s.median).toBeCloseTo(0.35, 10);
    expect(s.q1).toBeCloseTo(-0.175, 10);
    expect(s.q3).toBeCloseTo(1.7, 10);
  });
  it('counts levels of a categorical variable', () => {
    const s = describeValues(['M', 'F', 'F', '', 'F']);
    expect(s).toMatchObject({ kind: 'categorical', n: 4, missing: 1 });
    if (s.kind === 'categorical') expect(s.levels[0]).toEqual({ value: 'F', count: 3, percent: 75 });
  });
});

describe('cross table', () => {
  it('counts pairs of levels, rows and columns sorted as text', () => {
    expect(crossTable(['b', 'a', 'a', 1], ['x', 'y', 'y', 'x'])).toEqual({
      rowLevels: ['1', 'a', 'b'],
      colLevels: ['x', 'y'],
      table: [
        [1, 0],
        [0, 2],
        [1, 0],
      ],
    });
  });
});

describe('group comparison on the sleep data', () => {
  it("Welch's t-test: t = -1.8608, df = 17.776, p = 0.07939", () => {
    const r = welchTTest(SLEEP_1, SLEEP_2);
    expect(r.t).toBeCloseTo(-1.860813, 5);
    expect(r.df).toBeCloseTo(17.77647, 4);
    expect(r.p).toBeCloseTo(0.07939414, 6);
    expect(r.ci95[0]).toBeCloseTo(-3.3654832, 5);
    expect(r.ci95[1]).toBeCloseTo(0.2054832, 5);
  });
  it('Mann-Whitney: W = 25.5, p = 0.06933', () => {
    const r = mannWhitney(SLEEP_1, SLEEP_2);
    expect(r.W).toBe(25.5);
    expect(r.p).toBeCloseTo(0.06932758, 5);
  });
  it('chi-square on a 2x2 table: X2 = 0.79365, p = 0.373', () => {
    const r = chiSquareTest([
      [10, 20],
      [30, 40],
    ]);
    expect(r.chi2).toBeCloseTo(0.7936508, 6);
    expect(r.df).toBe(1);
    expect(r.p).toBeCloseTo(0.3729984, 5);
  });
});

const CARS_SPEED = [
  4, 4, 7, 7, 8, 9, 10, 10, 10, 11, 11, 12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 16, 16,
  17, 17, 17, 18, 18, 18, 18, 19, 19, 19, 20, 20, 20, 20, 20, 22, 23, 24, 24, 24, 24, 25,
];
const CARS_DIST = [
  2, 10, 4, 22, 16, 10, 18, 26, 34, 17, 28, 14, 20, 24, 28, 26, 34, 34, 46, 26, 36, 60, 80, 20, 26, 54, 32,
  40, 32, 40, 50, 42, 56, 76, 84, 36, 46, 68, 32, 48, 52, 56, 64, 66, 54, 70, 92, 93, 120, 85,
];

describe('linear regression on cars: lm(dist ~ speed)', () => {
  it('matches R coefficients, standard errors, R² and F', () => {
    const r = linearRegression(
      CARS_DIST,
      CARS_SPEED.map((s) => [s]),
      ['speed'],
    );
    const [b0, b1] = r.coefficients;
    expect(b0!.estimate).toBeCloseTo(-17.579095, 5);
    expect(b0!.se).toBeCloseTo(6.75844, 5);
    expect(b1!.estimate).toBeCloseTo(3.932409, 5);
    expect(b1!.se).toBeCloseTo(0.415513, 5);
    expect(b1!.statistic).toBeCloseTo(9.46399, 4);
    expect(b1!.p).toBeCloseTo(1.489836e-12, 15);
    expect(r.rSquared).toBeCloseTo(0.6510794, 6);
    expect(r.sigma).toBeCloseTo(15.37959, 4);
    expect(r.fStatistic).toBeCloseTo(89.5671, 3);
    // F = t² with one predictor: the same p-value, 1.49e-12, to its last printed digit.
    expect(r.fP / 1.489836e-12).toBeCloseTo(1, 6);
  });
});

describe('logistic regression on mtcars: glm(am ~ hp + wt, binomial)', () => {
  it('matches R coefficients and Wald tests', () => {
    const r = logisticRegression(
      MTCARS.map((c) => c[2]),
      MTCARS.map((c) => [c[0], c[1]]),
      ['hp', 'wt'],
    );
    expect(r.converged).toBe(true);
    const [b0, hp, wt] = r.coefficients;
    expect(b0!.estimate).toBeCloseTo(18.8663, 4);
    expect(b0!.se).toBeCloseTo(7.44356, 4);
    expect(hp!.estimate).toBeCloseTo(0.03626, 5);
    expect(hp!.se).toBeCloseTo(0.01773, 5);
    expect(hp!.p).toBeCloseTo(0.0409, 4);
    expect(wt!.estimate).toBeCloseTo(-8.08348, 4);
    expect(wt!.se).toBeCloseTo(3.06868, 4);
    expect(wt!.p).toBeCloseTo(0.0084, 4);
    expect(r.deviance).toBeCloseTo(10.059, 3);
    expect(r.nullDeviance).toBeCloseTo(43.23, 3);
    expect(r.aic).toBeCloseTo(16.059, 3);
  });
  it('refuses an outcome that is not 0/1 and collinear predictors', () => {
    expect(() => logisticRegression([0, 2, 1], [[1], [2], [3]], ['x'])).toThrow(/0 or 1/);
    expect(() =>
      linearRegression(
        [1, 2, 3, 4],
        [
          [1, 2],
          [2, 4],
          [3, 6],
          [4, 8],
        ],
        ['a', 'b'],
      ),
    ).toThrow(/collinear/);
  });
});

// survival::aml
const AML = {
  time: [9, 13, 13, 18, 23, 28, 31, 34, 45, 48, 161, 5, 5, 8, 8, 12, 16, 23, 27, 30, 33, 43, 45],
  status: [1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1],
  x: [...new Array(11).fill('Maintained'), ...new Array(12).fill('Nonmaintained')] as string[],
};

describe('Kaplan-Meier and log-rank on aml', () => {
  it('estimates survival of the maintained group like survfit', () => {
    const km = kaplanMeier(AML.time.slice(0, 11), AML.status.slice(0, 11));
    const at = (t: number) => km.points.find((p) => p.time === t)!;
    expect(at(9).survival).toBeCloseTo(0.9091, 4);
    expect(at(13).survival).toBeCloseTo(0.8182, 4);
    expect(at(18).survival).toBeCloseTo(0.7159, 4);
    expect(at(18).atRisk).toBe(8);
    expect(at(48).survival).toBeCloseTo(0.1841, 4);
    expect(at(9).lower).toBeCloseTo(0.7541, 3);
    expect(km.median).toBe(31);
    expect(km.events).toBe(7);
  });
  it('compares the groups like survdiff: chisq = 3.4 on 1 df, p = 0.07', () => {
    const r = logRank(AML.time, AML.status, AML.x);
    expect(r.groups[0]).toMatchObject({ group: 'Maintained', n: 11, observed: 7 });
    expect(r.groups[0]!.expected).toBeCloseTo(10.69, 2);
    expect(r.groups[1]!.expected).toBeCloseTo(7.31, 2);
    expect(r.chi2).toBeCloseTo(3.4, 1);
    expect(r.p).toBeCloseTo(0.0653, 3);
  });
});
