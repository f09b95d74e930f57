// Descriptive statistics. Missing answers arrive as NaN: every function here drops non-finite values
// (NaN, ±Infinity) before computing, and returns NaN only when the quantity is undefined for what is
// left (no values for a mean, fewer than two for a variance).

/**
 * Relative tolerance under which two values count as tied when ranking. Harmonised scores such as
 * 1 + 4·(v − 1)/6 carry rounding noise near 1e-16, so differences of equal raw answers can differ in
 * the last bit; without a tolerance they would break ties that SciPy sees in the raw answers.
 */
export const TIE_TOLERANCE = 1e-12;

/** The finite values of `values`, in order (NaN and ±Infinity are treated as missing). */
export function finiteValues(values: readonly number[]): number[] {
  return values.filter((value) => Number.isFinite(value));
}

/**
 * Pairs (x[i], y[i]) where both are finite; a missing value on either side drops the whole pair.
 * @throws RangeError when the arrays have different lengths (there is no sensible pairing).
 */
export function finitePairs(x: readonly number[], y: readonly number[]): { x: number[]; y: number[] } {
  if (x.length !== y.length) {
    throw new RangeError(`Paired samples need equal lengths (got ${x.length} and ${y.length})`);
  }
  const pairedX: number[] = [];
  const pairedY: number[] = [];
  x.forEach((value, index) => {
    const other = y[index] ?? Number.NaN;
    if (Number.isFinite(value) && Number.isFinite(other)) {
      pairedX.push(value);
      pairedY.push(other);
    }
  });
  return { x: pairedX, y: pairedY };
}

/** Sum of the finite values with Neumaier compensation, so long columns of answers do not drift. */
export function sum(values: readonly number[]): number {
  let total = 0;
  let compensation = 0;
  for (const value of values) {
    if (!Number.isFinite(value)) continue;
    const next = total + value;
    compensation += Math.abs(total) >= Math.abs(value) ? total - next + value : value - next + total;
    total = next;
  }
  return total + compensation;
}

/** Arithmetic mean of the finite values; NaN when there are none. */
export function mean(values: readonly number[]): number {
  return refinedMean(finiteValues(values));
}

/**
 * Mean of finite values with one refinement step, x̄ + Σ(x − x̄)/n, which removes the rounding left by
 * the first division (so the mean of [0.1, 0.1, 0.1] is exactly 0.1).
 */
function refinedMean(finite: readonly number[]): number {
  const n = finite.length;
  if (n === 0) return Number.NaN;
  const first = sum(finite) / n;
  return first + sum(finite.map((value) => value - first)) / n;
}

/**
 * Mean and sum of squared deviations of finite values, exactly zero for constant data (so "zero
 * variance" checks never depend on rounding in the mean).
 */
export function meanAndSquaredDeviations(values: readonly number[]): {
  n: number;
  mean: number;
  squaredDeviations: number;
} {
  const finite = finiteValues(values);
  const n = finite.length;
  if (n === 0) return { n, mean: Number.NaN, squaredDeviations: Number.NaN };
  const first = finite[0] ?? 0;
  if (finite.every((value) => value === first)) return { n, mean: first, squaredDeviations: 0 };
  const average = refinedMean(finite);
  const deviations = finite.map((value) => value - average);
  // Two-pass with the correction term: Σ(x − x̄)² − (Σ(x − x̄))²/n removes what error is left in x̄.
  const deviationSum = sum(deviations);
  const squaredDeviations =
    sum(deviations.map((deviation) => deviation * deviation)) - (deviationSum * deviationSum) / n;
  return { n, mean: average, squaredDeviations: Math.max(0, squaredDeviations) };
}

/** Sample variance with the n − 1 denominator; exactly 0 for constant data, NaN for fewer than 2 values. */
export function sampleVariance(values: readonly number[]): number {
  const { n, squaredDeviations } = meanAndSquaredDeviations(values);
  return n < 2 ? Number.NaN : squaredDeviations / (n - 1);
}

/** Sample standard deviation (square root of the n − 1 variance); NaN for fewer than 2 values. */
export function standardDeviation(values: readonly number[]): number {
  return Math.sqrt(sampleVariance(values));
}

/** Ranks of a sample together with what tie corrections need. */
export interface RankResult {
  /** 1-based ranks aligned with the input; tied values share their average rank; NaN for missing input. */
  ranks: number[];
  /** Sizes of the tie groups with more than one member. */
  tieSizes: number[];
  /** Number of finite values that were ranked. */
  n: number;
}

/**
 * Ranks with average ties (SciPy `rankdata(method='average')`), ignoring non-finite values, which get a
 * NaN rank. Values within a relative {@link TIE_TOLERANCE} of each other count as tied.
 */
export function rankWithTies(values: readonly number[]): RankResult {
  const order = values
    .map((value, index) => ({ value, index }))
    .filter((entry) => Number.isFinite(entry.value))
    .sort((left, right) => left.value - right.value);
  const ranks = values.map(() => Number.NaN);
  const tieSizes: number[] = [];
  let start = 0;
  while (start < order.length) {
    const groupValue = order[start]?.value ?? 0;
    let end = start + 1;
    while (end < order.length) {
      const candidate = order[end]?.value ?? 0;
      if (candidate - groupValue > TIE_TOLERANCE * Math.max(Math.abs(candidate), Math.abs(groupValue))) break;
      end += 1;
    }
    // Positions start..end-1 hold ranks start+1..end; their average is shared by the group.
    const averageRank = (start + 1 + end) / 2;
    for (let position = start; position < end; position++) {
      const entry = order[position];
      if (entry) ranks[entry.index] = averageRank;
    }
    if (end - start > 1) tieSizes.push(end - start);
    start = end;
  }
  return { ranks, tieSizes, n: order.length };
}

/** Average ranks (1-based, ties share the mean of their positions); NaN at non-finite inputs. */
export function averageRanks(values: readonly number[]): number[] {
  return rankWithTies(values).ranks;
}

/** Σ (t³ − t) over tie groups: the tie-correction term of rank-test variances. */
export function tieCorrectionTerm(tieSizes: readonly number[]): number {
  return tieSizes.reduce((total, size) => total + size * size * size - size, 0);
}
