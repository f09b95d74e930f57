import { QueuedSignificanceJob, SignificanceStatus, type SignificanceRequest } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { awaitJob } from './job.ts';
import { analyticsKeys } from './keys.ts';

/** The marks with the id of the job that calculated them (the pages and the metrics download name it). */
export type SignificanceResult = NonNullable<SignificanceStatus['result']> & { jobId: string };

/** POST /api/analytics/significance then GET /api/analytics/significance/{jobId} until it ends. */
export async function runSignificance(
  request: SignificanceRequest,
  signal?: AbortSignal,
): Promise<SignificanceResult> {
  const queued = await apiJson('/analytics/significance', QueuedSignificanceJob, {
    method: 'POST',
    body: request,
    signal,
  });
  const result = await awaitJob(
    (pollSignal) =>
      apiJson(`/analytics/significance/${queued.job_id}`, SignificanceStatus, { signal: pollSignal }),
    signal,
  );
  return { ...result, jobId: queued.job_id };
}

/** Significance of `request`; each `run` computes afresh (the selection it names may have changed). */
export function useSignificanceQuery(request: SignificanceRequest | null, run = 0) {
  return useQuery({
    queryKey: analyticsKeys.significance(request ?? { data: [], calculation: 'avg', metrics: [] }, run),
    queryFn: async ({ signal }) => {
      try {
        return await runSignificance(request!, signal);
      } catch (cause) {
        if (!(cause instanceof DOMException)) console.error('Significance failed', cause);
        throw cause;
      }
    },
    enabled: request !== null,
    staleTime: Infinity,
    retry: false,
  });
}
