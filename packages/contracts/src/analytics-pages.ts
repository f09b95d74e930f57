/**
 * Pages of a finished metric search (document 3 section 2.1, metrics tab): the result stays on the
 * server, the table asks for the rows it shows, sorted and filtered there, and the selection (with
 * "Select all" of every matching row) is kept with the search, so that a search of the whole library
 * does not send every row to the browser.
 */
import { z } from 'zod';
import { numeric } from './common.ts';
import {
  Diagnostics,
  JOB_STATES,
  MetricColumn,
  MetricResultRow,
  MetricSearchResult,
  MetricSummary,
  SIGNIFICANCE_LEVELS,
  SignificanceMarkDetail,
  XlsxFiltersQuery,
} from './analytics.ts';
import { TEXT_LIMITS } from './constants.ts';

/** Bins of the histogram charts of EEG metrics (document 3 section 9). */
export const HISTOGRAM_BINS = 8;

/** Rows a page holds at most. */
export const METRIC_PAGE_MAX = 500;
/** Rows a page of the metrics table holds. */
export const METRIC_PAGE_SIZE = 50;

/** The significance tags of the metrics tab: all rows, or those marked at a level and direction. */
export const SIGNIFICANCE_MARK_FILTERS = [
  'all',
  ...SIGNIFICANCE_LEVELS.map((level) => `mt-${level}` as const),
  ...SIGNIFICANCE_LEVELS.map((level) => `let-${level}` as const),
] as const;
export type SignificanceMarkFilter = (typeof SIGNIFICANCE_MARK_FILTERS)[number];

/** Which rows of a search match: the search text and a significance tag. */
export const MetricRowFilter = z
  .strictObject({
    search: z.string().max(TEXT_LIMITS.filterText).default('').meta({
      description: 'Rows whose name (the product code when there is no name) contains it, in any case.',
    }),
    significance: z.string().uuid('Not a job id').optional().meta({
      description:
        'A finished significance job of yours: its marks are shown and the mark filter reads them.',
    }),
    mark: z.enum(SIGNIFICANCE_MARK_FILTERS).default('all').meta({
      description: "Rows with a mark at this level and direction ('mt-0.01': 99 % higher; 'all': every row).",
    }),
  })
  .meta({ id: 'MetricRowFilter' });
export type MetricRowFilter = z.input<typeof MetricRowFilter>;
export type ParsedMetricRowFilter = z.output<typeof MetricRowFilter>;

/** GET /analytics/fragrances/{jobId}/page: which rows, in which order. */
export const MetricPageQuery = MetricRowFilter.extend({
  offset: numeric(z.number().int().min(0)).default(0).meta({ description: 'Matching rows skipped.' }),
  limit: numeric(z.number().int().min(0).max(METRIC_PAGE_MAX))
    .default(METRIC_PAGE_SIZE)
    .meta({ description: `Rows answered (0 to ${METRIC_PAGE_MAX}; 0: the summary alone).` }),
  sort: z.string().trim().max(TEXT_LIMITS.filterText).optional().meta({
    description:
      "'name', 'c_mi_number' or a column key ('metric.aggregation'); none: the search's own order (thresholds first). Rows without a value come last.",
  }),
  desc: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .meta({ description: 'Largest first.' }),
});
export type MetricPageQuery = z.input<typeof MetricPageQuery>;
export type ParsedMetricPageQuery = z.output<typeof MetricPageQuery>;

export const SignificanceMarkValue = z.object({
  level: z.number().nullable(),
  table: z.enum(['mt', 'let']).nullable(),
  ...SignificanceMarkDetail,
});

/** A row of a page: the result row, whether it is selected, and its significance marks. */
export const MetricPageRow = MetricResultRow.extend({
  selected: z.boolean(),
  marks: z.record(z.string(), SignificanceMarkValue).meta({
    description: '"metric.aggregation": its mark in the significance job asked for (none: no marks).',
  }),
}).meta({ id: 'MetricPageRow' });
export type MetricPageRow = z.infer<typeof MetricPageRow>;

/** A histogram bin of a chart: values from `from` to `to` (the last bin includes its end). */
export const HistogramBin = z.object({ from: z.number(), to: z.number(), count: z.number().int() });
export type HistogramBin = z.infer<typeof HistogramBin>;

/**
 * Splits the values into `bins` equal-width bins from the smallest to the largest value; the last
 * bin includes its upper edge. Missing values are skipped; a single distinct value fills one bin.
 */
export function histogramBins(
  values: readonly (number | null | undefined)[],
  bins = HISTOGRAM_BINS,
): HistogramBin[] {
  const present = values.filter(
    (value): value is number => typeof value === 'number' && Number.isFinite(value),
  );
  if (present.length === 0) return [];
  // A loop, not Math.min(...values): a search of every fragrance has tens of thousands of values.
  let min = Infinity;
  let max = -Infinity;
  for (const value of present) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  if (min === max) return [{ from: min, to: max, count: present.length }];
  const width = (max - min) / bins;
  const result: HistogramBin[] = Array.from({ length: bins }, (_, index) => ({
    from: min + index * width,
    to: index === bins - 1 ? max : min + (index + 1) * width,
    count: 0,
  }));
  for (const value of present) {
    const index = Math.min(bins - 1, Math.floor((value - min) / width));
    result[index]!.count += 1;
  }
  return result;
}

