/**
 * Each respondent's sums per product of a list, for the respondent-clustered significance tests
 * (METRICS.md section 2), read from a metric's respondent index held in memory (respondent-index.ts:
 * each product's respondents and the harmonised values of their answers) instead of a grouped read
 * of the answers at every Calculate. Products of different studies share no respondent, and a
 * product's cells sit together in the index, so a list's cells are read product by product: those of
 * the selection and those of the rest of each study are what the tests sum per respondent. The cells
 * are those of the grouped read of analytics.repository.ts (respondentCells): answers in scale (the
 * index holds no others; EEG scores all), counts, sums, sums of squares and the box counts with the
 * thresholds of its SQL, under a gender and age filter applied to the respondents.
 */
import { BOX_TOLERANCE } from '@accord/stats';
import { emptyRespondentCells, type RespondentCells } from './respondent-cells.ts';
import type { RespondentIndex } from './respondent-index.ts';

// The box thresholds of the grouped read (analytics.repository.ts answerSums): a value counts in a
// box within BOX_TOLERANCE of its edge, as the SQL compares the answers with these same numbers.
const TOP_BOX = 4.5 - BOX_TOLERANCE;
const TOP_2_BOX = 3.5 - BOX_TOLERANCE;
const BOTTOM_2_BOX = 2.5 + BOX_TOLERANCE;
const BOTTOM_BOX = 1.5 + BOX_TOLERANCE;

/**
 * The cells of the listed products (each once, in list order; respondents ascending within a
 * product) whose respondent `keep` keeps (null: every respondent, as the read without a filter).
 * Products without answers have no cells.
 */
export function respondentSumsOf(
  index: RespondentIndex,
  productIds: readonly number[],
  keep: ((respondentId: number) => boolean) | null,
): RespondentCells {
  const { positionOf, starts, respondents, answerStarts, codes, values } = index;
  // The listed products with answers: their ids and positions in the index.
  const listed: number[] = [];
  const positions: number[] = [];
  const seen = new Set<number>();
  for (const productId of productIds) {
    if (seen.has(productId)) continue;
    seen.add(productId);
    const position = productId >= 0 && productId < positionOf.length ? positionOf[productId]! : -1;
    if (position < 0) continue;
    listed.push(productId);
    positions.push(position);
  }
  let count = 0;
  for (const position of positions) {
    if (keep === null) count += starts[position + 1]! - starts[position]!;
    else
      for (let cell = starts[position]!; cell < starts[position + 1]!; cell++)
        if (keep(respondents[cell]!)) count++;
  }
  // Exactly as long as the cells: the columns cross to a worker thread whole.
  const cells = emptyRespondentCells(count);
  let at = 0;
  positions.forEach((position, listedAt) => {
    const productId = listed[listedAt]!;
    for (let cell = starts[position]!; cell < starts[position + 1]!; cell++) {
      const respondentId = respondents[cell]!;
      if (keep !== null && !keep(respondentId)) continue;
      const first = answerStarts ? answerStarts[cell]! : cell;
      const last = answerStarts ? answerStarts[cell + 1]! : cell + 1;
      let sum = 0;
      let sumSq = 0;
      let topBox = 0;
      let top2Box = 0;
      let justRight = 0;
      let bottom2Box = 0;
      let bottomBox = 0;
      for (let answer = first; answer < last; answer++) {
        const value = codes ? values[codes[answer]!]! : values[answer]!;
        sum += value;
        sumSq += value * value;
        if (value >= TOP_BOX) topBox++;
        if (value >= TOP_2_BOX) top2Box++;
        if (value > BOTTOM_2_BOX && value < TOP_2_BOX) justRight++;
        if (value <= BOTTOM_2_BOX) bottom2Box++;
        if (value <= BOTTOM_BOX) bottomBox++;
      }
      cells.product[at] = productId;
      cells.respondent[at] = respondentId;
      cells.n[at] = last - first;
      cells.sum[at] = sum;
      cells.sumSq[at] = sumSq;
      cells.nTopBox[at] = topBox;
      cells.nTop2Box[at] = top2Box;
      cells.nJustRight[at] = justRight;
      cells.nBottom2Box[at] = bottom2Box;
      cells.nBottomBox[at] = bottomBox;
      at++;
    }
  });
  return cells;
}
