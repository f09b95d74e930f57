import {
  ComparisonJobQueued,
  GROUP_COMPARISON_DECK_FILE_NAME,
  GroupComparisonStatus,
  MESSAGES,
  type GroupComparisonRequest,
} from '@accord/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { showAlert } from '../../../lib/alerts.ts';
import { apiFetch, apiJson } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

export const groupComparisonKeys = {
  all: ['group-comparison'] as const,
  job: (jobId: string) => [...groupComparisonKeys.all, 'job', jobId] as const,
};

/** POST /api/group-comparison: queues the comparison of the two groups. */
export function useQueueGroupComparison() {
  return useMutation({
    mutationFn: (body: GroupComparisonRequest) =>
      apiJson('/group-comparison', ComparisonJobQueued, { method: 'POST', body }),
  });
}

/** GET /api/group-comparison/{jobId}, every 3 s until the job has ended. */
export function useGroupComparisonJob(jobId: string | null) {
  return useQuery({
    queryKey: groupComparisonKeys.job(jobId ?? ''),
    queryFn: ({ signal }) => apiJson(`/group-comparison/${jobId}`, GroupComparisonStatus, { signal }),
    enabled: jobId !== null,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'SUCCESS' || status === 'FAILURE' || status === 'REVOKED' ? false : 3000;
    },
    staleTime: Infinity,
  });
}

/** GET /api/group-comparison/pptx/{jobId}: the comparison shown as group_comparison.pptx. */
export function useDownloadGroupDeck() {
  return useMutation({
    mutationFn: async (jobId: string) => {
      const response = await apiFetch(`/group-comparison/pptx/${encodeURIComponent(jobId)}`, {
        handledStatuses: [400, 403, 404],
      });
      saveBlob(await response.blob(), GROUP_COMPARISON_DECK_FILE_NAME);
    },
    onError: () => showAlert('danger', MESSAGES.downloadFailure),
  });
}
