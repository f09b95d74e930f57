/**
 * The order of the performance table (document 3 section 2.1): the tab sorts its rows with it and
 * fragrance_performance.xlsx writes them in the same order, so both read the one rule.
 */
import type { MetricSearchResult } from './analytics.ts';

/** One row of a performance search: a value of the breakdown field with its pooled metrics. */
export type PerformanceRow = NonNullable<MetricSearchResult['performance']>[number];

/** Sort key: 'category' (the breakdown value), 'fragrances' (the product count) or a metric key. */
export interface PerformanceSort {
  key: string;
  /** Largest (or last in the alphabet) first. */
  desc: boolean;
}

/** The pooled value of a metric key ("metric.aggregation") in a row; null when it has none. */
export function performanceValue(row: PerformanceRow, key: string): number | null {
  return row.metrics.find((metric) => metric.name === key)?.value ?? null;
}

/** Rows sorted by the key; rows without a value go last whatever the direction. */
export function sortPerformance(rows: readonly PerformanceRow[], sort: PerformanceSort): PerformanceRow[] {
  const sign = sort.desc ? -1 : 1;
  return [...rows].sort((left, right) => {
    if (sort.key === 'category')
      return sign * left.category.value.localeCompare(right.category.value, 'en-GB', { numeric: true });
    if (sort.key === 'fragrances') return sign * (left.fragrances - right.fragrances);
    const a = performanceValue(left, sort.key);
    const b = performanceValue(right, sort.key);
    if (a === null && b === null) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    return sign * (a - b);
  });
}
