// Rank tests with the normal approximation, tie correction and continuity correction, as R
// wilcox.test(exact = FALSE, correct = TRUE) and SciPy (method="asymptotic"). Missing values are dropped
// (whole pairs for the signed-rank test). The normal approximation is used at every sample size, so
// small samples differ from SciPy's default exact method on purpose.
import { finitePairs, finiteValues, rankWithTies, tieCorrectionTerm, TIE_TOLERANCE } from './descriptive.ts';
import { normalPValue } from './distributions.ts';
import { assertAlternative, type Alternative } from './types.ts';

/** Result of the Mann-Whitney U test. */
export interface MannWhitneyResult {
  /** U of the first sample: its rank sum minus n1(n1 + 1)/2 (SciPy's statistic for every alternative). */
  statistic: number;
  /** Continuity-corrected z used for the p-value; NaN when every value is tied. */
  z: number;
  pValue: number;
  n1: number;
  n2: number;
}

/** Result of the Wilcoxon signed-rank test. */
export interface WilcoxonResult {
  /** min(W+, W−) for the two-sided test, W+ for one-sided tests (SciPy's convention). */
  statistic: number;
  /** Sum of the ranks of positive differences x − y. */
  wPlus: number;
  /** Sum of the ranks of negative differences. */
  wMinus: number;
  /** Continuity-corrected z computed from W+; NaN when no non-zero difference is left. */
  z: number;
  pValue: number;
  /** Non-zero differences that were ranked. */
  n: number;
  /** Zero differences that were dropped. */
  zeros: number;
}

/**
 * Continuity correction towards the null mean: ½ in the direction of the alternative, or of the
 * observed deviation for the two-sided test (none when the statistic sits on its mean).
 */
function continuityShift(deviation: number, alternative: Alternative): number {
  assertAlternative(alternative);
  if (alternative === 'greater') return 0.5;
  if (alternative === 'less') return -0.5;
  return 0.5 * Math.sign(deviation);
}

/**
 * Mann-Whitney U test (Wilcoxon rank-sum) of x against y: normal approximation with tie and
 * continuity correction. "greater" means x tends to be larger. Needs at least one finite value in each
 * sample; otherwise NaN. When every value is tied the variance is zero and z and p are NaN.
 */
export function mannWhitneyU(
  x: readonly number[],
  y: readonly number[],
  alternative: Alternative = 'two-sided',
): MannWhitneyResult {
  const first = finiteValues(x);
  const second = finiteValues(y);
  const n1 = first.length;
  const n2 = second.length;
  assertAlternative(alternative);
  if (n1 === 0 || n2 === 0) return { statistic: Number.NaN, z: Number.NaN, pValue: Number.NaN, n1, n2 };
  const { ranks, tieSizes } = rankWithTies([...first, ...second]);
  let rankSum = 0;
  for (let index = 0; index < n1; index++) rankSum += ranks[index] ?? 0;
  const statistic = rankSum - (n1 * (n1 + 1)) / 2;
  const total = n1 + n2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (total + 1 - tieCorrectionTerm(tieSizes) / (total * (total - 1)));
  if (!(variance > 0)) return { statistic, z: Number.NaN, pValue: Number.NaN, n1, n2 };
  const deviation = statistic - mean;
  const z = (deviation - continuityShift(deviation, alternative)) / Math.sqrt(variance);
  return { statistic, z, pValue: normalPValue(z, alternative), n1, n2 };
}

/**
 * Wilcoxon signed-rank test of the paired differences x[i] − y[i]: zero differences dropped
 * (zero_method "wilcox"), normal approximation with tie and continuity correction. "greater" means x
 * tends to be larger. Differences within a relative 1e-12 of zero (rounding noise of harmonised scores)
 * count as zero. With no non-zero difference left, statistic, z and p are NaN.
 * @throws RangeError when x and y have different lengths.
 */
export function wilcoxonSignedRank(
  x: readonly number[],
  y: readonly number[],
  alternative: Alternative = 'two-sided',
): WilcoxonResult {
  assertAlternative(alternative);
  const pairs = finitePairs(x, y);
  const differences: number[] = [];
  pairs.x.forEach((value, index) => {
    const other = pairs.y[index] ?? Number.NaN;
    const difference = value - other;
    if (Math.abs(difference) > TIE_TOLERANCE * Math.max(Math.abs(value), Math.abs(other)))
      differences.push(difference);
  });
  const n = differences.length;
  const zeros = pairs.x.length - n;
  if (n === 0) {
    return { statistic: Number.NaN, wPlus: 0, wMinus: 0, z: Number.NaN, pValue: Number.NaN, n, zeros };
  }
  const { ranks, tieSizes } = rankWithTies(differences.map(Math.abs));
  let wPlus = 0;
  let wMinus = 0;
  differences.forEach((difference, index) => {
    if (difference > 0) wPlus += ranks[index] ?? 0;
    else wMinus += ranks[index] ?? 0;
  });
  const mean = (n * (n + 1)) / 4;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieCorrectionTerm(tieSizes) / 48;
  const deviation = wPlus - mean;
  const z = (deviation - continuityShift(deviation, alternative)) / Math.sqrt(variance);
  const statistic = alternative === 'two-sided' ? Math.min(wPlus, wMinus) : wPlus;
  return { statistic, wPlus, wMinus, z, pValue: normalPValue(z, alternative), n, zeros };
}
