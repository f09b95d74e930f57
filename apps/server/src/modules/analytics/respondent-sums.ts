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

/** The boxes a value counts in, as bits: top, top 2, just right, bottom 2, bottom. */
function boxesOf(value: number): number {
  return (
    (value >= TOP_BOX ? 1 : 0) |
    (value >= TOP_2_BOX ? 2 : 0) |
    (value > BOTTOM_2_BOX && value < TOP_2_BOX ? 4 : 0) |
    (value <= BOTTOM_2_BOX ? 8 : 0) |
    (value <= BOTTOM_BOX ? 16 : 0)
  );
}

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
  const cells = emptyRespondentCells(count);
  // A library asks a metric once a study: one answer a cell, its boxes read from its value's code.
  const boxesOfCode = codes ? Uint8Array.from(values, boxesOf) : null;
  let at = 0;
  for (let listedAt = 0; listedAt < positions.length; listedAt++) {
    const productId = listed[listedAt]!;
    const position = positions[listedAt]!;
    const end = starts[position + 1]!;
    for (let cell = starts[position]!; cell < end; cell++) {
      const respondentId = respondents[cell]!;
      if (keep !== null && !keep(respondentId)) continue;
      cells.product[at] = productId;
      cells.respondent[at] = respondentId;
      if (answerStarts === null && codes !== null) {
        const code = codes[cell]!;
        const value = values[code]!;
        const boxes = boxesOfCode![code]!;
        cells.n[at] = 1;
        cells.sum[at] = value;
        cells.sumSq[at] = value * value;
        cells.nTopBox[at] = boxes & 1;
        cells.nTop2Box[at] = (boxes >> 1) & 1;
        cells.nJustRight[at] = (boxes >> 2) & 1;
        cells.nBottom2Box[at] = (boxes >> 3) & 1;
        cells.nBottomBox[at] = (boxes >> 4) & 1;
        at++;
        continue;
      }
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
        const boxes = boxesOf(value);
        sum += value;
        sumSq += value * value;
        topBox += boxes & 1;
        top2Box += (boxes >> 1) & 1;
        justRight += (boxes >> 2) & 1;
        bottom2Box += (boxes >> 3) & 1;
        bottomBox += (boxes >> 4) & 1;
      }
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
  }
  return cells;
}

/** The box count columns of the cells. */
export type BoxColumn = 'nTopBox' | 'nTop2Box' | 'nJustRight' | 'nBottom2Box' | 'nBottomBox';

/** Each box column's bit in boxesOf. */
export const BOX_BITS: Readonly<Record<BoxColumn, number>> = {
  nTopBox: 1,
  nTop2Box: 2,
  nJustRight: 4,
  nBottom2Box: 8,
  nBottomBox: 16,
};

/**
 * The cells of the listed products in a metric's index, without their sums: per cell its position
 * in the index, its product's position in the list, its respondent and its answers, in the order of
 * respondentSumsOf. The clustered tests lay them out once and read each test's sums from the index
 * (indexedSumsOf) instead of ten columns of sums made for every cell.
 */
export interface IndexedCells {
  index: RespondentIndex;
  cell: Int32Array;
  product: Int32Array;
  respondent: Int32Array;
  n: Int32Array;
}

/** The indexed cells of the listed products (distinct, in list order) whose respondent `keep` keeps. */
export function indexedCellsOf(
  index: RespondentIndex,
  productIds: readonly number[],
  keep: ((respondentId: number) => boolean) | null,
): IndexedCells {
  const { positionOf, starts, respondents, answerStarts } = index;
  let count = 0;
  for (const productId of productIds) {
    const position = productId >= 0 && productId < positionOf.length ? positionOf[productId]! : -1;
    if (position < 0) continue;
    if (keep === null) count += starts[position + 1]! - starts[position]!;
    else
      for (let cell = starts[position]!; cell < starts[position + 1]!; cell++)
        if (keep(respondents[cell]!)) count++;
  }
  const cells: IndexedCells = {
    index,
    cell: new Int32Array(count),
    product: new Int32Array(count),
    respondent: new Int32Array(count),
    n: new Int32Array(count),
  };
  let at = 0;
  productIds.forEach((productId, listed) => {
    const position = productId >= 0 && productId < positionOf.length ? positionOf[productId]! : -1;
    if (position < 0) return;
    for (let cell = starts[position]!; cell < starts[position + 1]!; cell++) {
      const respondentId = respondents[cell]!;
      if (keep !== null && !keep(respondentId)) continue;
      cells.cell[at] = cell;
      cells.product[at] = listed;
      cells.respondent[at] = respondentId;
      cells.n[at] = answerStarts ? answerStarts[cell + 1]! - answerStarts[cell]! : 1;
      at++;
    }
  });
  return cells;
}

/**
 * The cells' own buffers, to move them to a worker thread (16 bytes a cell, where the ten columns of
 * respondentSumsOf take 48): the index they point into is on shared memory (respondent-index.ts) and
 * crosses without a copy.
 */
export function indexedCellBuffers(cells: IndexedCells): ArrayBuffer[] {
  return [cells.cell, cells.product, cells.respondent, cells.n].map((column) => column.buffer as ArrayBuffer);
}

/**
 * One test's sum and sum of squares per indexed cell, as respondentSumsOf sums them: of the answers'
 * values, or (`box`: a bit of boxesOf) the count of answers in that box, both.
 */
export function indexedSumsOf(
  cells: IndexedCells,
  box: number | null,
): { sum: Float64Array; sumSq: Float64Array } {
  const { answerStarts, codes, values } = cells.index;
  const count = cells.cell.length;
  const sum = new Float64Array(count);
  const sumSq = box === null ? new Float64Array(count) : sum;
  // One answer a cell, its value read from its code: the box or the value of each code, once.
  if (answerStarts === null && codes !== null) {
    if (box !== null) {
      const inBox = Uint8Array.from(values, (value) => (boxesOf(value) & box ? 1 : 0));
      for (let at = 0; at < count; at++) sum[at] = inBox[codes[cells.cell[at]!]!]!;
    } else
      for (let at = 0; at < count; at++) {
        const value = values[codes[cells.cell[at]!]!]!;
        sum[at] = value;
        sumSq[at] = value * value;
      }
    return { sum, sumSq };
  }
  for (let at = 0; at < count; at++) {
    const cell = cells.cell[at]!;
    const first = answerStarts ? answerStarts[cell]! : cell;
    const last = answerStarts ? answerStarts[cell + 1]! : cell + 1;
    let total = 0;
    let squares = 0;
    for (let answer = first; answer < last; answer++) {
      const value = codes ? values[codes[answer]!]! : values[answer]!;
      if (box !== null) total += boxesOf(value) & box ? 1 : 0;
      else {
        total += value;
        squares += value * value;
      }
    }
    sum[at] = total;
    if (box === null) sumSq[at] = squares;
  }
  return { sum, sumSq };
}
