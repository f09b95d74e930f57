/**
 * Pages of a finished metric search (document 3 section 2.1, metrics tab). The result stays on the
 * server: the table asks for the rows it shows, sorted and filtered here, with the summary, the
 * diagnostics and the charts' bins computed once per result; the selection ("Select all" included)
 * is kept in the search's job row, so every server process sees the same one. A search of every
 * fragrance then sends a page of rows, not megabytes, per call.
 */
import {
  ANALYTICS_MESSAGES,
  histogramBins,
  type HistogramBin,
  type MetricResultRow,
  type MetricSearchPage,
  type MetricSearchPageStatus,
  type MetricSearchResult,
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

/** Prepared results kept in memory (a result of every fragrance is tens of megabytes parsed). */
const PREPARED_RESULTS = 4;

/** A finished search with what its pages need, computed once. */
interface PreparedResult {
  result: MetricSearchResult;
  /** The text the search filter reads per row: the name, or the product code without one. */
  needles: string[];
  histograms: Record<string, HistogramBin[]>;
  /** Row positions in each order asked for so far ("key:desc"). */
  orders: Map<string, Int32Array>;
}

/** A search job's state and, when it succeeded, its result. */
export type SearchResultOf = (
  user: AuthUser,
  jobId: string,
) => Promise<{ status: string; progress: number; error: string | null; result: MetricSearchResult | null }>;

/** A significance job's state and result. */
export type SignificanceOf = (user: AuthUser, jobId: string) => Promise<SignificanceStatus>;

type Marks = Map<number, Record<string, unknown>>;

const rowName = (row: MetricResultRow) => row.name ?? row.prod;

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

/** The pages of the caller's searches, their selection, and the selection as a significance list. */
export function createMetricPages(deps: {
  analytics: AnalyticsRepository;
  searchResult: SearchResultOf;
  significanceResult: SignificanceOf;
}) {
  const { analytics, searchResult, significanceResult } = deps;
  const prepared = new Map<string, PreparedResult>();
  /** The same result under several jobs (cache hits) is prepared once while it is in memory. */
  const preparedOf = new WeakMap<MetricSearchResult, PreparedResult>();

  function prepare(jobId: string, result: MetricSearchResult): PreparedResult {
    const known = preparedOf.get(result);
    if (known) {
      prepared.set(jobId, known);
      if (prepared.size > PREPARED_RESULTS) prepared.delete(prepared.keys().next().value!);
      return known;
    }
    const histograms: Record<string, HistogramBin[]> = {};
    for (const column of result.columns)
      histograms[column.key] = histogramBins(result.results.map((row) => row.values[column.key] ?? null));
    const made: PreparedResult = {
      result,
      needles: result.results.map((row) => rowName(row).toLowerCase()),
      histograms,
      orders: new Map(),
    };
    prepared.set(jobId, made);
    preparedOf.set(result, made);
    if (prepared.size > PREPARED_RESULTS) prepared.delete(prepared.keys().next().value!);
    return made;
  }

  /**
   * A search of the caller: its state and, once it succeeded, its prepared result. A finished
   * result never changes, so one prepared here only needs the row to say it is the caller's: the
   * result (megabytes) is not read and parsed again at every page.
   */
  async function resultOf(
    user: AuthUser,
    jobId: string,
  ): Promise<{ status: string; progress: number; error: string | null; ready: PreparedResult | null }> {
    const kept = prepared.get(jobId);
    if (kept) {
      const state = await analytics.jobState(jobId, user.id, JOB_KINDS.search);
      if (!state) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
      if (state.status === 'SUCCESS') {
        prepared.delete(jobId);
        prepared.set(jobId, kept);
        return { ...state, ready: kept };
      }
    }
    const { result, ...state } = await searchResult(user, jobId);
    return { ...state, ready: result ? prepare(jobId, result) : null };
  }

  /** The finished search of the caller, prepared; 404 until it has succeeded. */
  async function finished(user: AuthUser, jobId: string): Promise<PreparedResult> {
    const { ready } = await resultOf(user, jobId);
    if (!ready) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
    return ready;
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
    prepared: PreparedResult,
    filter: ParsedMetricRowFilter,
    marks: Marks | null,
  ): number[] {
    const needle = filter.search.trim().toLowerCase();
    const rows = prepared.result.results;
    const positions: number[] = [];
    for (let position = 0; position < rows.length; position++) {
      if (needle && !prepared.needles[position]!.includes(needle)) continue;
      if (filter.mark !== 'all' && !marked(marks?.get(rows[position]!.id), filter.mark)) continue;
      positions.push(position);
    }
    return positions;
  }

  /**
   * Row positions sorted by a column key, 'name' or 'c_mi_number' (a 400 for anything else); rows
   * without a value come last in either direction, ties keep the search's order.
   */
  function sortedPositions(prepared: PreparedResult, key: string, desc: boolean): Int32Array {
    const cacheKey = `${key}:${desc}`;
    const kept = prepared.orders.get(cacheKey);
    if (kept) return kept;
    const rows = prepared.result.results;
    const sign = desc ? -1 : 1;
    let compare: (left: number, right: number) => number;
    if (key === 'name' || key === 'c_mi_number') {
      const collator = new Intl.Collator('en-GB', { sensitivity: 'base', numeric: true });
      const text =
        key === 'name' ? (row: MetricResultRow) => rowName(row) : (row: MetricResultRow) => row.c_mi_number;
      compare = (left, right) =>
        sign * collator.compare(text(rows[left]!), text(rows[right]!)) || left - right;
    } else {
      if (!prepared.result.columns.some((column) => column.key === key)) {
        const message = ANALYTICS_MESSAGES.unknownSort(key);
        throw errors.badRequest(message, [{ path: 'sort', message }]);
      }
      const values = rows.map((row) => row.values[key] ?? null);
      compare = (left, right) => {
        const a = values[left]!;
        const b = values[right]!;
        if (a === null || b === null) return a === null ? (b === null ? left - right : 1) : -1;
        return sign * (a - b) || left - right;
      };
    }
    const order = Int32Array.from(rows.keys()).sort(compare);
    prepared.orders.set(cacheKey, order);
    return order;
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
      const { ready, ...state } = await resultOf(user, jobId);
      if (!ready) return { ...state, status: state.status as MetricSearchPageStatus['status'], result: null };
      const [marks, selection] = await Promise.all([
        marksOf(user, query.significance),
        analytics.jobSelection(jobId, user.id, JOB_KINDS.search),
      ]);
      const selected = new Set(selection ?? []);
      const rows = ready.result.results;
      let positions = matchingPositions(ready, query, marks);
      if (query.sort) {
        const wanted = new Uint8Array(rows.length);
        for (const position of positions) wanted[position] = 1;
        positions = [...sortedPositions(ready, query.sort, query.desc)].filter(
          (position) => wanted[position],
        );
      }
      const shown = positions.slice(query.offset, query.offset + query.limit);
      const { type, columns, summary, diagnostics, filtered, performance } = ready.result;
      const page: MetricSearchPage = {
        type,
        columns,
        summary,
        diagnostics,
        filtered,
        ...(performance ? { performance } : {}),
        histograms: ready.histograms,
        total: rows.length,
        matching: positions.length,
        offset: query.offset,
        limit: query.limit,
        selected: rows.reduce((count, row) => count + (selected.has(row.id) ? 1 : 0), 0),
        all_matching_selected:
          positions.length > 0 && positions.every((position) => selected.has(rows[position]!.id)),
        mark_counts: marks ? markCounts(rows.length, marks) : null,
        rows: shown.map((position) => {
          const row = rows[position]!;
          const marksOfRow: Record<string, MetricSearchPage['rows'][number]['marks'][string]> = {};
          for (const [key, mark] of Object.entries(marks?.get(row.id) ?? {}))
            if (key.endsWith('.confidence') && mark && typeof mark === 'object')
              marksOfRow[key.slice(0, -'.confidence'.length)] =
                mark as MetricSearchPage['rows'][number]['marks'][string];
          return { ...row, selected: selected.has(row.id), marks: marksOfRow };
        }),
      };
      return { status: 'SUCCESS', progress: 100, error: null, result: page };
    },

    /** Selects or deselects rows (by id or every row matching a filter), or clears the selection. */
    async changeSelection(
      user: AuthUser,
      jobId: string,
      request: ParsedMetricSelectionRequest,
    ): Promise<MetricSelectionState> {
      const ready = await finished(user, jobId);
      const rows = ready.result.results;
      let ids: number[] = [];
      if (request.action !== 'clear') {
        if (request.ids) {
          const known = new Set(rows.map((row) => row.id));
          const missing = request.ids.filter((id) => !known.has(id));
          if (missing.length > 0) {
            const message = ANALYTICS_MESSAGES.notInSearch(missing);
            throw errors.badRequest(message, [{ path: 'ids', message }]);
          }
          ids = request.ids;
        } else {
          const marks = await marksOf(user, request.matching!.significance);
          ids = matchingPositions(ready, request.matching!, marks).map((position) => rows[position]!.id);
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
      return { selected, total: rows.length };
    },

    /** The selected rows of a search of the caller, in the search's order. */
    async selection(user: AuthUser, jobId: string): Promise<MetricSelection> {
      const ready = await finished(user, jobId);
      const chosen = new Set((await analytics.jobSelection(jobId, user.id, JOB_KINDS.search)) ?? []);
      const rows = ready.result.results.filter((row) => chosen.has(row.id));
      return {
        selected: rows.length,
        total: ready.result.results.length,
        products: rows.map((row) => ({ id: row.id, c_mi_number: row.c_mi_number, prod: row.prod })),
      };
    },

    /** Every row of a search of the caller, in its order: the products its other tabs compute on. */
    async products(user: AuthUser, jobId: string): Promise<MetricSearchProducts> {
      const rows = (await finished(user, jobId)).result.results;
      return {
        total: rows.length,
        products: rows.map((row) => ({ id: row.id, c_mi_number: row.c_mi_number, prod: row.prod })),
      };
    },

    /**
     * The products a significance over a search compares: its selected rows, or every row when none
     * is selected (at least two).
     */
    async significanceProducts(user: AuthUser, jobId: string): Promise<{ id: number }[]> {
      const ready = await finished(user, jobId);
      const chosen = new Set((await analytics.jobSelection(jobId, user.id, JOB_KINDS.search)) ?? []);
      const rows = ready.result.results;
      const products = (chosen.size === 0 ? rows : rows.filter((row) => chosen.has(row.id))).map((row) => ({
        id: row.id,
      }));
      if (products.length < 2) {
        const message = ANALYTICS_MESSAGES.significanceNeedsProducts;
        throw errors.badRequest(message, [{ path: 'search_job', message }]);
      }
      return products;
    },
  };
}

export type MetricPages = ReturnType<typeof createMetricPages>;
