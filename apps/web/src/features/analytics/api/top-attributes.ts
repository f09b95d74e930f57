import {
  ATTRIBUTES_FILE_NAME,
  QueuedJob,
  TopAttributesStatus,
  type TopAttributesRequest,
} from '@accord/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiFetch, apiJson } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

/** Attributes jobs are polled every 3 s (document 3 section 9). */
export const TOP_ATTRIBUTES_POLL_MS = 3_000;

/** States after which a job changes no more (REVOKED counts as failed, document 3 section 4.1). */
const FINAL_STATES: ReadonlySet<TopAttributesStatus['status']> = new Set(['SUCCESS', 'FAILURE', 'REVOKED']);

export const topAttributesKeys = {
  all: ['analytics', 'top-attributes'] as const,
  job: (jobId: string) => [...topAttributesKeys.all, 'job', jobId] as const,
};

/** POST /api/analytics/top-attributes: queues the job and answers its id. */
export async function queueTopAttributes(body: TopAttributesRequest): Promise<string> {
  const queued = await apiJson('/analytics/top-attributes', QueuedJob, { method: 'POST', body });
  return queued.jobid;
}

/** GET /api/analytics/top-attributes/{jobId}: SUCCESS carries the rows, FAILURE the reason. */
export function getTopAttributesStatus(jobId: string, signal?: AbortSignal): Promise<TopAttributesStatus> {
  return apiJson(`/analytics/top-attributes/${encodeURIComponent(jobId)}`, TopAttributesStatus, { signal });
}

export function isJobFinished(status: TopAttributesStatus | undefined): boolean {
  return status !== undefined && FINAL_STATES.has(status.status);
}

export function useQueueTopAttributesMutation() {
  return useMutation({ mutationFn: queueTopAttributes });
}

/**
 * The status of a queued job: asked at once (a fast job is done at its first poll), then every 3 s
 * until it has finished. Polling stops when the tab is left, as the query then has no observer.
 */
export function useTopAttributesJobQuery(jobId: string | null) {
  return useQuery({
    queryKey: topAttributesKeys.job(jobId ?? ''),
    queryFn: ({ signal }) => getTopAttributesStatus(jobId!, signal),
    enabled: jobId !== null,
    refetchInterval: (query) => (isJobFinished(query.state.data) ? false : TOP_ATTRIBUTES_POLL_MS),
    refetchOnWindowFocus: false,
    staleTime: Infinity,
    // A failed poll ends the polling; the tab says so.
    retry: false,
  });
}

/** GET /api/analytics/top-attributes/xlsx/{jobId}: the finished job as fragrance_attributes.xlsx. */
export async function downloadTopAttributes(jobId: string): Promise<void> {
  const response = await apiFetch(`/analytics/top-attributes/xlsx/${encodeURIComponent(jobId)}`, {
    handledStatuses: [400, 503],
  });
  saveBlob(await response.blob(), ATTRIBUTES_FILE_NAME);
}

export function useDownloadTopAttributesMutation() {
  return useMutation({
    mutationFn: downloadTopAttributes,
    // Download errors are ignored silently (document 3 section 8); keep them for diagnosis.
    onError: (error) => console.error('Top attributes download failed:', error),
  });
}
