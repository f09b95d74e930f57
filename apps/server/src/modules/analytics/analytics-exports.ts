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
  YES_NO_SHARE_LABEL,
  performanceBaseNotes,
  performanceValue,
  yesNoHeading,
  sortPerformance,
  type AnalyticsDemographicsFilter,
  type DemographicCondition,
  type MetricSearchResult,
  type ParsedMetricSearchRequest,
  type PerformanceSort,
  type ProfileResponse,
  type ProfileRow,
  type RdfType,
  type TendenciesResponse,
  type TopAttributesRequest,
  type TopAttributesStatus,
} from '@accord/contracts';
import type { z } from 'zod';
import type {
  CellKind,
  ReportCell,
  ReportColumn,
  ReportHeader,
  ReportTable,
} from '../../lib/report-workbook.ts';
import {
  STUDY_TYPE_LABELS,
  conditionsInWords,
  filtersInWords,
  joinedOrNone,
  metricsInWords,
} from '../exports/filters-in-words.ts';
import {
  markText,
  markTone,
  significanceInWords,
  significanceLegend,
  type MarkTable,
} from '../exports/significance-marks.ts';
import type { SearchFilters } from '../search/search-words.ts';

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

/** The header's line of a job whose row kept no request (written by an older version). */
export const FILTERS_NOT_KEPT = 'not kept with this search: run it again to have them here';

type HeaderLine = { label: string; value: string };

/** What an analytics search was drawn from, in words: its filters, study type and selection. */
export function searchLines(
  request: {
    q: SearchFilters & {
      demographics?: AnalyticsDemographicsFilter | null;
      metrics?: { rdfType?: RdfType } | null;
    };
    selected?: number | null;
    conditions?: readonly DemographicCondition[];
  } | null,
  kind: string,
  respondents = true,
): HeaderLine[] {
  if (!request) return [{ label: 'Filters', value: FILTERS_NOT_KEPT }];
  const rdfType = request.q.metrics?.rdfType ?? 'all';
  const conditions = request.conditions ?? [];
  return [
    { label: 'Filters', value: filtersInWords(request.q, respondents) },
    ...(rdfType !== 'all' ? [{ label: 'Study type', value: STUDY_TYPE_LABELS[rdfType] }] : []),
    ...(request.selected != null
      ? [{ label: 'Selection', value: plural(request.selected, `chosen ${kind}`, `chosen ${kind}s`) }]
      : []),
    ...(conditions.length > 0
      ? [{ label: 'Respondents of the selection', value: joinedOrNone(conditionsInWords(conditions)) }]
      : []),
  ];
}

/** The header lines of a metric search's request: filters, selection, metrics and thresholds. */
export function metricSearchLines(
  result: Pick<MetricSearchResult, 'type' | 'columns' | 'diagnostics'>,
  request: ParsedMetricSearchRequest | null,
): HeaderLine[] {
  const kind = result.type === 'concepts' ? 'concept' : 'fragrance';
  const lines = searchLines(
    request && {
      q: request.q,
      selected: request.fragrances ? request.fragrances.length : null,
      conditions: request.demographics_fragrances,
    },
    kind,
  );
  const words = metricsInWords(
    result.columns,
    metricHeading,
    request?.q.metrics.metricsList ?? [],
    request?.q.metrics.threshold,
    result.type,
  );
  return [
    ...lines,
    { label: 'Studies', value: plural(result.diagnostics.studies_found, 'study', 'studies') },
    { label: 'Metrics', value: words.metrics },
    ...(words.threshold ? [{ label: 'Threshold', value: words.threshold }] : []),
  ];
}

