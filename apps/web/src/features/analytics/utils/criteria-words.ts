/**
 * The analytics search's criteria in words for the collapsed filter card: the metrics by their
 * names, then the filters as the downloaded workbooks word them ("Region: Europe; Gender: Female;
 * Age: 25 to 44", or "No filters"), through the wording the server's files use.
 */
import {
  AGGREGATION_LABELS,
  STUDY_TYPE_LABELS,
  joinedOrNone,
  respondentFiltersInWords,
  studyFiltersInWords,
} from '@accord/contracts';
import { buildRequest, isCompleteEntry, type AnalyticsFilters, type YearRange } from './filters.ts';

export interface CriteriaWords {
  /** "Fragrances: Mean Overall Liking, T2B Freshness". */
  metrics: string;
  /** "Region: Europe; Category: Fabric Care; Gender: Female; Age: 25 to 44", or "No filters". */
  filters: string;
}

/** The criteria of the filters; `metricName` names a metric key as the metric list offers it. */
export function criteriaInWords(
  filters: AnalyticsFilters,
  years: YearRange | null | undefined,
  metricName: (metric: string) => string,
): CriteriaWords {
  const kind = filters.type === 'concepts' ? 'Concepts' : 'Fragrances';
  const chosen = filters.metrics.metricsList.filter(isCompleteEntry);
  const metrics = `${kind}: ${
    chosen
      .map((entry) => `${AGGREGATION_LABELS[entry.aggregation]} ${metricName(entry.metric)}`)
      .join(', ') || 'no metric chosen'
  }`;
  const { q } = buildRequest(filters, years);
  const rdfType = filters.metrics.rdfType;
  const words = [...studyFiltersInWords(q), ...respondentFiltersInWords(q.demographics)];
  if (rdfType !== 'all') words.push(`Study type: ${STUDY_TYPE_LABELS[rdfType]}`);
  return { metrics, filters: joinedOrNone(words) };
}
