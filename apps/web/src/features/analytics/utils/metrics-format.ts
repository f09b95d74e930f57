/**
 * Pure helpers of the metrics tab (document 3 sections 2.1 and 9, shared METRICS.md): column
 * abbreviations, how values and bases read, which metrics are charted and in which order, and the
 * 8-bin histograms of the EEG (genisys) metrics.
 */
import { AGGREGATION_LABELS, LOW_BASE, type Aggregation, type HistogramBin } from '@accord/contracts';

/** Aggregations whose value is a mean or a variance (shown with 2 decimals); the others are shares. */
const NUMERIC_AGGREGATIONS: ReadonlySet<string> = new Set(['mean', 'eeg_mean', 'variance']);

/** Implicit-association aggregations: their columns get no chart. */
export const IMPLICIT_AGGREGATIONS: ReadonlySet<string> = new Set(['irt_yes', 'irt_no', 'hi_yes', 'hi_no']);

/** Electroencephalography (genisys) metrics, charted as histograms. */
export const GENISYS_METRICS: readonly string[] = [
  'hfd_hedonic',
  'addiction',
  'cogproc',
  'attention',
  'relaxation',
  'energizing',
];

export { HISTOGRAM_BINS } from '@accord/contracts';

/** Chart order of document 3 section 9: liking 2, purchase_intention 3, strength 4, others 1. */
const CHART_RANK: Record<string, number> = { liking: 2, purchase_intention: 3, strength: 4 };

/** The column abbreviation of an aggregation (TB, T2B, M, BB, B2B, JAR/N, VAR, HiY, HiN, YES, NO). */
export function aggregationAbbreviation(aggregation: string): string {
  return AGGREGATION_LABELS[aggregation as Aggregation] ?? aggregation;
}

/** A value as the table shows it: means with 2 decimals, shares as rounded percents, '-' when none. */
export function formatMetricValue(aggregation: string, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  if (NUMERIC_AGGREGATIONS.has(aggregation)) return value.toFixed(2);
  return `${Math.round(value * 100)}%`;
}

/**
 * A metric search cell as the table shows it: a yes/no (CATA) column is a share (% selected or not
 * selected) whatever its aggregation, any other column as formatMetricValue.
 */
export function formatColumnValue(
  column: { aggregation: string; yes_no?: boolean | undefined },
  value: number | null | undefined,
): string {
  return formatMetricValue(column.yes_no ? 'top_box' : column.aggregation, value);
}

/** The hover text of a cell: its base, flagged when low. */
export function baseText(n: number | undefined): string {
  const base = n ?? 0;
  return base < LOW_BASE ? `Base n = ${base} (low base, below ${LOW_BASE})` : `Base n = ${base}`;
}

export interface ChartColumn {
  metric: string;
  aggregation: string;
}

export type ChartKind = 'bars' | 'histogram';

/**
 * The chart a metric gets: EEG (genisys) metrics a histogram of the products' values; liking,
 * strength, purchase_intention and metrics whose name holds an underscore horizontal bars; none
 * when its only columns are implicit-association aggregations.
 */
export function chartKindOf(metric: string, columns: readonly ChartColumn[]): ChartKind | null {
  const own = columns.filter((column) => column.metric === metric);
  if (own.length === 0 || own.every((column) => IMPLICIT_AGGREGATIONS.has(column.aggregation))) return null;
  if (GENISYS_METRICS.includes(metric)) return 'histogram';
  if (metric in CHART_RANK || metric.includes('_')) return 'bars';
  return null;
}

/**
 * The metrics to chart, once each, in the spec's order: liking, purchase_intention, strength, then
 * the others in their column order.
 */
