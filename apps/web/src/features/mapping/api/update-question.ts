import {
  MappingUpdateResponse,
  type MappingQuestionUpdate,
  type StudyQuestionsResponse,
} from '@accord/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { mappingKeys } from './keys.ts';

/**
 * PUT /api/study/{id}/question/ with { q_upd }: a metric, a constant value, a validation or a new
 * constant question. A refused change (400) is shown by the page, not the global failure box.
 */
export function updateQuestion(
  studyId: number,
  change: MappingQuestionUpdate,
): Promise<MappingUpdateResponse> {
  return apiJson(`/study/${studyId}/question/`, MappingUpdateResponse, {
    method: 'PUT',
    body: { q_upd: change },
    handledStatuses: [400],
  });
}

/** Puts the saved question into the cached list at once, then refreshes the study's data. */
export function useUpdateQuestionMutation(studyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: MappingQuestionUpdate) => updateQuestion(studyId, change),
    onSuccess: ({ question }) => {
      queryClient.setQueryData<StudyQuestionsResponse>(mappingKeys.questions(studyId), (current) => {
        if (!current) return current;
        const files = current.files.map((file) => {
          if (file.filename !== question.filename) return file;
          const known = file.questions.some((q) => q.id === question.id);
          return {
            ...file,
            questions: known
              ? file.questions.map((q) => (q.id === question.id ? question : q))
              : [...file.questions, question],
          };
        });
        return { ...current, files };
      });
      void queryClient.invalidateQueries({ queryKey: mappingKeys.study(studyId) });
    },
  });
}
