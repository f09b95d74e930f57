/**
 * Pages of a finished metric search (document 3 section 2.1, metrics tab). The result stays on the
 * server as columns (result-store.ts): the table asks for the rows it shows, sorted and filtered
 * here over the columns, and only those rows are made, with the summary, the diagnostics and the
 * charts' bins (computed once per result); the selection ("Select all" included) is kept in the
 * search's job row, so every server process sees the same one. A search of every fragrance then
 * sends a page of rows, not megabytes, per call.
 */
import {
  ANALYTICS_MESSAGES,
  MetricSearchPage,
  MetricSearchPageStatus,
  type MetricSearchProducts,
  type MetricSelection,
  type MetricSelectionState,
  type ParsedMetricPageQuery,
  type ParsedMetricRowFilter,
  type ParsedMetricSelectionRequest,
  type SignificanceStatus,
  type SignificanceMarkFilter,
  SIGNIFICANCE_MARK_FILTERS,
} from '@accord/contracts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { JOB_KINDS } from './analytics-job-runner.ts';
import type { AnalyticsRepository } from './analytics.repository.ts';
import {
  addViewBytes,
  histogramsOf,
  needlesOf,
  productAt,
  resultRow,
  rowIds,
  rowProduct,
  valueAt,
  type StoredSearch,
} from './result-store.ts';

/** A search job's state and, when it succeeded, its columns. */
export type SearchOf = (
  user: AuthUser,
  jobId: string,
) => Promise<{ status: string; progress: number; error: string | null; search: StoredSearch | null }>;

/** A significance job's state and result. */
export type SignificanceOf = (user: AuthUser, jobId: string) => Promise<SignificanceStatus>;

type Marks = Map<number, Record<string, unknown>>;

/** Whether any of the row's marks is significant at exactly the tag's level and direction. */
function marked(marks: Record<string, unknown> | undefined, filter: SignificanceMarkFilter): boolean {
  if (filter === 'all') return true;
  const [table, level] = filter.split('-') as ['mt' | 'let', string];
  return Object.values(marks ?? {}).some(
    (mark) =>
      mark !== null &&
      typeof mark === 'object' &&
      (mark as { table?: unknown }).table === table &&
      (mark as { level?: unknown }).level === Number(level),
  );
}

/**
 * The parts of a page every page of a search shares, in the order of MetricSearchPage's keys (the
 * order the response schema writes them in), and the rest a call makes.
 */
const PAGE_HEAD_KEYS = {
  type: true,
  columns: true,
  summary: true,
  diagnostics: true,
  filtered: true,
  performance: true,
  histograms: true,
} as const;
type PageHeadKey = keyof typeof PAGE_HEAD_KEYS;
const PageHead = MetricSearchPage.pick(PAGE_HEAD_KEYS);
const PageRest = MetricSearchPage.omit(PAGE_HEAD_KEYS);
/** A succeeded page's status answer around its page (MetricSearchPageStatus's order of keys). */
const PAGE_STATUS_HEAD = '{"status":"SUCCESS","progress":100,"result":';
const PAGE_STATUS_TAIL = ',"error":null}';

/**
 * The shared parts of a search's pages as the response schema checks and writes them, without the
 * closing brace: made once per stored search and kept with it.
 */
function pageHeadOf(search: StoredSearch): string {
  if (search.views.pageHead !== undefined) return search.views.pageHead;
  const { type, columns, summary, diagnostics, filtered, performance } = search;
  const head = JSON.stringify(
    PageHead.parse({
      type,
      columns,
      summary,
      diagnostics,
      filtered,
      ...(performance ? { performance } : {}),
      histograms: histogramsOf(search),
    }),
  );
  addViewBytes(search, (head.length - 1) * 2);
  return (search.views.pageHead = head.slice(0, -1));
}

