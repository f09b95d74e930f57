/**
 * Significance of each product of a list against the list's average (avg) or the rest of the list
 * (rest), for the metrics with confidence on: Welch or one-sample t-tests for means, two-proportion or
 * one-proportion z-tests for boxes, two-sided at the analytics levels.
 */
import {
  ANALYTICS_MESSAGES,
  type ParsedSignificanceRequest,
  type SignificanceStatus,
} from '@accord/contracts';
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
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { sumsOf, type AnalyticsContext } from './analytics-context.ts';
import { EMPTY_SUMS, addSums, aggregate, boxCount, isShare, type Sums } from './analytics-metrics.ts';
import { respondentConditions } from './analytics.repository.ts';

/** Computes the significance of every product of the request. */
export async function computeSignificance(
  context: AnalyticsContext,
  user: AuthUser,
  request: ParsedSignificanceRequest,
  fingerprintNow: string,
): Promise<NonNullable<SignificanceStatus['result']>> {
  const { analytics, resolveMetrics, scopeOf, outOfScaleAnswers, loadSums } = context;
  const chosen = request.metrics.filter((entry) => entry.confidence);
  const metricList = await resolveMetrics(
    chosen.map((entry) => ({ metric: entry.field, aggregation: entry.aggregation })),
    'metrics',
  );
  const productIds = [...new Set(request.data.map((row) => row.id))];
  const visible = await analytics.productsById(productIds, scopeOf(user));
  const missing = productIds.filter((id) => !visible.has(id));
  if (missing.length > 0) throw errors.badRequest(ANALYTICS_MESSAGES.missingProducts(missing));
  const distinct = [...new Map(metricList.map((metric) => [metric.id, metric])).values()];
  const outOfScale = await outOfScaleAnswers(productIds, distinct, fingerprintNow);
  const sums = await loadSums(
    productIds,
    distinct,
    respondentConditions(request.demographics, request.demographics_fragrances),
    new Set(outOfScale.map((row) => row.productId)),
    fingerprintNow,
  );

  const rows: Record<string, unknown>[] = productIds.map((id) => ({ id }));
  chosen.forEach((entry, index) => {
    const metric = metricList[index]!;
    const key = `${metric.name}.${entry.aggregation}.confidence`;
    const perProduct = productIds.map((id) => sumsOf(sums, id, metric.id));
    const withAnswers = perProduct.filter((productSums) => productSums.n > 0);
    const total = perProduct.reduce(addSums, EMPTY_SUMS as Sums);
    const share = isShare(entry.aggregation);
    const average =
      withAnswers.length === 0
        ? Number.NaN
        : withAnswers.reduce(
            (sum, productSums) =>
              sum + aggregate(productSums, share ? entry.aggregation : 'mean', metric.kind)!,
            0,
          ) / withAnswers.length;
    perProduct.forEach((productSums, at) => {
      let comparison: SelectionComparison;
      if (share) {
        const selection = { count: boxCount(productSums, entry.aggregation)!, n: productSums.n };
        comparison =
          request.calculation === 'rest'
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
          request.calculation === 'rest'
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
  });
  return {
    calculation: request.calculation,
    results: rows as unknown as NonNullable<SignificanceStatus['result']>['results'],
  };
}
