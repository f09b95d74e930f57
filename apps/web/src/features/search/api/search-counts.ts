import { SearchCounts, type StudySearchQuery } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { searchKeys } from './keys.ts';

/** The study search sends the file search details blank (document 2 section 7). */
export const BLANK_FULL_QUERY = { file_type: '', search_phrase: '' } as const;

/** POST /api/smartsearch/: the count badges of every result tab. */
export function getSearchCounts(query: StudySearchQuery, signal?: AbortSignal): Promise<SearchCounts> {
  return apiJson('/smartsearch/', SearchCounts, {
    method: 'POST',
    body: { query, full_query: BLANK_FULL_QUERY },
    signal,
  });
}

/** Counts of the search that ran; null while no search has run. Cached unless `noCache`. */
export function useSearchCountsQuery(query: StudySearchQuery | null, options: { noCache?: boolean } = {}) {
  return useQuery({
    queryKey: searchKeys.counts(query ?? {}),
    queryFn: ({ signal }) => getSearchCounts(query ?? {}, signal),
    enabled: query !== null,
    staleTime: options.noCache ? 0 : Infinity,
  });
}