/** The pages of the caller's searches, their selection, and the selection as a significance list. */
export function createMetricPages(deps: {
  analytics: AnalyticsRepository;
  searchOf: SearchOf;
  significanceResult: SignificanceOf;
}) {
  const { analytics, searchOf, significanceResult } = deps;

  /** The finished search of the caller; 404 until it has succeeded. */
  async function finished(user: AuthUser, jobId: string): Promise<StoredSearch> {
    const { search } = await searchOf(user, jobId);
    if (!search) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
    return search;
  }

  /** The marks of a finished significance job of the caller by product id (none while it runs). */
  async function marksOf(user: AuthUser, jobId: string | undefined): Promise<Marks | null> {
    if (jobId === undefined) return null;
    const status = await significanceResult(user, jobId);
    if (!status.result) return null;
    return new Map(status.result.results.map((row) => [row.id, row as Record<string, unknown>]));
  }

  /** Positions of the rows matching the filter, in the search's order. */
  function matchingPositions(
    search: StoredSearch,
    filter: ParsedMetricRowFilter,
    marks: Marks | null,
  ): number[] {
    const needle = filter.search.trim().toLowerCase();
    const needles = needle ? needlesOf(search) : null;
    const positions: number[] = [];
    for (let position = 0; position < search.total; position++) {
      if (needles && !needles[position]!.includes(needle)) continue;
      if (filter.mark !== 'all' && !marked(marks?.get(productAt(search, position).id), filter.mark)) continue;
      positions.push(position);
    }
    return positions;
  }

  /**
   * Row positions sorted by a column key, 'name' or 'c_mi_number' (a 400 for anything else); rows
   * without a value come last in either direction, ties keep the search's order.
   */
  function sortedPositions(search: StoredSearch, key: string, desc: boolean): Int32Array {
    const cacheKey = `${key}:${desc}`;
    const kept = search.views.orders.get(cacheKey);
    if (kept) return kept;
    const sign = desc ? -1 : 1;
    let compare: (left: number, right: number) => number;
    if (key === 'name' || key === 'c_mi_number') {
      const collator = new Intl.Collator('en-GB', { sensitivity: 'base', numeric: true });
      const texts = Array.from({ length: search.total }, (_, position) => {
        const product = productAt(search, position);
        return key === 'name' ? (product.name ?? product.code) : product.cMiNumber;
      });
      compare = (left, right) => sign * collator.compare(texts[left]!, texts[right]!) || left - right;
    } else {
      if (!search.keyColumn.has(key)) {
        const message = ANALYTICS_MESSAGES.unknownSort(key);
        throw errors.badRequest(message, [{ path: 'sort', message }]);
      }
      const values = Array.from({ length: search.total }, (_, position) => valueAt(search, key, position));
      compare = (left, right) => {
        const a = values[left]!;
        const b = values[right]!;
        if (a === null || b === null) return a === null ? (b === null ? left - right : 1) : -1;
        return sign * (a - b) || left - right;
      };
    }
    const order = Int32Array.from({ length: search.total }, (_, position) => position).sort(compare);
    search.views.orders.set(cacheKey, order);
    addViewBytes(search, order.byteLength);
    return order;
  }

  /**
   * A search job's state, or once it succeeded its columns and what a page adds to the parts every
   * page of it shares: the counts and the rows shown.
   */
  async function pageOf(
    user: AuthUser,
    jobId: string,
    query: ParsedMetricPageQuery,
  ): Promise<
    | { search: null; state: MetricSearchPageStatus }
    | { search: StoredSearch; rest: Omit<MetricSearchPage, PageHeadKey> }
  > {
    // The selection is asked for with the job's state, so both are read from its row in one query
    // (reads of a job's row asked for in one turn share it: analytics.repository.ts).
    const selectionRead = analytics.jobSelection(jobId, user.id, JOB_KINDS.search);
    selectionRead.catch(() => undefined);
    const { search, ...state } = await searchOf(user, jobId);
    if (!search)
      return {
        search: null,
        state: { ...state, status: state.status as MetricSearchPageStatus['status'], result: null },
      };
    const [marks, selection] = await Promise.all([marksOf(user, query.significance), selectionRead]);
    const selected = new Set(selection ?? []);
    const idAt = (position: number) => productAt(search, position).id;
    // The rows matching, in the order shown, as row numbers. Without search text or mark filter
    // every row matches: read from the sorted order (or as they are) without a list made first.
    let matching: { length: number; at(index: number): number };
    if (!query.search.trim() && query.mark === 'all') {
      const sorted = query.sort ? sortedPositions(search, query.sort, query.desc) : null;
      matching = { length: search.total, at: sorted ? (index) => sorted[index]! : (index) => index };
    } else {
      let positions = matchingPositions(search, query, marks);
      if (query.sort) {
        const wanted = new Uint8Array(search.total);
        for (const position of positions) wanted[position] = 1;
        positions = [...sortedPositions(search, query.sort, query.desc)].filter(
          (position) => wanted[position],
        );
      }
      matching = { length: positions.length, at: (index) => positions[index]! };
    }
    const shown: number[] = [];
    for (let index = query.offset; index < Math.min(matching.length, query.offset + query.limit); index++)
      shown.push(matching.at(index));
    let selectedRows = 0;
    if (selected.size > 0)
      for (let position = 0; position < search.total; position++)
        if (selected.has(idAt(position))) selectedRows++;
    let allSelected = matching.length > 0 && selected.size > 0;
    for (let index = 0; allSelected && index < matching.length; index++)
      allSelected = selected.has(idAt(matching.at(index)));
    return {
      search,
      rest: {
        total: search.total,
        matching: matching.length,
        offset: query.offset,
        limit: query.limit,
        selected: selectedRows,
        all_matching_selected: allSelected,
        mark_counts: marks ? markCounts(search.total, marks) : null,
        rows: shown.map((position) => {
          const row = resultRow(search, position);
          const marksOfRow: Record<string, MetricSearchPage['rows'][number]['marks'][string]> = {};
          for (const [key, mark] of Object.entries(marks?.get(row.id) ?? {}))
            if (key.endsWith('.confidence') && mark && typeof mark === 'object')
              marksOfRow[key.slice(0, -'.confidence'.length)] =
                mark as MetricSearchPage['rows'][number]['marks'][string];
          return { ...row, selected: selected.has(row.id), marks: marksOfRow };
        }),
      },
    };
  }

  /** The mark tags' counts: All counts every row, the others the rows marked so. */
  function markCounts(total: number, marks: Marks) {
    return SIGNIFICANCE_MARK_FILTERS.map((value) => ({
      value,
      count: value === 'all' ? total : [...marks.values()].filter((row) => marked(row, value)).length,
    }));
  }

  return {
    /** A page of a search of the caller: its state, and once it succeeded the page and the summary. */
    async page(user: AuthUser, jobId: string, query: ParsedMetricPageQuery): Promise<MetricSearchPageStatus> {
      const answer = await pageOf(user, jobId, query);
      if (!answer.search) return answer.state;
      const { type, columns, summary, diagnostics, filtered, performance } = answer.search;
      const page: MetricSearchPage = {
        type,
        columns,
        summary,
        diagnostics,
        filtered,
        ...(performance ? { performance } : {}),
        histograms: histogramsOf(answer.search),
        ...answer.rest,
      };
      return { status: 'SUCCESS', progress: 100, error: null, result: page };
    },

    /**
     * The same as page, as the JSON text the response schema writes: the parts every page of a
     * search shares (columns, summary, diagnostics, charts: hundreds of kilobytes for a filtered
     * search of every fragrance, its diagnostics naming most studies) are checked and written once
     * per stored search and kept with it; a call checks and writes only its counts and rows.
     */
    async pageText(user: AuthUser, jobId: string, query: ParsedMetricPageQuery): Promise<string> {
      const answer = await pageOf(user, jobId, query);
      if (!answer.search) return JSON.stringify(MetricSearchPageStatus.parse(answer.state));
      const rest = JSON.stringify(PageRest.parse(answer.rest));
      return `${PAGE_STATUS_HEAD}${pageHeadOf(answer.search)},${rest.slice(1)}${PAGE_STATUS_TAIL}`;
    },

    /** Selects or deselects rows (by id or every row matching a filter), or clears the selection. */
    async changeSelection(
      user: AuthUser,
      jobId: string,
      request: ParsedMetricSelectionRequest,
    ): Promise<MetricSelectionState> {
      const search = await finished(user, jobId);
      let ids: number[] = [];
      if (request.action !== 'clear') {
        if (request.ids) {
          const known = new Set(rowIds(search));
          const missing = request.ids.filter((id) => !known.has(id));
          if (missing.length > 0) {
            const message = ANALYTICS_MESSAGES.notInSearch(missing);
            throw errors.badRequest(message, [{ path: 'ids', message }]);
          }
          ids = request.ids;
        } else {
          const marks = await marksOf(user, request.matching!.significance);
          ids = matchingPositions(search, request.matching!, marks).map(
            (position) => productAt(search, position).id,
          );
        }
      }
      const change =
        request.action === 'clear'
          ? { clear: true as const }
          : request.action === 'select'
            ? { add: ids }
            : { remove: ids };
      const selected = await analytics.changeJobSelection(jobId, user.id, JOB_KINDS.search, change);
      if (selected === null) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
      return { selected, total: search.total };
    },

    /** The selected rows of a search of the caller, in the search's order. */
    async selection(user: AuthUser, jobId: string): Promise<MetricSelection> {
      const search = await finished(user, jobId);
      const chosen = new Set((await analytics.jobSelection(jobId, user.id, JOB_KINDS.search)) ?? []);
      const products: MetricSelection['products'] = [];
      for (let position = 0; position < search.total; position++)
        if (chosen.has(productAt(search, position).id)) products.push(rowProduct(search, position));
      return { selected: products.length, total: search.total, products };
    },

    /** Every row of a search of the caller, in its order: the products its other tabs compute on. */
    async products(user: AuthUser, jobId: string): Promise<MetricSearchProducts> {
      const search = await finished(user, jobId);
      return {
        total: search.total,
        products: Array.from({ length: search.total }, (_, position) => rowProduct(search, position)),
      };
    },

    /**
     * The products a significance over a search compares: its selected rows, or every row when none
     * is selected (at least two).
     */
    async significanceProducts(user: AuthUser, jobId: string): Promise<{ id: number }[]> {
      const search = await finished(user, jobId);
      const chosen = new Set((await analytics.jobSelection(jobId, user.id, JOB_KINDS.search)) ?? []);
      const products = rowIds(search)
        .filter((id) => chosen.size === 0 || chosen.has(id))
        .map((id) => ({ id }));
      if (products.length < 2) {
        const message = ANALYTICS_MESSAGES.significanceNeedsProducts;
        throw errors.badRequest(message, [{ path: 'search_job', message }]);
      }
      return products;
    },
  };
}

export type MetricPages = ReturnType<typeof createMetricPages>;