/** The count of a significance tag. */
export const MarkCount = z.object({ value: z.enum(SIGNIFICANCE_MARK_FILTERS), count: z.number().int() });

/** A page of a finished metric search, with what the rest of the tab shows computed on the server. */
export const MetricSearchPage = z
  .object({
    type: MetricSearchResult.shape.type,
    columns: z.array(MetricColumn),
    summary: z.record(z.string(), MetricSummary),
    diagnostics: Diagnostics,
    filtered: z.boolean(),
    performance: MetricSearchResult.shape.performance,
    histograms: z.record(z.string(), z.array(HistogramBin)).meta({
      description: 'Per column key, 8 bins of the values of every row (the charts of EEG metrics).',
    }),
    total: z.number().int().meta({ description: 'Rows of the search.' }),
    matching: z.number().int().meta({ description: 'Rows matching the search text and mark filter.' }),
    offset: z.number().int(),
    limit: z.number().int(),
    selected: z.number().int().meta({ description: 'Rows selected (of every row, matching or not).' }),
    all_matching_selected: z
      .boolean()
      .meta({ description: 'Whether every matching row is selected (and one matches).' }),
    mark_counts: z.array(MarkCount).nullable().meta({
      description: 'With a significance job: rows per tag (all, then higher, then lower); else null.',
    }),
    rows: z.array(MetricPageRow),
  })
  .meta({ id: 'MetricSearchPage' });
export type MetricSearchPage = z.infer<typeof MetricSearchPage>;

/** GET /analytics/fragrances/{jobId}/page: the job's state and, once it succeeded, the page. */
export const MetricSearchPageStatus = z
  .object({
    status: z.enum(JOB_STATES),
    progress: z.number().int().min(0).max(100),
    result: MetricSearchPage.nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'MetricSearchPageStatus' });
export type MetricSearchPageStatus = z.infer<typeof MetricSearchPageStatus>;

/** POST /analytics/fragrances/{jobId}/selection: select or deselect rows by id or every matching row. */
export const MetricSelectionRequest = z
  .strictObject({
    action: z
      .enum(['select', 'deselect', 'clear'])
      .meta({ description: 'select adds rows, deselect removes them, clear deselects every row.' }),
    ids: z
      .array(z.number().int().positive())
      .max(METRIC_PAGE_MAX)
      .optional()
      .meta({ description: 'The rows (product ids of the search).' }),
    matching: MetricRowFilter.optional().meta({
      description: 'Every row matching this filter (the "Select all" of the table).',
    }),
  })
  .superRefine((value, context) => {
    if (value.action !== 'clear' && (value.ids === undefined) === (value.matching === undefined))
      context.addIssue({ code: 'custom', message: 'Give either ids or matching.', path: ['ids'] });
  })
  .meta({ id: 'MetricSelectionRequest' });
export type MetricSelectionRequest = z.input<typeof MetricSelectionRequest>;
export type ParsedMetricSelectionRequest = z.output<typeof MetricSelectionRequest>;

/** The answer of a selection change: how many rows are selected, of how many. */
export const MetricSelectionState = z
  .object({ selected: z.number().int(), total: z.number().int() })
  .meta({ id: 'MetricSelectionState' });
export type MetricSelectionState = z.infer<typeof MetricSelectionState>;

/** The selection of a search: how many rows are selected, and which (with what a filter request needs). */
export const MetricSelection = z
  .object({
    selected: z.number().int(),
    total: z.number().int(),
    products: z
      .array(z.object({ id: z.number().int(), c_mi_number: z.string(), prod: z.string() }))
      .meta({ description: 'The selected rows, in the order of the search.' }),
  })
  .meta({ id: 'MetricSelection' });
export type MetricSelection = z.infer<typeof MetricSelection>;

/**
 * Every row of a finished search, in its order, as the chosen products (frags) of the top attributes
 * and tendencies calls: they compute on exactly the products the search found (a Best-10 search, 10).
 */
export const MetricSearchProducts = z
  .object({
    total: z.number().int(),
    products: z
      .array(z.object({ id: z.number().int(), c_mi_number: z.string(), prod: z.string() }))
      .meta({ description: 'Every row of the search, in its order.' }),
  })
  .meta({ id: 'MetricSearchProducts' });
export type MetricSearchProducts = z.infer<typeof MetricSearchProducts>;

/** GET /analytics/fragrances/xlsx/{jobId}: the spreadsheet filters, and whether only the selected rows go. */
export const MetricsXlsxQuery = XlsxFiltersQuery.extend({
  selected: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .meta({ description: 'Only the selected rows of the search (kept with POST .../selection).' }),
});
