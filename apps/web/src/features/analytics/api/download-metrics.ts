import { METRICS_FILE_NAME, PERFORMANCE_FILE_NAME, XlsxFiltersResponse } from '@accord/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiFetch, apiJson } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';
import { analyticsKeys } from './keys.ts';

/** GET /api/analytics/fragrances/xlsxfilters: the spreadsheet filters and the default choice. */
export function useXlsxFiltersQuery() {
  return useQuery({
    queryKey: analyticsKeys.xlsxFilters(),
    queryFn: ({ signal }) => apiJson('/analytics/fragrances/xlsxfilters', XlsxFiltersResponse, { signal }),
    staleTime: Infinity,
  });
}

/**
 * GET /api/analytics/fragrances/xlsx/{jobId}?filters=&selected=&significance=: the results (the
 * selected rows alone with `selected`) as fragrance_metrics.xlsx, with the marks of the significance
 * job shown on the list, if any.
 */
export async function downloadMetrics({
  jobId,
  filters,
  selected = false,
  significance,
}: {
  jobId: string;
  filters: string[];
  selected?: boolean;
  significance?: string | null;
}) {
  const response = await apiFetch(`/analytics/fragrances/xlsx/${jobId}`, {
    query: {
      filters: filters.join(','),
      selected: selected ? 'true' : undefined,
      ...(significance ? { significance } : {}),
    },
    handledStatuses: [400, 404, 503],
  });
  saveBlob(await response.blob(), METRICS_FILE_NAME);
}

/** Download errors are ignored silently (document 3 section 8). */
export function useDownloadMetricsMutation() {
  return useMutation({
    mutationFn: downloadMetrics,
    onError: (cause) => console.error('Download failed', cause),
  });
}

/**
 * GET /api/analytics/performance/xlsx/{jobId}?sort=&desc=: the performance table, in the order the
 * tab shows it, as fragrance_performance.xlsx.
 */
export async function downloadPerformance({
  jobId,
  sort,
}: {
  jobId: string;
  sort: { key: string; desc: boolean };
}) {
  const response = await apiFetch(`/analytics/performance/xlsx/${encodeURIComponent(jobId)}`, {
    query: { sort: sort.key, desc: String(sort.desc) },
    handledStatuses: [400, 404, 503],
  });
  saveBlob(await response.blob(), PERFORMANCE_FILE_NAME);
}

/** Download errors are ignored silently (document 3 section 8). */
export function useDownloadPerformanceMutation() {
  return useMutation({
    mutationFn: downloadPerformance,
    onError: (cause) => console.error('Download failed', cause),
  });
}
