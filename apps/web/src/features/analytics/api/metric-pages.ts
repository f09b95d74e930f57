import {
  METRIC_PAGE_SIZE,
  MetricSearchPageStatus,
  MetricSearchProducts,
  MetricSelection,
  MetricSelectionState,
  type MetricPageQuery,
  type MetricSearchPage,
  type MetricSearchRequest,
  type MetricSelectionRequest,
} from '@accord/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { awaitJob } from './job.ts';
import { analyticsKeys } from './keys.ts';
import { queueMetricSearch } from './metric-search.ts';
import { reportSearchProgress, type SearchProgress } from './search-progress.ts';

/** The first page of a search, as the screen shows it at first. */
export const FIRST_PAGE: MetricPageQuery = { offset: 0, limit: METRIC_PAGE_SIZE };

/** GET /api/analytics/fragrances/{jobId}/page: the job's state and, once done, a page and the summary. */
export function getMetricSearchPage(
  jobId: string,
  query: MetricPageQuery,
  signal?: AbortSignal,
): Promise<MetricSearchPageStatus> {
  return apiJson(`/analytics/fragrances/${jobId}/page`, MetricSearchPageStatus, {
    query: { ...query },
    signal,
  });
}

export interface MetricSearchFirstPage {
  jobId: string;
  page: MetricSearchPage;
}

/** Queues the search and polls its first page until the job ends: no answer carries every row. */
export async function runPagedMetricSearch(
  request: MetricSearchRequest,
  noCache: boolean,
  signal?: AbortSignal,
  onProgress?: (progress: SearchProgress) => void,
): Promise<MetricSearchFirstPage> {
  onProgress?.({ jobId: null, progress: 0 });
  const jobId = await queueMetricSearch(request, noCache, signal);
  // Queued: from now on a cancel reaches the job.
  onProgress?.({ jobId, progress: 0 });
  const page = await awaitJob(
    (pollSignal) => getMetricSearchPage(jobId, FIRST_PAGE, pollSignal),
    signal,
    undefined,
    (state) => onProgress?.({ jobId, progress: state.progress ?? 0 }),
  );
  return { jobId, page };
}

/** The key under which a search's progress is reported (its query key as JSON). */
export const searchProgressKey = (request: MetricSearchRequest | null, noCache: boolean) =>
  JSON.stringify(analyticsKeys.pagedSearch(request ?? { q: { metrics: { metricsList: [] } } }, noCache));

/**
 * A metric search shown page by page, run while `request` is set: its job id and first page (with
 * the summary, diagnostics and chart bins). Job errors are logged only (document 3 section 8).
 */
export function useMetricSearchFirstPageQuery(request: MetricSearchRequest | null, noCache: boolean) {
  return useQuery({
    queryKey: analyticsKeys.pagedSearch(request ?? { q: { metrics: { metricsList: [] } } }, noCache),
    queryFn: async ({ signal }) => {
      const key = searchProgressKey(request, noCache);
      try {
        return await runPagedMetricSearch(request!, noCache, signal, (progress) =>
          reportSearchProgress(key, progress),
        );
      } catch (cause) {
        if (!(cause instanceof DOMException)) console.error('Analytics search failed', cause);
        throw cause;
      } finally {
        reportSearchProgress(key, null);
      }
    },
    enabled: request !== null,
    staleTime: Infinity,
    retry: false,
  });
}

/** A page of a finished search, sorted and filtered on the server; the previous page shows meanwhile. */
export function useMetricPageQuery(jobId: string | undefined, query: MetricPageQuery) {
  return useQuery({
    queryKey: analyticsKeys.page(jobId ?? '', query),
    queryFn: async ({ signal }) => {
      const status = await getMetricSearchPage(jobId!, query, signal);
      return status.result;
    },
    enabled: jobId !== undefined,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

/** POST /api/analytics/fragrances/{jobId}/selection; the pages of the search are read again. */
export function useMetricSelectionMutation(jobId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: MetricSelectionRequest) =>
      apiJson(`/analytics/fragrances/${jobId}/selection`, MetricSelectionState, {
        method: 'POST',
        body: request,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: analyticsKeys.pages(jobId ?? '') }),
  });
}

/** GET /api/analytics/fragrances/{jobId}/selection: the selected rows (for the results filter). */
export function getMetricSelection(jobId: string, signal?: AbortSignal): Promise<MetricSelection> {
  return apiJson(`/analytics/fragrances/${jobId}/selection`, MetricSelection, { signal });
}

/**
 * GET /api/analytics/fragrances/{jobId}/products: every row of a finished search, as the chosen
 * products (frags) its top attributes and tendencies are computed on.
 */
export function getMetricSearchProducts(jobId: string, signal?: AbortSignal): Promise<MetricSearchProducts> {
  return apiJson(`/analytics/fragrances/${jobId}/products`, MetricSearchProducts, { signal });
}

/**
 * The rows of the page's finished search, once its job id is known and it is a fragrance search:
 * the Top Attributes and Tendencies tabs run on exactly these (frags).
 */
export function useMetricSearchProductsQuery(jobId: string | undefined) {
  return useQuery({
    queryKey: analyticsKeys.searchProducts(jobId ?? ''),
    queryFn: ({ signal }) => getMetricSearchProducts(jobId!, signal),
    enabled: jobId !== undefined,
    staleTime: Infinity,
    retry: false,
  });
}
