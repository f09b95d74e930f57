import type {
  AnalyticsDropdownRequest,
  MetricPageQuery,
  MetricSearchRequest,
  SignificanceRequest,
} from '@accord/contracts';

/** Query keys of the analytics screen. */
export const analyticsKeys = {
  all: ['analytics'] as const,
  options: () => [...analyticsKeys.all, 'options'] as const,
  dropdown: (request: AnalyticsDropdownRequest) => [...analyticsKeys.all, 'dropdown', request] as const,
  pagedSearch: (request: MetricSearchRequest, noCache: boolean) =>
    [...analyticsKeys.all, 'paged-search', request, noCache] as const,
  /** Every page of a search's job (read again when its selection changes). */
  pages: (jobId: string) => [...analyticsKeys.all, 'page', jobId] as const,
  page: (jobId: string, query: MetricPageQuery) => [...analyticsKeys.pages(jobId), query] as const,
  significance: (request: SignificanceRequest, run = 0) =>
    [...analyticsKeys.all, 'significance', request, run] as const,
  /** Every row of a search's job, as the products of its attributes and tendencies. */
  searchProducts: (jobId: string) => [...analyticsKeys.all, 'search-products', jobId] as const,
  xlsxFilters: () => [...analyticsKeys.all, 'xlsx-filters'] as const,
};
