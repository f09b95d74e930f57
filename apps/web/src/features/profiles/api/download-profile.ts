import { FRAGRANCE_PROFILE_FILE_NAME, MESSAGES, type DemographicCondition } from '@accord/contracts';
import { useMutation } from '@tanstack/react-query';
import { showAlert } from '../../../lib/alerts.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

interface DownloadProfile {
  studyId: number;
  code: string;
  demographics: DemographicCondition[];
}

/** POST /api/study/{id}/fragrance/{code}/xlsx: the profile table as fragrance_profile.xlsx. */
export async function downloadProfile({ studyId, code, demographics }: DownloadProfile): Promise<void> {
  const response = await apiFetch(`/study/${studyId}/fragrance/${encodeURIComponent(code)}/xlsx`, {
    method: 'POST',
    body: { demographics },
    handledStatuses: [400, 503],
  });
  saveBlob(await response.blob(), FRAGRANCE_PROFILE_FILE_NAME);
}

export function useDownloadProfileMutation() {
  return useMutation({
    mutationFn: downloadProfile,
    onError: () => showAlert('danger', MESSAGES.downloadFailure),
  });
}
