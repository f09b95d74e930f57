import { AnalyticsOptionsResponse, ANALYTICS_AGE_RANGE, type FieldDefinition } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { getFields } from '../../../lib/api/get-fields.ts';
import { profileKeys } from './keys.ts';

export interface DemographicOptions {
  demographics: FieldDefinition[];
  age: { min: number; max: number };
}

/**
 * The demographic categories and values of the profile filter. Users with analytics access read
 * GET /api/analytics/options (values with respondent counts and the age range); the others, who may
 * not call it, read the same definitions from GET /api/smartsearch/fields.
 */
export async function getDemographicOptions(
  withAnalytics: boolean,
  signal?: AbortSignal,
): Promise<DemographicOptions> {
  if (withAnalytics) {
    const options = await apiJson('/analytics/options', AnalyticsOptionsResponse, { signal });
    return { demographics: options.data.fields.demographics, age: options.data.fields.metrics_range.age };
  }
  const fields = await getFields(signal);
  return { demographics: fields.demographics, age: { ...ANALYTICS_AGE_RANGE } };
}

export function useDemographicOptionsQuery(withAnalytics: boolean) {
  return useQuery({
    queryKey: profileKeys.demographicOptions(withAnalytics),
    queryFn: ({ signal }) => getDemographicOptions(withAnalytics, signal),
    staleTime: 5 * 60_000,
  });
}
