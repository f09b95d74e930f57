import type { CicsInspectFilter } from '@accord/contracts';

/** Query keys of the CICS screen. */
export const cicsKeys = {
  all: ['cics'] as const,
  options: () => [...cicsKeys.all, 'options'] as const,
  search: (terms: string[], filter: CicsInspectFilter, page: number, perPage: number) =>
    [...cicsKeys.all, 'search', terms, filter, page, perPage] as const,
  question: (id: number, filter: CicsInspectFilter) => [...cicsKeys.all, 'question', id, filter] as const,
};
