import { ProfileDemographicOptions } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { profileKeys } from './keys.ts';

export type DemographicOptions = ProfileDemographicOptions;

/**
 * GET /api/study/{id}/demographic-options: the categories of the profile filter with the values the
 * study's own respondents have (and their age range), so every value offered finds respondents.
 */
export async function getDemographicOptions(
  studyId: number,
  signal?: AbortSignal,
): Promise<DemographicOptions> {
  return apiJson(`/study/${studyId}/demographic-options`, ProfileDemographicOptions, { signal });
}

export function useDemographicOptionsQuery(studyId: number) {
  return useQuery({
    queryKey: profileKeys.demographicOptions(studyId),
    queryFn: ({ signal }) => getDemographicOptions(studyId, signal),
    enabled: studyId > 0,
    staleTime: 5 * 60_000,
  });
}
