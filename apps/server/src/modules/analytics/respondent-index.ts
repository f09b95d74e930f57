/**
 * Who answered what, held in memory for counting respondents: per metric, each product's respondents
 * with an answer in scale (ids ascending), and every respondent's gender and age. A group comparison
 * states how many respondents stand behind each group's scores; counting them in the database reads
 * millions of answers at library scale (1.5 s for a business unit), counting them here takes
 * milliseconds.
 */
import type { DemographicMatch } from './analytics-types.ts';

/**
 * The respondents behind each product's answers to one metric, as a compressed sparse row list, with
 * each answer's harmonised value: a cell is one (product, respondent), holding that respondent's
 * answers to the product (one, unless the study asked the metric more than once). Counting
 * respondents reads the cells; the clustered significance tests sum their answers
 * (respondent-sums.ts).
 */
export interface RespondentIndex {
  metricId: number;
  /** Position of a product in `starts`, by product id; -1 for a product without answers. */
  positionOf: Int32Array;
  /** The cells of the product at position p are cells starts[p] .. starts[p + 1] - 1. */
  starts: Int32Array;
  /** Each cell's respondent: distinct and ascending within a product. */
  respondents: Int32Array;
  /**
   * The answers of cell c are answers answerStarts[c] .. answerStarts[c + 1] - 1; null when every
   * cell holds one answer (answer c is then cell c's), as in a library that asks a metric once a study.
   */
  answerStarts: Int32Array | null;
  /**
   * Each answer's value is values[codes[a]]: the distinct harmonised values of a metric are few (21
   * for liking at 3,000 studies), so an answer costs one byte. Null when there are more than 65,536
   * distinct values (continuous EEG scores): values[a] then.
   */
  codes: Uint8Array | Uint16Array | null;
  values: Float64Array;
  /** Bytes held by the arrays above. */
  bytes: number;
}

/**
 * One product's answers as loaded: product id, its respondent ids ascending (a respondent once per
 * answer) and the answers' harmonised values in the same order.
 */
export type RespondentList = [productId: number, respondentIds: number[], values: number[]];

/** The most distinct values kept as codes (Uint16). */
const MAX_CODES = 65536;

/** A typed array twice as long (at least `needed`), with the first `count` entries copied. */
function grown<T extends Int32Array | Uint16Array | Float64Array>(
  array: T,
  needed: number,
  count: number,
): T {
  if (needed <= array.length) return array;
  const next = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2));
  next.set(array.subarray(0, count));
  return next;
}

/** A copy of `array` on shared memory: a worker thread reads it where it is (see finish). */
function sharedCopy<T extends Int32Array | Uint8Array | Uint16Array | Float64Array>(
  array: ArrayLike<number>,
  type: {
    new (buffer: SharedArrayBuffer): T;
    BYTES_PER_ELEMENT: number;
  },
): T {
  const copy = new type(new SharedArrayBuffer(array.length * type.BYTES_PER_ELEMENT));
  copy.set(array);
  return copy;
}

/**
 * Builds an index from products added chunk by chunk (each product once), so that millions of ids
 * are never held as arrays of numbers at once; values are coded as they arrive.
 */
