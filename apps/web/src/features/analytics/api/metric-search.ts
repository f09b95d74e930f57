import { QueuedJob, type MetricSearchRequest } from '@accord/contracts';
import { apiJson } from '../../../lib/api-client.ts';

/**
 * POST /api/analytics/fragrances (?no_cache): queues a metric or performance search; its pages are
 * read with metric-pages.ts.
 */
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
