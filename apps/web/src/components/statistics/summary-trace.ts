/**
 * Which summary cells of the study statistics page can be traced ("How was this computed?"), and
 * what their trace asks: the product of the cell's column, the metric of its question and the
 * aggregation of its statistic row. Strength rows Strong and Weak are shares of one scale point
 * (top 2 box less top box), not an aggregation of their own, so they are not traced; nor are letters
 * or the omnibus row.
 */
import type { Aggregation, TraceRequest } from '@accord/contracts';

type Cell = string | number | null;

/** Statistic rows of the summary and the aggregation each one shows. */
const ROW_AGGREGATIONS: Record<string, Aggregation> = {
  'Base (n)': 'mean',
  Mean: 'mean',
  'Top box': 'top_box',
  'Top 2 box': 'top_2_box',
  Neutral: 'just_right',
  'Bottom 2 box': 'bottom_2_box',
  'Bottom box': 'bottom_box',
  'Too strong': 'top_box',
  'Just right': 'just_right',
  'Too weak': 'bottom_box',
  Yes: 'top_box',
  No: 'bottom_box',
};

/** What the summary's cells can be traced against. */
export interface SummaryTraceContext {
  /** The product id of each product column (null: not traceable, e.g. a code shared by two products). */
  productIds: readonly (number | null)[];
  /** Metrics whose question the summary reads whole: mapped from exactly one question of the study. */
  metrics: ReadonlySet<string>;
}

/** The trace of a summary cell, or null when the cell is not a traceable number. */
export function summaryCellTrace(
  row: readonly Cell[],
  column: number,
  headers: readonly string[],
  context: SummaryTraceContext,
): { request: TraceRequest; label: string } | null {
  if (column < 2 || typeof row[column] !== 'number') return null;
  const aggregation = ROW_AGGREGATIONS[String(row[1] ?? '')];
  const productId = context.productIds[column - 2];
  const title = String(row[0] ?? '');
  const separator = title.indexOf(': ');
  const metric = separator > 0 ? title.slice(0, separator) : '';
  if (!aggregation || productId == null || !context.metrics.has(metric)) return null;
  return {
    request: { products: [productId], metric, aggregation },
    label: `${headers[column] ?? ''}, ${title}, ${String(row[1])}`,
  };
}
