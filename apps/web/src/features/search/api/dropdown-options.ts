import { DropdownOptionsResponse, type StudySearchQuery } from '@accord/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { BLANK_FULL_QUERY } from './search-counts.ts';
import { searchKeys } from './keys.ts';

/** POST /api/smartsearch/dropdown_options: option lists with counts and the dependent lists. */
export function getDropdownOptions(
  query: StudySearchQuery,
  signal?: AbortSignal,
): Promise<DropdownOptionsResponse> {
  return apiJson('/smartsearch/dropdown_options', DropdownOptionsResponse, {
    method: 'POST',
    body: { query, full_query: BLANK_FULL_QUERY },
    signal,
  });
}

/** Refreshed after each change of the filters; the previous lists stay while the next load. */
export function useDropdownOptionsQuery(query: StudySearchQuery) {
  return useQuery({
    queryKey: searchKeys.options(query),
    queryFn: ({ signal }) => getDropdownOptions(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
