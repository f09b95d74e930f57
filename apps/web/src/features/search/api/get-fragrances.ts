import { FragranceRow } from '@accord/contracts';
import { fetchResultPage, useResultPageQuery, type ResultQueryOptions } from './result-page.ts';
import type { ResultPageParams } from './keys.ts';

/** POST /api/smartsearch/fragrances?page=&per_page=. */
export function getFragrances(params: ResultPageParams, signal?: AbortSignal) {
  return fetchResultPage('/smartsearch/fragrances', FragranceRow, params, signal);
}

export function useFragrancesQuery(params: ResultPageParams | null, options: ResultQueryOptions) {
  return useResultPageQuery('fragrances', params, getFragrances, options);
}
