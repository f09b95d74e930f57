import {
  MESSAGES,
  RANKING_DECK_FILE_NAME,
  RankingJobQueued,
  RankingStatus,
  type RankingRequest,
} from '@accord/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { showAlert } from '../../lib/alerts.ts';
import { apiFetch, apiJson } from '../../lib/api-client.ts';
import { saveBlob } from '../../lib/save-blob.ts';

const rankingKeys = {
  all: ['rankings'] as const,
  queued: (request: RankingRequest) => [...rankingKeys.all, 'queued', request] as const,
  job: (jobId: string) => [...rankingKeys.all, 'job', jobId] as const,
};

/**
 * POST /api/rankings once per search shown (kept while the results are on screen, forgotten when
 * they close, so searching again asks again).
 */
export function useQueuedRanking(request: RankingRequest) {
  return useQuery({
    queryKey: rankingKeys.queued(request),
    queryFn: () => apiJson('/rankings', RankingJobQueued, { method: 'POST', body: request }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

/** GET /api/rankings/{jobId}, every 3 s until the job has ended (document 3 section 9). */
export function useRankingJob(jobId: string | null) {
  return useQuery({
    queryKey: rankingKeys.job(jobId ?? ''),
    queryFn: ({ signal }) => apiJson(`/rankings/${jobId}`, RankingStatus, { signal }),
    enabled: jobId !== null,
    gcTime: 0,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'SUCCESS' || status === 'FAILURE' || status === 'REVOKED' ? false : 3000;
    },
  });
}

/** GET /api/rankings/pptx/{jobId}: the ranking shown as ranking.pptx. */
export function useDownloadRankingDeck() {
  return useMutation({
    mutationFn: async (jobId: string) => {
      const response = await apiFetch(`/rankings/pptx/${jobId}`, { handledStatuses: [400, 403, 404] });
      saveBlob(await response.blob(), RANKING_DECK_FILE_NAME);
    },
    onError: () => showAlert('danger', MESSAGES.downloadFailure),
  });
}
