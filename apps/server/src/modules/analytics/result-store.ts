/**
 * The result store: a metric search's answer as typed columns in memory (per column the value and
 * base of every product, the rows as positions in the search's product list, the summary, the
 * diagnostics and the performance breakdown; about 1 MB for a search of every fragrance at 3,000
 * studies), kept in a cache bounded by bytes under the request's fingerprint and the data's version
 * (data_versions, as every analytics cache keys itself). Pages, sorting, search text, selection,
 * summaries, charts, significance's product list and the downloads read from it; nothing builds
 * the rows of a whole result to show a page. A job row keeps the request and the fingerprint, never
 * the result: a process without the columns computes them again from the request.
 */
import { createHash } from 'node:crypto';
import {
  histogramBins,
  LOW_BASE,
  type HistogramBin,
  type MetricResultRow,
  type MetricSearchResult,
} from '@accord/contracts';
import { compressAnswer } from '../../plugins/compress-answers.ts';
import type { ProductRecord } from './analytics-types.ts';
import { metricSearchBytes, productFields } from './metric-search.presenter.ts';
import type { AssembledSearch } from './metric-search-rows.ts';

/** An encoding answers are compressed in (plugins/compress-answers.ts). */
export type AnswerEncoding = 'br' | 'gzip';

/** A computed search: the assembly's columns, its product list and the breakdown when asked. */
export interface SearchColumns extends AssembledSearch {
  /** The search's product list (shared with the product-list cache): `order` and the columns index it. */
  products: readonly ProductRecord[];
  performance?: MetricSearchResult['performance'];
}

/** A search as the store keeps it, with what its pages need, made once when first asked. */
export interface StoredSearch extends SearchColumns {
  /** Rows of the answer. */
  readonly total: number;
  /** Per column key, the column holding its values (the first of that key, as in a result row). */
  readonly keyColumn: ReadonlyMap<string, number>;
  views: {
    /**
     * What the views below weigh together (addViewBytes): the store counts them in its bound with
     * the search's columns while it holds the search.
     */
    bytes: number;
    needles?: string[];
    histograms?: Record<string, HistogramBin[]>;
    /** Row numbers in each order asked for so far ("key:desc"). */
    orders: Map<string, Int32Array>;
    /** The status answer of the succeeded search as sent (statusBytes). */
    status?: Buffer;
    /** The parts every page of the search shares, as sent (metric-pages.ts), without the closing brace. */
    pageHead?: string;
    /** The status answer compressed, once per encoding a client asked for (statusCompressed). */
    compressed?: Partial<Record<AnswerEncoding, Promise<Buffer>>>;
  };
}

/** The fingerprint of a search request as one caller's rights read it. */
export function searchFingerprint(scope: { clients: string; admin: boolean }, request: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify({ clients: scope.clients, admin: scope.admin, request }))
    .digest('hex');
}

/** Bytes a stored search holds (its columns, its share of the product list, its small parts). */
export function searchBytes(search: SearchColumns): number {
  let bytes = search.order.byteLength + search.products.length * 8;
  for (const column of search.values) bytes += column.byteLength;
  for (const column of search.bases) bytes += column.byteLength;
  // Text is held as two bytes a character at most.
  const small = JSON.stringify([
    search.columns,
    search.summary,
    search.diagnostics,
    search.performance ?? null,
  ]);
  return bytes + small.length * 2;
}

/** An array's bytes, to compare (no copy). */
const bytesOf = (array: Float64Array | Int32Array) =>
  Buffer.from(array.buffer, array.byteOffset, array.byteLength);

const sameArrays = <T extends Float64Array | Int32Array>(left: readonly T[], right: readonly T[]) =>
  left.length === right.length &&
  left.every((column, index) => {
    const other = right[index]!;
    if (column.length !== other.length) return false;
    // The same bytes are the same numbers (a comparison of memory, not of tens of thousands of
    // numbers one by one); otherwise by Object.is: NaN (no value) equals NaN whatever its bits.
    if (bytesOf(column).equals(bytesOf(other))) return true;
    for (let at = 0; at < column.length; at++) if (!Object.is(column[at], other[at])) return false;
    return true;
  });

/**
 * Whether a search computed again gives the answer held: the same product list, rows, columns and
 * cells, summary, diagnostics and breakdown. Its derived parts (orders, charts, status bytes) then
 * hold for it too.
 */
export function sameAnswer(search: SearchColumns, held: StoredSearch): boolean {
  return (
    search.products === held.products &&
    search.type === held.type &&
    search.filtered === held.filtered &&
    sameArrays([search.order], [held.order]) &&
    sameArrays(search.values, held.values) &&
    sameArrays(search.bases, held.bases) &&
    sameJson(
      [search.columns, search.summary, search.diagnostics, search.performance ?? null],
      [held.columns, held.summary, held.diagnostics, held.performance ?? null],
    )
  );
}

/**
 * Whether two values parsed from or written as JSON are the same, keys in the same order (as their
 * JSON texts would be equal, numbers compared with Object.is), without writing the texts: a filtered
 * search of every fragrance has diagnostics for most studies of the library.
 */
