import { FragranceResponse } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';

/** Query keys of the fragrance page. */
export const fragranceKeys = {
  all: ['fragrance'] as const,
  byCode: (code: string) => [...fragranceKeys.all, code] as const,
};

/** GET /api/fragrance/{code}: every test of the code the user may see, pooled; 404 when none. */
export function getFragrance(code: string, signal?: AbortSignal): Promise<FragranceResponse> {
  return apiJson(`/fragrance/${encodeURIComponent(code)}`, FragranceResponse, { signal });
}

export function useFragranceQuery(code: string) {
  return useQuery({
    queryKey: fragranceKeys.byCode(code),
    queryFn: ({ signal }) => getFragrance(code, signal),
    enabled: code !== '',
    staleTime: 60_000,
    // A 404 (no test the user may see) or a 400 (not a code) is an answer, not a hiccup.
    retry: false,
  });
}
