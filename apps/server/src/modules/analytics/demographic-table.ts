/**
 * The demographic statistics of one metric (product_metric_demo_stats: sufficient statistics per
 * product, respondent gender and single year of age) held in columns, so that a gender and age filter
 * over every product is summed in memory in milliseconds instead of scanned and hashed by the database
 * at every search.
 */
import type { DemographicMatch, DemographicRow } from './analytics-types.ts';
import type { SumsTable } from './analytics-context.ts';
import { columnsSums, type StoredSums } from './stored-sums.ts';

export type { DemographicMatch, DemographicRow } from './analytics-types.ts';

export interface DemographicTable {
  metricId: number;
  rows: number;
  /** How many products have rows. */
  products: number;
  /** The id of each product, in the rows' order. */
  productIds: Int32Array;
  /** The rows of product p are rows starts[p] to starts[p + 1] - 1 (products + 1 entries). */
  starts: Int32Array;
  /** The largest product id (-1: none). */
  maxProductId: number;
  /** Index of each row's (gender, age) cell in `cells`; a product's rows are in this order. */
  cellOf: Uint16Array;
  /** The distinct (gender, age) pairs of the rows, by gender then age (compareCells). */
  cells: { gender: string | null; age: number | null }[];
  /**
   * The counts (n) as running totals within each product, so that the count of a run of rows is two
   * reads, not a walk (countBefore): row r holds the count of the product's rows before it, except
   * the product's first row (before which there is nothing) which holds the count of its last row.
   * Two bytes each when every such total of the table is between 0 and 65535 (a product's liking
   * answers number 150 at most at 3,000 studies), four otherwise, never wrapped around (see
   * demographicTableBuilder.finish).
   */
  n: Uint16Array | Int32Array;
  sum: Float64Array;
  sumSq: Float64Array;
  /**
   * The five box counts (top, top 2, just right, bottom 2, bottom) as running totals, row-major, held
   * as `n` is and in the same number of bytes.
   */
  boxes: Uint16Array | Int32Array;
}

const BOXES = 5;

/**
 * The total of a count column (`n`: stride 1; `boxes`: stride 5, slot 0 to 4) over the rows of a
 * product (rows begin to end - 1) before `row` (begin to end): 0 at its first row, the product's whole
 * count at its end. Integer totals are exact, so a run's count is countBefore(run's end) -
 * countBefore(run's first row), the same number as adding its rows one by one.
 */
export function countBefore(
  column: Uint16Array | Int32Array,
  stride: number,
  slot: number,
  begin: number,
  end: number,
  row: number,
): number {
  if (row === begin) return 0;
  if (row < end) return column[row * stride + slot]!;
  const last = end - 1;
  // The first row holds the last row's own count; the last row, the count of the rows before it.
  return (last === begin ? 0 : column[last * stride + slot]!) + column[begin * stride + slot]!;
}

/** The count of column `n` or `boxes` (with its stride and slot) of one row: a reader of a single row. */
export function countOfRow(
  table: DemographicTable,
  column: 'n' | 'boxes',
  slot: number,
  row: number,
): number {
  const stride = column === 'n' ? 1 : BOXES;
  let product = 0;
  let high = table.products - 1;
  while (product < high) {
    const middle = (product + high + 1) >>> 1;
    if (table.starts[middle]! <= row) product = middle;
    else high = middle - 1;
  }
  const begin = table.starts[product]!;
  const end = table.starts[product + 1]!;
  const values = table[column];
  return (
    countBefore(values, stride, slot, begin, end, row + 1) -
    countBefore(values, stride, slot, begin, end, row)
  );
}

/** A copy of `array` on shared memory, as respondent-index.ts keeps its arrays. */
function sharedCopy<T extends Int32Array | Uint16Array | Float64Array>(
  array: ArrayLike<number>,
  type: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
): T {
  const copy = new type(new SharedArrayBuffer(array.length * type.BYTES_PER_ELEMENT));
  copy.set(array);
  return copy;
}

