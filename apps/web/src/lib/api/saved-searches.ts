/**
 * Saved searches of the signed-in user (document 2 section 7, "Saved searches"), one list per
 * search type: the study search ('search'), CICS ('cics') and analytics.
 */
import { MessageResponse, SavedSearch, type SearchType } from '@accord/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../api-client.ts';

export const savedSearchKeys = {
  list: (userId: number, type: SearchType) => ['saved-searches', userId, type] as const,
};

/** GET /api/users/{userId}/searches/?search_type=: the user's saved searches, newest first. */
export function getSavedSearches(
  userId: number,
  type: SearchType,
  signal?: AbortSignal,
): Promise<SavedSearch[]> {
  return apiJson(`/users/${userId}/searches/`, SavedSearch.array(), { query: { search_type: type }, signal });
}

export function useSavedSearchesQuery(userId: number | null, type: SearchType = 'search') {
  return useQuery({
    queryKey: savedSearchKeys.list(userId ?? 0, type),
    queryFn: ({ signal }) => getSavedSearches(userId ?? 0, type, signal),
    enabled: userId !== null,
  });
}

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
      queryClient.invalidateQueries({ queryKey: savedSearchKeys.list(input.userId, input.type) }),
  });
}

/** DELETE /api/users/{userId}/searches/ with the search id in the body. */
export function deleteSavedSearch(input: { userId: number; searchId: number; type: SearchType }) {
  return apiJson(`/users/${input.userId}/searches/`, MessageResponse, {
    method: 'DELETE',
    body: { searchId: input.searchId },
  });
}

export function useDeleteSavedSearchMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSavedSearch,
    onSuccess: (_answer, input) =>
      queryClient.invalidateQueries({ queryKey: savedSearchKeys.list(input.userId, input.type) }),
  });
}
