import { BulkEditResponse, type BulkEditRequest } from '@accord/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { searchKeys } from './keys.ts';

/** Refreshing results waits 1.5 s (document 2 section 9). */
export const REFRESH_DELAY_MS = 1500;

/** PUT /api/smartsearch/update: categorical tags of many studies at once (admins only). */
export function bulkEditStudies(body: BulkEditRequest): Promise<BulkEditResponse> {
  return apiJson('/smartsearch/update', BulkEditResponse, { method: 'PUT', body, handledStatuses: [400] });
}

/** After a save the search data (counts, options, every result tab) is refreshed after the delay. */
export function useBulkEditStudiesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkEditStudies,
    onSuccess: () => {
      window.setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: searchKeys.all });
      }, REFRESH_DELAY_MS);
    },
  });
}
