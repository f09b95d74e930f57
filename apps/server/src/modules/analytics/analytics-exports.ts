/**
 * The analytics downloads as report workbooks (lib/report-workbook.ts): fragrance_metrics.xlsx,
 * fragrance_performance.xlsx, fragrance_attributes.xlsx, fragrance_tendencies.xlsx and
 * fragrance_profile.xlsx. Each cell holds the API's number (shares in [0, 1] under a % format, means
 * under 2 decimals), each aggregate has its base n beside it, low bases are marked as the tabs mark them.
 */
import {
  BREAKDOWN_FIELD_LABELS,
  LOW_BASE,
  TENDENCY_FIELD_LABELS,
  type DemographicCondition,
  type MetricSearchResult,
  type ProfileResponse,
  type ProfileRow,
  type TendenciesResponse,
  type TopAttributesStatus,
} from '@accord/contracts';
import type {
  CellKind,
  ReportCell,
  ReportColumn,
  ReportHeader,
  ReportTable,
} from '../../lib/report-workbook.ts';
import { searchInWords, type SearchFilters } from '../search/search-words.ts';

/** Who asked and when: the part of the header every download shares. */
export interface Requester {
  author: string;
  date: Date;
}

const MEAN_AGGREGATIONS = new Set(['mean', 'eeg_mean', 'variance']);

/** The strength (JAR) metric reads its boxes as too strong ... too weak (METRICS.md section 1). */
export const STRENGTH_HEADINGS: Record<string, string> = {
  top_box: 'Too strong',
  top_2_box: 'Strong',
  just_right: 'Just right',
  bottom_2_box: 'Weak',
  bottom_box: 'Too weak',
};

type MetricColumn = MetricSearchResult['columns'][number];

/** A metric column's heading: its aggregation (the strength words for strength) and its label. */
export function metricHeading(column: MetricColumn): string {
  const aggregation =
    column.metric === 'strength'
      ? (STRENGTH_HEADINGS[column.aggregation] ?? column.aggregation_label)
      : column.aggregation_label;
  return `${aggregation} ${column.label}`;
}

