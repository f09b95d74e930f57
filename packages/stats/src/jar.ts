// Just-about-right (strength) questions: distribution and penalty analysis (METRICS.md section 3).
// Answers are harmonised to 1-5 first; too weak is h ≤ 2.5, just right 2.5 < h < 3.5, too strong
// h ≥ 3.5, the same thresholds (and tolerance) as the B2B / JAR / T2B boxes.
import { mean } from './descriptive.ts';
import { classifyBoxes } from './harmonise.ts';

/** Default minimum share of respondents a non-JAR group needs before its penalty is reported. */
export const PENALTY_MIN_SHARE = 0.2;

/** JAR category of one harmonised answer. */
export type JarCategory = 'too_weak' | 'just_right' | 'too_strong';

/** Shares of the three JAR categories. */
export interface JarDistribution {
  /** Answers counted (missing ones dropped). */
  n: number;
  /** Shares in [0, 1]; null when n = 0. */
  tooWeak: number | null;
  justRight: number | null;
  tooStrong: number | null;
}

/** A group of respondents in the penalty analysis. */
export interface JarGroup {
  n: number;
  /** Share of all respondents with both answers; null when there are none. */
  share: number | null;
  /** Mean of the main (liking) question in the group; null when the group is empty. */
  meanLiking: number | null;
}

/** A non-JAR group with its penalty. */
export interface PenaltyGroup extends JarGroup {
  /** False when skipped: share below the threshold, or an empty group or JAR group. */
  analysed: boolean;
  /** Mean liking of the JAR group minus that of this group (positive: liking drops); null when skipped. */
  meanDrop: number | null;
  /** meanDrop × share: the weighted penalty; null when skipped. */
  weightedPenalty: number | null;
}

/** Result of {@link penaltyAnalysis}. */
export interface PenaltyAnalysis {
  /** Respondents with both a JAR and a liking answer. */
  n: number;
  justRight: JarGroup;
  tooWeak: PenaltyGroup;
  tooStrong: PenaltyGroup;
}

/** JAR category of a harmonised answer (1-5), or null for a missing (non-finite) answer. */
export function jarCategory(harmonised: number): JarCategory | null {
  if (!Number.isFinite(harmonised)) return null;
  const boxes = classifyBoxes(harmonised);
  if (boxes.bottom_2_box) return 'too_weak';
  if (boxes.top_2_box) return 'too_strong';
  return 'just_right';
}

/**
 * Shares of too weak / just right / too strong among harmonised JAR answers. Missing (non-finite)
 * answers are dropped; shares are null when none is left.
 */
export function jarDistribution(harmonised: readonly number[]): JarDistribution {
  const counts = { too_weak: 0, just_right: 0, too_strong: 0 };
  let n = 0;
  for (const answer of harmonised) {
    const category = jarCategory(answer);
    if (category === null) continue;
    counts[category] += 1;
    n += 1;
  }
  const share = (count: number): number | null => (n === 0 ? null : count / n);
  return {
    n,
    tooWeak: share(counts.too_weak),
    justRight: share(counts.just_right),
    tooStrong: share(counts.too_strong),
  };
}

/**
 * Penalty analysis of a JAR question against the main question: for the too weak and too strong groups,
 * the mean drop in liking against the just-right group and that drop weighted by the group's share.
 * `jar[i]` (harmonised 1-5) and `liking[i]` are respondent i's answers; respondents missing either are
 * dropped. A group below `minShare` of respondents (default 20 %) is skipped (analysed false, nulls).
 * @throws RangeError when the arrays have different lengths.
 */
export function penaltyAnalysis(
  jar: readonly number[],
  liking: readonly number[],
  options: { minShare?: number } = {},
): PenaltyAnalysis {
  if (jar.length !== liking.length) {
    throw new RangeError(
      `Penalty analysis needs one liking answer per JAR answer (got ${jar.length} and ${liking.length})`,
    );
  }
  const minShare = options.minShare ?? PENALTY_MIN_SHARE;
  const groups: Record<JarCategory, number[]> = { too_weak: [], just_right: [], too_strong: [] };
  jar.forEach((answer, index) => {
    const category = jarCategory(answer);
    const score = liking[index] ?? Number.NaN;
    if (category !== null && Number.isFinite(score)) groups[category].push(score);
  });
  const n = groups.too_weak.length + groups.just_right.length + groups.too_strong.length;
  const describe = (scores: readonly number[]): JarGroup => ({
    n: scores.length,
    share: n === 0 ? null : scores.length / n,
    meanLiking: scores.length === 0 ? null : mean(scores),
  });
  const justRight = describe(groups.just_right);
  const penalise = (scores: readonly number[]): PenaltyGroup => {
    const group = describe(scores);
    // Compare counts, not the rounded share, so exactly 20 % is never lost to rounding.
    const largeEnough = group.n > 0 && group.n >= minShare * n - 1e-9;
    if (!largeEnough || justRight.meanLiking === null || group.meanLiking === null || group.share === null) {
      return { ...group, analysed: false, meanDrop: null, weightedPenalty: null };
    }
    const meanDrop = justRight.meanLiking - group.meanLiking;
    return { ...group, analysed: true, meanDrop, weightedPenalty: meanDrop * group.share };
  };
  return { n, justRight, tooWeak: penalise(groups.too_weak), tooStrong: penalise(groups.too_strong) };
}
