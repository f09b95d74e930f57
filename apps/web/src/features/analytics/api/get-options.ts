import {
  AnalyticsDropdownResponse,
  AnalyticsOptionsResponse,
  type AnalyticsDropdownRequest,
} from '@accord/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { analyticsKeys } from './keys.ts';

/** GET /api/analytics/options: demographic fields, metrics, aggregations, the age and year ranges. */
export function getAnalyticsOptions(signal?: AbortSignal): Promise<AnalyticsOptionsResponse> {
  return apiJson('/analytics/options', AnalyticsOptionsResponse, { signal });
}

export function useAnalyticsOptionsQuery(enabled: boolean) {
  return useQuery({
    queryKey: analyticsKeys.options(),
    queryFn: ({ signal }) => getAnalyticsOptions(signal),
    staleTime: 5 * 60_000,
    enabled,
  });
}

/**
 * POST /api/smartsearch/dropdown_options_analytics: the study filter options with their counts and
 * the metrics offered under the current filters.
 */
export function getAnalyticsDropdown(
  request: AnalyticsDropdownRequest,
  signal?: AbortSignal,
): Promise<AnalyticsDropdownResponse> {
  return apiJson('/smartsearch/dropdown_options_analytics', AnalyticsDropdownResponse, {
    method: 'POST',
    body: request,
    signal,
  });
}

/** Refreshed after each change of the filters; the previous lists stay while the next load. */
export function useAnalyticsDropdownQuery(request: AnalyticsDropdownRequest, enabled: boolean) {
  return useQuery({
    queryKey: analyticsKeys.dropdown(request),
    queryFn: ({ signal }) => getAnalyticsDropdown(request, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    enabled,
  });
}
