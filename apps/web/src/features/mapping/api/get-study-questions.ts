import { StudyQuestionsResponse } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { mappingKeys } from './keys.ts';

/** GET /api/study/{id}/questions/: the questions by results file; 404 outside the user's scope. */
export function getStudyQuestions(studyId: number, signal?: AbortSignal): Promise<StudyQuestionsResponse> {
  return apiJson(`/study/${studyId}/questions/`, StudyQuestionsResponse, { signal, handledStatuses: [400] });
}

export function useStudyQuestionsQuery(studyId: number) {
  return useQuery({
    queryKey: mappingKeys.questions(studyId),
    queryFn: ({ signal }) => getStudyQuestions(studyId, signal),
    enabled: studyId > 0,
  });
}
