import { StudyEditErrorResponse, StudyEditResponse, type StudyUpdateRequest } from '@accord/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { studyKeys } from './keys.ts';

/** PUT /api/study/{id}: the changed fields with their old values (admins). */
export function updateStudy(id: number, body: StudyUpdateRequest): Promise<StudyEditResponse> {
  return apiJson(`/study/${id}`, StudyEditResponse, { method: 'PUT', body, handledStatuses: [400] });
}

/** The incoherent_fields of a refused edit (400), or null for any other failure. */
export function incoherentFieldsOf(error: unknown): Record<string, string[]> | null {
  if (!isApiError(error) || error.status !== 400) return null;
  const body = StudyEditErrorResponse.safeParse(error.body);
  return body.success && body.data.incoherent_fields ? body.data.incoherent_fields : null;
}

/** After a save the page's data and the history are loaded again. */
export function useUpdateStudyMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StudyUpdateRequest) => updateStudy(id, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: studyKeys.details(id) }),
        queryClient.invalidateQueries({ queryKey: studyKeys.history(id) }),
      ]),
    // 409: the study changed since the page loaded it; show what is stored now.
    onError: (error) => {
      if (isApiError(error) && error.status === 409)
        void queryClient.invalidateQueries({ queryKey: studyKeys.details(id) });
    },
  });
}