export function sameJson(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left)) {
    const other = right as unknown[];
    if (left.length !== other.length) return false;
    for (let at = 0; at < left.length; at++) if (!sameJson(left[at], other[at])) return false;
    return true;
  }
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  if (leftKeys.length !== rightKeys.length) return false;
  for (let at = 0; at < leftKeys.length; at++) {
    const key = leftKeys[at]!;
    if (key !== rightKeys[at]) return false;
    if (!sameJson((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}

/** A computed search prepared for the store. */
export function storedSearch(search: SearchColumns): StoredSearch {
  const keyColumn = new Map<string, number>();
  search.columns.forEach((column, index) => {
    if (!keyColumn.has(column.key)) keyColumn.set(column.key, index);
  });
  return { ...search, total: search.order.length, keyColumn, views: { bytes: 0, orders: new Map() } };
}

/** Per stored search, the store holding it, told of the bytes each view made from it adds. */
const holders = new WeakMap<StoredSearch, (bytes: number) => void>();

/**
 * Counts a view just made from a search (a text, an order, a chart, an answer as sent) in the
 * search's bytes, and in the bound of the store holding it, which may then let older searches go.
 * Texts are counted as two bytes a character, as searchBytes counts them.
 */
export function addViewBytes(search: StoredSearch, bytes: number): void {
  search.views.bytes += bytes;
  holders.get(search)?.(bytes);
}

/** The product of the answer's row `row` (0: the first row). */
export const productAt = (search: StoredSearch, row: number): ProductRecord =>
  search.products[search.order[row]!]!;

/** The value of a column key in a row (null: no value), as the result row holds it. */
export function valueAt(search: StoredSearch, key: string, row: number): number | null {
  const value = search.values[search.keyColumn.get(key)!]![search.order[row]!]!;
  return Number.isFinite(value) ? value : null;
}

/** The result row of the answer's row `row`, as the full answer writes it. */
export function resultRow(search: StoredSearch, row: number): MetricResultRow {
  const product = productAt(search, row);
  const position = search.order[row]!;
  const values: Record<string, number | null> = {};
  const bases: Record<string, number> = {};
  const lowBase: string[] = [];
  for (const [key, index] of search.keyColumn) {
    const value = search.values[index]![position]!;
    const base = search.bases[index]![position]!;
    values[key] = Number.isFinite(value) ? value : null;
    bases[key] = base;
    if (base > 0 && base < LOW_BASE) lowBase.push(key);
  }
  return {
    ...productFields(product),
    values,
    bases,
    low_base: lowBase,
  };
}

/** The text the search filter reads per row: the name, or the product code without one, in lower case. */
export function needlesOf(search: StoredSearch): string[] {
  if (search.views.needles) return search.views.needles;
  const needles = Array.from(search.order, (position) => {
    const product = search.products[position]!;
    return (product.name ?? product.code).toLowerCase();
  });
  // A reference a row, and each text.
  let bytes = needles.length * 8;
  for (const needle of needles) bytes += needle.length * 2;
  addViewBytes(search, bytes);
  return (search.views.needles = needles);
}

/** The charts' bins of each column key over every row. */
export function histogramsOf(search: StoredSearch): Record<string, HistogramBin[]> {
  if (search.views.histograms) return search.views.histograms;
  const histograms: Record<string, HistogramBin[]> = {};
  for (const column of search.columns) {
    const columnValues = search.values[search.keyColumn.get(column.key)!]!;
    const rowValues = new Array<number | null>(search.total);
    for (let row = 0; row < search.total; row++) {
      const value = columnValues[search.order[row]!]!;
      rowValues[row] = Number.isFinite(value) ? value : null;
    }
    histograms[column.key] = histogramBins(rowValues);
  }
  addViewBytes(search, JSON.stringify(histograms).length * 2);
  return (search.views.histograms = histograms);
}

/** The head of a succeeded search's status answer, before its result. */
export const SUCCESS_HEAD = '{"status":"SUCCESS","progress":100,"error":null,"result":{"json":';

/**
 * The status answer of a succeeded search (MetricSearchStatus: SUCCESS_HEAD, the MetricSearchResult,
 * "}}") as UTF-8 bytes written from the columns, made once per stored search and kept with it: every
 * caller is sent the same bytes. The store counts them in its bound (ResultStore.statusBytes).
 */
function writeStatus(search: StoredSearch): Buffer {
  const { type, columns, summary, performance, diagnostics, filtered } = search;
  return metricSearchBytes(
    { type, columns, summary, ...(performance ? { performance } : {}), diagnostics, filtered },
    { products: search.products, values: search.values, bases: search.bases, order: search.order },
    { before: SUCCESS_HEAD, after: '}}' },
  );
}

/** The MetricSearchResult within a status answer's bytes (no copy). */
export const resultBytesOf = (status: Buffer): Buffer =>
  status.subarray(Buffer.byteLength(SUCCESS_HEAD), status.byteLength - 2);

/** The ids of the answer's rows, in its order. */
export const rowIds = (search: StoredSearch): number[] =>
  Array.from(search.order, (position) => search.products[position]!.id);

/** `{ id, c_mi_number, prod }` of a row: what a product list over a search shows. */
export function rowProduct(search: StoredSearch, row: number) {
  const product = productAt(search, row);
  return { id: product.id, c_mi_number: product.cMiNumber, prod: product.code };
}

/**
 * The cache of stored searches: at most `maxBytes` together (the newest kept even when it alone
 * weighs more), the least recently used first out; an entry computed under another data version is
 * stale and computed again; concurrent lookups of one search share its computation. A search
 * computed again (asked without the cache) that gives the answer held keeps the one held, with what
 * was made from it.
 */
export function createResultStore(options: { maxBytes: number }) {
  interface Entry {
    version: string;
    search: Promise<StoredSearch>;
    bytes: number;
    done: StoredSearch | null;
    /**
     * While a search asked without the cache is computed again, the one finished before it under
     * the same version: it answers meanwhile, and is kept if the new one gives the same answer.
     */
    earlier: StoredSearch | null;
  }
  const entries = new Map<string, Entry>();
  /** The fingerprint each finished search is held under. */
  const heldAs = new WeakMap<StoredSearch, string>();
  let total = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    total -= entry.bytes;
    entries.delete(key);
  };
  const trim = () => {
    while (entries.size > 1 && total > options.maxBytes) remove(entries.keys().next().value!);
  };
  const touch = (key: string) => {
    const entry = entries.get(key)!;
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  };
  /** The entry holding a finished search, if the store still holds it. */
  const entryOf = (search: StoredSearch): Entry | null => {
    const key = heldAs.get(search);
    const entry = key === undefined ? undefined : entries.get(key);
    return entry?.done === search ? entry : null;
  };

  return {
    /**
     * The search computed under `version`, if this process holds it (computed or under way; while
     * it is computed again, the one finished before).
     */
    peek(fingerprint: string, version: string): Promise<StoredSearch> | null {
      const entry = entries.get(fingerprint);
      if (!entry || entry.version !== version) return null;
      touch(fingerprint);
      const known = entry.done ?? entry.earlier;
      return known ? Promise.resolve(known) : entry.search;
    },

    /** The finished search computed under `version`, if this process holds it. */
    held(fingerprint: string, version: string): StoredSearch | null {
      const entry = entries.get(fingerprint);
      return entry && entry.version === version ? entry.done : null;
    },

    /**
     * The search under `version`: the one held, else `compute`'s (kept). `fresh`: computed again
     * even when held (a search asked without the cache).
     */
    get(
      fingerprint: string,
      version: string,
      compute: () => Promise<SearchColumns>,
      fresh = false,
    ): Promise<StoredSearch> {
      const kept = fresh ? null : this.peek(fingerprint, version);
      if (kept) return kept;
      const before = entries.get(fingerprint);
      const earlier = before?.version === version ? (before.done ?? before.earlier) : null;
      remove(fingerprint);
      const entry: Entry = {
        version,
        search: compute().then((search) =>
          earlier && sameAnswer(search, earlier) ? earlier : storedSearch(search),
        ),
        bytes: 0,
        done: null,
        earlier,
      };
      entries.set(fingerprint, entry);
      entry.search.then(
        (search) => {
          entry.done = search;
          entry.earlier = null;
          if (entries.get(fingerprint) !== entry) return;
          heldAs.set(search, fingerprint);
          holders.set(search, (bytes) => {
            const holder = entryOf(search);
            if (!holder) return;
            holder.bytes += bytes;
            total += bytes;
            trim();
          });
          // A search kept from before brings the views made from it.
          entry.bytes = searchBytes(search) + search.views.bytes;
          total += entry.bytes;
          trim();
        },
        () => {
          entry.earlier = null;
          if (entries.get(fingerprint) === entry) remove(fingerprint);
        },
      );
      return entry.search;
    },

    /**
     * The status answer of a succeeded search as sent (see writeStatus): made once per search and
     * kept with it, counted in the bound while the store holds the search.
     */
    statusBytes(search: StoredSearch): Buffer {
      if (search.views.status) return search.views.status;
      const bytes = (search.views.status = writeStatus(search));
      addViewBytes(search, bytes.byteLength);
      return bytes;
    },

    /**
     * The status answer compressed in `encoding` as sent (brotli of megabytes takes tens of
     * milliseconds): made once per stored search and encoding, off the request thread, kept with the
     * search and counted in the bound while the store holds it.
     */
    statusCompressed(search: StoredSearch, encoding: AnswerEncoding): Promise<Buffer> {
      const compressed = (search.views.compressed ??= {});
      const kept = compressed[encoding];
      if (kept) return kept;
      const made = compressAnswer(this.statusBytes(search), encoding);
      compressed[encoding] = made;
      made.then(
        (bytes) => addViewBytes(search, bytes.byteLength),
        () => {
          if (compressed[encoding] === made) delete compressed[encoding];
        },
      );
      return made;
    },

    /** How many searches and bytes are held. */
    size(): { entries: number; bytes: number } {
      return { entries: entries.size, bytes: total };
    },
  };
}

export type ResultStore = ReturnType<typeof createResultStore>;
