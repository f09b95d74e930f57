/**
 * The stored statistics of one metric's products held in columns: about 1.5 MB for 24,000 products,
 * where as many objects in a map took about 5 MB, and the service keeps them for every metric.
 */
import type { MetricSums } from './analytics-types.ts';

/** A metric's stored statistics by product id. */
export interface StoredSums {
  /** How many products have statistics. */
  readonly size: number;
  /** A product's statistics (a new object at each call), or undefined when it has none. */
  get(productId: number): MetricSums | undefined;
  /**
   * Writes a product's statistics into `target` from `at` in the order of packed-sums.ts (n, sum,
   * sumSq, then the five box counts from the top box down), no object made; false (nothing written)
   * when it has none.
   */
  copyTo(productId: number, target: Float64Array, at: number): boolean;
  /** The columns read (see columnsSums), to hand them to a worker thread as they are. */
  readonly columns: SumsColumns;
}

/**
 * A metric's statistics as columns: 6 counts and 2 totals a position (as copyColumns reads them) and
 * each product id's position in them (-1 or out of range: none).
 */
export interface SumsColumns {
  positionOf: Int32Array;
  counts: Int32Array;
  totals: Float64Array;
}

/** An array of `length` numbers on shared memory: a worker thread reads it where it is. */
const shared = <T extends Int32Array | Float64Array>(
  type: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
  length: number,
): T => new type(new SharedArrayBuffer(length * type.BYTES_PER_ELEMENT));

/** copyTo over the columns both kinds of stored statistics keep (6 counts, 2 totals a position). */
export function copyColumns(
  counts: Int32Array,
  totals: Float64Array,
  position: number,
  target: Float64Array,
  at: number,
): void {
  const count = position * 6;
  target[at] = counts[count]!;
  target[at + 1] = totals[position * 2]!;
  target[at + 2] = totals[position * 2 + 1]!;
  target[at + 3] = counts[count + 1]!;
  target[at + 4] = counts[count + 2]!;
  target[at + 5] = counts[count + 3]!;
  target[at + 6] = counts[count + 4]!;
  target[at + 7] = counts[count + 5]!;
}

/**
 * The rows of one metric (any order, each product once) in columns, on shared memory: a search
 * assembled in a worker thread reads them there (packed-sums.ts handSums), nothing copied per search.
 */
export function storedSumsOf(metricId: number, rows: readonly MetricSums[]): StoredSums {
  let maxId = -1;
  for (const row of rows) if (row.productId > maxId) maxId = row.productId;
  const positionOf = shared(Int32Array, maxId + 1).fill(-1);
  const counts = shared(Int32Array, rows.length * 6);
  const sums = shared(Float64Array, rows.length * 2);
  rows.forEach((row, position) => {
    positionOf[row.productId] = position;
    counts.set(
      [row.n, row.nTopBox, row.nTop2Box, row.nJustRight, row.nBottom2Box, row.nBottomBox],
      position * 6,
    );
    sums[position * 2] = row.sum;
    sums[position * 2 + 1] = row.sumSq;
  });
  return columnsSums(metricId, rows.length, positionOf, counts, sums);
}

/**
 * A metric's statistics over their columns (6 counts and 2 totals a position, as copyColumns reads
 * them) and each product id's position in them (-1 or out of range: none): what the stored and the
 * demographic statistics both answer with.
 */
export function columnsSums(
  metricId: number,
  size: number,
  positionOf: Int32Array,
  counts: Int32Array,
  totals: Float64Array,
): StoredSums {
  return {
    size,
    columns: { positionOf, counts, totals },
    copyTo(productId, target, at) {
      const position = positionOf[productId] ?? -1;
      if (position < 0) return false;
      copyColumns(counts, totals, position, target, at);
      return true;
    },
    get(productId) {
      const position = positionOf[productId] ?? -1;
      if (position < 0) return undefined;
      const at = position * 6;
      return {
        productId,
        metricId,
        n: counts[at]!,
        sum: totals[position * 2]!,
        sumSq: totals[position * 2 + 1]!,
        nTopBox: counts[at + 1]!,
        nTop2Box: counts[at + 2]!,
        nJustRight: counts[at + 3]!,
        nBottom2Box: counts[at + 4]!,
        nBottomBox: counts[at + 5]!,
      };
    },
  };
}
