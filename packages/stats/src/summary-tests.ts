// The analytics significance rule (METRICS.md section 2) on sufficient statistics (n, sum, sum of
// squares) instead of answer arrays, so that "the rest of the list" of thousands of products is one
// subtraction rather than a pooled copy of every answer. Same tests, same conventions and the same
// outcomes as compareSelectionVsRest / compareSelectionVsAverage on the answers themselves.
import { studentTPValue } from './distributions.ts';
import { classifySignificance, type SelectionComparison } from './significance.ts';
import { assertAlternative, type Alternative } from './types.ts';

/** Sufficient statistics of a sample: count, mean and sum of squared deviations from the mean. */
export interface SampleSummary {
  n: number;
  mean: number;
  squaredDeviations: number;
}

/**
 * A summary from count, sum and sum of squares. Squared deviations below a relative 1e-12 of the sum
 * of squares are rounding left by the subtraction and count as exactly zero (constant answers).
 */
export function summaryFromSums(n: number, sum: number, sumOfSquares: number): SampleSummary {
  if (!(n > 0)) return { n: 0, mean: Number.NaN, squaredDeviations: Number.NaN };
  const mean = sum / n;
  const raw = sumOfSquares - (sum * sum) / n;
  const squaredDeviations = raw <= 1e-12 * Math.abs(sumOfSquares) ? 0 : raw;
  return { n, mean, squaredDeviations };
}

/** The summary of the answers of `total` that are not in `part` (pooled answers of the rest). */
export function subtractSums(
  total: { n: number; sum: number; sumOfSquares: number },
  part: { n: number; sum: number; sumOfSquares: number },
): SampleSummary {
  return summaryFromSums(total.n - part.n, total.sum - part.sum, total.sumOfSquares - part.sumOfSquares);
}

/** Result of a t-test computed from summaries. */
export interface SummaryTTestResult {
  statistic: number;
  df: number;
  pValue: number;
  estimate: number;
}

function tStatistic(estimate: number, standardError: number): number {
  if (standardError > 0) return estimate / standardError;
  if (standardError === 0 && estimate !== 0 && Number.isFinite(estimate))
    return estimate > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return Number.NaN;
}

/** Welch's t-test from two summaries (Welch-Satterthwaite df), as welchT on the answers. */
export function welchTFromSummaries(
  first: SampleSummary,
  second: SampleSummary,
  alternative: Alternative = 'two-sided',
): SummaryTTestResult {
  assertAlternative(alternative);
  const estimate = first.mean - second.mean;
  if (first.n < 2 || second.n < 2)
    return { statistic: Number.NaN, df: Number.NaN, pValue: Number.NaN, estimate };
  const share1 = first.squaredDeviations / (first.n - 1) / first.n;
  const share2 = second.squaredDeviations / (second.n - 1) / second.n;
  const df =
    (share1 + share2) ** 2 / ((share1 * share1) / (first.n - 1) + (share2 * share2) / (second.n - 1));
  const statistic = tStatistic(estimate, Math.sqrt(share1 + share2));
  return { statistic, df, pValue: studentTPValue(statistic, df, alternative), estimate };
}

/** One-sample t-test of a summary against a known value, df = n − 1, as oneSampleT on the answers. */
export function oneSampleTFromSummary(
  sample: SampleSummary,
  mu: number,
  alternative: Alternative = 'two-sided',
): SummaryTTestResult {
  assertAlternative(alternative);
  const estimate = sample.mean - mu;
  if (sample.n < 2 || !Number.isFinite(mu))
    return { statistic: Number.NaN, df: Number.NaN, pValue: Number.NaN, estimate };
  const statistic = tStatistic(estimate, Math.sqrt(sample.squaredDeviations / (sample.n - 1) / sample.n));
  return {
    statistic,
    df: sample.n - 1,
    pValue: studentTPValue(statistic, sample.n - 1, alternative),
    estimate,
  };
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

function decide(
  test: SelectionComparison['test'],
  result: SummaryTTestResult,
  levels: readonly number[] | undefined,
): SelectionComparison {
  const { statistic, pValue, estimate } = result;
  if (!Number.isFinite(statistic) || !Number.isFinite(pValue) || !Number.isFinite(estimate))
    return untestable(test);
  const significance = classifySignificance(pValue, estimate, levels);
  return {
    test,
    testable: true,
    difference: estimate,
    statistic,
    pValue,
    level: significance?.level ?? null,
    direction: significance?.direction ?? null,
  };
}

/**
 * Means, Selection vs Average of the rest, from summaries: Welch t-test, two-sided. Not testable with
 * fewer than 2 answers on a side or zero variance on both sides (as compareSelectionVsRest).
 */
export function compareMeanVsRestFromSummaries(
  selection: SampleSummary,
  rest: SampleSummary,
  levels?: readonly number[],
): SelectionComparison {
  if (selection.n < 2 || rest.n < 2) return untestable('welch-t');
  if (selection.squaredDeviations === 0 && rest.squaredDeviations === 0) return untestable('welch-t');
  return decide('welch-t', welchTFromSummaries(selection, rest), levels);
}

/**
 * Means, Selection vs Average, from a summary: one-sample t-test against the average of the product
 * means, two-sided. Not testable with fewer than 2 answers, zero variance or a missing average.
 */
export function compareMeanVsAverageFromSummary(
  selection: SampleSummary,
  average: number,
  levels?: readonly number[],
): SelectionComparison {
  if (selection.n < 2 || !Number.isFinite(average) || selection.squaredDeviations === 0)
    return untestable('one-sample-t');
  return decide('one-sample-t', oneSampleTFromSummary(selection, average), levels);
}
