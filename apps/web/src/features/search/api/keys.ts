import type { ResultSortKey, SearchFileTab, SearchType, StudySearchQuery } from '@accord/contracts';

export type ResultTab = 'summaries' | 'fragrances' | 'concepts' | Exclude<SearchFileTab, 'RDF' | 'report'>;

export interface ResultPageParams {
  query: StudySearchQuery;
  page: number;
  perPage: number;
  /** The column the rows are sorted by; without it, newest studies first. */
  sort?: ResultSort;
}

/** A result table's sort: a row field and its direction. */
export interface ResultSort {
  key: ResultSortKey;
  order: 'asc' | 'desc';
}

/**
 * Query keys of the study search. Every key under `all` is search data that a bulk edit refreshes;
 * saved searches live under their own root so a refresh of results leaves them alone.
 */
export const searchKeys = {
  all: ['search'] as const,
  counts: (query: StudySearchQuery) => [...searchKeys.all, 'counts', query] as const,
  options: (query: StudySearchQuery) => [...searchKeys.all, 'options', query] as const,
  results: () => [...searchKeys.all, 'results'] as const,
  tab: (tab: ResultTab, params: ResultPageParams) => [...searchKeys.results(), tab, params] as const,
  saved: (userId: number, type: SearchType) => ['saved-searches', userId, type] as const,
};
