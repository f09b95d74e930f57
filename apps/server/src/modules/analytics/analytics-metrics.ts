/**
 * Pure rules of the metric search (METRICS.md section 1, document 3 section 3): an aggregation of a
 * product's sufficient statistics, pooled summaries, and best/worst thresholds.
 */
import type { Aggregation, Threshold } from '@accord/contracts';
import {
  ANALYTICS_LEVELS,
  classifySignificance,
  oneProportionZ,
  summaryFromSums,
  type BoxCount,
  type SelectionComparison,
} from '@accord/stats';
import type { MetricRecord, MetricSums } from './analytics.repository.ts';

export const EMPTY_SUMS = {
  n: 0,
  sum: 0,
  sumSq: 0,
  nTopBox: 0,
  nTop2Box: 0,
  nJustRight: 0,
  nBottom2Box: 0,
  nBottomBox: 0,
} as const;

export type Sums = Omit<MetricSums, 'productId' | 'metricId'>;

/** The box count behind a share aggregation, or null for mean and variance. */
export function boxCount(sums: Sums, aggregation: Aggregation): number | null {
  switch (aggregation) {
    case 'top_box':
    case 'hi_yes':
      return sums.nTopBox;
    case 'top_2_box':
    case 'irt_yes':
      return sums.nTop2Box;
    case 'just_right':
      return sums.nJustRight;
    case 'bottom_2_box':
    case 'irt_no':
      return sums.nBottom2Box;
    case 'bottom_box':
    case 'hi_no':
      return sums.nBottomBox;
    default:
      return null;
  }
}

/** Whether the aggregation is a share of answers (a box) rather than a mean or a variance. */
export function isShare(aggregation: Aggregation): boolean {
  return aggregation !== 'mean' && aggregation !== 'eeg_mean' && aggregation !== 'variance';
}

/**
 * The value of an aggregation: a mean, a sample variance (n − 1) or a share in [0, 1]; null when the
 * base is too small (no answers; fewer than 2 for a variance) or the aggregation does not exist for
 * the scale (no neutral point on binary scales).
 */
export function aggregate(sums: Sums, aggregation: Aggregation, kind: MetricRecord['kind']): number | null {
  if (sums.n === 0) return null;
  if (aggregation === 'mean' || aggregation === 'eeg_mean') return sums.sum / sums.n;
  if (aggregation === 'variance') {
    if (sums.n < 2) return null;
    return summaryFromSums(sums.n, sums.sum, sums.sumSq).squaredDeviations / (sums.n - 1);
  }
  if (aggregation === 'just_right' && kind === 'binary') return null;
  return boxCount(sums, aggregation)! / sums.n;
}

export function addSums(total: Sums, part: Sums): Sums {
  return {
    n: total.n + part.n,
    sum: total.sum + part.sum,
    sumSq: total.sumSq + part.sumSq,
    nTopBox: total.nTopBox + part.nTopBox,
    nTop2Box: total.nTop2Box + part.nTop2Box,
    nJustRight: total.nJustRight + part.nJustRight,
    nBottom2Box: total.nBottom2Box + part.nBottom2Box,
    nBottomBox: total.nBottomBox + part.nBottomBox,
  };
}

/** Adds a part into a running total (no new object per part). */
export function addSumsInto(total: Sums, part: Sums): void {
  total.n += part.n;
  total.sum += part.sum;
  total.sumSq += part.sumSq;
  total.nTopBox += part.nTopBox;
  total.nTop2Box += part.nTop2Box;
  total.nJustRight += part.nJustRight;
  total.nBottom2Box += part.nBottom2Box;
  total.nBottomBox += part.nBottomBox;
}

/** Pooled aggregates of a metric over a set of products; keys with a dot hold counts. */
export function summarise(sums: Sums, kind: MetricRecord['kind']): Record<string, number | null> {
  const summary: Record<string, number | null> = {
    mean: aggregate(sums, 'mean', kind),
    variance: aggregate(sums, 'variance', kind),
    'answers.count': sums.n,
  };
  if (kind !== 'eeg') {
    for (const key of ['top_box', 'top_2_box', 'just_right', 'bottom_2_box', 'bottom_box'] as const) {
      summary[key] = aggregate(sums, key, kind);
      if (!(key === 'just_right' && kind === 'binary')) summary[`${key}.count`] = boxCount(sums, key);
    }
  }
  return summary;
}

/**
 * How many products a threshold keeps out of `available` ranked ones: the amount, or the amount in
 * percent of them rounded up (at least one when any is available).
 */
export function thresholdSize(threshold: Threshold, available: number): number {
  if (threshold.type === 'percentage') {
    return Math.max(0, Math.min(available, Math.ceil((threshold.amount / 100) * available - 1e-9)));
  }
  return Math.min(available, Math.floor(threshold.amount));
}

/**
 * Ids of the best (desc) or worst products by value: products without a value are not ranked; ties are
 * broken by id so the same query always keeps the same products.
 */
export function applyThreshold(
  values: readonly { id: number; value: number | null }[],
  threshold: Threshold,
): Set<number> {
  const ranked = values
    .filter((entry): entry is { id: number; value: number } => entry.value !== null)
    .sort((left, right) =>
      left.value === right.value
        ? left.id - right.id
        : threshold.desc
          ? right.value - left.value
          : left.value - right.value,
    );
  return new Set(ranked.slice(0, thresholdSize(threshold, ranked.length)).map((entry) => entry.id));
}

/**
 * A box share against the list average ("avg", METRICS.md section 2): one-sample z-test of the share
 * against the average p0 taken as a known value, two-sided. The standard error comes from p0,
 * sqrt(p0(1 - p0)/n), not from the product's own share, so a product whose share is 0 % or 100 % is
 * tested like any other. Not testable (never NaN): fewer than 2 answers, or p0 of exactly 0 or 1
 * (no standard error) or not a proportion.
 */
export function compareBoxVsAverage(
  selection: BoxCount,
  average: number,
  levels: readonly number[] = ANALYTICS_LEVELS,
): SelectionComparison {
  const untestable: SelectionComparison = {
    test: 'one-proportion-z',
    testable: false,
    difference: null,
    statistic: null,
    pValue: null,
    level: null,
    direction: null,
  };
  const valid =
    Number.isInteger(selection.n) &&
    Number.isInteger(selection.count) &&
    selection.n >= 2 &&
    selection.count >= 0 &&
    selection.count <= selection.n;
  if (!valid || !(average > 0 && average < 1)) return untestable;
  const result = oneProportionZ(selection.count, selection.n, average, 'two-sided');
  if (!Number.isFinite(result.statistic) || !Number.isFinite(result.pValue)) return untestable;
  const significance = classifySignificance(result.pValue, result.estimate, levels);
  return {
    test: 'one-proportion-z',
    testable: true,
    difference: result.estimate,
    statistic: result.statistic,
    pValue: result.pValue,
    level: significance?.level ?? null,
    direction: significance?.direction ?? null,
  };
}
