import { StudyOptionsResponse } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { studyKeys } from './keys.ts';

/** The tag definitions are the same for every study. */
export const studyOptionsKey = [...studyKeys.all, 'options'] as const;

/** GET /api/study/options: field, label, type, options, multivalue and editable of every tag. */
export function getStudyOptions(signal?: AbortSignal): Promise<StudyOptionsResponse> {
  return apiJson('/study/options', StudyOptionsResponse, { signal });
}

/** Loaded for admins only, who edit details, tables and tags. */
export function useStudyOptionsQuery(enabled: boolean) {
  return useQuery({
    queryKey: studyOptionsKey,
    queryFn: ({ signal }) => getStudyOptions(signal),
    enabled,
    staleTime: 5 * 60_000,
  });
}
