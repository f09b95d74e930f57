// Norms (METRICS.md section 5): percentiles of a base of product scores and a score's percentile rank
// within it. Non-finite scores are missing and are ignored.
import { finiteValues, TIE_TOLERANCE } from './descriptive.ts';

/** The percentiles a norm reports: P10, P25, P50, P75, P90. */
export const NORM_PERCENTILES = [10, 25, 50, 75, 90] as const;

/**
 * Percentiles by linear interpolation between order statistics, numpy's default
 * (`np.percentile(values, p, method="linear")`): position h = (n − 1)·p/100 in the sorted values. One
 * entry per requested percentile; NaN for every entry when there is no finite value.
 * @throws RangeError for a percentile outside [0, 100].
 */
export function percentiles(
  values: readonly number[],
  requested: readonly number[] = NORM_PERCENTILES,
): number[] {
  const bad = requested.find((p) => !(p >= 0 && p <= 100));
  if (bad !== undefined) throw new RangeError(`A percentile must lie in [0, 100] (got ${bad})`);
  const sorted = finiteValues(values).sort((left, right) => left - right);
  const n = sorted.length;
  return requested.map((p) => {
    if (n === 0) return Number.NaN;
    const position = ((n - 1) * p) / 100;
    const below = Math.floor(position);
    const fraction = position - below;
    const low = sorted[below] ?? Number.NaN;
    const high = sorted[Math.min(below + 1, n - 1)] ?? Number.NaN;
    // numpy's lerp: interpolates from the nearer end so that fraction 1 returns `high` exactly.
    const difference = high - low;
    return fraction >= 0.5 ? high - difference * (1 - fraction) : low + difference * fraction;
  });
}

/**
 * Percentile rank of `score` within the base `values`, as a share in [0, 1]: the share of the base
 * scoring below it plus half the share scoring the same (scores within a relative 1e-12 count as the
 * same). NaN when the base has no finite value or the score is not finite.
 */
export function percentileRank(values: readonly number[], score: number): number {
  const base = finiteValues(values);
  if (base.length === 0 || !Number.isFinite(score)) return Number.NaN;
  let below = 0;
  let same = 0;
  for (const value of base) {
    if (Math.abs(value - score) <= TIE_TOLERANCE * Math.max(Math.abs(value), Math.abs(score))) same += 1;
    else if (value < score) below += 1;
  }
  return (below + same / 2) / base.length;
}
