/**
 * The statistics of the significance job (significance.ts), apart from the loading of its data: per
 * product and chosen metric, a test against the rest of the list or its average. Pure, so that it
 * runs in a worker thread for long lists (thousands of products × metrics of t and z-tests hold a
 * thread for hundreds of milliseconds) and on the request loop for short ones, with one answer.
 */
import type { Aggregation, ParsedSignificanceRequest, SignificanceStatus } from '@accord/contracts';
import {
  ANALYTICS_LEVELS,
  compareMeanVsAverageFromSummary,
  compareMeanVsRestFromSummaries,
  compareSelectionVsAverage,
  compareSelectionVsRest,
  subtractSums,
  summaryFromSums,
  type SelectionComparison,
} from '@accord/stats';
import { sumsOf, type SumsTable } from './analytics-context.ts';
import { EMPTY_SUMS, addSums, aggregate, boxCount, isShare, type Sums } from './analytics-metrics.ts';
import type { MetricRecord } from './analytics-types.ts';

/** One column of the answer: a metric and aggregation with confidence on. */
export interface SignificanceTest {
  /** The answer's key, `metric.aggregation.confidence`. */
  key: string;
  metricId: number;
  kind: MetricRecord['kind'];
  aggregation: Aggregation;
}

/** What the tests need: the products (in answer order, distinct), the tests, the statistics. */
export interface SignificanceInput {
  calculation: ParsedSignificanceRequest['calculation'];
  productIds: ArrayLike<number>;
  tests: readonly SignificanceTest[];
  sums: SumsTable;
}

/** The job's result: the significance of every product for every test. */
export type SignificanceResult = NonNullable<SignificanceStatus['result']>;

/** Tests every product against the rest (rest) or the average (avg) of the list, per test. */
export function significanceOf(input: SignificanceInput): SignificanceResult {
  const { calculation, tests, sums } = input;
  const productIds = Array.from(input.productIds);
  const rows: Record<string, unknown>[] = productIds.map((id) => ({ id }));
  for (const entry of tests) {
    const { key, metricId, kind } = entry;
    const perProduct = productIds.map((id) => sumsOf(sums, id, metricId));
    const withAnswers = perProduct.filter((productSums) => productSums.n > 0);
    const total = perProduct.reduce(addSums, EMPTY_SUMS as Sums);
    const share = isShare(entry.aggregation);
    const average =
      withAnswers.length === 0
        ? Number.NaN
        : withAnswers.reduce(
            (sum, productSums) => sum + aggregate(productSums, share ? entry.aggregation : 'mean', kind)!,
            0,
          ) / withAnswers.length;
    perProduct.forEach((productSums, at) => {
      let comparison: SelectionComparison;
      if (share) {
        const selection = { count: boxCount(productSums, entry.aggregation)!, n: productSums.n };
        comparison =
          calculation === 'rest'
            ? compareSelectionVsRest({
                kind: 'box',
                selection,
                rest: {
                  count: boxCount(total, entry.aggregation)! - selection.count,
                  n: total.n - productSums.n,
                },
                levels: ANALYTICS_LEVELS,
              })
            : compareSelectionVsAverage({ kind: 'box', selection, average, levels: ANALYTICS_LEVELS });
      } else {
        const selection = summaryFromSums(productSums.n, productSums.sum, productSums.sumSq);
        comparison =
          calculation === 'rest'
            ? compareMeanVsRestFromSummaries(
                selection,
                subtractSums(
                  { n: total.n, sum: total.sum, sumOfSquares: total.sumSq },
                  { n: productSums.n, sum: productSums.sum, sumOfSquares: productSums.sumSq },
                ),
                ANALYTICS_LEVELS,
              )
            : compareMeanVsAverageFromSummary(selection, average, ANALYTICS_LEVELS);
      }
      rows[at]![key] = {
        level: comparison.level,
        table: comparison.direction,
        test: comparison.test,
        p_value: comparison.pValue,
        n: productSums.n,
      };
    });
  }
  return { calculation, results: rows as unknown as SignificanceResult['results'] };
}
