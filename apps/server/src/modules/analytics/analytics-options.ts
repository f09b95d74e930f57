/**
 * The analytics options: demographic values with respondent counts, the metrics with their
 * aggregations and study counts, the age and year ranges; and the metric options under filters.
 */
import {
  AGGREGATION_LABELS,
  AGGREGATIONS,
  AGGREGATIONS_BY_METRIC_KIND,
  OFFERED_AGGREGATIONS_BY_METRIC_KIND,
  ANALYTICS_AGE_RANGE,
  StudySearchQuery,
  type AnalyticsOptionsResponse,
  type ParsedStudySearchQuery,
} from '@accord/contracts';
import type { AuthUser } from '../../plugins/auth.ts';
import { mergeOptions } from '../fields/fields.presenter.ts';
import { compileFilters } from '../search/search-filters.ts';
import type { AnalyticsContext } from './analytics-context.ts';
import type { MetricRecord } from './analytics-types.ts';

/** Demographic options with respondent counts, metrics with their aggregations, age and year ranges. */
export async function computeOptions(
  context: AnalyticsContext,
  user: AuthUser,
): Promise<AnalyticsOptionsResponse> {
  const { analytics, fields, scopeOf, metricCatalogue } = context;
  const scope = scopeOf(user);
  const [definitions, counts, ranges, metricList, metricCounts] = await Promise.all([
    fields.definitions(),
    analytics.demographicCounts(scope),
    analytics.ageAndYearRange(scope),
    metricCatalogue(),
    analytics.metricStudyCounts(compileFilters(StudySearchQuery.parse({})), scope, 'all'),
  ]);
  const demographics = definitions
    .filter((def) => def.fieldGroup === 'demographics')
    .map((def) => ({
      field: def.field,
      label: def.label,
      type: def.type,
      multivalue: def.multivalue,
      editable: def.editable,
      tag_group: def.tagGroup,
      options: mergeOptions(def, counts.get(def.field)),
    }));
  return {
    data: {
      fields: {
        demographics,
        metrics: metricOptions(metricList, metricCounts),
        aggregation_metadata: aggregationGroups(),
        metrics_range: {
          age: {
            min: Math.max(ANALYTICS_AGE_RANGE.min, ranges.minAge ?? ANALYTICS_AGE_RANGE.min),
            max: Math.min(ANALYTICS_AGE_RANGE.max, ranges.maxAge ?? ANALYTICS_AGE_RANGE.max),
          },
        },
        metadata: {
          year: {
            min: ranges.minYear ?? new Date().getFullYear(),
            max: ranges.maxYear ?? new Date().getFullYear(),
          },
        },
      },
    },
  };
}

/** Metric options with the studies counted under the filters and study kind. */
export async function metricOptionsFor(
  context: AnalyticsContext,
  user: AuthUser,
  query: ParsedStudySearchQuery,
  rdfType: 'all' | 'rdf' | 'eeg' | 'irt',
  implicitOnly: boolean,
) {
  const { analytics, compileFor, scopeOf, metricCatalogue } = context;
  const compiled = compileFor(user, query);
  const [metricList, counts] = await Promise.all([
    metricCatalogue(),
    analytics.metricStudyCounts(compiled, scopeOf(user), rdfType),
  ]);
  return metricOptions(
    metricList.filter((metric) => !implicitOnly || metric.kind === 'implicit'),
    counts,
  ).filter((option) => option.count > 0);
}

function metricOptions(metricList: MetricRecord[], counts: Map<number, number>) {
  return metricList.map((metric) => ({
    type: metric.metricType,
    name: metric.label,
    field: metric.name,
    kind: metric.kind,
    aggregations: [...OFFERED_AGGREGATIONS_BY_METRIC_KIND[metric.kind]],
    count: counts.get(metric.id) ?? 0,
  }));
}

/** The aggregations offered per metric type, labelled as the metrics table heads them. */
function aggregationGroups(): AnalyticsOptionsResponse['data']['fields']['aggregation_metadata'] {
  const groups: { category: string; label: string; kind: keyof typeof AGGREGATIONS_BY_METRIC_KIND }[] = [
    { category: 'Performance', label: 'Performance', kind: 'hedonic' },
    { category: 'Attribute', label: 'Attributes', kind: 'hedonic' },
    { category: 'EEG', label: 'EEG (Genisys)', kind: 'eeg' },
    { category: 'Implicit', label: 'Implicit (IRT)', kind: 'implicit' },
  ];
  return groups.map((group) => ({
    category: group.category,
    label: group.label,
    options: AGGREGATIONS.filter((aggregation) =>
      AGGREGATIONS_BY_METRIC_KIND[group.kind].includes(aggregation),
    ).map((aggregation) => ({ field: aggregation, label: AGGREGATION_LABELS[aggregation] })),
  }));
}
