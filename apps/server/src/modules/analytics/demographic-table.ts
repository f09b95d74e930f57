/**
 * The demographic statistics of one metric (product_metric_demo_stats: sufficient statistics per
 * product, respondent gender and single year of age) held in columns, so that a gender and age filter
 * over every product is summed in memory in milliseconds instead of scanned and hashed by the database
 * at every search.
 */
import { EMPTY_SUMS } from './analytics-metrics.ts';
import type { DemographicMatch, DemographicRow, MetricSums } from './analytics-types.ts';

export type { DemographicMatch, DemographicRow } from './analytics-types.ts';

export interface DemographicTable {
  metricId: number;
  rows: number;
  /** Product id of each row; rows of a product are consecutive. */
  productIds: Int32Array;
  /** Index of each row's (gender, age) cell in `cells`. */
  cellOf: Uint16Array;
  /** The distinct (gender, age) pairs of the rows. */
  cells: { gender: string | null; age: number | null }[];
  n: Int32Array;
  sum: Float64Array;
  sumSq: Float64Array;
  /** The five box counts of each row, row-major (top, top 2, just right, bottom 2, bottom). */
  boxes: Int32Array;
}

const BOXES = 5;

/**
 * Builds a table from rows added chunk by chunk (all rows of a product next to each other, chunks in
 * product order), so that a million rows are never held as row arrays at once. There are at most a
 * few hundred (gender, age) cells, so each row stores the index of its cell.
 */
export function demographicTableBuilder(metricId: number) {
  let capacity = 0;
  let count = 0;
  let columns = allocate(0);
  const cells: DemographicTable['cells'] = [];
  const cellIndex = new Map<string, number>();

  function allocate(size: number) {
    return {
      productIds: new Int32Array(size),
      cellOf: new Uint16Array(size),
      n: new Int32Array(size),
      sum: new Float64Array(size),
      sumSq: new Float64Array(size),
      boxes: new Int32Array(size * BOXES),
    };
  }
  function resize(size: number) {
    const next = allocate(size);
    next.productIds.set(columns.productIds.subarray(0, count));
    next.cellOf.set(columns.cellOf.subarray(0, count));
    next.n.set(columns.n.subarray(0, count));
    next.sum.set(columns.sum.subarray(0, count));
    next.sumSq.set(columns.sumSq.subarray(0, count));
    next.boxes.set(columns.boxes.subarray(0, count * BOXES));
    columns = next;
    capacity = size;
  }

  return {
    add(list: readonly DemographicRow[]): void {
      if (count + list.length > capacity) resize(Math.max(count + list.length, capacity * 2, 1024));
      for (const row of list) {
        const [productId, gender, age, n, sum, sumSq, ...boxes] = row;
        const key = `${gender === null ? 'n' : 'v'}${age ?? ''}\u0000${gender ?? ''}`;
        let cell = cellIndex.get(key);
        if (cell === undefined) {
          cell = cells.length;
          if (cell > 0xffff) throw new Error('Too many demographic cells for one metric');
          cells.push({ gender, age });
          cellIndex.set(key, cell);
        }
        columns.productIds[count] = productId;
        columns.cellOf[count] = cell;
        columns.n[count] = n;
        columns.sum[count] = sum;
        columns.sumSq[count] = sumSq;
        columns.boxes.set(boxes, count * BOXES);
        count++;
      }
    },
    finish(): DemographicTable {
      if (capacity !== count) resize(count);
      return { metricId, rows: count, cells, ...columns };
    },
  };
}

/**
 * The sums of each wanted product over the rows whose respondents the filter keeps: one row per
 * product with at least one kept row, in the table's product order. `wanted` null means every product.
 */
export function sumDemographics(
  table: DemographicTable,
  match: DemographicMatch,
  wanted: ReadonlySet<number> | null,
): MetricSums[] {
  const kept = Uint8Array.from(table.cells, (cell) => (match(cell.gender, cell.age) ? 1 : 0));
  const found: MetricSums[] = [];
  const { productIds, cellOf, n, sum, sumSq, boxes } = table;
  let index = 0;
  while (index < table.rows) {
    const productId = productIds[index]!;
    let end = index + 1;
    while (end < table.rows && productIds[end] === productId) end++;
    if (wanted === null || wanted.has(productId)) {
      let total: MetricSums | null = null;
      for (let row = index; row < end; row++) {
        if (kept[cellOf[row]!] === 0) continue;
        total ??= { productId, metricId: table.metricId, ...EMPTY_SUMS };
        const at = row * BOXES;
        total.n += n[row]!;
        total.sum += sum[row]!;
        total.sumSq += sumSq[row]!;
        total.nTopBox += boxes[at]!;
        total.nTop2Box += boxes[at + 1]!;
        total.nJustRight += boxes[at + 2]!;
        total.nBottom2Box += boxes[at + 3]!;
        total.nBottomBox += boxes[at + 4]!;
      }
      if (total) found.push(total);
    }
    index = end;
  }
  return found;
}
