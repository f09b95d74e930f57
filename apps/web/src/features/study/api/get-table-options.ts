import { StudyOptionsResponse } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { studyKeys } from './keys.ts';

/** GET /api/study/options: the option lists of the fields data (perfumer, region, country, family...). */
export function getStudyOptions(signal?: AbortSignal): Promise<StudyOptionsResponse> {
  return apiJson('/study/options', StudyOptionsResponse, { signal });
}

/** Loaded once a table is edited; the lists change rarely, so they stay fresh for ten minutes. */
export function useTableOptionsQuery(enabled: boolean) {
  return useQuery({
    queryKey: [...studyKeys.all, 'options'] as const,
    queryFn: ({ signal }) => getStudyOptions(signal),
    enabled,
    staleTime: 10 * 60 * 1000,
  });
}
