import { CicsSearchResponse, type CicsInspectFilter } from '@accord/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { cicsKeys } from './keys.ts';

export const CICS_PAGE_SIZE = 20;

/**
 * POST /api/cics/search_bar/: the questions matching every term that respondents of the geography,
 * gender and age answered, best first (a question several studies ask once), one page.
 */
export function searchQuestions(
  terms: string[],
  filter: CicsInspectFilter,
  page: number,
  perPage: number,
  signal?: AbortSignal,
): Promise<CicsSearchResponse> {
  return apiJson('/cics/search_bar/', CicsSearchResponse, {
    method: 'POST',
    query: { page, per_page: perPage },
    body: { search_terms: terms, q: filter },
    signal,
  });
}

/** The search that ran (null: none yet). */
export function useQuestionSearchQuery(terms: string[] | null, filter: CicsInspectFilter, page: number) {
  return useQuery({
    queryKey: cicsKeys.search(terms ?? [], filter, page, CICS_PAGE_SIZE),
    queryFn: ({ signal }) => searchQuestions(terms ?? [], filter, page, CICS_PAGE_SIZE, signal),
    enabled: terms !== null && terms.length > 0,
    placeholderData: keepPreviousData,
  });
}