/** fragrance_metrics.xlsx: one row per fragrance or concept, each metric with its base n beside it. */
export function metricsReport(
  result: MetricSearchResult,
  filters: ReadonlySet<string>,
  who: Requester,
  request: ParsedMetricSearchRequest | null = null,
  marks: MarkTable | null = null,
): { header: ReportHeader; table: ReportTable } {
  const rows = result.results
    .filter((row) => !filters.has('hide_low_base') || row.low_base.length === 0)
    .filter((row) => !filters.has('hide_empty') || Object.values(row.bases).some((n) => n > 0));
  const bases = filters.has('bases');
  const columns: ReportColumn[] = [
    // The CMI # and the name come first: a table too wide for one page repeats them on each.
    { header: 'CMI #', kind: 'text', width: 14 },
    { header: result.type === 'concepts' ? 'Concept' : 'Fragrance', kind: 'text', width: 28 },
    { header: 'Category', kind: 'text', width: 16 },
    { header: 'Product', kind: 'text', width: 16 },
    { header: 'Product code', kind: 'text', width: 12 },
  ];
  // The mark sits right of the number it qualifies, as on the tab; the base comes after both.
  const marked = (column: MetricColumn) => marks !== null && marks.keys.has(column.key);
  for (const column of result.columns) {
    columns.push({
      header: metricHeading(column),
      kind: column.yes_no ? 'share' : metricKind(column.aggregation),
      width: 10,
    });
    if (marked(column))
      columns.push({ header: `Significance (${metricHeading(column)})`, kind: 'letters', width: 10 });
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
        ...metricSearchLines(result, request),
        ...(marks ? [{ label: 'Significance', value: significanceInWords(marks) }] : []),
        { label: 'Spreadsheet', value: spreadsheetFilters.join(', ') },
      ],
      ...who,
      harmonised: true,
    },
    table: {
      columns,
      keyColumns: 2,
      rows: rows.map((row) => {
        const cells: ReportCell[] = [row.c_mi_number, row.name, row.category, row.product, row.prod];
        for (const column of result.columns) {
          const lowBase = row.low_base.includes(column.key);
          cells.push({ value: row.values[column.key] ?? null, lowBase });
          if (marked(column)) {
            const mark = marks!.mark(row.id, column.key);
            const text = markText(mark);
            const tone = markTone(mark, column.key);
            cells.push(text ? { value: text, ...(tone ? { tone } : {}) } : null);
          }
          if (bases) cells.push({ value: row.bases[column.key] ?? 0, lowBase });
        }
        return cells;
      }),
      footnotes: [
        'Shares are of the answers counted (base n); means are on the harmonised 1 to 5 scale.',
        ...(marks ? significanceLegend(marks) : []),
      ],
    },
  };
}

/** fragrance_performance.xlsx: per value of the breakdown field, each metric pooled with its base n. */
export function performanceReport(
  result: MetricSearchResult,
  field: string,
  sort: PerformanceSort,
  who: Requester,
  request: ParsedMetricSearchRequest | null = null,
): { header: ReportHeader; table: ReportTable } {
  const rows = sortPerformance(result.performance ?? [], sort);
  const label = BREAKDOWN_FIELD_LABELS[field] ?? field;
  const columns: ReportColumn[] = [
    { header: label, kind: 'text', width: 24 },
    { header: result.type === 'concepts' ? 'Concepts' : 'Products', kind: 'count', width: 10 },
  ];
  for (const column of result.columns) {
    // A yes/no metric is a share, as on the tab.
    const yesNo = column.yes_no ? yesNoHeading(column.aggregation, column.label) : null;
    const heading = yesNo ?? metricHeading(column);
    columns.push({
      header: heading,
      kind: column.yes_no ? 'share' : metricKind(column.aggregation),
      width: 10,
    });
    columns.push({ header: `Base n (${heading})`, kind: 'count', width: 10 });
  }
  return {
    header: {
      title: `Performance by ${label}`,
      source: metricSearchLines(result, request),
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
          cells.push({ value: performanceValue(row, column.key), lowBase });
          cells.push({ value: n, lowBase });
        }
        return cells;
      }),
      footnotes: [
        ...performanceBaseNotes(result.type === 'concepts' ? 'concepts' : 'products'),
        ...(rows.some((row) => row.category.value === 'No tag')
          ? ['"No tag": products without a value of the field.']
          : []),
      ],
    },
  };
}

type AttributesResult = NonNullable<TopAttributesStatus['result']>['json'];
type ParsedTopAttributesRequest = z.output<typeof TopAttributesRequest>;

/** The ranking aggregations as the top attributes tab names them. */
export const ATTRIBUTE_AGGREGATION_LABELS: Record<ParsedTopAttributesRequest['data']['aggregation'], string> =
  {
    top_2_box: 'Top 2 Box',
    top_box: 'Top Box',
    mean: 'Mean',
    bottom_2_box: 'Bottom 2 Box',
    bottom_box: 'Bottom Box',
  };
export const ATTRIBUTE_TYPE_LABELS: Record<ParsedTopAttributesRequest['data']['attribute_type'], string> = {
  all: 'all attributes',
  hedonic: 'hedonic attributes',
  binary: 'CATA attributes',
};

/** CATA attributes carry '*' as on the tab. */
export const CATA_FOOTNOTE = `* A yes/no (CATA) attribute is the share of answers selecting it (${YES_NO_SHARE_LABEL}), with no mean or boxes; yes/no attributes are ranked apart from the scale attributes.`;

