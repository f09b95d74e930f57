/** Pure helpers of the performance tab (document 3 section 2.1): breakdown labels and sorting. */
import { BREAKDOWN_FIELD_LABELS, BREAKDOWN_FIELDS, type MetricSearchResult } from '@accord/contracts';

export type PerformanceRow = NonNullable<MetricSearchResult['performance']>[number];

export const METADATA_TYPES = [
  { value: 'metadata', label: 'Study metadata' },
  { value: 'fragrance', label: 'Fragrance' },
] as const;

export function breakdownLabel(field: string): string {
  return BREAKDOWN_FIELD_LABELS[field] ?? field;
}

export function breakdownOptions(category: 'metadata' | 'fragrance'): { value: string; label: string }[] {
  return BREAKDOWN_FIELDS[category].map((field) => ({ value: field, label: breakdownLabel(field) }));
}

/** Sort key: 'category' (the breakdown value), 'fragrances' (count) or a metric key. */
export interface PerformanceSort {
  key: string;
  desc: boolean;
}

export function metricValue(row: PerformanceRow, key: string): number | null {
  return row.metrics.find((metric) => metric.name === key)?.value ?? null;
}

/** Rows sorted by the key; rows without a value go last whatever the direction. */
export function sortPerformance(rows: readonly PerformanceRow[], sort: PerformanceSort): PerformanceRow[] {
  const sign = sort.desc ? -1 : 1;
  return [...rows].sort((left, right) => {
    if (sort.key === 'category')
      return sign * left.category.value.localeCompare(right.category.value, 'en-GB', { numeric: true });
    if (sort.key === 'fragrances') return sign * (left.fragrances - right.fragrances);
    const a = metricValue(left, sort.key);
    const b = metricValue(right, sort.key);
    if (a === null && b === null) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    return sign * (a - b);
  });
}
