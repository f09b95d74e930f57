/** How norms read on screen: scores as the metric search shows them, ranks as percentiles. */
import type { NormResponse } from '@accord/contracts';

/** A score: shares as percentages with one decimal, variances with 3 decimals, means with 2. */
export function formatNormScore(norm: Pick<NormResponse, 'aggregation'>, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '-';
  if (norm.aggregation.share) return `${(value * 100).toFixed(1)}%`;
  return value.toFixed(norm.aggregation.value === 'variance' ? 3 : 2);
}

/** An English ordinal: 1st, 2nd, 3rd, 11th, 62nd. */
export function ordinal(value: number): string {
  const tens = value % 100;
  if (tens >= 11 && tens <= 13) return `${value}th`;
  return `${value}${['th', 'st', 'nd', 'rd'][value % 10] ?? 'th'}`;
}

/** A percentile rank (a share in [0, 1]) in words: "62nd percentile". */
export function rankText(rank: number): string {
  return `${ordinal(Math.round(rank * 100))} percentile`;
}
