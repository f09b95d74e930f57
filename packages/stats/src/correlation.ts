// Pearson and Spearman correlation with the t-test p-value (df = n − 2), as SciPy pearsonr/spearmanr.
// Pairs with a missing side are dropped.
import { averageRanks, finitePairs, meanAndSquaredDeviations, sum } from './descriptive.ts';
import { studentTPValue } from './distributions.ts';
import { assertAlternative, type Alternative } from './types.ts';

/** Result of a correlation test. */
export interface CorrelationResult {
  /** Correlation coefficient in [−1, 1] (Pearson r, or Spearman rho for {@link spearman}). */
  r: number;
  /** t = r·√(df / (1 − r²)); ±Infinity for a perfect correlation. */
  statistic: number;
  /** n − 2. */
  df: number;
  pValue: number;
  /** Complete pairs used. */
  n: number;
}

/**
 * Pearson correlation of x and y with the t-test p-value on n − 2 df ("greater" tests a positive
 * correlation). Undefined cases return NaN: fewer than 2 complete pairs or a constant variable (r),
 * fewer than 3 pairs (statistic and p-value). |r| = 1 gives p 0 (or 1 against the alternative).
 * @throws RangeError when x and y have different lengths.
 */
export function pearson(
  x: readonly number[],
  y: readonly number[],
  alternative: Alternative = 'two-sided',
): CorrelationResult {
  assertAlternative(alternative);
  const pairs = finitePairs(x, y);
  const n = pairs.x.length;
  const df = n - 2;
  const first = meanAndSquaredDeviations(pairs.x);
  const second = meanAndSquaredDeviations(pairs.y);
  if (n < 2 || !(first.squaredDeviations > 0) || !(second.squaredDeviations > 0)) {
    return { r: Number.NaN, statistic: Number.NaN, df, pValue: Number.NaN, n };
  }
  const crossProducts = sum(
    pairs.x.map((value, index) => (value - first.mean) * ((pairs.y[index] ?? 0) - second.mean)),
  );
  const raw = crossProducts / Math.sqrt(first.squaredDeviations * second.squaredDeviations);
  const r = Math.max(-1, Math.min(1, raw));
  if (df < 1) return { r, statistic: Number.NaN, df, pValue: Number.NaN, n };
  const statistic =
    Math.abs(r) === 1
      ? r > 0
        ? Number.POSITIVE_INFINITY
        : Number.NEGATIVE_INFINITY
      : r * Math.sqrt(df / ((1 - r) * (1 + r)));
  return { r, statistic, df, pValue: studentTPValue(statistic, df, alternative), n };
}

/**
 * Spearman rank correlation: Pearson on average ranks (ties share their mean rank) of the complete
 * pairs, with the same t approximation for the p-value (SciPy `spearmanr`). Same undefined cases as
 * {@link pearson}.
 * @throws RangeError when x and y have different lengths.
 */
export function spearman(
  x: readonly number[],
  y: readonly number[],
  alternative: Alternative = 'two-sided',
): CorrelationResult {
  const pairs = finitePairs(x, y);
  return pearson(averageRanks(pairs.x), averageRanks(pairs.y), alternative);
}
