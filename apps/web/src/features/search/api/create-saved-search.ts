import { SavedSearch, type SearchType } from '@accord/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { searchKeys } from './keys.ts';

export interface CreateSavedSearchInput {
  userId: number;
  slug: string;
  /** JSON text of the filters. */
  metadataQuery: string;
  type: SearchType;
}

/** POST /api/users/{userId}/searches/. A 400 (e.g. empty filters) is shown under the name box. */
export function createSavedSearch(input: CreateSavedSearchInput): Promise<SavedSearch> {
  return apiJson(`/users/${input.userId}/searches/`, SavedSearch, {
    method: 'POST',
    body: { slug: input.slug, metadata_query: input.metadataQuery, search_type: input.type },
    handledStatuses: [400],
  });
}

export function useCreateSavedSearchMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSavedSearch,
    onSuccess: (_saved, input) =>
      queryClient.invalidateQueries({ queryKey: searchKeys.saved(input.userId, input.type) }),
  });
}
