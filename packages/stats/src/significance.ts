// The analytics significance rule (METRICS.md section 2): a selected product against the rest of the
// list or against the list average, for means and for boxes. Results are JSON-ready: no NaN, nulls
// where nothing can be said.
import { meanAndSquaredDeviations } from './descriptive.ts';
import { oneProportionZ, twoProportionZ } from './proportion-tests.ts';
import { oneSampleT, welchT } from './t-tests.ts';

/** The levels of the analytics rule, strictest first (shown as 99 %, 95 %, 90 %). */
export const ANALYTICS_LEVELS: readonly number[] = [0.01, 0.05, 0.1];

/** `mt`: the selection is significantly higher; `let`: significantly lower. */
export type SignificanceDirection = 'mt' | 'let';

/** A significant difference: the strictest level reached and its direction. */
export interface Significance {
  /** Smallest level with p < level (0.01, 0.05 or 0.1 by default). */
  level: number;
  direction: SignificanceDirection;
}

/**
 * The smallest level with `pValue < level` and the direction of `difference` (selection minus
 * reference: positive is `mt`, negative `let`), or null when no level is reached, the p-value is not a
 * number, or the difference is zero or not a number.
 */
export function classifySignificance(
  pValue: number,
  difference: number,
  levels: readonly number[] = ANALYTICS_LEVELS,
): Significance | null {
  if (Number.isNaN(pValue) || Number.isNaN(difference) || difference === 0) return null;
  const level = [...levels].sort((left, right) => left - right).find((candidate) => pValue < candidate);
  if (level === undefined) return null;
  return { level, direction: difference > 0 ? 'mt' : 'let' };
}

/** Number of answers in a box (`count`) out of the base (`n`). */
export interface BoxCount {
  count: number;
  n: number;
}

/** Selection against the pooled answers of every other product. */
export type RestComparisonInput =
  | { kind: 'mean'; selection: readonly number[]; rest: readonly number[]; levels?: readonly number[] }
  | { kind: 'box'; selection: BoxCount; rest: BoxCount; levels?: readonly number[] };

/** Selection against the list average taken as a known value. */
export type AverageComparisonInput =
  | { kind: 'mean'; selection: readonly number[]; average: number; levels?: readonly number[] }
  | { kind: 'box'; selection: BoxCount; average: number; levels?: readonly number[] };

/** Outcome of one selection comparison. Every number is finite or null, never NaN. */
export interface SelectionComparison {
  test: 'welch-t' | 'one-sample-t' | 'two-proportion-z' | 'one-proportion-z';
  /** False when the rule makes the comparison impossible (base below 2, zero variance, invalid input). */
  testable: boolean;
  /** Selection minus reference (means or proportions); null when not testable. */
  difference: number | null;
  statistic: number | null;
  /** Two-sided p-value; null when not testable. */
  pValue: number | null;
  /** Strictest level reached, or null (not significant or not testable). */
  level: number | null;
  direction: SignificanceDirection | null;
}

function untestable(test: SelectionComparison['test']): SelectionComparison {
  return {
    test,
    testable: false,
    difference: null,
    statistic: null,
    pValue: null,
    level: null,
    direction: null,
  };
}

/**
 * Applies the rule to a finished test: a non-finite statistic (which only arises from a zero standard
 * error) or p-value makes the comparison untestable instead of producing NaN or infinities.
 */
function decide(
  test: SelectionComparison['test'],
  statistic: number,
  pValue: number,
  difference: number,
  levels: readonly number[] | undefined,
): SelectionComparison {
  if (!Number.isFinite(statistic) || !Number.isFinite(pValue) || !Number.isFinite(difference))
    return untestable(test);
  const significance = classifySignificance(pValue, difference, levels);
  return {
    test,
    testable: true,
    difference,
    statistic,
    pValue,
    level: significance?.level ?? null,
    direction: significance?.direction ?? null,
  };
}

function boxIsValid(box: BoxCount): boolean {
  return (
    Number.isFinite(box.n) && Number.isFinite(box.count) && box.n >= 2 && box.count >= 0 && box.count <= box.n
  );
}

/** A box share of 0 or 1: every answer in or every answer out, so the 0/1 indicator has no variance. */
function boxHasZeroVariance(box: BoxCount): boolean {
  return box.count === 0 || box.count === box.n;
}

/**
 * Selection vs Average of the rest ("rest"): Welch t-test for means, pooled two-proportion z-test for
 * boxes, two-sided. Not testable (never NaN) when either side has fewer than 2 answers or both sides
 * have zero variance (for boxes: each share is 0 or 1), as METRICS.md prescribes even when the two
 * sides differ. Missing answers in the mean samples are dropped.
 */
export function compareSelectionVsRest(input: RestComparisonInput): SelectionComparison {
  if (input.kind === 'mean') {
    const result = welchT(input.selection, input.rest, 'two-sided');
    if (result.n1 < 2 || result.n2 < 2) return untestable('welch-t');
    return decide('welch-t', result.statistic, result.pValue, result.estimate, input.levels);
  }
  if (!boxIsValid(input.selection) || !boxIsValid(input.rest)) return untestable('two-proportion-z');
  if (boxHasZeroVariance(input.selection) && boxHasZeroVariance(input.rest))
    return untestable('two-proportion-z');
  const result = twoProportionZ(
    input.selection.count,
    input.selection.n,
    input.rest.count,
    input.rest.n,
    'two-sided',
  );
  return decide('two-proportion-z', result.statistic, result.pValue, result.estimate, input.levels);
}

/**
 * Selection vs Average ("avg"): one-sample t-test of the selection's answers against the average of the
 * product means, or one-sample z-test of its box share against the average of the product shares,
 * two-sided. Not testable (never NaN) when the selection has fewer than 2 answers, the average is not
 * finite (or not a proportion for boxes), or, for means, the selection has zero variance (the average is
 * a known value without variance, so that is zero variance on both sides). The box test takes its
 * standard error from the average, sqrt(p0(1 - p0)/n) (METRICS.md section 2), so a selection whose share
 * is 0 % or 100 % is tested like any other; only an average share of exactly 0 or 1 leaves the z-test
 * without a standard error.
 */
export function compareSelectionVsAverage(input: AverageComparisonInput): SelectionComparison {
  if (input.kind === 'mean') {
    const { n, squaredDeviations } = meanAndSquaredDeviations(input.selection);
    if (n < 2 || !Number.isFinite(input.average) || squaredDeviations === 0)
      return untestable('one-sample-t');
    const result = oneSampleT(input.selection, input.average, 'two-sided');
    return decide('one-sample-t', result.statistic, result.pValue, result.estimate, input.levels);
  }
  if (!boxIsValid(input.selection) || !(input.average > 0 && input.average < 1))
    return untestable('one-proportion-z');
  const result = oneProportionZ(input.selection.count, input.selection.n, input.average, 'two-sided');
  return decide('one-proportion-z', result.statistic, result.pValue, result.estimate, input.levels);
}
