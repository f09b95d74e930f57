// Penalty analysis with the drop's standard error and p-value (METRICS.md section 3): the JAR groups
// compared by OLS of liking on the group, ordinary standard errors.
import { mean } from './descriptive.ts';
import { studentTPValue } from './distributions.ts';
import { jarCategory, type JarCategory } from './jar.ts';

/** One non-JAR side (too little: 1-2, too much: 4-5) of {@link penaltySignificance}. */
export interface PenaltySide {
  /** Respondents in the group. */
  n: number;
  /** Group size / respondents with both answers (0 when the group is empty, or nobody answered both). */
  share: number;
  /** Mean liking of the JAR group − mean liking of this group; null when either group is empty. */
  drop: number | null;
  /** share × drop; null with the drop. */
  penalty: number | null;
  /** Standard error of the drop from the OLS fit; null when undefined. */
  stdError: number | null;
  /** Two-sided p-value of the drop (t with n − non-empty groups df); null when undefined. */
  pValue: number | null;
}

/** Result of {@link penaltySignificance}. */
export interface PenaltySignificance {
  /** Respondents with both a JAR and a liking answer. */
  n: number;
  /** Respondents in the JAR ("just right") group. */
  nJustRight: number;
  tooLittle: PenaltySide;
  tooMuch: PenaltySide;
}

/**
 * For the respondents with both answers (`jar[i]` harmonised 1-5 and `liking[i]`, missing = non-finite),
 * each non-JAR group's share, its drop in mean liking against the JAR group, the penalty (share × drop)
 * and the drop's standard error and two-sided p-value from `OLS liking ~ group` with the JAR group as
 * reference (pooled residual variance over the non-empty groups, n − groups df). No share threshold is
 * applied here: callers skip small groups for display.
 * @throws RangeError when the arrays differ in length.
 */
export function penaltySignificance(jar: readonly number[], liking: readonly number[]): PenaltySignificance {
  if (jar.length !== liking.length) {
    throw new RangeError(
      `Penalty analysis needs one liking answer per JAR answer (got ${jar.length} and ${liking.length})`,
    );
  }
  const groups: Record<JarCategory, number[]> = { too_weak: [], just_right: [], too_strong: [] };
  jar.forEach((answer, i) => {
    const category = jarCategory(answer);
    const score = liking[i] ?? Number.NaN;
    if (category !== null && Number.isFinite(score)) groups[category].push(score);
  });
  const all = Object.values(groups);
  const n = all.reduce((total, group) => total + group.length, 0);
  const filled = all.filter((group) => group.length > 0);
  const df = n - filled.length;
  // Residual variance of the one-way OLS: within-group sums of squares over n − groups.
  let within = 0;
  for (const group of filled) {
    const centre = mean(group);
    for (const value of group) within += (value - centre) ** 2;
  }
  const variance = df > 0 ? within / df : Number.NaN;
  const reference = groups.just_right;
  const side = (group: readonly number[]): PenaltySide => {
    const share = n === 0 ? 0 : group.length / n;
    if (group.length === 0 || reference.length === 0) {
      return { n: group.length, share, drop: null, penalty: null, stdError: null, pValue: null };
    }
    const drop = mean(reference) - mean(group);
    const stdError = Math.sqrt(variance * (1 / group.length + 1 / reference.length));
    const defined = Number.isFinite(stdError) && stdError > 0;
    return {
      n: group.length,
      share,
      drop,
      penalty: share * drop,
      stdError: Number.isFinite(stdError) ? stdError : null,
      pValue: defined ? studentTPValue(-drop / stdError, df) : null,
    };
  };
  return {
    n,
    nJustRight: reference.length,
    tooLittle: side(groups.too_weak),
    tooMuch: side(groups.too_strong),
  };
}
