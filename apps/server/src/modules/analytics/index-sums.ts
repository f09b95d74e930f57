/**
 * A respondent filter applied in memory: the sufficient statistics of products for one metric summed
 * from its respondent index (respondent-index.ts) over the respondents a filter keeps
 * (respondent-traits.ts), and the distinct respondents it keeps. These are the numbers of
 * analytics.answerSums and analytics.respondentCounts under a filter the demographic tables do not
 * hold (ethnicity, social class, BUMO): the index holds the same answers (in scale; EEG scores all)
 * with their values as the SQL reads them, and the box counts use the SQL's thresholds.
 */
import { BOX_TOLERANCE } from '@accord/stats';
import type { MetricSums } from './analytics-types.ts';
import type { RespondentIndex } from './respondent-index.ts';

// The box thresholds of analytics.repository.ts answerSums: a value counts in a box within
// BOX_TOLERANCE of its edge, as the SQL compares the answers with these same numbers.
const TOP_BOX = 4.5 - BOX_TOLERANCE;
const TOP_2_BOX = 3.5 - BOX_TOLERANCE;
const BOTTOM_2_BOX = 2.5 + BOX_TOLERANCE;
const BOTTOM_BOX = 1.5 + BOX_TOLERANCE;

/**
 * The statistics of each listed product (once, in list order) over the answers of the respondents
 * `kept` marks (kept[id] === 1; ids beyond it are not kept). Products without a kept answer have no
 * row, as the grouped SQL returns none for them.
 */
export function indexSums(
  index: RespondentIndex,
  productIds: readonly number[],
  kept: Uint8Array,
): MetricSums[] {
  const { positionOf, starts, respondents, answerStarts, codes, values } = index;
  const size = kept.length;
  const found: MetricSums[] = [];
  const seen = new Set<number>();
  for (const productId of productIds) {
    if (seen.has(productId)) continue;
    seen.add(productId);
    const position = productId >= 0 && productId < positionOf.length ? positionOf[productId]! : -1;
    if (position < 0) continue;
    let n = 0;
    let sum = 0;
    let sumSq = 0;
    let nTopBox = 0;
    let nTop2Box = 0;
    let nJustRight = 0;
    let nBottom2Box = 0;
    let nBottomBox = 0;
    const end = starts[position + 1]!;
    for (let cell = starts[position]!; cell < end; cell++) {
      const id = respondents[cell]!;
      if (id >= size || kept[id] !== 1) continue;
      const first = answerStarts ? answerStarts[cell]! : cell;
      const last = answerStarts ? answerStarts[cell + 1]! : cell + 1;
      for (let answer = first; answer < last; answer++) {
        const value = codes ? values[codes[answer]!]! : values[answer]!;
        n++;
        sum += value;
        sumSq += value * value;
        if (value >= TOP_BOX) nTopBox++;
        if (value >= TOP_2_BOX) nTop2Box++;
        if (value > BOTTOM_2_BOX && value < TOP_2_BOX) nJustRight++;
        if (value <= BOTTOM_2_BOX) nBottom2Box++;
        if (value <= BOTTOM_BOX) nBottomBox++;
      }
    }
    if (n === 0) continue;
    found.push({
      productId,
      metricId: index.metricId,
      n,
      sum,
      sumSq,
      nTopBox,
      nTop2Box,
      nJustRight,
      nBottom2Box,
      nBottomBox,
    });
  }
  return found;
}

/**
 * How many distinct respondents `kept` marks among the respondents of the products: per metric (by
 * metric id) and for any of the metrics (key null).
 */
export function countKeptRespondents(
  indexes: readonly RespondentIndex[],
  productIds: readonly number[],
  kept: Uint8Array,
): Map<number | null, number> {
  const size = kept.length;
  const seenAny = new Uint8Array(size);
  const seen = new Uint8Array(size);
  const counts = new Map<number | null, number>();
  let any = 0;
  for (const index of indexes) {
    seen.fill(0);
    let count = 0;
    for (const productId of productIds) {
      const position =
        productId >= 0 && productId < index.positionOf.length ? index.positionOf[productId]! : -1;
      if (position < 0) continue;
      for (let at = index.starts[position]!; at < index.starts[position + 1]!; at++) {
        const id = index.respondents[at]!;
        if (id >= size || kept[id] !== 1 || seen[id] === 1) continue;
        seen[id] = 1;
        count++;
        if (seenAny[id] === 0) {
          seenAny[id] = 1;
          any++;
        }
      }
    }
    counts.set(index.metricId, count);
  }
  counts.set(null, any);
  return counts;
}
