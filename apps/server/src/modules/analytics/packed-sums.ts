/**
 * The sufficient statistics of a list of products and metrics as one array of numbers, the form in
 * which they cross to a worker thread: copying one buffer costs little, while a structured clone of
 * tens of thousands of objects would hold the request loop about as long as the work it moves.
 */
import { sumsOf, type SumsTable } from './analytics-context.ts';
import type { Sums } from './analytics-metrics.ts';

/** The fields of Sums in their order in PackedSums.values. */
const FIELDS = [
  'n',
  'sum',
  'sumSq',
  'nTopBox',
  'nTop2Box',
  'nJustRight',
  'nBottom2Box',
  'nBottomBox',
] as const satisfies readonly (keyof Sums)[];
const WIDTH = FIELDS.length;

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
      const found = sumsOf(sums, productIds[product]!, metricIds[metric]!);
      const at = (product * metrics + metric) * WIDTH;
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
  const productAt = new Map<number, number>();
  packed.productIds.forEach((id, at) => productAt.set(id, at));
  const metricAt = new Map<number, number>();
  packed.metricIds.forEach((id, at) => metricAt.set(id, at));
  const metrics = packed.metricIds.length;
  const { values } = packed;
  return {
    get(key) {
      const metricId = key % 65536;
      const product = productAt.get((key - metricId) / 65536);
      const metric = metricAt.get(metricId);
      if (product === undefined || metric === undefined) return undefined;
      const at = (product * metrics + metric) * WIDTH;
      return {
        n: values[at]!,
        sum: values[at + 1]!,
        sumSq: values[at + 2]!,
        nTopBox: values[at + 3]!,
        nTop2Box: values[at + 4]!,
        nJustRight: values[at + 5]!,
        nBottom2Box: values[at + 6]!,
        nBottomBox: values[at + 7]!,
      };
    },
  };
}
