import { ProfileResponse, type DemographicCondition } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { profileKeys, type ProfileKind } from './keys.ts';

/**
 * POST /api/study/{id}/fragrance/{code} or /concept/{code}: the product's rows over the respondents
 * meeting every condition; 404 outside the user's clients.
 */
export function getProfile(
  kind: ProfileKind,
  studyId: number,
  code: string,
  demographics: DemographicCondition[],
  signal?: AbortSignal,
): Promise<ProfileResponse> {
  return apiJson(`/study/${studyId}/${kind}/${encodeURIComponent(code)}`, ProfileResponse, {
    method: 'POST',
    body: { demographics },
    signal,
  });
}

export function profileQueryOptions(
  kind: ProfileKind,
  studyId: number,
  code: string,
  demographics: DemographicCondition[],
) {
  return {
    queryKey: profileKeys.profile(kind, studyId, code, demographics),
    queryFn: ({ signal }: { signal: AbortSignal }) => getProfile(kind, studyId, code, demographics, signal),
    staleTime: 60_000,
  };
}

export function useProfileQuery(
  kind: ProfileKind,
  studyId: number,
  code: string,
  demographics: DemographicCondition[],
) {
  return useQuery({
    ...profileQueryOptions(kind, studyId, code, demographics),
    enabled: studyId > 0 && code !== '',
    // A 404 (another client's study) is an answer, not a hiccup.
    retry: false,
  });
}