/** An array of `length` zeros on shared memory. */
function sharedArray<T extends Int32Array | Uint16Array | Float64Array>(
  length: number,
  type: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
): T {
  return new type(new SharedArrayBuffer(length * type.BYTES_PER_ELEMENT));
}

/**
 * The canonical order of the (gender, age) cells: by gender (as text, code unit by code unit, a
 * missing gender last), then by age (a missing age last). A filter of genders and an age range then
 * keeps one run of consecutive cells per gender.
 */
function compareCells(a: DemographicTable['cells'][number], b: DemographicTable['cells'][number]): number {
  if (a.gender !== b.gender) {
    if (a.gender === null) return 1;
    if (b.gender === null) return -1;
    return a.gender < b.gender ? -1 : 1;
  }
  if (a.age === b.age) return 0;
  if (a.age === null) return 1;
  if (b.age === null) return -1;
  return a.age - b.age;
}

/**
 * Builds a table from rows added chunk by chunk (all rows of a product next to each other, chunks in
 * product order), so that a million rows are never held as row arrays at once. There are at most a
 * few hundred (gender, age) cells, so each row stores the index of its cell; each product its id and
 * where its rows start, so that a sum walks a product's rows without comparing ids row by row.
 */
export function demographicTableBuilder(metricId: number) {
  let capacity = 0;
  let count = 0;
  let columns = allocate(0);
  let productCapacity = 0;
  let products = 0;
  let productIds = new Int32Array(0);
  let starts = new Int32Array(0);
  let maxProductId = -1;
  const cells: DemographicTable['cells'] = [];
  const cellIndex = new Map<string, number>();

  function allocate(size: number) {
    return {
      cellOf: new Uint16Array(size),
      n: new Int32Array(size),
      sum: new Float64Array(size),
      sumSq: new Float64Array(size),
      boxes: new Int32Array(size * BOXES),
    };
  }
  function resize(size: number) {
    const next = allocate(size);
    next.cellOf.set(columns.cellOf.subarray(0, count));
    next.n.set(columns.n.subarray(0, count));
    next.sum.set(columns.sum.subarray(0, count));
    next.sumSq.set(columns.sumSq.subarray(0, count));
    next.boxes.set(columns.boxes.subarray(0, count * BOXES));
    columns = next;
    capacity = size;
  }
  function resizeProducts(size: number) {
    const ids = new Int32Array(size);
    ids.set(productIds.subarray(0, products));
    const at = new Int32Array(size + 1);
    at.set(starts.subarray(0, products));
    productIds = ids;
    starts = at;
    productCapacity = size;
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
        if (products === 0 || productIds[products - 1] !== productId) {
          if (products === productCapacity) resizeProducts(Math.max(productCapacity * 2, 256));
          productIds[products] = productId;
          starts[products] = count;
          products++;
          if (productId > maxProductId) maxProductId = productId;
        }
        columns.cellOf[count] = cell;
        columns.n[count] = n;
        columns.sum[count] = sum;
        columns.sumSq[count] = sumSq;
        columns.boxes.set(boxes, count * BOXES);
        // A count beyond four bytes would be wrapped around by the Int32Array: refused instead.
        let wrapped = columns.n[count] !== n;
        for (let slot = 0; slot < BOXES; slot++)
          wrapped ||= columns.boxes[count * BOXES + slot] !== boxes[slot];
        if (wrapped) throw new Error('A demographic count does not fit four bytes');
        count++;
      }
    },
    /**
     * The table, its columns copied once onto shared memory at their final size: a search assembled
     * in a worker thread sums them where they are (demographicSumsTable), nothing copied per search.
     * The cells are put in canonical order, by gender then age (see compareCells), and each product's
     * rows in the order of their cells while they are copied: the order in which the database grouped
     * them is forgotten, so every sum is the same whatever plan it chose, and the cells a gender and
     * age filter keeps are a few runs of consecutive rows in each product (demographicSumsOfCells).
     * The counts become running totals in that order (DemographicTable.n), two bytes each when every
     * total fits them: a first pass puts the rows in order and finds the largest total, a second
     * copies them.
     */
    finish(): DemographicTable {
      if (productCapacity !== products) resizeProducts(products);
      starts[products] = count;
      const order = cells.map((_, cell) => cell).sort((a, b) => compareCells(cells[a]!, cells[b]!));
      const rankOf = new Uint16Array(cells.length);
      order.forEach((cell, rank) => (rankOf[cell] = rank));
      // Where each row of the table comes from: each product's rows sorted by (rank, position), a key
      // rank × 2^32 + position being exact in a double and sorted numerically without a comparator.
      // A product has one row per cell as the database groups them; rows of the same cell would keep
      // their order.
      const source = new Int32Array(count);
      let keys = new Float64Array(0);
      for (let product = 0; product < products; product++) {
        const begin = starts[product]!;
        const size = starts[product + 1]! - begin;
        if (keys.length < size) keys = new Float64Array(Math.max(size, keys.length * 2, 64));
        const productKeys = keys.subarray(0, size);
        for (let at = 0; at < size; at++)
          productKeys[at] = rankOf[columns.cellOf[begin + at]!]! * 2 ** 32 + at;
        productKeys.sort();
        for (let at = 0; at < size; at++) {
          const key = productKeys[at]!;
          const rank = Math.floor(key / 2 ** 32);
          source[begin + at] = begin + (key - rank * 2 ** 32);
        }
      }
      // Each count column's running totals as stored (see DemographicTable.n), written by `store`.
      const totals = new Float64Array(1 + BOXES);
      function forEachTotal(store: (row: number, slot: number, value: number) => void): void {
        for (let product = 0; product < products; product++) {
          const begin = starts[product]!;
          const end = starts[product + 1]!;
          totals.fill(0);
          for (let to = begin; to < end; to++) {
            const from = source[to]!;
            if (to > begin) for (let slot = 0; slot <= BOXES; slot++) store(to, slot, totals[slot]!);
            totals[0] = totals[0]! + columns.n[from]!;
            for (let slot = 0; slot < BOXES; slot++)
              totals[slot + 1] = totals[slot + 1]! + columns.boxes[from * BOXES + slot]!;
          }
          const last = source[end - 1]!;
          store(begin, 0, columns.n[last]!);
          for (let slot = 0; slot < BOXES; slot++)
            store(begin, slot + 1, columns.boxes[last * BOXES + slot]!);
        }
      }
      let least = 0;
      let largest = 0;
      forEachTotal((_row, _slot, value) => {
        if (value < least) least = value;
        if (value > largest) largest = value;
      });
      if (least < -(2 ** 31) || largest > 2 ** 31 - 1)
        throw new Error('A running total of demographic counts does not fit four bytes');
      const twoBytes = least >= 0 && largest <= 0xffff;
      const table: DemographicTable = {
        metricId,
        rows: count,
        products,
        productIds: sharedCopy(productIds.subarray(0, products), Int32Array),
        starts: sharedCopy(starts.subarray(0, products + 1), Int32Array),
        maxProductId,
        cells: order.map((cell) => cells[cell]!),
        cellOf: sharedArray(count, Uint16Array),
        n: twoBytes ? sharedArray(count, Uint16Array) : sharedArray(count, Int32Array),
        sum: sharedArray(count, Float64Array),
        sumSq: sharedArray(count, Float64Array),
        boxes: twoBytes ? sharedArray(count * BOXES, Uint16Array) : sharedArray(count * BOXES, Int32Array),
      };
      for (let to = 0; to < count; to++) {
        const from = source[to]!;
        table.cellOf[to] = rankOf[columns.cellOf[from]!]!;
        table.sum[to] = columns.sum[from]!;
        table.sumSq[to] = columns.sumSq[from]!;
      }
      const { n, boxes } = table;
      forEachTotal((row, slot, value) => {
        if (slot === 0) n[row] = value;
        else boxes[row * BOXES + slot - 1] = value;
      });
      return table;
    },
  };
}

