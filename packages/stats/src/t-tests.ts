// Student t tests: Welch, pooled (Student), paired and one-sample, with SciPy's conventions.
// Missing values (non-finite) are dropped; paired tests drop the whole pair. When the test is undefined
// for what is left (too few values, or zero spread with no difference) the statistic and p-value are
// NaN; zero spread with a non-zero difference gives an infinite statistic and p-value 0 or 1, as SciPy.
import { finitePairs, meanAndSquaredDeviations } from './descriptive.ts';
import { studentTPValue } from './distributions.ts';
import { assertAlternative, type Alternative } from './types.ts';

/** Result of a one-sample or paired t-test. */
export interface OneSampleTTestResult {
  /** t statistic: estimate / standard error. */
  statistic: number;
  /** Degrees of freedom, n − 1. */
  df: number;
  pValue: number;
  /** mean(x) − mu for the one-sample test, mean(x − y) for the paired test. */
  estimate: number;
  standardError: number;
  /** Values (or pairs) used after dropping missing ones. */
  n: number;
}

/** Result of a two-sample t-test. */
export interface TwoSampleTTestResult {
  statistic: number;
  /** Welch-Satterthwaite df (Welch) or n1 + n2 − 2 (Student). */
  df: number;
  pValue: number;
  /** mean(x) − mean(y). */
  estimate: number;
  standardError: number;
  n1: number;
  n2: number;
}

/** estimate / standardError, with the limits SciPy gives when the standard error is zero. */
function tStatistic(estimate: number, standardError: number): number {
  if (standardError > 0) return estimate / standardError;
  if (standardError === 0 && estimate !== 0 && Number.isFinite(estimate)) {
    return estimate > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  }
  return Number.NaN;
}

/**
 * Welch's two-sample t-test (unequal variances, Welch-Satterthwaite df), as SciPy
 * `ttest_ind(x, y, equal_var=False)`. Needs at least 2 finite values per sample; otherwise NaN
 * statistic, df and p-value. With both variances zero the df is NaN (0/0) and the statistic is ±Infinity
 * (p 0 or 1) if the means differ, NaN if they are equal.
 */
export function welchT(
  x: readonly number[],
  y: readonly number[],
  alternative: Alternative = 'two-sided',
): TwoSampleTTestResult {
  assertAlternative(alternative);
  const first = meanAndSquaredDeviations(x);
  const second = meanAndSquaredDeviations(y);
  const n1 = first.n;
  const n2 = second.n;
  if (n1 < 2 || n2 < 2) return undefinedTwoSample(n1, n2, first.mean - second.mean);
  const share1 = first.squaredDeviations / (n1 - 1) / n1;
  const share2 = second.squaredDeviations / (n2 - 1) / n2;
  const standardError = Math.sqrt(share1 + share2);
  const estimate = first.mean - second.mean;
  const df = (share1 + share2) ** 2 / ((share1 * share1) / (n1 - 1) + (share2 * share2) / (n2 - 1));
  const statistic = tStatistic(estimate, standardError);
  return {
    statistic,
    df,
    pValue: studentTPValue(statistic, df, alternative),
    estimate,
    standardError,
    n1,
    n2,
  };
}

/**
 * Student's two-sample t-test with pooled variance and df = n1 + n2 − 2, as SciPy
 * `ttest_ind(x, y)`. Needs at least one value per sample and n1 + n2 ≥ 3; otherwise NaN.
 */
export function studentT(
  x: readonly number[],
  y: readonly number[],
  alternative: Alternative = 'two-sided',
): TwoSampleTTestResult {
  assertAlternative(alternative);
  const first = meanAndSquaredDeviations(x);
  const second = meanAndSquaredDeviations(y);
  const n1 = first.n;
  const n2 = second.n;
  const df = n1 + n2 - 2;
  if (n1 < 1 || n2 < 1 || df < 1) return undefinedTwoSample(n1, n2, first.mean - second.mean);
  const pooledVariance = (first.squaredDeviations + second.squaredDeviations) / df;
  const standardError = Math.sqrt(pooledVariance * (1 / n1 + 1 / n2));
  const estimate = first.mean - second.mean;
  const statistic = tStatistic(estimate, standardError);
  return {
    statistic,
    df,
    pValue: studentTPValue(statistic, df, alternative),
    estimate,
    standardError,
    n1,
    n2,
  };
}

/**
 * One-sample t-test of mean(x) against the known value `mu`, df = n − 1, as SciPy `ttest_1samp`.
 * Needs at least 2 finite values and a finite mu; otherwise NaN.
 */
export function oneSampleT(
  x: readonly number[],
  mu: number,
  alternative: Alternative = 'two-sided',
): OneSampleTTestResult {
  assertAlternative(alternative);
  const { n, mean, squaredDeviations } = meanAndSquaredDeviations(x);
  const estimate = mean - mu;
  if (n < 2 || !Number.isFinite(mu)) {
    return {
      statistic: Number.NaN,
      df: n - 1 > 0 ? n - 1 : Number.NaN,
      pValue: Number.NaN,
      estimate,
      standardError: Number.NaN,
      n,
    };
  }
  const standardError = Math.sqrt(squaredDeviations / (n - 1) / n);
  const statistic = tStatistic(estimate, standardError);
  return {
    statistic,
    df: n - 1,
    pValue: studentTPValue(statistic, n - 1, alternative),
    estimate,
    standardError,
    n,
  };
}

/**
 * Paired t-test: one-sample t-test of the differences x[i] − y[i] against 0, as SciPy `ttest_rel`.
 * Pairs with a missing side are dropped.
 * @throws RangeError when x and y have different lengths.
 */
export function pairedT(
  x: readonly number[],
  y: readonly number[],
  alternative: Alternative = 'two-sided',
): OneSampleTTestResult {
  const pairs = finitePairs(x, y);
  return oneSampleT(
    pairs.x.map((value, index) => value - (pairs.y[index] ?? Number.NaN)),
    0,
    alternative,
  );
}

function undefinedTwoSample(n1: number, n2: number, estimate: number): TwoSampleTTestResult {
  return {
    statistic: Number.NaN,
    df: Number.NaN,
    pValue: Number.NaN,
    estimate,
    standardError: Number.NaN,
    n1,
    n2,
  };
}
