import { ConceptRow } from '@accord/contracts';
import { fetchResultPage, useResultPageQuery, type ResultQueryOptions } from './result-page.ts';
import type { ResultPageParams } from './keys.ts';

/** POST /api/smartsearch/concepts?page=&per_page= (admins only). */
export function getConcepts(params: ResultPageParams, signal?: AbortSignal) {
  return fetchResultPage('/smartsearch/concepts', ConceptRow, params, signal);
}

export function useConceptsQuery(params: ResultPageParams | null, options: ResultQueryOptions) {
  return useResultPageQuery('concepts', params, getConcepts, options);
}
