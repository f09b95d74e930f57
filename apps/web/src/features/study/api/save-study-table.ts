import { StudyEditResponse, type StudyTagEditRequest } from '@accord/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { studyKeys } from './keys.ts';

/** The fragrance or concept table payloads of the tag edit. */
export type StudyTableRequest = Extract<StudyTagEditRequest, { type: 'fragrances' | 'concepts' }>;

/**
 * PUT /api/study/{id}/tags with type 'fragrances' or 'concepts': replaces the table in one
 * transaction (admins). The table shows its own failure message, so 400 and 503 do not raise the
 * global failure box.
 */
export function saveStudyTable(studyId: number, body: StudyTableRequest): Promise<StudyEditResponse> {
  return apiJson(`/study/${studyId}/tags`, StudyEditResponse, {
    method: 'PUT',
    body,
    handledStatuses: [400, 503],
  });
}

/** After a save the study (its rows and history) is loaded again before the mutation settles. */
export function useSaveStudyTableMutation(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StudyTableRequest) => saveStudyTable(studyId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studyKeys.detail(studyId) }),
  });
}
