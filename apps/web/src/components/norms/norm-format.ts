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

/**
 * The sentence a researcher reads first: "Across 124 fragrances in 38 studies of 12 clients, the median
 * liking top 2 box is 54.0%; the middle half scores 45.0% to 62.0%." Null when the norm is not shown.
 */
export function normSentence(norm: NormResponse): string | null {
  if (norm.status !== 'available' || norm.percentiles === null) return null;
  const noun = norm.base.kind === 'concept' ? 'concepts' : 'fragrances';
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const studies = norm.studies === null ? null : plural(norm.studies, 'study', 'studies');
  const clients = norm.clients === null ? null : plural(norm.clients, 'client', 'clients');
  const products =
    norm.products === null ? null : `${norm.products} ${norm.products === 1 ? noun.slice(0, -1) : noun}`;
  const base = [products, products && studies ? `in ${studies}` : studies, clients && `of ${clients}`]
    .filter((part) => part !== null)
    .join(' ');
  const measure = `${norm.metric.label} ${norm.aggregation.label}`.toLowerCase();
  const { p25, p50, p75 } = norm.percentiles;
  return `Across ${base || `the ${noun} of this base`}, the median ${measure} is ${formatNormScore(norm, p50)}; the middle half scores ${formatNormScore(norm, p25)} to ${formatNormScore(norm, p75)}.`;
}
