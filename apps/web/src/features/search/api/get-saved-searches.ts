import { SavedSearch, type SearchType } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { searchKeys } from './keys.ts';

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
    queryKey: searchKeys.saved(userId ?? 0, type),
    queryFn: ({ signal }) => getSavedSearches(userId ?? 0, type, signal),
    enabled: userId !== null,
  });
}
