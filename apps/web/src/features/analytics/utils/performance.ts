/** Pure helpers of the performance tab (document 3 section 2.1): breakdown labels, sorting, the CSV export. */
import { BREAKDOWN_FIELDS, type MetricSearchResult } from '@accord/contracts';

export type PerformanceRow = NonNullable<MetricSearchResult['performance']>[number];

export const METADATA_TYPES = [
  { value: 'metadata', label: 'Study metadata' },
  { value: 'fragrance', label: 'Fragrance' },
] as const;

const FIELD_LABELS: Record<string, string> = {
  client: 'Client',
  category: 'Category',
  product_type: 'Product',
  product_area: 'Business Unit',
  region: 'Region',
  country: 'Country',
  year: 'Year',
  methodology: 'Methodology',
  design_method: 'Design Method',
  research_type: 'Research Type',
  family: 'Family',
  subfamily: 'Subfamily',
  specifier: 'Specifier',
  perfumer_name: 'Perfumer Name',
};

export function breakdownLabel(field: string): string {
  return FIELD_LABELS[field] ?? field;
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

function csvCell(value: string): string {
  return /[",\n;]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The table as CSV text: the breakdown value, the product count, then each metric column as shown. */
export function performanceCsv(
  rows: readonly PerformanceRow[],
  header: string,
  columns: { key: string; title: string; format: (value: number | null) => string }[],
): string {
  const lines = [[header, 'Products', ...columns.map((column) => column.title)].map(csvCell).join(',')];
  for (const row of rows) {
    lines.push(
      [
        row.category.value,
        String(row.fragrances),
        ...columns.map((column) => column.format(metricValue(row, column.key))),
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}