export function respondentIndexBuilder(metricId: number) {
  const productIds: number[] = [];
  const starts: number[] = [0];
  let respondents = new Int32Array(1024);
  let cells = 0;
  // Created at the first cell with two answers (every earlier cell holds one).
  let answerStarts: Int32Array | null = null;
  let answers = 0;
  let codes: Uint16Array | null = new Uint16Array(1024);
  let raw: Float64Array | null = null;
  const codeOf = new Map<number, number>();
  const dictionary: number[] = [];
  const addValue = (value: number) => {
    if (codes) {
      let code = codeOf.get(value);
      if (code === undefined && dictionary.length < MAX_CODES) {
        code = dictionary.length;
        codeOf.set(value, code);
        dictionary.push(value);
      }
      if (code !== undefined) {
        codes = grown(codes, answers + 1, answers);
        codes[answers++] = code;
        return;
      }
      // Too many distinct values: every answer keeps its own from here on.
      raw = new Float64Array(Math.max(1024, answers * 2));
      for (let at = 0; at < answers; at++) raw[at] = dictionary[codes[at]!]!;
      codes = null;
      codeOf.clear();
    }
    raw = grown(raw!, answers + 1, answers);
    raw[answers++] = value;
  };
  return {
    add(list: readonly RespondentList[]): void {
      for (const [productId, ids, values] of list) {
        if (values.length !== ids.length)
          throw new RangeError(`Product ${productId}: ${ids.length} respondents, ${values.length} values`);
        respondents = grown(respondents, cells + ids.length, cells);
        for (let at = 0; at < ids.length; at++) {
          const id = ids[at]!;
          if (at > 0 && id === ids[at - 1]) {
            if (!answerStarts) {
              answerStarts = new Int32Array(Math.max(1024, cells * 2));
              for (let cell = 0; cell <= cells; cell++) answerStarts[cell] = cell;
            }
          } else {
            if (at > 0 && id < ids[at - 1]!)
              throw new RangeError(`Product ${productId}: respondent ids are not ascending`);
            respondents[cells++] = id;
          }
          addValue(values[at]!);
          if (answerStarts) {
            answerStarts = grown(answerStarts, cells + 1, cells);
            answerStarts[cells] = answers;
          }
        }
        productIds.push(productId);
        starts.push(cells);
      }
    },
    /**
     * The index, its arrays on shared memory: a Calculate of a long list hands them to a worker
     * thread, which reads each test's sums from them as the request loop would (respondent-sums.ts),
     * instead of the request loop copying ten columns of sums per cell for it at every call.
     */
    finish(): RespondentIndex {
      const positionOf = new Int32Array(new SharedArrayBuffer((Math.max(0, ...productIds) + 1) * 4)).fill(-1);
      productIds.forEach((productId, position) => (positionOf[productId] = position));
      const finalCodes = codes
        ? dictionary.length <= 256
          ? sharedCopy(codes.subarray(0, answers), Uint8Array)
          : sharedCopy(codes.subarray(0, answers), Uint16Array)
        : null;
      const index = {
        metricId,
        positionOf,
        starts: sharedCopy(starts, Int32Array),
        respondents: sharedCopy(respondents.subarray(0, cells), Int32Array),
        answerStarts: answerStarts
          ? sharedCopy((answerStarts as Int32Array).subarray(0, cells + 1), Int32Array)
          : null,
        codes: finalCodes,
        values: sharedCopy(finalCodes ? dictionary : raw!.subarray(0, answers), Float64Array),
      };
      const bytes = [
        index.positionOf,
        index.starts,
        index.respondents,
        index.answerStarts,
        index.codes,
        index.values,
      ].reduce((total, array) => total + (array?.byteLength ?? 0), 0);
      return { ...index, bytes };
    },
  };
}

/** Every respondent's gender and age, by respondent id. */
export interface RespondentCells {
  /** Index of each respondent's (gender, age) cell in `cells`; NO_CELL for an id without respondent. */
  cellOf: Uint16Array;
  cells: { gender: string | null; age: number | null }[];
}

const NO_CELL = 0xffff;

/** The cells of respondents given as [id, gender, age] rows. */
export function respondentCellsOf(
  rows: readonly [id: number, gender: string | null, age: number | null][],
): RespondentCells {
  let maxId = 0;
  for (const [id] of rows) if (id > maxId) maxId = id;
  const cellOf = new Uint16Array(maxId + 1).fill(NO_CELL);
  const cells: RespondentCells['cells'] = [];
  const cellIndex = new Map<string, number>();
  for (const [id, gender, age] of rows) {
    const key = `${gender === null ? 'n' : 'v'}${age ?? ''}\u0000${gender ?? ''}`;
    let cell = cellIndex.get(key);
    if (cell === undefined) {
      cell = cells.length;
      if (cell >= NO_CELL) throw new Error('Too many gender and age cells');
      cells.push({ gender, age });
      cellIndex.set(key, cell);
    }
    cellOf[id] = cell;
  }
  return { cellOf, cells };
}

/**
 * Whether the filter keeps a respondent, by id, as SQL's join to the respondents and their conditions
 * would: an id without respondent is never kept. `match` null keeps every respondent.
 */
export function keptRespondents(
  people: RespondentCells,
  match: DemographicMatch | null,
): (id: number) => boolean {
  const keptCell = Uint8Array.from(people.cells, (cell) =>
    match === null || match(cell.gender, cell.age) ? 1 : 0,
  );
  const size = people.cellOf.length;
  return (id) => {
    if (id >= size) return false;
    const cell = people.cellOf[id]!;
    return cell !== NO_CELL && keptCell[cell] === 1;
  };
}

/**
 * How many distinct respondents the filter keeps among the respondents of the products: per metric
 * (by metric id) and for any of the metrics (key null). `match` null keeps everybody.
 */
export function countRespondents(
  indexes: readonly RespondentIndex[],
  productIds: readonly number[],
  people: RespondentCells,
  match: DemographicMatch | null,
): Map<number | null, number> {
  const kept = keptRespondents(people, match);
  const size = people.cellOf.length;
  const seenAny = new Uint8Array(size);
  const seen = new Uint8Array(size);
  const counts = new Map<number | null, number>();
  let any = 0;
  for (const index of indexes) {
    seen.fill(0);
    let count = 0;
    for (const productId of productIds) {
      const position = productId < index.positionOf.length ? index.positionOf[productId]! : -1;
      if (position < 0) continue;
      for (let at = index.starts[position]!; at < index.starts[position + 1]!; at++) {
        const id = index.respondents[at]!;
        if (seen[id] === 1 || !kept(id)) continue;
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
