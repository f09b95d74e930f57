import { MetricsCatalogueResponse } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { mappingKeys } from './keys.ts';

/** GET /api/study/metrics/: every metric a question can be mapped to. */
export function getMetrics(signal?: AbortSignal): Promise<MetricsCatalogueResponse> {
  return apiJson('/study/metrics/', MetricsCatalogueResponse, { signal });
}

export function useMetricsQuery() {
  return useQuery({
    queryKey: mappingKeys.catalogue(),
    queryFn: ({ signal }) => getMetrics(signal),
    // The catalogue is reference data: it changes with a release, not during a session.
    staleTime: Infinity,
  });
}
