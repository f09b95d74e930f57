// z-tests of proportions, used for the box metrics. Counts must be finite with 0 ≤ count ≤ n and n > 0;
// anything else yields NaN (no throw), so one bad cell does not break a whole table.
import { normalPValue } from './distributions.ts';
import { assertAlternative, type Alternative } from './types.ts';

/** Result of the two-proportion z-test. */
export interface TwoProportionResult {
  /** z = (p1 − p2) / SE with the pooled SE. */
  statistic: number;
  pValue: number;
  /** k1 / n1. */
  proportion1: number;
  /** k2 / n2. */
  proportion2: number;
  /** (k1 + k2) / (n1 + n2). */
  pooledProportion: number;
  /** proportion1 − proportion2. */
  estimate: number;
}

/** Result of the one-sample proportion z-test. */
export interface OneProportionResult {
  /** z = (k/n − p0) / √(p0(1 − p0)/n). */
  statistic: number;
  pValue: number;
  /** k / n. */
  proportion: number;
  /** proportion − p0. */
  estimate: number;
}

function validCount(count: number, n: number): boolean {
  return Number.isFinite(count) && Number.isFinite(n) && n > 0 && count >= 0 && count <= n;
}

/** estimate / standardError with ±Infinity for a non-zero estimate over a zero SE, NaN for 0/0. */
function zStatistic(estimate: number, standardError: number): number {
  if (standardError > 0) return estimate / standardError;
  if (estimate !== 0 && Number.isFinite(estimate))
    return estimate > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return Number.NaN;
}

/**
 * Two-proportion z-test of k1/n1 against k2/n2 with the pooled proportion and no continuity
 * correction (statsmodels `proportions_ztest`, R `prop.test(correct = FALSE)`). When both samples are
 * all 0 or all 1 the pooled SE is zero and the test is undefined: statistic and p-value are NaN.
 */
export function twoProportionZ(
  k1: number,
  n1: number,
  k2: number,
  n2: number,
  alternative: Alternative = 'two-sided',
): TwoProportionResult {
  assertAlternative(alternative);
  if (!validCount(k1, n1) || !validCount(k2, n2)) {
    return {
      statistic: Number.NaN,
      pValue: Number.NaN,
      proportion1: Number.NaN,
      proportion2: Number.NaN,
      pooledProportion: Number.NaN,
      estimate: Number.NaN,
    };
  }
  const proportion1 = k1 / n1;
  const proportion2 = k2 / n2;
  const pooledProportion = (k1 + k2) / (n1 + n2);
  const standardError = Math.sqrt(pooledProportion * (1 - pooledProportion) * (1 / n1 + 1 / n2));
  const estimate = proportion1 - proportion2;
  const statistic = zStatistic(estimate, standardError);
  return {
    statistic,
    pValue: normalPValue(statistic, alternative),
    proportion1,
    proportion2,
    pooledProportion,
    estimate,
  };
}

/**
 * One-sample z-test of the proportion k/n against the known value p0, with the standard error under
 * the null hypothesis, √(p0(1 − p0)/n) (the score test, R `prop.test(correct = FALSE)`). p0 must be in
 * [0, 1]; at p0 = 0 or 1 the SE is zero, so any other proportion gives ±Infinity (p 0 or 1) and an
 * equal one gives NaN.
 */
export function oneProportionZ(
  k: number,
  n: number,
  p0: number,
  alternative: Alternative = 'two-sided',
): OneProportionResult {
  assertAlternative(alternative);
  if (!validCount(k, n) || !(p0 >= 0 && p0 <= 1)) {
    return { statistic: Number.NaN, pValue: Number.NaN, proportion: Number.NaN, estimate: Number.NaN };
  }
  const proportion = k / n;
  const estimate = proportion - p0;
  const statistic = zStatistic(estimate, Math.sqrt((p0 * (1 - p0)) / n));
  return { statistic, pValue: normalPValue(statistic, alternative), proportion, estimate };
}
