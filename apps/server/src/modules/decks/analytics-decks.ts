/**
 * The decks of the analytics tabs, each from the very answer its tab shows: the metrics tab's page
 * (its rows, order, marks and bases), the performance rows in the tab's order, the top attributes
 * job's rows and the tendencies table. Values are rounded as the screen writes them (shares as whole
 * percents, means to 2 decimals, tendencies to 1 decimal), so a chart's series read as the table.
 */
import {
  BREAKDOWN_FIELD_LABELS,
  LOW_BASE,
  TENDENCY_FIELD_LABELS,
  performanceValue,
  sortPerformance,
  type MetricSearchPage,
  type MetricSearchResult,
  type ParsedMetricSearchRequest,
  type PerformanceSort,
  type RdfType,
  type TendenciesResponse,
  type TopAttributesRequest,
  type TopAttributesStatus,
} from '@accord/contracts';
import type { z } from 'zod';
import {
  ATTRIBUTE_AGGREGATION_LABELS,
  ATTRIBUTE_TYPE_LABELS,
  CATA_FOOTNOTE,
  metricHeading,
  metricSearchLines,
  searchLines,
  type Requester,
} from '../analytics/analytics-exports.ts';
import {
  markText,
  markTone,
  significanceInWords,
  significanceLegend,
  type MarkTable,
} from '../exports/significance-marks.ts';
import type { SearchFilters } from '../search/search-words.ts';
import type { DeckBar, DeckChart, DeckLine, DeckSpec, DeckUnit } from './deck-writer.ts';

const MEAN_AGGREGATIONS = new Set(['mean', 'eeg_mean', 'variance']);

/** How a column's values read on a chart (a yes/no column is a share whatever its aggregation). */
export function unitOf(aggregation: string, yesNo = false): DeckUnit {
  return !yesNo && MEAN_AGGREGATIONS.has(aggregation) ? 'mean' : 'percent';
}

