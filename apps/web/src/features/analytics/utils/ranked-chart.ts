/**
 * The ranked bar chart of the metrics tab: one bar per row of the page shown, in the table's order,
 * of the metric chosen, valued as the table writes it (a share as a whole percent, a mean to 2
 * decimals), each with its mark, base n and low-base flag, as the slides draw them.
 */
import { markIsGood, type MetricSearchPage } from '@accord/contracts';
import { levelPercent } from './significance.ts';

type Row = MetricSearchPage['rows'][number];
type Column = MetricSearchPage['columns'][number];

const MEAN_AGGREGATIONS: ReadonlySet<string> = new Set(['mean', 'eeg_mean', 'variance']);

/** Bar colours: a mark's good or bad news as the table colours it, orange for a low base as the table. */
export const RANKED_COLOURS = {
  plain: '#7d4aa8',
  good: '#2e7d32',
  bad: '#c62828',
  lowBase: '#e8a15b',
} as const;

export interface RankedBar {
  id: number;
  name: string;
  cmi: string;
  /** The value as the table writes it (percent or mean); null: "-" in the table, no bar. */
  value: number | null;
  /** "45%", "3.92". */
  text: string;
  n: number;
  lowBase: boolean;
  /** "▲ 95%" or "▼ 99%", or null. */
  mark: string | null;
  /** Good or bad news (a higher bottom box is bad, METRICS.md 2), or null without a mark. */
  tone: 'good' | 'bad' | null;
  selected: boolean;
}

/** Whether a column's values read as percents (a box, or any column of a yes/no metric: its share). */
export function isShareColumn(column: Pick<Column, 'aggregation' | 'yes_no'>): boolean {
  return column.yes_no === true || !MEAN_AGGREGATIONS.has(column.aggregation);
}

/** The bars of a column over the rows of the page, in the page's order. */
export function rankedBars(
  rows: readonly Row[],
  column: Column,
  isSelected: (row: Row) => boolean,
): RankedBar[] {
  const share = isShareColumn(column);
  return rows.map((row) => {
    const raw = row.values[column.key];
    const value =
      raw === null || raw === undefined || !Number.isFinite(raw)
        ? null
        : share
          ? Math.round(raw * 100)
          : Math.round(raw * 100) / 100;
    const mark = row.marks[column.key];
    const significant = mark !== undefined && mark.level !== null && mark.table !== null;
    return {
      id: row.id,
      name: row.name ?? row.prod,
      cmi: row.c_mi_number,
      value,
      text: value === null ? '-' : share ? `${value}%` : value.toFixed(2),
      n: row.bases[column.key] ?? 0,
      lowBase: row.low_base.includes(column.key),
      mark: significant ? `${mark.table === 'mt' ? '▲' : '▼'} ${levelPercent(mark.level!)}%` : null,
      tone: significant
        ? markIsGood(column.metric, column.aggregation, mark.table!)
          ? 'good'
          : 'bad'
        : null,
      selected: isSelected(row),
    };
  });
}

/** A bar's colour: its mark's direction, else orange for a low base, else the product colour. */
export function barColour(bar: RankedBar): string {
  if (bar.tone) return RANKED_COLOURS[bar.tone];
  return bar.lowBase ? RANKED_COLOURS.lowBase : RANKED_COLOURS.plain;
}

/** The label at a bar's end: "45% ▲ 95% · n 120", "12%* · n 14 low base". */
export function barLabel(bar: RankedBar): string {
  return `${bar.text}${bar.lowBase ? '*' : ''}${bar.mark ? ` ${bar.mark}` : ''} · n ${bar.n}${bar.lowBase ? ' low base' : ''}`;
}

/** The label on a phone: "45% ▲99 n120", "12%* n14". */
export function compactBarLabel(bar: RankedBar): string {
  const mark = bar.mark ? ` ${bar.mark.replace(' ', '').replace('%', '')}` : '';
  return `${bar.text}${bar.lowBase ? '*' : ''}${mark} n${bar.n}`;
}
