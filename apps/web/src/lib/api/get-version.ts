import { VersionResponse } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiJson } from '../api-client.ts';
import { sharedKeys } from './keys.ts';

export type ApiVersion = z.infer<typeof VersionResponse>;

/** GET /api/ answers the API name and version (shown in the About box). */
export function getVersion(signal?: AbortSignal): Promise<ApiVersion> {
  return apiJson('/', VersionResponse, { signal, allowUnauthorized: true });
}

export function useVersionQuery() {
  return useQuery({
    queryKey: sharedKeys.version,
    queryFn: ({ signal }) => getVersion(signal),
    staleTime: Infinity,
  });
}
