/**
 * The metric search: per fragrance or concept of the filters (or the chosen ones) the chosen metrics'
 * aggregations with their bases, kept and ordered by the thresholds, the pooled summary, the
 * performance breakdown when asked, and the diagnostics of the studies found, as typed columns the
 * result store keeps (result-store.ts). This file loads the data; metric-search-rows.ts assembles
 * the answer from it, in a worker thread for long lists.
 */
import {
  ANALYTICS_MESSAGES,
  NO_TAG,
  type Aggregation,
  type MetricSearchResult,
  type ParsedMetricSearchRequest,
  type PerformanceBreakdown,
} from '@accord/contracts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { assembleMetricSearchOffThread } from '../../workers/pool.ts';
import {
  poolSums,
  studyFiltersOf,
  sumsOf,
  type AnalyticsContext,
  type SumsTable,
} from './analytics-context.ts';
import { aggregate, yesNoShare } from './analytics-metrics.ts';
import type { MetricRecord, ProductRecord } from './analytics-types.ts';
import { respondentConditions, type AnalyticsRepository } from './analytics.repository.ts';
import {
  assembleMetricSearch,
  searchColumns,
  searchProductsOf,
  type SearchEntry,
} from './metric-search-rows.ts';
import type { SearchColumns } from './result-store.ts';

/**
 * Searches of up to this many cells (products x metric entries) are assembled on the request loop,
 * larger ones in a worker thread. Assembling from the columns takes about 0.15 µs a cell (0.33 ms for
 * 2,140 products and one entry at 300 studies), so at most ~1.5 ms of the loop here. Handing a search
 * to a thread costs more than that at this size: the product list is copied to the thread (postTask
 * alone was 8 % of the loop at eight clients) and the answer waits for a free pool thread, which may be
 * reading an upload or writing a spreadsheet for a second. With 500 products as the bound, the
 * 300-study searches went to the thread; on the loop their p95 fell by a fifth, alone and at eight
 * clients (bench/README.md). Whole-library searches (21,000 products) still go to the thread.
 */
export const SEARCH_ON_LOOP_CELLS = 10_000;

/**
 * How far a metric search is after each of its steps (the job's progress, in percent): finding the
 * products is quick, summing their answers is most of the work at library scale.
 */
export const SEARCH_STEPS = { products: 15, checked: 30, summed: 75, assembled: 90 } as const;

/**
 * The ids of a product list (shared with the product-list cache, so made once per list, not once
 * per search of tens of thousands of products); nothing changes them.
 */
const listIds = new WeakMap<readonly ProductRecord[], readonly number[]>();
function idsOf(list: readonly ProductRecord[]): number[] {
  let ids = listIds.get(list);
  if (ids === undefined) listIds.set(list, (ids = list.map((product) => product.id)));
  return ids as number[];
}

