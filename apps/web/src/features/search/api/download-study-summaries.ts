import { STUDY_EXPORT_FILE_NAME, type StudyExportRequest } from '@accord/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

/**
 * POST /api/smartsearch/download_study_summarises: the study summaries as search-studies-result.xlsx.
 * Failures are told by the screen's own alert, not the global box.
 */
export async function downloadStudySummaries(body: StudyExportRequest): Promise<void> {
  const response = await apiFetch('/smartsearch/download_study_summarises', {
    method: 'POST',
    body,
    handledStatuses: [400, 503],
  });
  saveBlob(await response.blob(), STUDY_EXPORT_FILE_NAME);
}

export function useDownloadStudySummariesMutation() {
  return useMutation({ mutationFn: downloadStudySummaries });
}
