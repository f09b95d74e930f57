// Harmonisation of every answer to the common 1-5 scale and the box aggregates (METRICS.md section 1).
import { meanAndSquaredDeviations } from './descriptive.ts';

/**
 * Tolerance of the box thresholds on the harmonised scale: 9-point 6 gives h = 3.5 exactly in real
 * arithmetic, and must count as T2B on every platform whatever rounding the division left.
 */
export const BOX_TOLERANCE = 1e-9;

/** The box keys of METRICS.md, in display order. */
export const BOX_KEYS = ['top_box', 'top_2_box', 'just_right', 'bottom_2_box', 'bottom_box'] as const;

/** One of the five box aggregates. */
export type BoxKey = (typeof BOX_KEYS)[number];

/** Which boxes a single harmonised answer falls in (an answer can be in several: TB is inside T2B). */
export type BoxMembership = Record<BoxKey, boolean>;

/**
 * Maps an answer `value` on the scale [min, max] to h = 1 + 4·(value − min)/(max − min) in [1, 5].
 *
 * Missing (non-finite) answers and answers outside the scale (beyond a 1e-9 tolerance) return NaN, so
 * the aggregates drop them like any other missing answer.
 * @throws RangeError when the scale itself is invalid (non-finite bounds or max ≤ min).
 */
export function harmoniseToFivePoint(value: number, min: number, max: number): number {
  assertScale(min, max);
  if (!Number.isFinite(value)) return Number.NaN;
  const h = 1 + (4 * (value - min)) / (max - min);
  if (h < 1 - BOX_TOLERANCE || h > 5 + BOX_TOLERANCE) return Number.NaN;
  return Math.min(5, Math.max(1, h));
}

/** True for two-point scales (0-1, 1-2: CATA, yes/no), whose answers harmonise to 1 or 5 only. */
export function isBinaryScale(min: number, max: number): boolean {
  assertScale(min, max);
  return max - min === 1;
}

/**
 * The boxes a harmonised answer belongs to: TB h ≥ 4.5, T2B h ≥ 3.5, JAR 2.5 < h < 3.5, B2B h ≤ 2.5,
 * BB h ≤ 1.5, each compared with a tolerance of {@link BOX_TOLERANCE}. A NaN answer is in no box.
 */
export function classifyBoxes(harmonised: number): BoxMembership {
  const h = harmonised;
  const atLeast = (threshold: number): boolean => h >= threshold - BOX_TOLERANCE;
  const atMost = (threshold: number): boolean => h <= threshold + BOX_TOLERANCE;
  return {
    top_box: atLeast(4.5),
    top_2_box: atLeast(3.5),
    just_right: h > 2.5 + BOX_TOLERANCE && h < 3.5 - BOX_TOLERANCE,
    bottom_2_box: atMost(2.5),
    bottom_box: atMost(1.5),
  };
}

/** Aggregates of a set of harmonised answers (METRICS.md section 1). */
export interface HarmonisedSummary {
  /** Base: the number of answers counted (missing answers excluded). */
  n: number;
  /** Arithmetic mean of h; null when n = 0. */
  mean: number | null;
  /** Sample variance of h (n − 1); null when n < 2. */
  variance: number | null;
  /** Share of answers with h ≥ 4.5, in [0, 1]; null when n = 0 (same for every box). */
  top_box: number | null;
  /** Share with h ≥ 3.5. */
  top_2_box: number | null;
  /** Share with 2.5 < h < 3.5; always 0 on binary scales, which have no neutral point. */
  just_right: number | null;
  /** Share with h ≤ 2.5. */
  bottom_2_box: number | null;
  /** Share with h ≤ 1.5. */
  bottom_box: number | null;
}

/**
 * Mean, variance and box shares of harmonised answers (values already on the 1-5 scale). Non-finite
 * values are missing answers and are dropped; `n` is the base actually counted. Values undefined for
 * the base (mean and boxes at n = 0, variance at n < 2) are null rather than NaN, because these
 * summaries travel as JSON.
 */
export function summariseHarmonised(values: readonly number[]): HarmonisedSummary {
  const answers = values.filter((value) => Number.isFinite(value));
  const n = answers.length;
  const counts: Record<BoxKey, number> = {
    top_box: 0,
    top_2_box: 0,
    just_right: 0,
    bottom_2_box: 0,
    bottom_box: 0,
  };
  for (const answer of answers) {
    const membership = classifyBoxes(answer);
    for (const key of BOX_KEYS) if (membership[key]) counts[key] += 1;
  }
  const share = (key: BoxKey): number | null => (n === 0 ? null : counts[key] / n);
  const moments = meanAndSquaredDeviations(answers);
  return {
    n,
    mean: n === 0 ? null : moments.mean,
    variance: n < 2 ? null : moments.squaredDeviations / (n - 1),
    top_box: share('top_box'),
    top_2_box: share('top_2_box'),
    just_right: share('just_right'),
    bottom_2_box: share('bottom_2_box'),
    bottom_box: share('bottom_box'),
  };
}

/**
 * Harmonises raw answers on the scale [min, max] and summarises them ({@link summariseHarmonised}).
 * Missing and out-of-scale answers are dropped from the base.
 * @throws RangeError when the scale is invalid.
 */
export function summariseScale(values: readonly number[], min: number, max: number): HarmonisedSummary {
  return summariseHarmonised(values.map((value) => harmoniseToFivePoint(value, min, max)));
}

function assertScale(min: number, max: number): void {
  if (!Number.isFinite(min) || !Number.isFinite(max) || !(max > min)) {
    throw new RangeError(`Invalid scale [${min}, ${max}]: bounds must be finite with max > min`);
  }
}
