import { StudySummaryRow } from '@accord/contracts';
import { fetchResultPage, useResultPageQuery, type ResultQueryOptions } from './result-page.ts';
import type { ResultPageParams } from './keys.ts';

/** POST /api/smartsearch/study_summarises?page=&per_page=. */
export function getStudySummaries(params: ResultPageParams, signal?: AbortSignal) {
  return fetchResultPage('/smartsearch/study_summarises', StudySummaryRow, params, signal);
}

export function useStudySummariesQuery(params: ResultPageParams | null, options: ResultQueryOptions) {
  return useResultPageQuery('summaries', params, getStudySummaries, options);
}
