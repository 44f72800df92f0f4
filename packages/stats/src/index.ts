export {
  chiSquareUpper,
  fUpper,
  normalCdf,
  normalQuantile,
  normalTwoSided,
  tQuantile,
  tTwoSided,
} from './distributions.js';
export { StatsError } from './errors.js';
export { type ForecastPoint, type SeasonalNaive, seasonalNaive } from './forecast.js';
export {
  type CategoricalSummary,
  type Coefficient,
  chiSquareTest,
  crossTable,
  describe,
  kaplanMeier,
  linearRegression,
  logisticRegression,
  logRank,
  mannWhitney,
  mean,
  type NumericSummary,
  quantile,
  type SurvivalPoint,
  variance,
  welchTTest,
} from './methods.js';
