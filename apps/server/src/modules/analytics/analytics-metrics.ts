/**
 * Pure rules of the metric search (METRICS.md section 1, document 3 section 3): an aggregation of a
 * product's sufficient statistics, pooled summaries, and best/worst thresholds.
 */
import type { Aggregation, Threshold } from '@accord/contracts';
import { summaryFromSums } from '@accord/stats';
import type { MetricRecord, MetricSums } from './analytics-types.ts';

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

/** The fields of Sums, in the order packed statistics hold them (packed-sums.ts). */
export const SUMS_FIELDS = [
  'n',
  'sum',
  'sumSq',
  'nTopBox',
  'nTop2Box',
  'nJustRight',
  'nBottom2Box',
  'nBottomBox',
] as const satisfies readonly (keyof Sums)[];

/** The box counts of the statistics. */
export type BoxField = 'nTopBox' | 'nTop2Box' | 'nJustRight' | 'nBottom2Box' | 'nBottomBox';

/** The box count a share aggregation reads, or null for mean and variance. */
export function boxField(aggregation: Aggregation): BoxField | null {
  switch (aggregation) {
    case 'top_box':
    case 'hi_yes':
      return 'nTopBox';
    case 'top_2_box':
    case 'irt_yes':
      return 'nTop2Box';
    case 'just_right':
      return 'nJustRight';
    case 'bottom_2_box':
    case 'irt_no':
      return 'nBottom2Box';
    case 'bottom_box':
    case 'hi_no':
      return 'nBottomBox';
    default:
      return null;
  }
}

/** The box count behind a share aggregation, or null for mean and variance. */
export function boxCount(sums: Sums, aggregation: Aggregation): number | null {
  const field = boxField(aggregation);
  return field === null ? null : sums[field];
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

/**
 * The share a yes/no (CATA) answer shows for an aggregation (METRICS.md section 3): selected (the
 * answers at 5 of 1 or 5) for the top boxes and the mean, not selected for the bottom boxes, nothing
 * for the variance or a neutral share (see yesNoHeading). Never a mean.
 */
export function yesNoShare(sums: Sums, aggregation: Aggregation): number | null {
  const field = yesNoField(aggregation);
  return field === null || sums.n === 0 ? null : sums[field] / sums.n;
}

/**
 * The answers a yes/no share counts (see yesNoShare): selected for the top boxes and the mean, not
 * selected for the bottom boxes; null for the variance or a neutral share.
 */
export function yesNoField(aggregation: Aggregation): 'nTopBox' | 'nBottomBox' | null {
  if (aggregation === 'top_box' || aggregation === 'top_2_box' || aggregation === 'mean') return 'nTopBox';
  if (aggregation === 'bottom_box' || aggregation === 'bottom_2_box') return 'nBottomBox';
  return null;
}

/** The answers behind a yes/no share: selected for the mean and top boxes, not selected for a bottom box. */
export function yesNoCount(sums: Sums, aggregation: Aggregation): number {
  return sums[yesNoField(aggregation) ?? 'nTopBox'];
}

/** The value of a metric search column: a yes/no metric's share, any other metric's aggregate. */
export function columnValue(sums: Sums, aggregation: Aggregation, kind: MetricRecord['kind']): number | null {
  return kind === 'binary' ? yesNoShare(sums, aggregation) : aggregate(sums, aggregation, kind);
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

/**
 * Pooled aggregates of a metric over a set of products; keys with a dot hold counts. A yes/no (CATA)
 * metric pools to its shares selected and not selected alone: no mean, variance or boxes.
 */
export function summarise(sums: Sums, kind: MetricRecord['kind']): Record<string, number | null> {
  if (kind === 'binary')
    return {
      selected: yesNoShare(sums, 'top_box'),
      'selected.count': sums.nTopBox,
      not_selected: yesNoShare(sums, 'bottom_box'),
      'not_selected.count': sums.nBottomBox,
      'answers.count': sums.n,
    };
  const summary: Record<string, number | null> = {
    mean: aggregate(sums, 'mean', kind),
    variance: aggregate(sums, 'variance', kind),
    'answers.count': sums.n,
  };
  if (kind !== 'eeg') {
    for (const key of ['top_box', 'top_2_box', 'just_right', 'bottom_2_box', 'bottom_box'] as const) {
      summary[key] = aggregate(sums, key, kind);
      summary[`${key}.count`] = boxCount(sums, key);
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
 * Best or worst products on several metrics at once (document 3 section 4.2: source All ranks on top
 * 2 box liking and on mean EEG hedonic). Each metric ranks the products with a value for it (ties by
 * id); a product's place on a metric is its rank scaled to 0 (first) .. 1 (last), and its joint score
 * is the mean of its places on the metrics it has a value for, so a metric on another scale weighs the
 * same. The threshold keeps the first products by joint score (ties by id), in that order.
 */
export function rankJointly(
  metrics: readonly (readonly { id: number; value: number | null }[])[],
  threshold: Threshold,
): number[] {
  const places = new Map<number, number[]>();
  for (const values of metrics) {
    const ranked = values
      .filter((entry): entry is { id: number; value: number } => entry.value !== null)
      .sort((left, right) =>
        left.value === right.value
          ? left.id - right.id
          : threshold.desc
            ? right.value - left.value
            : left.value - right.value,
      );
    ranked.forEach((entry, position) => {
      const place = ranked.length > 1 ? position / (ranked.length - 1) : 0;
      const list = places.get(entry.id);
      if (list) list.push(place);
      else places.set(entry.id, [place]);
    });
  }
  const scored = [...places].map(([id, list]) => ({
    id,
    score: list.reduce((sum, place) => sum + place, 0) / list.length,
  }));
  scored.sort((left, right) => left.score - right.score || left.id - right.id);
  return scored.slice(0, thresholdSize(threshold, scored.length)).map((entry) => entry.id);
}