/** fragrance_attributes.xlsx: the top attributes with their boxes, mean and base n. */
export function attributesReport(
  result: AttributesResult,
  who: Requester,
  request: ParsedTopAttributesRequest | null = null,
): { header: ReportHeader; table: ReportTable } {
  const cata = result.attributes.some((row) => row.is_binary_scale);
  const ranking = request
    ? [
        {
          label: 'Ranking',
          value: `${request.data.order === 'best' ? 'Best' : 'Worst'} ${request.data.count} by ${ATTRIBUTE_AGGREGATION_LABELS[request.data.aggregation]}, ${ATTRIBUTE_TYPE_LABELS[request.data.attribute_type]}`,
        },
      ]
    : [];
  return {
    header: {
      title: `Top attributes: ${plural(result.attributes.length, 'attribute', 'attributes')}`,
      source: [
        ...searchLines(
          request && {
            q: request.q,
            selected: request.frags ? request.frags.length : null,
            conditions: request.demographics,
          },
          'fragrance',
        ),
        ...ranking,
        { label: 'Pooled over', value: plural(result.fragrances, 'fragrance', 'fragrances') },
      ],
      ...who,
      harmonised: true,
    },
    table: {
      columns: [
        { header: 'Attribute', kind: 'text', width: 30 },
        ...(cata ? [{ header: YES_NO_SHARE_LABEL, kind: 'share' as const }] : []),
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
          ...(cata ? [{ value: row.selected, lowBase }] : []),
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
  query: SearchFilters & { metrics?: { rdfType?: RdfType } | null },
  chosen: number | null,
  who: Requester,
): { header: ReportHeader; table: ReportTable } {
  const field = groupby.slice('perfume_characteristics.'.length) as keyof typeof TENDENCY_FIELD_LABELS;
  const label = TENDENCY_FIELD_LABELS[field] ?? 'Value';
  return {
    header: {
      title: `Tendencies: fragrances by ${label}`,
      // The tendencies count fragrances: respondent filters do not apply to them.
      source: [
        ...searchLines({ q: query, selected: chosen }, 'fragrance', false),
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

/** The demographic conditions of a profile in words ("Gender: Female; Age: 18 to 34", "No filters"). */
export function demographicsInWords(conditions: readonly DemographicCondition[]): string {
  return joinedOrNone(conditionsInWords(conditions));
}

function profileCells(row: ProfileRow, cata: boolean): ReportCell[] {
  const lowBase = row.n > 0 && row.n < LOW_BASE;
  const value = (cell: ProfileRow['mean']): ReportCell => (cell === 'N/A' ? 'N/A' : { value: cell, lowBase });
  return [
    row.metric_type,
    row.is_binary_scale ? `${row.metric_name}*` : row.metric_name,
    ...(cata ? [value(row.selected)] : []),
    value(row.mean),
    ...PROFILE_BOXES.map((key) => value(row[key])),
    { value: row.n, lowBase },
  ];
}

/** Yes/no rows of a profile, on the page and in its workbook. */
export const PROFILE_CATA_FOOTNOTE = `* A yes/no (CATA) metric is the share of answers selecting it (${YES_NO_SHARE_LABEL}), with no mean or boxes.`;

/** fragrance_profile.xlsx: the profile rows, the strength rows under the strength headings. */
export function profileReport(
  profile: ProfileResponse,
  demographics: readonly DemographicCondition[],
  who: Requester,
): { header: ReportHeader; table: ReportTable } {
  const { info } = profile;
  const strength = profile.result.filter((row) => row.metric === 'strength');
  const others = profile.result.filter((row) => row.metric !== 'strength');
  const cata = profile.result.some((row) => row.is_binary_scale);
  const columns = (headings: Record<string, string>, shares: boolean): ReportColumn[] => [
    { header: 'Type', kind: 'text', width: 12 },
    { header: 'Metric', kind: 'text', width: 30 },
    ...(shares ? [{ header: YES_NO_SHARE_LABEL, kind: 'share' as const }] : []),
    { header: 'Mean', kind: 'mean' },
    ...PROFILE_BOXES.map((key) => ({ header: headings[key] ?? key, kind: 'share' as const })),
    { header: 'Base n', kind: 'count' },
  ];
  return {
    header: {
      title: `Fragrance profile: ${info.name ?? info.prod} (product code ${info.prod})`,
      source: [
        { label: 'Study', value: `${info.project_name} (${info.c_mi_number}), ${info.client}` },
        ...(info.code ? [{ label: '6 Digit Code (SAP)', value: info.code }] : []),
        { label: 'Filters', value: demographicsInWords(demographics) },
      ],
      ...who,
      harmonised: true,
    },
    table: {
      columns: columns(BOX_HEADINGS, cata),
      rows: others.map((row) => profileCells(row, cata)),
      more:
        strength.length > 0
          ? [
              {
                title: 'Strength',
                columns: columns(STRENGTH_HEADINGS, false),
                rows: strength.map((row) => profileCells(row, false)),
              },
            ]
          : [],
      footnotes: [
        ...(profile.result.some((row) => row.mean === 'N/A')
          ? ['N/A: the study has no answers for this required metric.']
          : []),
        ...(cata ? [PROFILE_CATA_FOOTNOTE] : []),
      ],
    },
  };
}
