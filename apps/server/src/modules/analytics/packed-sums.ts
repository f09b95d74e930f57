/**
 * The sufficient statistics of a list of products and metrics as one array of numbers, the form in
 * which they cross to a worker thread: copying one buffer costs little, while a structured clone of
 * tens of thousands of objects would hold the request loop about as long as the work it moves.
 */
import { sumsOf, sumsView, type SumsTable } from './analytics-context.ts';
import { SUMS_FIELDS as FIELDS, type Sums } from './analytics-metrics.ts';
import { demographicSumsTable, type DemographicSumsSource } from './demographic-table.ts';
import { columnsSums, type SumsColumns } from './stored-sums.ts';

const WIDTH = FIELDS.length;

/** The statistics packed from `at` on (in FIELDS' order). */
const sumsAt = (values: Float64Array, at: number): Sums => ({
  n: values[at]!,
  sum: values[at + 1]!,
  sumSq: values[at + 2]!,
  nTopBox: values[at + 3]!,
  nTop2Box: values[at + 4]!,
  nJustRight: values[at + 5]!,
  nBottom2Box: values[at + 6]!,
  nBottomBox: values[at + 7]!,
});

/** Statistics of products × metrics: values[(product × metrics + metric) × 8 + field]. */
export interface PackedSums {
  productIds: Int32Array;
  metricIds: Int32Array;
  values: Float64Array;
}

/** Copies the statistics of every product and metric given (none: zeros, as EMPTY_SUMS). */
export function packSums(
  sums: SumsTable,
  productIds: ArrayLike<number>,
  metricIds: readonly number[],
): PackedSums {
  const metrics = metricIds.length;
  const values = new Float64Array(productIds.length * metrics * WIDTH);
  for (let product = 0; product < productIds.length; product++) {
    for (let metric = 0; metric < metrics; metric++) {
      const at = (product * metrics + metric) * WIDTH;
      // Stored statistics are copied from their columns, no object made per product.
      if (sums.copyTo?.(productIds[product]!, metricIds[metric]!, values, at)) continue;
      const found = sumsOf(sums, productIds[product]!, metricIds[metric]!);
      values[at] = found.n;
      values[at + 1] = found.sum;
      values[at + 2] = found.sumSq;
      values[at + 3] = found.nTopBox;
      values[at + 4] = found.nTop2Box;
      values[at + 5] = found.nJustRight;
      values[at + 6] = found.nBottom2Box;
      values[at + 7] = found.nBottomBox;
    }
  }
  return { productIds: Int32Array.from(productIds), metricIds: Int32Array.from(metricIds), values };
}

/** The packed statistics as a SumsTable (products and metrics outside them: none). */
export function unpackSums(packed: PackedSums): SumsTable {
  // Positions by id in typed arrays (-1: none), not maps: a search of every fragrance looks up
  // tens of thousands of products, each several times.
  const positionsOf = (ids: Int32Array) => {
    let max = -1;
    for (const id of ids) if (id > max) max = id;
    const at = new Int32Array(max + 1).fill(-1);
    // The last position of an id, as the map filled in order did.
    for (let position = 0; position < ids.length; position++) at[ids[position]!] = position;
    return at;
  };
  const productAt = positionsOf(packed.productIds);
  const metricAt = positionsOf(packed.metricIds);
  const metrics = packed.metricIds.length;
  const { values } = packed;
  return {
    copyTo(productId, metricId, target, at) {
      const product = productAt[productId] ?? -1;
      const metric = metricAt[metricId] ?? -1;
      if (product < 0 || metric < 0) return false;
      target.set(
        values.subarray((product * metrics + metric) * WIDTH, (product * metrics + metric + 1) * WIDTH),
        at,
      );
      return true;
    },
    get(key) {
      const metricId = key % 65536;
      const product = productAt[(key - metricId) / 65536] ?? -1;
      const metric = metricAt[metricId] ?? -1;
      if (product < 0 || metric < 0) return undefined;
      const at = (product * metrics + metric) * WIDTH;
      return sumsAt(values, at);
    },
  };
}

/**
 * Stored statistics as they cross to a worker thread: each metric's columns (on shared memory, handed
 * over by reference) and the statistics recomputed before them (products with out-of-scale answers),
 * by sumsKey: `keys[i]`'s eight numbers are `values[i × 8 ...]`.
 */
export interface HandedStored {
  metricIds: number[];
  columns: SumsColumns[];
  keys: Float64Array;
  values: Float64Array;
}

/**
 * The statistics of a search as they cross to the worker thread that assembles it: the stored
 * statistics' columns by reference (HandedStored), or, under a gender and age filter whose sums are
 * not taken yet, the demographic tables (shared memory, by reference too) and the cells the filter
 * keeps, summed in the thread; otherwise packed (takeSums reads each form). The request loop then
 * copies nothing per product for a search of every fragrance.
 */
export type HandedSums =
  { packed: PackedSums } | { demographic: DemographicSumsSource } | { stored: HandedStored };

/** The statistics of the products and metrics in the form they cross to a worker thread. */
export function handSums(sums: SumsTable, productIds: Int32Array, metricIds: readonly number[]): HandedSums {
  if (sums.demographic && sameIds(sums.demographic.wanted, productIds))
    return { demographic: sums.demographic.source };
  const stored = sums.stored;
  if (stored && metricIds.every((metricId) => stored.byMetric.has(metricId))) {
    const recomputed = [...(stored.map ?? new Map<number, Sums>())];
    const values = new Float64Array(recomputed.length * WIDTH);
    recomputed.forEach(([, found], index) => {
      FIELDS.forEach((field, at) => (values[index * WIDTH + at] = found[field]));
    });
    return {
      stored: {
        metricIds: [...metricIds],
        columns: metricIds.map((metricId) => stored.byMetric.get(metricId)!.columns),
        keys: Float64Array.from(recomputed, ([key]) => key),
        values,
      },
    };
  }
  return { packed: packSums(sums, productIds, metricIds) };
}

/** The handed statistics as a SumsTable, in the worker thread (`productIds`: the search's products). */
export function takeSums(handed: HandedSums, productIds: Int32Array): SumsTable {
  if ('packed' in handed) return unpackSums(handed.packed);
  if ('demographic' in handed) return demographicSumsTable(handed.demographic, productIds);
  const { metricIds, columns, keys, values } = handed.stored;
  const recomputed = new Map<number, Sums>();
  keys.forEach((key, index) => {
    const at = index * WIDTH;
    recomputed.set(key, sumsAt(values, at));
  });
  const byMetric = new Map(
    metricIds.map((metricId, index) => {
      const { positionOf, counts, totals } = columns[index]!;
      return [metricId, columnsSums(metricId, counts.length / 6, positionOf, counts, totals)];
    }),
  );
  return sumsView(byMetric, recomputed);
}

/** Whether the sums were wanted for exactly these products, in this order. */
function sameIds(wanted: readonly number[], productIds: Int32Array): boolean {
  if (wanted.length !== productIds.length) return false;
  for (let at = 0; at < wanted.length; at++) if (wanted[at] !== productIds[at]) return false;
  return true;
}
