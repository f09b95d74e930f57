import { StudyEditResponse, type TagValue } from '@accord/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { studyKeys } from './keys.ts';

export interface AddStudyTag {
  field: string;
  value: TagValue;
  /** The value the page showed when the popup opened. */
  oldValue: TagValue;
}

/** PUT /api/study/{id}/tags with one study tag (type tag), recorded in the study's history. */
export function addStudyTag(id: number, tag: AddStudyTag): Promise<StudyEditResponse> {
  return apiJson(`/study/${id}/tags`, StudyEditResponse, {
    method: 'PUT',
    body: { type: 'tag', field: tag.field, value: tag.value, old_value: tag.oldValue },
    handledStatuses: [400],
  });
}

export function useAddStudyTagMutation(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tag: AddStudyTag) => addStudyTag(id, tag),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: studyKeys.details(id) }),
        queryClient.invalidateQueries({ queryKey: studyKeys.history(id) }),
      ]),
  });
}
