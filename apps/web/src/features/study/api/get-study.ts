import { StudyDetailsResponse } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { studyKeys } from './keys.ts';

/** GET /api/study/{id}: grouped details, tags, fragrances, concepts; 404 outside the user's scope. */
export function getStudy(id: number, signal?: AbortSignal): Promise<StudyDetailsResponse> {
  return apiJson(`/study/${id}`, StudyDetailsResponse, { signal, handledStatuses: [400] });
}

export function useStudyQuery(id: number) {
  return useQuery({
    queryKey: studyKeys.details(id),
    queryFn: ({ signal }) => getStudy(id, signal),
    enabled: id > 0,
  });
}