/** A value as the screen writes it: a share as a whole percent, a mean to 2 decimals. */
export function screenValue(unit: DeckUnit, value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  if (unit === 'percent') return Math.round(value * 100);
  if (unit === 'mean') return Math.round(value * 100) / 100;
  return value;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The lines every slide repeats: the filters (and the respondents of a filtered selection). */
function slideFilters(lines: readonly DeckLine[]): DeckLine[] {
  return lines.filter((line) =>
    ['Filters', 'Study type', 'Respondents of the selection'].includes(line.label),
  );
}

type MetricColumn = MetricSearchResult['columns'][number];

/** What the metrics deck was asked for: the rows of the page shown or the selection, in its order. */
export interface MetricsDeckInput {
  page: MetricSearchPage;
  request: ParsedMetricSearchRequest | null;
  marks: MarkTable | null;
  /** The table's order in words ("sorted by T2B Overall Liking, largest first"). */
  order: string;
  /** Which rows: "fragrances 1-50 of 120", "the 12 selected fragrances". */
  rows: string;
  who: Requester;
}

/** The table's order in words. */
export function orderInWords(
  columns: readonly MetricColumn[],
  sort: string | undefined,
  desc: boolean,
): string {
  if (!sort) return "the search's order";
  const column = columns.find((entry) => entry.key === sort);
  const name =
    sort === 'name' ? 'name' : sort === 'c_mi_number' ? 'CMI #' : column ? metricHeading(column) : sort;
  return `sorted by ${name}, ${desc ? 'largest first' : 'smallest first'}`;
}

/** fragrance_metrics.pptx: one ranked chart per metric column of the rows the table shows. */
export function metricsDeck(input: MetricsDeckInput): DeckSpec {
  const { page, request, marks, who } = input;
  const kind = page.type === 'concepts' ? 'concept' : 'fragrance';
  const searchWords = metricSearchLines(page, request);
  const significance: DeckLine[] = marks
    ? [{ label: 'Significance', value: significanceInWords(marks) }]
    : [];
  const common = [
    ...slideFilters(searchWords),
    ...significance,
    { label: 'Rows', value: `${input.rows}; ${input.order}` },
  ];
  const charts: DeckChart[] = page.columns.map((column) => {
    const unit = unitOf(column.aggregation, column.yes_no === true);
    const bars: DeckBar[] = page.rows.map((row) => {
      const mark = row.marks[column.key];
      const text = markText(mark);
      const tone = markTone(mark, column.key);
      return {
        label: `${row.name ?? row.prod} (${row.c_mi_number})`,
        value: screenValue(unit, row.values[column.key]),
        n: row.bases[column.key] ?? 0,
        lowBase: row.low_base.includes(column.key),
        mark: text && tone ? { text, tone } : null,
      };
    });
    return {
      title: metricHeading(column),
      unit,
      bars,
      lines: common,
      notes: marks && marks.keys.has(column.key) ? significanceLegend(marks) : [],
    };
  });
  return {
    title: `Metric search: ${plural(page.rows.length, kind, `${kind}s`)}`,
    subtitle: capitalised(`${input.rows}, ${input.order}`),
    author: who.author,
    date: who.date,
    lines: [...searchWords, ...significance],
    charts,
  };
}

/** fragrance_performance.pptx: per metric, its pooled value per value of the breakdown field. */
export function performanceDeck(
  result: MetricSearchResult,
  field: string,
  sort: PerformanceSort,
  who: Requester,
  request: ParsedMetricSearchRequest | null,
): DeckSpec {
  const rows = sortPerformance(result.performance ?? [], sort);
  const label = BREAKDOWN_FIELD_LABELS[field] ?? field;
  const words = metricSearchLines(result, request);
  const sortName =
    sort.key === 'category'
      ? label
      : sort.key === 'fragrances'
        ? 'the number of products'
        : (() => {
            const column = result.columns.find((entry) => entry.key === sort.key);
            return column ? metricHeading(column) : sort.key;
          })();
  const order = `sorted by ${sortName}, ${sort.desc ? 'largest first' : 'smallest first'}`;
  const common = [...slideFilters(words), { label: 'Bars', value: `one per ${label}; ${order}` }];
  return {
    title: `Performance by ${label}`,
    subtitle: `${plural(rows.length, `value of ${label}`, `values of ${label}`)}, ${order}`,
    author: who.author,
    date: who.date,
    lines: words,
    charts: result.columns.map((column) => {
      const unit = unitOf(column.aggregation, column.yes_no === true);
      return {
        title: `${metricHeading(column)} by ${label}`,
        unit,
        lines: common,
        bars: rows.map((row) => {
          const n = row.n[column.key] ?? 0;
          return {
            label: `${row.category.value} (${plural(row.fragrances, 'product', 'products')})`,
            value: screenValue(unit, performanceValue(row, column.key)),
            n,
            lowBase: n < LOW_BASE,
            mark: null,
          };
        }),
        notes: rows.some((row) => row.category.value === 'No tag')
          ? ['"No tag": products without a value of the field.']
          : [],
      };
    }),
  };
}

type AttributesResult = NonNullable<TopAttributesStatus['result']>['json'];
type ParsedTopAttributesRequest = z.output<typeof TopAttributesRequest>;

/** fragrance_attributes.pptx: the attributes by the aggregation they were ranked by, in their rank. */
export function attributesDeck(
  result: AttributesResult,
  who: Requester,
  request: ParsedTopAttributesRequest | null,
): DeckSpec {
  const aggregation = request?.data.aggregation ?? 'top_2_box';
  const unit = unitOf(aggregation);
  const filters = searchLines(
    request && {
      q: request.q,
      selected: request.frags ? request.frags.length : null,
      conditions: request.demographics,
    },
    'fragrance',
  );
  const ranking = request
    ? `${request.data.order === 'best' ? 'Best' : 'Worst'} ${request.data.count} by ${ATTRIBUTE_AGGREGATION_LABELS[aggregation]}, ${ATTRIBUTE_TYPE_LABELS[request.data.attribute_type]}`
    : `By ${ATTRIBUTE_AGGREGATION_LABELS[aggregation]}`;
  const pooled = { label: 'Pooled over', value: plural(result.fragrances, 'fragrance', 'fragrances') };
  const cata = result.attributes.some((row) => row.is_binary_scale);
  return {
    title: `Top attributes: ${plural(result.attributes.length, 'attribute', 'attributes')}`,
    subtitle: ranking,
    author: who.author,
    date: who.date,
    lines: [...filters, { label: 'Ranking', value: ranking }, pooled],
    charts: [
      {
        title: `${ATTRIBUTE_AGGREGATION_LABELS[aggregation]} of the top attributes`,
        unit,
        lines: [...slideFilters(filters), { label: 'Ranking', value: ranking }, pooled],
        bars: result.attributes.map((row) => ({
          label: row.is_binary_scale ? `${row.attribute}*` : row.attribute,
          value: screenValue(unit, row[aggregation]),
          n: row.n,
          lowBase: row.n < LOW_BASE,
          mark: null,
        })),
        notes: cata ? [CATA_FOOTNOTE] : [],
      },
    ],
  };
}

/** fragrance_tendencies.pptx: the share of the fragrances carrying each value, most frequent first. */
export function tendenciesDeck(
  found: TendenciesResponse,
  groupby: string,
  query: SearchFilters & { metrics?: { rdfType?: RdfType } | null },
  chosen: number | null,
  who: Requester,
): DeckSpec {
  const field = groupby.slice('perfume_characteristics.'.length) as keyof typeof TENDENCY_FIELD_LABELS;
  const label = TENDENCY_FIELD_LABELS[field] ?? 'Value';
  // The tendencies count fragrances: respondent filters do not apply to them.
  const filters = searchLines({ q: query, selected: chosen }, 'fragrance', false);
  const counted = { label: 'Fragrances counted', value: String(found.total) };
  return {
    title: `Tendencies: fragrances by ${label}`,
    subtitle: `${plural(found.table_data.length, 'value', 'values')}, most frequent first`,
    author: who.author,
    date: who.date,
    lines: [...filters, counted],
    charts: [
      tendencyChart(found, `Fragrances by ${label} (% of the fragrances counted)`, [
        ...slideFilters(filters),
        counted,
      ]),
    ],
  };
}

/**
 * A chart of a tendencies answer as its table shows it: the share of the fragrances counted carrying
 * each value (to 1 decimal), most frequent first, each bar naming its count.
 */
export function tendencyChart(found: TendenciesResponse, title: string, lines: DeckLine[]): DeckChart {
  return {
    title,
    unit: 'percent1',
    lines,
    bars: found.table_data.map((row) => ({
      label: `${row.name} (${plural(row.count, 'fragrance', 'fragrances')})`,
      value: Math.round(row.percentage * 10) / 10,
      n: null,
      lowBase: false,
      mark: null,
    })),
    notes:
      found.table_data.reduce((sum, row) => sum + row.percentage, 0) > 100.05
        ? ['A fragrance counts once for each of its values, so the percentages add up to more than 100%.']
        : [],
  };
}
