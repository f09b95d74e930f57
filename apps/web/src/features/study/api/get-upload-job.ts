import { UploadJobStatus } from '@accord/contracts';
import { apiJson } from '../../../lib/api-client.ts';

/** GET /api/study/{studyId}/upload/{jobId}: queued, started, failed or finished; 404 'No such job'. */
export function getUploadJob(studyId: number, jobId: string, signal?: AbortSignal): Promise<UploadJobStatus> {
  return apiJson(`/study/${studyId}/upload/${encodeURIComponent(jobId)}`, UploadJobStatus, {
    signal,
    handledStatuses: [400],
  });
}