/**
 * The sums of each wanted product over the rows whose respondents the filter keeps, held in columns
 * and read by product id as the stored statistics are (stored-sums.ts): a search of every fragrance
 * under a gender and age filter then builds no object and no map entry per product before its rows
 * read them. `wanted` null means every product; a product not wanted or without a kept row has none. Each product's kept rows are added one by one in
 * the table's order, from zero, so every sum is the same to the last bit whatever reads it.
 */
export function demographicSums(
  table: DemographicTable,
  match: DemographicMatch,
  wanted: ArrayLike<number> | null,
): StoredSums {
  return demographicSumsOfCells(table, keptCells(table, match), wanted);
}

/** Per (gender, age) cell of the table, 1 when the filter keeps its respondents. */
export function keptCells(table: DemographicTable, match: DemographicMatch): Uint8Array {
  return Uint8Array.from(table.cells, (cell) => (match(cell.gender, cell.age) ? 1 : 0));
}

/**
 * The runs of consecutive cells a filter keeps, as first and last cell of each run: [first, last,
 * first, last, ...]. Cells are in canonical order, so a gender and age filter keeps one run per gender.
 */
export function keptRuns(kept: Uint8Array): Int32Array {
  const runs: number[] = [];
  for (let cell = 0; cell < kept.length; cell++) {
    if (kept[cell] === 0) continue;
    const first = cell;
    while (cell + 1 < kept.length && kept[cell + 1] !== 0) cell++;
    runs.push(first, cell);
  }
  return Int32Array.from(runs);
}