/** Computes a metric search as the columns of its answer. */
export async function computeMetricSearch(
  context: AnalyticsContext,
  user: AuthUser,
  request: ParsedMetricSearchRequest,
  fingerprintNow: string,
  /**
   * Called after each step with the share of the work done (the products found, their scale checks,
   * their answers summed, the rows assembled, the breakdown); stops the work by throwing.
   */
  step: (progress: number) => Promise<void> = async () => undefined,
): Promise<SearchColumns> {
  const {
    analytics,
    compileFor,
    resolveMetrics,
    productsOf,
    scopeOf,
    outOfScaleAnswers,
    mappedPairs,
    loadSums,
  } = context;
  const query = request.q;
  const compiled = compileFor(user, studyFiltersOf(query));
  const entries = query.metrics.metricsList;
  const entryMetrics = await resolveMetrics(entries, 'q.metrics.metricsList');
  const distinctMetrics = [...new Map(entryMetrics.map((metric) => [metric.id, metric])).values()];
  const kind = request.type === 'concepts' ? 'concept' : 'fragrance';
  const chosenIds = request.fragrances ? [...new Set(request.fragrances.map((entry) => entry.id))] : null;

  const productList = await productsOf(
    user,
    studyFiltersOf(query),
    { compiled, kind, rdfType: query.metrics.rdfType, productIds: chosenIds },
    fingerprintNow,
  );
  if (chosenIds) {
    const found = new Set(productList.map((product) => product.id));
    const missing = chosenIds.filter((id) => !found.has(id));
    if (missing.length > 0) throw errors.badRequest(ANALYTICS_MESSAGES.missingProducts(missing));
  }
  const productIds = idsOf(productList);
  await step(SEARCH_STEPS.products);
  const respondentFilter = respondentConditions(query.demographics, request.demographics_fragrances);

  const [outOfScale, mapped] = await Promise.all([
    outOfScaleAnswers(productIds, distinctMetrics, fingerprintNow),
    mappedPairs(distinctMetrics, fingerprintNow),
  ]);
  await step(SEARCH_STEPS.checked);
  const sums = await loadSums(
    productIds,
    distinctMetrics,
    respondentFilter,
    new Set(outOfScale.map((row) => row.productId)),
    fingerprintNow,
  );

  await step(SEARCH_STEPS.summed);
  const searchEntries: SearchEntry[] = entries.map((entry, index) => ({
    metric: entryMetrics[index]!,
    aggregation: entry.aggregation,
    confidence: entry.confidence,
    threshold: entry.applyThreshold && entry.threshold ? entry.threshold : null,
  }));
  const input = {
    type: request.type,
    entries: searchEntries,
    globalThreshold: query.metrics.threshold?.applyThreshold ? query.metrics.threshold : null,
    metrics: distinctMetrics,
    products: searchProductsOf(productList),
    mapped,
    outOfScale,
    filtered: respondentFilter.length > 0,
  };
  const assembled =
    productIds.length * searchEntries.length <= SEARCH_ON_LOOP_CELLS
      ? assembleMetricSearch({ ...input, sums })
      : await assembleMetricSearchOffThread({ ...input, sums });

  await step(SEARCH_STEPS.assembled);
  const performance = request.data
    ? await breakdown(
        analytics,
        {
          compiled,
          scope: scopeOf(user),
          kind,
          rdfType: query.metrics.rdfType,
          productIds: Array.from(assembled.order, (position) => productIds[position]!),
        },
        request.data,
        searchColumns(searchEntries),
        entryMetrics,
        sums,
      )
    : undefined;
  return { ...assembled, products: productList, ...(performance ? { performance } : {}) };
}

/**
 * Performance rows: the result rows pooled per value of the breakdown field (a product with several
 * values counts in each; products without a value under 'No tag'), largest groups first.
 */
async function breakdown(
  analytics: AnalyticsRepository,
  selection: Parameters<AnalyticsRepository['breakdownValues']>[0],
  by: PerformanceBreakdown,
  columns: { key: string; aggregation: Aggregation }[],
  entryMetrics: MetricRecord[],
  sums: SumsTable,
): Promise<NonNullable<MetricSearchResult['performance']>> {
  const values = await analytics.breakdownValues(selection, by.category, by.field);
  const groups = new Map<string, Set<number>>();
  const grouped = new Set<number>();
  for (const row of values) {
    if (!groups.has(row.value)) groups.set(row.value, new Set());
    groups.get(row.value)!.add(row.productId);
    grouped.add(row.productId);
  }
  const ungrouped = (selection.productIds ?? []).filter((id) => !grouped.has(id));
  if (ungrouped.length > 0) groups.set(NO_TAG, new Set(ungrouped));
  return [...groups.entries()]
    .map(([value, ids]) => {
      const n: Record<string, number> = {};
      const metrics = columns.map((column, index) => {
        const metric = entryMetrics[index]!;
        const pooled = poolSums(sums, ids, metric.id);
        n[column.key] = pooled.n;
        // A yes/no metric is a share here, never a mean (METRICS.md section 3).
        if (metric.kind === 'binary')
          return { name: column.key, value: yesNoShare(pooled, column.aggregation) };
        return { name: column.key, value: aggregate(pooled, column.aggregation, metric.kind) };
      });
      // The fragrances the values are pooled over: those with answers to a shown metric, not every
      // fragrance of the group.
      const metricIds = [...new Set(entryMetrics.map((metric) => metric.id))];
      let fragrances = 0;
      for (const id of ids) if (metricIds.some((metricId) => sumsOf(sums, id, metricId).n > 0)) fragrances++;
      return { category: { name: by.field, value }, metrics, fragrances, n };
    })
    .sort(
      (left, right) =>
        right.fragrances - left.fragrances || left.category.value.localeCompare(right.category.value),
    );
}
