import { FragranceResponse, type FragranceQuery } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';

/** Query keys of the fragrance page. */
export const fragranceKeys = {
  all: ['fragrance'] as const,
  byCode: (code: string, group: FragranceQuery = {}) => [...fragranceKeys.all, code, group] as const,
};

/**
 * GET /api/fragrance/{code}: every test of the code the user may see, pooled within one category and
 * methodology (the group given, or the one with the most studies) or the wider pool chosen; 404 when
 * none.
 */
export function getFragrance(
  code: string,
  group: FragranceQuery = {},
  signal?: AbortSignal,
): Promise<FragranceResponse> {
  const search = new URLSearchParams();
  if (group.category !== undefined) search.set('category', group.category);
  if (group.methodology !== undefined) search.set('methodology', group.methodology);
  if (group.pool !== undefined && group.pool !== 'group') search.set('pool', group.pool);
  const query = search.size > 0 ? `?${search.toString()}` : '';
  return apiJson(`/fragrance/${encodeURIComponent(code)}${query}`, FragranceResponse, { signal });
}

export function useFragranceQuery(code: string, group: FragranceQuery = {}) {
  return useQuery({
    queryKey: fragranceKeys.byCode(code, group),
    queryFn: ({ signal }) => getFragrance(code, group, signal),
    // Another group of the same fragrance keeps the page in place while it loads.
    placeholderData: (previous) => (previous?.code === code ? previous : undefined),
    enabled: code !== '',
    staleTime: 60_000,
    // A 404 (no test the user may see) or a 400 (not a code) is an answer, not a hiccup.
    retry: false,
  });
}
