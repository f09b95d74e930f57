/**
 * Significance of each product of a list against the list's average (avg) or the rest of the list
 * (rest), for the metrics with confidence on: Welch or one-sample t-tests for means, two-proportion or
 * one-proportion z-tests for boxes, two-sided at the analytics levels. This file loads the data; the
 * tests run in significance-tests.ts, in a worker thread for long lists.
 */
import { ANALYTICS_MESSAGES, type ParsedSignificanceRequest } from '@accord/contracts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { significanceTextOffThread } from '../../workers/pool.ts';
import type { AnalyticsContext } from './analytics-context.ts';
import { storedResult, type StoredResult } from './analytics-job-runner.ts';
import { respondentConditions } from './analytics.repository.ts';
import { significanceOf, type SignificanceTest } from './significance-tests.ts';

/**
 * Lists up to this many products are tested on the request loop, longer ones in a worker thread. The
 * tests and the text of their answer take 4-5 µs a product with five metrics (measured: 6 ms for
 * 1,436 products, 100 ms for 20,000), so at most ~2.5 ms here. From the loop's side the hop costs
 * little (packing the statistics, taking the text back), but the answer then waits for a free pool
 * thread, which may be reading an upload or writing a spreadsheet for a second: a short list is
 * answered sooner here, at no cost the other requests would notice.
 */
export const SIGNIFICANCE_ON_LOOP_MAX = 500;

/** Computes the significance of every product of the request, as the JSON text of its answer. */
export async function computeSignificance(
  context: AnalyticsContext,
  user: AuthUser,
  request: ParsedSignificanceRequest,
  fingerprintNow: string,
): Promise<StoredResult> {
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

  const tests: SignificanceTest[] = chosen.map((entry, index) => {
    const metric = metricList[index]!;
    return {
      key: `${metric.name}.${entry.aggregation}.confidence`,
      metricId: metric.id,
      kind: metric.kind,
      aggregation: entry.aggregation,
    };
  });
  const input = { calculation: request.calculation, productIds, tests, sums };
  if (productIds.length <= SIGNIFICANCE_ON_LOOP_MAX) return storedResult(significanceOf(input));
  return { text: await significanceTextOffThread(input) };
}