export function orderChartMetrics(columns: readonly ChartColumn[]): { metric: string; kind: ChartKind }[] {
  const metrics = [...new Set(columns.map((column) => column.metric))];
  const charted = metrics.flatMap((metric, index) => {
    const kind = chartKindOf(metric, columns);
    return kind ? [{ metric, kind, index }] : [];
  });
  const rank = (metric: string) => CHART_RANK[metric] ?? 100;
  return charted
    .sort((left, right) => rank(left.metric) - rank(right.metric) || left.index - right.index)
    .map(({ metric, kind }) => ({ metric, kind }));
}

/** Aggregations a bar chart shows, in the spec's aggregation order (means, single boxes and VAR are not charted). */
const CHARTED_AGGREGATIONS = ['top_2_box', 'just_right', 'bottom_2_box'] as const;

const BAR_LABELS: Record<(typeof CHARTED_AGGREGATIONS)[number], string> = {
  top_2_box: 'Top 2 Box',
  just_right: 'Neutral',
  bottom_2_box: 'Bottom 2 Box',
};

/** The strength (JAR) metric reads its boxes as Strong, Just right and Weak (METRICS.md section 1). */
const STRENGTH_LABELS: Record<(typeof CHARTED_AGGREGATIONS)[number], string> = {
  top_2_box: 'Strong',
  just_right: 'Just right',
  bottom_2_box: 'Weak',
};

export interface ChartBar {
  aggregation: string;
  label: string;
  /** Percent, one decimal. */
  percent: number;
  count: number | null;
}

/** A yes/no (CATA) metric's summary holds its shares selected and not selected, no boxes. */
const YES_NO_BARS = [
  { aggregation: 'selected', label: 'Selected' },
  { aggregation: 'not_selected', label: 'Not selected' },
] as const;

/**
 * The bars of a metric's chart from its pooled summary; boxes without a value are left out. A yes/no
 * metric's chart shows its shares selected and not selected.
 */
export function summaryBars(metric: string, summary: Record<string, number | null> | undefined): ChartBar[] {
  if (!summary) return [];
  if ('selected' in summary)
    return YES_NO_BARS.flatMap(({ aggregation, label }) => {
      const value = summary[aggregation];
      if (value === null || value === undefined) return [];
      return [
        {
          aggregation,
          label,
          percent: Math.round(value * 1000) / 10,
          count: summary[`${aggregation}.count`] ?? null,
        },
      ];
    });
  const labels = metric === 'strength' ? STRENGTH_LABELS : BAR_LABELS;
  return CHARTED_AGGREGATIONS.flatMap((aggregation) => {
    const value = summary[aggregation];
    if (value === null || value === undefined) return [];
    return [
      {
        aggregation,
        label: labels[aggregation],
        percent: Math.round(value * 1000) / 10,
        count: summary[`${aggregation}.count`] ?? null,
      },
    ];
  });
}

// The server bins the charts' values of a whole search; the same function, shared.
export { histogramBins, type HistogramBin } from '@accord/contracts';

/**
 * The bins' axis labels 'from–to' with as many decimals (2 to 6) as it takes for every label to show
 * two different edges and differ from the others: close values ("0.51–0.51") get more decimals.
 */
export function histogramLabels(bins: readonly HistogramBin[]): string[] {
  const format = (decimals: number) =>
    bins.map((bin) =>
      bin.from === bin.to
        ? bin.from.toFixed(decimals)
        : `${bin.from.toFixed(decimals)}–${bin.to.toFixed(decimals)}`,
    );
  for (let decimals = 2; decimals < 6; decimals++) {
    const distinct = bins.every(
      (bin) => bin.from === bin.to || bin.from.toFixed(decimals) !== bin.to.toFixed(decimals),
    );
    const labels = format(decimals);
    if (distinct && new Set(labels).size === labels.length) return labels;
  }
  return format(6);
}

/** Chart labels: side labels over 28 characters become 25 plus an ellipsis, others over 18 become 15 plus '...'. */
export function shortenLabel(label: string, side = false): string {
  if (side) return label.length > 28 ? `${label.slice(0, 25)}…` : label;
  return label.length > 18 ? `${label.slice(0, 15)}...` : label;
}
