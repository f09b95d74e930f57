import type { AnalyticsDropdownRequest, MetricSearchRequest, SignificanceRequest } from '@accord/contracts';

/** Query keys of the analytics screen. */
export const analyticsKeys = {
  all: ['analytics'] as const,
  options: () => [...analyticsKeys.all, 'options'] as const,
  dropdown: (request: AnalyticsDropdownRequest) => [...analyticsKeys.all, 'dropdown', request] as const,
  search: (request: MetricSearchRequest, noCache: boolean) =>
    [...analyticsKeys.all, 'search', request, noCache] as const,
  significance: (request: SignificanceRequest) => [...analyticsKeys.all, 'significance', request] as const,
  xlsxFilters: () => [...analyticsKeys.all, 'xlsx-filters'] as const,
};
