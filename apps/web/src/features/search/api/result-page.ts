import type { PageInfo, StudySearchQuery } from '@accord/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiJsonWithHeaders } from '../../../lib/api-client.ts';
import { pageInfoFromHeaders } from '../../../lib/pagination.ts';
import { BLANK_FULL_QUERY } from './search-counts.ts';
import { searchKeys, type ResultPageParams, type ResultTab } from './keys.ts';

export interface ResultPage<Row> {
  rows: Row[];
  pageInfo: PageInfo;
}

/** POSTs the filters to a result table endpoint with the page in the query string. */
export async function fetchResultPage<Schema extends z.ZodType>(
  path: string,
  rowSchema: Schema,
  params: ResultPageParams,
  signal?: AbortSignal,
): Promise<ResultPage<z.infer<Schema>>> {
  const { data, headers } = await apiJsonWithHeaders(path, rowSchema.array(), {
    method: 'POST',
    query: {
      page: params.page,
      per_page: params.perPage,
      ...(params.sort ? { sort: params.sort.key, order: params.sort.order } : {}),
    },
    body: { query: params.query, full_query: BLANK_FULL_QUERY },
    signal,
  });
  const rows = data as z.infer<Schema>[];
  return {
    rows,
    pageInfo: pageInfoFromHeaders(headers, {
      page: params.page,
      perPage: params.perPage,
      count: rows.length,
    }),
  };
}

export interface ResultQueryOptions {
  /** The tab is fetched only once it is activated. */
  enabled: boolean;
  /** no_cache: ask the server every time instead of reusing the cached page. */
  noCache?: boolean;
}

/** One page of a result tab; cached per tab, filters and page unless refreshed. */
export function useResultPageQuery<Row>(
  tab: ResultTab,
  params: ResultPageParams | null,
  fetcher: (params: ResultPageParams, signal?: AbortSignal) => Promise<ResultPage<Row>>,
  options: ResultQueryOptions,
) {
  const effective = params ?? { query: {} as StudySearchQuery, page: 1, perPage: 10 };
  return useQuery({
    queryKey: searchKeys.tab(tab, effective),
    queryFn: ({ signal }) => fetcher(effective, signal),
    enabled: options.enabled && params !== null,
    staleTime: options.noCache ? 0 : Infinity,
    placeholderData: keepPreviousData,
  });
}
