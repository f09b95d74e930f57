import {
  CATEGORY_PROFILE_DECK_FILE_NAME,
  ComparisonJobQueued,
  MESSAGES,
  TendenciesResponse,
  TopFamilyFragrancesStatus,
  type TopFamilyFragrancesRequest,
} from '@accord/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { showAlert } from '../../../lib/alerts.ts';
import { apiFetch, apiJson } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

/** The study filters of the category profile. */
export interface CategoryFilters {
  category: string | null;
  region: string | null;
  product: string | null;
  client: string | null;
  year: [number, number] | null;
}

export function essentialsOf(filters: CategoryFilters) {
  const one = (value: string | null) => (value ? [value] : undefined);
  return {
    category: one(filters.category),
    region: one(filters.region),
    product: one(filters.product),
    client: one(filters.client),
    startYear: filters.year?.[0],
    endYear: filters.year?.[1],
  };
}

export const categoryKeys = {
  all: ['category-profile'] as const,
  families: (filters: CategoryFilters) => [...categoryKeys.all, 'families', filters] as const,
  top: (jobId: string) => [...categoryKeys.all, 'top', jobId] as const,
};

/** POST /api/analytics/tendencies: fragrance families in percent of the fragrances the filters select. */
export function useFamiliesQuery(filters: CategoryFilters | null) {
  return useQuery({
    queryKey: categoryKeys.families(
      filters ?? { category: null, region: null, product: null, client: null, year: null },
    ),
    queryFn: ({ signal }) =>
      apiJson('/analytics/tendencies', TendenciesResponse, {
        method: 'POST',
        body: {
          q: { essentials: essentialsOf(filters!) },
          data: { return: 'percentage', groupby: 'perfume_characteristics.family' },
        },
        signal,
      }),
    enabled: filters !== null,
    placeholderData: keepPreviousData,
  });
}

/** POST /api/category-profile/top-fragrances: queues the top fragrances of a family. */
export function useQueueTopFragrances() {
  return useMutation({
    mutationFn: (body: TopFamilyFragrancesRequest) =>
      apiJson('/category-profile/top-fragrances', ComparisonJobQueued, { method: 'POST', body }),
  });
}

/** GET /api/category-profile/top-fragrances/{jobId}, every 3 s until the job has ended. */
export function useTopFragrancesJob(jobId: string | null) {
  return useQuery({
    queryKey: categoryKeys.top(jobId ?? ''),
    queryFn: ({ signal }) =>
      apiJson(`/category-profile/top-fragrances/${jobId}`, TopFamilyFragrancesStatus, { signal }),
    enabled: jobId !== null,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'SUCCESS' || status === 'FAILURE' || status === 'REVOKED' ? false : 3000;
    },
  });
}

/**
 * POST /api/category-profile/pptx: the profile as shown (the families under the filters searched
 * and, once a family is chosen, its finished top fragrances job) as category_profile.pptx.
 */
export function useDownloadCategoryDeck() {
  return useMutation({
    mutationFn: async ({ filters, top }: { filters: CategoryFilters; top: string | null }) => {
      const response = await apiFetch('/category-profile/pptx', {
        method: 'POST',
        body: { essentials: essentialsOf(filters), top },
        handledStatuses: [400, 403, 404],
      });
      saveBlob(await response.blob(), CATEGORY_PROFILE_DECK_FILE_NAME);
    },
    onError: () => showAlert('danger', MESSAGES.downloadFailure),
  });
}