/**
 * demographicSums with the kept cells given (keptCells): what a worker thread runs, with no function.
 * A product's rows are in the order of their cells (demographicTableBuilder.finish), so each run of
 * kept cells is a run of its rows: the first is found by bisection, and the sums of the rows after it
 * are added while their cell is in the run. No row outside the kept cells is read, and the kept rows'
 * sums are added in the table's order, as a walk over every row testing each would add them; the
 * counts of the run are the difference of two running totals (countBefore), exact as integers are.
 */
export function demographicSumsOfCells(
  table: DemographicTable,
  kept: Uint8Array,
  wanted: ArrayLike<number> | null,
): StoredSums {
  const { productIds, starts, cellOf, n, sum, sumSq, boxes, products, maxProductId, metricId } = table;
  const runs = keptRuns(kept);
  const runCount = runs.length / 2;
  // The wanted products flagged by id: tens of thousands of tests cheaper than in a set.
  let isWanted: Uint8Array | null = null;
  if (wanted !== null) {
    isWanted = new Uint8Array(maxProductId + 1);
    for (let at = 0; at < wanted.length; at++) {
      const id = wanted[at]!;
      if (id >= 0 && id <= maxProductId) isWanted[id] = 1;
    }
  }
  const positionOf = new Int32Array(maxProductId + 1).fill(-1);
  const counts = new Int32Array(products * 6);
  const totals = new Float64Array(products * 2);
  let size = 0;
  for (let product = 0; product < products && runCount > 0; product++) {
    const productId = productIds[product]!;
    if (isWanted !== null && isWanted[productId] === 0) continue;
    let found = false;
    let count = 0;
    let total = 0;
    let totalSq = 0;
    let top = 0;
    let top2 = 0;
    let justRight = 0;
    let bottom2 = 0;
    let bottom = 0;
    const begin = starts[product]!;
    const end = starts[product + 1]!;
    let row = begin;
    for (let run = 0; run < runCount && row < end; run++) {
      const first = runs[run * 2]!;
      const last = runs[run * 2 + 1]!;
      // The product's first row at or after the run's first cell.
      if (cellOf[row]! < first) {
        let low = row + 1;
        let high = end;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (cellOf[middle]! < first) low = middle + 1;
          else high = middle;
        }
        row = low;
      }
      const runBegin = row;
      for (; row < end && cellOf[row]! <= last; row++) {
        total += sum[row]!;
        totalSq += sumSq[row]!;
      }
      if (row === runBegin) continue;
      found = true;
      count += countBefore(n, 1, 0, begin, end, row) - countBefore(n, 1, 0, begin, end, runBegin);
      top +=
        countBefore(boxes, BOXES, 0, begin, end, row) - countBefore(boxes, BOXES, 0, begin, end, runBegin);
      top2 +=
        countBefore(boxes, BOXES, 1, begin, end, row) - countBefore(boxes, BOXES, 1, begin, end, runBegin);
      justRight +=
        countBefore(boxes, BOXES, 2, begin, end, row) - countBefore(boxes, BOXES, 2, begin, end, runBegin);
      bottom2 +=
        countBefore(boxes, BOXES, 3, begin, end, row) - countBefore(boxes, BOXES, 3, begin, end, runBegin);
      bottom +=
        countBefore(boxes, BOXES, 4, begin, end, row) - countBefore(boxes, BOXES, 4, begin, end, runBegin);
    }
    if (!found) continue;
    positionOf[productId] = size;
    const at = size * 6;
    counts[at] = count;
    counts[at + 1] = top;
    counts[at + 2] = top2;
    counts[at + 3] = justRight;
    counts[at + 4] = bottom2;
    counts[at + 5] = bottom;
    totals[size * 2] = total;
    totals[size * 2 + 1] = totalSq;
    size++;
  }
  return columnsSums(metricId, size, positionOf, counts, totals);
}