function metricKind(aggregation: string): CellKind {
  return MEAN_AGGREGATIONS.has(aggregation) ? 'mean' : 'share';
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** fragrance_metrics.xlsx: one row per fragrance or concept, each metric with its base n beside it. */
export function metricsReport(
  result: MetricSearchResult,
  filters: ReadonlySet<string>,
  who: Requester,
): { header: ReportHeader; table: ReportTable } {
  const rows = result.results
    .filter((row) => !filters.has('hide_low_base') || row.low_base.length === 0)
    .filter((row) => !filters.has('hide_empty') || Object.values(row.bases).some((n) => n > 0));
  const bases = filters.has('bases');
  const columns: ReportColumn[] = [
    { header: 'CMI #', kind: 'text', width: 14 },
    { header: 'Category', kind: 'text', width: 16 },
    { header: 'Product', kind: 'text', width: 16 },
    { header: result.type === 'concepts' ? 'Concept' : 'Fragrance', kind: 'text', width: 28 },
    { header: 'Product code', kind: 'text', width: 12 },
  ];
  for (const column of result.columns) {
    columns.push({ header: metricHeading(column), kind: metricKind(column.aggregation), width: 10 });
    if (bases) columns.push({ header: `Base n (${metricHeading(column)})`, kind: 'count', width: 10 });
  }
  const spreadsheetFilters = [
    bases ? 'bases shown' : 'bases hidden',
    ...(filters.has('hide_low_base') ? ['rows with a low base hidden'] : []),
    ...(filters.has('hide_empty') ? ['rows without answers hidden'] : []),
  ];
  const kind = result.type === 'concepts' ? 'concept' : 'fragrance';
  return {
    header: {
      title: `Metric search: ${plural(rows.length, kind, `${kind}s`)}`,
      source: [
        { label: 'Studies', value: plural(result.diagnostics.studies_found, 'study', 'studies') },
        { label: 'Metrics', value: result.columns.map(metricHeading).join(', ') || 'none' },
        {
          label: 'Respondents',
          value: result.filtered ? 'those meeting the demographic filters' : 'all',
        },
        { label: 'Spreadsheet', value: spreadsheetFilters.join(', ') },
      ],
      ...who,
      harmonised: true,
    },
    table: {
      columns,
      rows: rows.map((row) => {
        const cells: ReportCell[] = [row.c_mi_number, row.category, row.product, row.name, row.prod];
        for (const column of result.columns) {
          const lowBase = row.low_base.includes(column.key);
          cells.push({ value: row.values[column.key] ?? null, lowBase });
          if (bases) cells.push({ value: row.bases[column.key] ?? 0, lowBase });
        }
        return cells;
      }),
      footnotes: ['Shares are of the answers counted (base n); means are on the harmonised 1 to 5 scale.'],
    },
  };
}

/** The performance table's sort: the breakdown value, the product count or a metric key. */
export interface PerformanceSort {
  key: string;
  desc: boolean;
}

type PerformanceRow = NonNullable<MetricSearchResult['performance']>[number];

function metricValue(row: PerformanceRow, key: string): number | null {
  return row.metrics.find((metric) => metric.name === key)?.value ?? null;
}

/** The tab's order: rows without a value go last whatever the direction. */
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

/** fragrance_performance.xlsx: per value of the breakdown field, each metric pooled with its base n. */
export function performanceReport(
  result: MetricSearchResult,
  field: string,
  sort: PerformanceSort,
  who: Requester,
): { header: ReportHeader; table: ReportTable } {
  const rows = sortPerformance(result.performance ?? [], sort);
  const label = BREAKDOWN_FIELD_LABELS[field] ?? field;
  const columns: ReportColumn[] = [
    { header: label, kind: 'text', width: 24 },
    { header: result.type === 'concepts' ? 'Concepts' : 'Products', kind: 'count', width: 10 },
  ];
  for (const column of result.columns) {
    columns.push({ header: metricHeading(column), kind: metricKind(column.aggregation), width: 10 });
    columns.push({ header: `Base n (${metricHeading(column)})`, kind: 'count', width: 10 });
  }
  return {
    header: {
      title: `Performance by ${label}`,
      source: [
        { label: 'Studies', value: plural(result.diagnostics.studies_found, 'study', 'studies') },
        { label: 'Metrics', value: result.columns.map(metricHeading).join(', ') || 'none' },
        { label: 'Respondents', value: result.filtered ? 'those meeting the demographic filters' : 'all' },
      ],
      ...who,
      harmonised: true,
    },
    table: {
      columns,
      rows: rows.map((row) => {
        const cells: ReportCell[] = [row.category.value, row.fragrances];
        for (const column of result.columns) {
          const n = row.n[column.key] ?? 0;
          const lowBase = n < LOW_BASE;
          cells.push({ value: metricValue(row, column.key), lowBase });
          cells.push({ value: n, lowBase });
        }
        return cells;
      }),
      footnotes: rows.some((row) => row.category.value === 'No tag')
        ? ['"No tag": products without a value of the field.']
        : [],
    },
  };
}

type AttributesResult = NonNullable<TopAttributesStatus['result']>['json'];

/** CATA attributes carry '*' as on the tab. */
export const CATA_FOOTNOTE =
  '* A CATA (dichotomous) attribute is harmonized to 1 or 5, so it has no Neither/Nor part.';

/** fragrance_attributes.xlsx: the top attributes with their boxes, mean and base n. */
export function attributesReport(
  result: AttributesResult,
  who: Requester,
): { header: ReportHeader; table: ReportTable } {
  const cata = result.attributes.some((row) => row.is_binary_scale);
  return {
    header: {
      title: `Top attributes: ${plural(result.attributes.length, 'attribute', 'attributes')}`,
      source: [{ label: 'Pooled over', value: plural(result.fragrances, 'fragrance', 'fragrances') }],
      ...who,
      harmonised: true,
    },
    table: {
      columns: [
        { header: 'Attribute', kind: 'text', width: 30 },
        { header: 'Top 2 Box', kind: 'share' },
        { header: 'Bottom 2 Box', kind: 'share' },
        { header: 'Mean', kind: 'mean' },
        { header: 'Top Box', kind: 'share' },
        { header: 'Bottom Box', kind: 'share' },
        { header: 'Base n', kind: 'count' },
      ],
      rows: result.attributes.map((row) => {
        const lowBase = row.n < LOW_BASE;
        return [
          row.is_binary_scale ? `${row.attribute}*` : row.attribute,
          { value: row.top_2_box, lowBase },
          { value: row.bottom_2_box, lowBase },
          { value: row.mean, lowBase },
          { value: row.top_box, lowBase },
          { value: row.bottom_box, lowBase },
          { value: row.n, lowBase },
        ];
      }),
      footnotes: cata ? [CATA_FOOTNOTE] : [],
    },
  };
}

/** fragrance_tendencies.xlsx: the values of the counted field with counts and shares. */
export function tendenciesReport(
  found: TendenciesResponse,
  groupby: string,
  query: SearchFilters,
  chosen: number | null,
  who: Requester,
): { header: ReportHeader; table: ReportTable } {
  const field = groupby.slice('perfume_characteristics.'.length) as keyof typeof TENDENCY_FIELD_LABELS;
  const label = TENDENCY_FIELD_LABELS[field] ?? 'Value';
  return {
    header: {
      title: `Tendencies: fragrances by ${label}`,
      source: [
        chosen === null
          ? { label: 'Search', value: searchInWords(query) }
          : { label: 'Fragrances', value: `${plural(chosen, 'chosen fragrance', 'chosen fragrances')}` },
        { label: 'Fragrances counted', value: String(found.total) },
      ],
      ...who,
      harmonised: false,
    },
    table: {
      columns: [
        { header: label, kind: 'text', width: 30 },
        { header: 'Number of fragrances', kind: 'count' },
        { header: 'Percentage of fragrances', kind: 'share1' },
      ],
      rows: found.table_data.map((row) => [row.name, row.count, row.percentage / 100]),
    },
  };
}

const PROFILE_BOXES = ['top_box', 'top_2_box', 'just_right', 'bottom_box', 'bottom_2_box'] as const;
const BOX_HEADINGS: Record<(typeof PROFILE_BOXES)[number], string> = {
  top_box: 'Top Box',
  top_2_box: 'Top 2 Box',
  just_right: 'Neutral',
  bottom_box: 'Bottom Box',
  bottom_2_box: 'Bottom 2 Box',
};

/** The demographic conditions of a profile in words. */
export function demographicsInWords(conditions: readonly DemographicCondition[]): string {
  if (conditions.length === 0) return 'all';
  return conditions
    .map((condition) => {
      const label =
        condition.field === 'social_class'
          ? 'Social class'
          : condition.field === 'bumo'
            ? 'BUMO'
            : `${condition.field.charAt(0).toUpperCase()}${condition.field.slice(1)}`;
      const { filter } = condition as { filter: { value?: string; from?: number; to?: number } };
      return filter.value !== undefined
        ? `${label}: ${filter.value}`
        : `${label}: ${filter.from} to ${filter.to}`;
    })
    .join('; ');
}

function profileCells(row: ProfileRow): ReportCell[] {
  const lowBase = row.n > 0 && row.n < LOW_BASE;
  const value = (cell: ProfileRow['mean']): ReportCell => (cell === 'N/A' ? 'N/A' : { value: cell, lowBase });
  return [
    row.metric_type,
    row.is_binary_scale ? `${row.metric_name}*` : row.metric_name,
    value(row.mean),
    ...PROFILE_BOXES.map((key) => value(row[key])),
    { value: row.n, lowBase },
  ];
}

/** fragrance_profile.xlsx: the profile rows, the strength rows under the strength headings. */
export function profileReport(
  profile: ProfileResponse,
  demographics: readonly DemographicCondition[],
  who: Requester,
): { header: ReportHeader; table: ReportTable } {
  const { info } = profile;
  const strength = profile.result.filter((row) => row.metric === 'strength');
  const others = profile.result.filter((row) => row.metric !== 'strength');
  const columns = (headings: Record<string, string>): ReportColumn[] => [
    { header: 'Type', kind: 'text', width: 12 },
    { header: 'Metric', kind: 'text', width: 30 },
    { header: 'Mean', kind: 'mean' },
    ...PROFILE_BOXES.map((key) => ({ header: headings[key] ?? key, kind: 'share' as const })),
    { header: 'Base n', kind: 'count' },
  ];
  const cata = profile.result.some((row) => row.is_binary_scale);
  return {
    header: {
      title: `Fragrance profile: ${info.name ?? info.prod} (product code ${info.prod})`,
      source: [
        { label: 'Study', value: `${info.project_name} (${info.c_mi_number}), ${info.client}` },
        ...(info.code ? [{ label: '6 Digit Code (SAP)', value: info.code }] : []),
        { label: 'Respondents', value: demographicsInWords(demographics) },
      ],
      ...who,
      harmonised: true,
    },
    table: {
      columns: columns(BOX_HEADINGS),
      rows: others.map(profileCells),
      more:
        strength.length > 0
          ? [{ title: 'Strength', columns: columns(STRENGTH_HEADINGS), rows: strength.map(profileCells) }]
          : [],
      footnotes: [
        ...(profile.result.some((row) => row.mean === 'N/A')
          ? ['N/A: the study has no answers for this required metric.']
          : []),
        ...(cata
          ? [
              '* A CATA (dichotomous) variable was harmonized to a 5 point scale, so there are no neutral scores.',
            ]
          : []),
      ],
    },
  };
}
