import { LibraryCounts } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { searchKeys } from './keys.ts';

/** GET /api/smartsearch/count: what the library holds for you, without filters. */
export function getLibraryCounts(signal?: AbortSignal): Promise<LibraryCounts> {
  return apiJson('/smartsearch/count', LibraryCounts, { signal });
}

export function useLibraryCountsQuery() {
  return useQuery({
    queryKey: [...searchKeys.all, 'library-count'],
    queryFn: ({ signal }) => getLibraryCounts(signal),
    staleTime: 60_000,
  });
}
