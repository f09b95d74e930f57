import { CicsOptionsResponse } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { cicsKeys } from './keys.ts';

/** GET /api/cics/options: geography kinds with their values, genders and the age range. */
export function getCicsOptions(signal?: AbortSignal): Promise<CicsOptionsResponse> {
  return apiJson('/cics/options', CicsOptionsResponse, { signal });
}

export function useCicsOptionsQuery() {
  return useQuery({
    queryKey: cicsKeys.options(),
    queryFn: ({ signal }) => getCicsOptions(signal),
    staleTime: Infinity,
  });
}
