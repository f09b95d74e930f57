/** How the trace writes its numbers (as the analytics tables do: means 2 decimals, shares in %). */
import type { TraceResponse } from '@accord/contracts';

const NUMERIC = new Set(['mean', 'eeg_mean', 'variance']);

/** A value of the aggregation: a mean or variance with 2 decimals, a share as a rounded percent. */
export function traceValue(aggregation: string, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  return NUMERIC.has(aggregation) ? value.toFixed(2) : `${Math.round(value * 100)}%`;
}

/** A p-value in words: "p = 0.0123" (4 significant digits), "p < 0.0001", or that it was not testable. */
export function pValueText(p: number | null): string {
  if (p === null || !Number.isFinite(p)) return 'Not testable';
  if (p < 0.0001) return 'p < 0.0001';
  return `p = ${Number(p.toPrecision(4)).toString()}`;
}

/** The outcome of a test in words: the level and direction, or that it is not significant. */
export function outcomeText(significance: NonNullable<TraceResponse['significance']>): string {
  if (significance.level === null || significance.direction === null) return 'Not significant';
  const percent = Math.round((1 - significance.level) * 100);
  return `${significance.direction === 'mt' ? 'Higher' : 'Lower'}, significant at ${percent} %`;
}
