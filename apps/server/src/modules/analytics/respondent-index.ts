/**
 * Who answered what, held in memory for counting respondents: per metric, each product's respondents
 * with an answer in scale (ids ascending), and every respondent's gender and age. A group comparison
 * states how many respondents stand behind each group's scores; counting them in the database reads
 * millions of answers at library scale (1.5 s for a business unit), counting them here takes
 * milliseconds.
 */
import type { DemographicMatch } from './analytics-types.ts';

/** The respondents behind each product's answers to one metric, as a compressed sparse row list. */
export interface RespondentIndex {
  metricId: number;
  /** Position of a product in `starts`, by product id; -1 for a product without answers. */
  positionOf: Int32Array;
  /** The respondents of the product at position p are respondents[starts[p]] .. respondents[starts[p + 1] - 1]. */
  starts: Int32Array;
  respondents: Int32Array;
}

/** One product's respondents as loaded: product id and its respondent ids. */
export type RespondentList = [productId: number, respondentIds: number[]];

/**
 * Builds an index from products added chunk by chunk (each product once), so that millions of ids
 * are never held as arrays of numbers at once.
 */
export function respondentIndexBuilder(metricId: number) {
  const productIds: number[] = [];
  const starts: number[] = [0];
  let respondents = new Int32Array(1024);
  let count = 0;
  return {
    add(list: readonly RespondentList[]): void {
      for (const [productId, ids] of list) {
        if (count + ids.length > respondents.length) {
          const next = new Int32Array(Math.max(count + ids.length, respondents.length * 2));
          next.set(respondents.subarray(0, count));
          respondents = next;
        }
        respondents.set(ids, count);
        count += ids.length;
        productIds.push(productId);
        starts.push(count);
      }
    },
    finish(): RespondentIndex {
      const positionOf = new Int32Array(Math.max(0, ...productIds) + 1).fill(-1);
      productIds.forEach((productId, position) => (positionOf[productId] = position));
      return {
        metricId,
        positionOf,
        starts: Int32Array.from(starts),
        respondents: respondents.slice(0, count),
      };
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
 * How many distinct respondents the filter keeps among the respondents of the products: per metric
 * (by metric id) and for any of the metrics (key null). `match` null keeps everybody.
 */
export function countRespondents(
  indexes: readonly RespondentIndex[],
  productIds: readonly number[],
  people: RespondentCells,
  match: DemographicMatch | null,
): Map<number | null, number> {
  const keptCell = Uint8Array.from(people.cells, (cell) =>
    match === null || match(cell.gender, cell.age) ? 1 : 0,
  );
  const size = people.cellOf.length;
  const kept = (id: number): boolean => {
    if (id >= size) return false;
    const cell = people.cellOf[id]!;
    return cell !== NO_CELL && keptCell[cell] === 1;
  };
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
