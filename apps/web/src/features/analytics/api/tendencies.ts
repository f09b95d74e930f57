import { TENDENCIES_FILE_NAME, TendenciesResponse, type TendenciesRequest } from '@accord/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiFetch, apiJson } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

export const tendenciesKeys = {
  all: ['analytics', 'tendencies'] as const,
  counts: (body: TendenciesRequest) => [...tendenciesKeys.all, body] as const,
};

/** POST /api/analytics/tendencies: fragrances per value of a fragrance field, answered directly. */
export function getTendencies(body: TendenciesRequest, signal?: AbortSignal): Promise<TendenciesResponse> {
  return apiJson('/analytics/tendencies', TendenciesResponse, { method: 'POST', body, signal });
}

/** The tendencies of the last run (none before the first). */
export function useTendenciesQuery(body: TendenciesRequest | null) {
  return useQuery({
    queryKey: tendenciesKeys.counts(body ?? { q: {}, data: { groupby: '' } }),
    queryFn: ({ signal }) => getTendencies(body!, signal),
    enabled: body !== null,
    staleTime: 60_000,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** POST /api/analytics/tendencies/xlsx: the table as fragrance_tendencies.xlsx. */
export async function downloadTendencies(body: TendenciesRequest): Promise<void> {
  const response = await apiFetch('/analytics/tendencies/xlsx', {
    method: 'POST',
    body,
    handledStatuses: [400, 503],
  });
  saveBlob(await response.blob(), TENDENCIES_FILE_NAME);
}

export function useDownloadTendenciesMutation() {
  return useMutation({
    mutationFn: downloadTendencies,
    // Download errors are ignored silently (document 3 section 8); keep them for diagnosis.
    onError: (error) => console.error('Tendencies download failed:', error),
  });
}
