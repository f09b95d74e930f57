import { StudyEditHistoryResponse } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { studyKeys } from './keys.ts';

/** GET /api/study/study_edit_history/{id}: study-level entries and grouped saves, newest first. */
export function getStudyHistory(id: number, signal?: AbortSignal): Promise<StudyEditHistoryResponse> {
  return apiJson(`/study/study_edit_history/${id}`, StudyEditHistoryResponse, { signal });
}

/** Loaded only once a history modal opens (admins only). */
export function useStudyHistoryQuery(id: number, enabled: boolean) {
  return useQuery({
    queryKey: studyKeys.history(id),
    queryFn: ({ signal }) => getStudyHistory(id, signal),
    enabled: enabled && id > 0,
  });
}
