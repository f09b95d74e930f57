/**
 * Significance of each product of a list against the list's average (avg) or the rest of the list
 * (rest), for the metrics with confidence on: respondent-clustered tests on the harmonised answers or
 * their box indicators, two-sided, Benjamini-Hochberg across the call by default (METRICS.md section
 * 2). This file gathers each respondent's sums per product: from the respondents and answers held in
 * memory per metric (respondent-sums.ts) when the filter is at most gender and age, else (and while
 * they are being read after a start or a change) in one grouped read of the answers; the tests run
 * in significance-tests.ts, in a worker thread for long lists.
 */
import { ANALYTICS_MESSAGES, type ParsedSignificanceRequest } from '@accord/contracts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { significanceTextOffThread } from '../../workers/pool.ts';
import type { AnalyticsContext } from './analytics-context.ts';
import { storedResult, type StoredResult } from './analytics-job-runner.ts';
import { respondentConditions } from './analytics.repository.ts';
import { indexedCellBuffers, indexedCellsOf } from './respondent-sums.ts';
import { significanceOf, type SignificanceInput, type SignificanceTest } from './significance-tests.ts';

/**
 * Lists up to this many products are tested on the request loop, longer ones in a worker thread. The
 * clustered tests take one pass over each respondent's sums per product and test (measured on a
 * loaded 2-core machine: 70-180 ms for 500 products × 150 respondents × 5 tests, 80 ms for 1,000),
 * so a short list is answered sooner here than after waiting for a free pool thread. Both read each
 * test's sums from the respondents in memory: a thread is given the listed cells (indexedCellsOf),
 * moved, and the index, on shared memory; nothing is copied. Measured back to back on the 3,000-study library
 * (bench/README.md), 1,000 products from memory answered sooner in the thread than on the loop,
 * alone and at 8 clients.
 */
export const SIGNIFICANCE_ON_LOOP_MAX = 500;

/**
 * Computes the significance of every product of the request under the data's version
 * `fingerprintNow`, as the JSON text of its answer.
 */
export async function computeSignificance(
  context: AnalyticsContext,
  user: AuthUser,
  request: ParsedSignificanceRequest,
  fingerprintNow: string,
): Promise<StoredResult> {
  const { analytics, resolveMetrics, scopeOf, respondentIndexesFor } = context;
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
  // Out-of-scale answers are left out by both reads, as every analytics number leaves them out.
  const conditions = respondentConditions(request.demographics, request.demographics_fragrances);
  const inMemory = await respondentIndexesFor(distinct, conditions, fingerprintNow);

  const tests: SignificanceTest[] = chosen.map((entry, index) => {
    const metric = metricList[index]!;
    return {
      key: `${metric.name}.${entry.aggregation}.confidence`,
      metricId: metric.id,
      kind: metric.kind,
      aggregation: entry.aggregation,
    };
  });
  const base = { calculation: request.calculation, correction: request.correction, productIds, tests };
  if (inMemory) {
    // Each test's sums read from the indexes: the text alone is kept (the cache holds it).
    const indexedInput = (): SignificanceInput => ({
      ...base,
      cells: new Map(),
      indexed: new Map(
        inMemory.indexes.map((index) => [index.metricId, indexedCellsOf(index, productIds, inMemory.keep)]),
      ),
    });
    if (productIds.length <= SIGNIFICANCE_ON_LOOP_MAX)
      return { text: JSON.stringify(significanceOf(indexedInput())) };
    // The cells move to the thread (made again here should it run out of memory).
    const input = indexedInput();
    const moved = [...input.indexed!.values()].flatMap(indexedCellBuffers);
    return { text: await significanceTextOffThread(input, { transfer: moved, again: indexedInput }) };
  }
  const cells = await analytics.respondentCells(
    productIds,
    distinct.map((metric) => metric.id),
    distinct.filter((metric) => metric.kind === 'eeg').map((metric) => metric.id),
    conditions,
  );
  const input = { ...base, cells };
  if (productIds.length <= SIGNIFICANCE_ON_LOOP_MAX) return storedResult(significanceOf(input));
  return { text: await significanceTextOffThread(input) };
}
