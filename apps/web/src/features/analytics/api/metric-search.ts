import {
  MetricSearchStatus,
  QueuedJob,
  type MetricSearchRequest,
  type MetricSearchResult,
} from '@accord/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { awaitJob } from './job.ts';
import { analyticsKeys } from './keys.ts';

/** POST /api/analytics/fragrances (?no_cache): queues a metric or performance search. */
export async function queueMetricSearch(
  request: MetricSearchRequest,
  noCache: boolean,
  signal?: AbortSignal,
): Promise<string> {
  const queued = await apiJson('/analytics/fragrances', QueuedJob, {
    method: 'POST',
    body: request,
    query: noCache ? { no_cache: 'true' } : undefined,
    signal,
  });
  return queued.jobid;
}

/** GET /api/analytics/fragrances/{jobId}. */
export function getMetricSearchStatus(jobId: string, signal?: AbortSignal): Promise<MetricSearchStatus> {
  return apiJson(`/analytics/fragrances/${jobId}`, MetricSearchStatus, { signal });
}

export interface MetricSearchAnswer {
  jobId: string;
  result: MetricSearchResult;
}

/** Queues the search and polls it to its end. */
export async function runMetricSearch(
  request: MetricSearchRequest,
  noCache: boolean,
  signal?: AbortSignal,
): Promise<MetricSearchAnswer> {
  const jobId = await queueMetricSearch(request, noCache, signal);
  const result = await awaitJob((pollSignal) => getMetricSearchStatus(jobId, pollSignal), signal);
  return { jobId, result: result.json };
}

/**
 * A metric search (or a performance search, with `data`), run while `request` is set. Job errors
 * are logged only (document 3 section 8); the tab's loader then ends.
 */
export function useMetricSearchQuery(
  request: MetricSearchRequest | null,
  noCache: boolean,
  options: { keepPrevious?: boolean } = {},
) {
  return useQuery({
    queryKey: analyticsKeys.search(request ?? { q: { metrics: { metricsList: [] } } }, noCache),
    queryFn: async ({ signal }) => {
      try {
        return await runMetricSearch(request!, noCache, signal);
      } catch (cause) {
        if (!(cause instanceof DOMException)) console.error('Analytics search failed', cause);
        throw cause;
      }
    },
    enabled: request !== null,
    staleTime: Infinity,
    retry: false,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
  });
}