/**
 * A gender and age filter's sums of a search, before they are taken: the metrics' tables (on shared
 * memory) and the cells the filter keeps in each. A search assembled in a worker thread hands this
 * over and sums there; one assembled on the request loop sums when it first reads a product.
 */
export interface DemographicSumsSource {
  tables: DemographicTable[];
  kept: Uint8Array[];
}

/**
 * The sums of the wanted products under the source's filter, per metric, as a statistics table read
 * by sumsKey (analytics-context.ts): product id × 65536 + metric id. Products without a kept row
 * have none.
 */
export function demographicSumsTable(
  source: DemographicSumsSource,
  wanted: ArrayLike<number> | null,
): SumsTable {
  const byMetric = new Map(
    source.tables.map((table, index) => [
      table.metricId,
      demographicSumsOfCells(table, source.kept[index]!, wanted),
    ]),
  );
  return {
    get(key) {
      const metricId = key % 65536;
      return byMetric.get(metricId)?.get((key - metricId) / 65536);
    },
    copyTo(productId, metricId, target, at) {
      return byMetric.get(metricId)?.copyTo(productId, target, at) ?? false;
    },
    columnsOf(metricId) {
      const summed = byMetric.get(metricId);
      return summed ? { columns: summed.columns, recomputed: null } : null;
    },
  };
}

/**
 * The sums of a search's products under a gender and age filter, taken when first read (get,
 * copyTo) rather than at once: a search assembled in a worker thread hands the tables over instead
 * (`demographic`, see packed-sums.ts handSums) and sums there, so the request loop never walks the
 * tables' rows; one assembled on the request loop sums at its first read, with the same numbers.
 */
export function demographicSearchSums(
  tables: DemographicTable[],
  match: DemographicMatch,
  wanted: readonly number[],
): SumsTable {
  const source = { tables, kept: tables.map((table) => keptCells(table, match)) };
  let summed: SumsTable | null = null;
  const sums = () => (summed ??= demographicSumsTable(source, wanted));
  return {
    get: (key) => sums().get(key),
    copyTo: (productId, metricId, target, at) => sums().copyTo!(productId, metricId, target, at),
    columnsOf: (metricId) => sums().columnsOf!(metricId),
    demographic: { source, wanted },
  };
}
