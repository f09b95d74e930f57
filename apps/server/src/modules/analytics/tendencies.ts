/**
 * The creative and olfactive tendencies: how many fragrances carry each value of a fragrance field.
 */
import {
  NO_TAG,
  type ParsedStudySearchQuery,
  type TendenciesRequest,
  type TendenciesResponse,
} from '@accord/contracts';
import type { z } from 'zod';
import type { AuthUser } from '../../plugins/auth.ts';
import type { AnalyticsContext } from './analytics-context.ts';

/** A tendencies request as its schema parses it. */
export type ParsedTendenciesRequest = z.output<typeof TendenciesRequest>;

/**
 * How many fragrances carry each value of a fragrance field, among the fragrances the filters
 * select (or the chosen ones), most frequent first; fragrances without a value count as 'No tag'.
 */
export async function tendencies(
  context: AnalyticsContext,
  user: AuthUser,
  request: ParsedTendenciesRequest,
): Promise<TendenciesResponse> {
  const { analytics, compileFor, scopeOf } = context;
  const compiled = compileFor(user, request.q as ParsedStudySearchQuery);
  const field = request.data.groupby.slice('perfume_characteristics.'.length);
  const chosenIds = request.frags ? [...new Set(request.frags.map((entry) => entry.id))] : null;
  const perFragrance = await analytics.fragranceValues(
    {
      compiled,
      scope: scopeOf(user),
      kind: 'fragrance',
      rdfType: request.q.metrics?.rdfType ?? 'all',
      productIds: chosenIds,
    },
    field,
  );
  const counts = new Map<string, number>();
  for (const values of perFragrance)
    for (const value of values.length === 0 ? [NO_TAG] : values)
      counts.set(value, (counts.get(value) ?? 0) + 1);
  const total = perFragrance.length;
  let table = [...counts.entries()]
    .map(([name, count]) => ({ name, count, percentage: total === 0 ? 0 : (100 * count) / total }))
    .sort((left, right) => right.count - left.count || left.name.localeCompare(right.name));
  if (request.data.count) table = table.slice(0, request.data.count);
  return {
    table_data: table,
    chart_data: {
      labels: table.map((row) => row.name),
      data: table.map((row) => (request.data.return === 'percentage' ? row.percentage : row.count)),
    },
    total,
  };
}
