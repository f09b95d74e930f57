/**
 * The filters of an analytics download in words, as a client reads them in the file's header block:
 * "Region: Europe; Category: Fabric Care; Gender: Female; Age: 18 to 34", or "No filters". Study
 * filters read as the filter screens label them (search-words.ts); respondent filters as the
 * analytics panel and the results filter label them.
 */
import type {
  AnalyticsDemographicsFilter,
  DemographicCondition,
  MetricSearchResult,
  RdfType,
  Threshold,
} from '@accord/contracts';
import { studyFiltersInWords, type SearchFilters } from '../search/search-words.ts';

export { studyFiltersInWords };

/** What a search without any filter says. */
export const NO_FILTERS = 'No filters';

/** The respondent fields as the analytics panel and the results filter label them. */
export const RESPONDENT_LABELS: Record<DemographicCondition['field'], string> = {
  gender: 'Gender',
  ethnicity: 'Ethnicity',
  social_class: 'Social Class',
  bumo: 'Brand Used Most Often',
  age: 'Age',
};

/** The analytics panel's study types. */
export const STUDY_TYPE_LABELS: Record<RdfType, string> = {
  all: 'All',
  rdf: 'Traditional',
  eeg: 'EEG',
  irt: 'IRT',
};

/** An age range in words ("Age: 18 to 34", "Age: from 18", "Age: 30"); null when open both ends. */
function ageInWords(from: number | null | undefined, to: number | null | undefined): string | null {
  if (from == null && to == null) return null;
  const label = RESPONDENT_LABELS.age;
  if (from != null && to != null) return from === to ? `${label}: ${from}` : `${label}: ${from} to ${to}`;
  return from != null ? `${label}: from ${from}` : `${label}: up to ${to}`;
}

/** The respondent filters of the analytics panel (gender, ethnicity, social class, brand, age). */
export function respondentFiltersInWords(
  demographics: AnalyticsDemographicsFilter | null | undefined,
): string[] {
  if (!demographics) return [];
  const words: string[] = [];
  const lists: [keyof AnalyticsDemographicsFilter, string][] = [
    ['gender', RESPONDENT_LABELS.gender],
    ['ethnicity', RESPONDENT_LABELS.ethnicity],
    ['socialClass', RESPONDENT_LABELS.social_class],
    ['bumo', RESPONDENT_LABELS.bumo],
  ];
  for (const [key, label] of lists) {
    const values = demographics[key];
    if (Array.isArray(values) && values.length > 0) words.push(`${label}: ${values.join(', ')}`);
  }
  const age = ageInWords(demographics.startAge, demographics.endAge);
  if (age) words.push(age);
  return words;
}

/** Demographic conditions (a profile's, the results filter's), AND-ed, each as "Label: value". */
export function conditionsInWords(conditions: readonly DemographicCondition[]): string[] {
  return conditions.map((condition) =>
    condition.field === 'age'
      ? ageInWords(condition.filter.from, condition.filter.to)!
      : `${RESPONDENT_LABELS[condition.field]}: ${condition.filter.value}`,
  );
}

/** Words joined into the header's line, or "No filters". */
export function joinedOrNone(words: readonly string[]): string {
  return words.length === 0 ? NO_FILTERS : words.join('; ');
}

/** The search's filters in one line: study filters, then respondent filters, or "No filters". */
export function filtersInWords(
  query: SearchFilters & { demographics?: AnalyticsDemographicsFilter | null },
  respondents = true,
): string {
  return joinedOrNone([
    ...studyFiltersInWords(query),
    ...(respondents ? respondentFiltersInWords(query.demographics) : []),
  ]);
}

/** A threshold in words: "best 10 fragrances", "worst 5 % of concepts". */
export function thresholdInWords(threshold: Threshold, kind: 'fragrances' | 'concepts'): string {
  const order = threshold.desc ? 'best' : 'worst';
  return threshold.type === 'percentage'
    ? `${order} ${threshold.amount} % of ${kind}`
    : `${order} ${threshold.amount} ${threshold.amount === 1 ? kind.slice(0, -1) : kind}`;
}

type MetricColumn = MetricSearchResult['columns'][number];

/** The metric entries of a search as far as its words need them. */
export interface MetricEntryWords {
  metric: string;
  aggregation: string;
  applyThreshold?: boolean;
  threshold?: Threshold | null;
}

/**
 * The metrics in words, each with its own threshold ("T2B Overall Liking (best 10 fragrances)"),
 * and the threshold over the others, if any.
 */
export function metricsInWords(
  columns: readonly MetricColumn[],
  heading: (column: MetricColumn) => string,
  entries: readonly MetricEntryWords[],
  global: Threshold | null | undefined,
  kind: 'fragrances' | 'concepts',
): { metrics: string; threshold: string | null } {
  const ownOf = (column: MetricColumn) =>
    entries.find(
      (entry) =>
        entry.metric === column.metric &&
        entry.aggregation === column.aggregation &&
        entry.applyThreshold === true &&
        entry.threshold,
    )?.threshold ?? null;
  const metrics =
    columns
      .map((column) => {
        const own = ownOf(column);
        return own ? `${heading(column)} (${thresholdInWords(own, kind)})` : heading(column);
      })
      .join(', ') || 'none';
  const joint = columns.filter((column) => ownOf(column) === null);
  const threshold =
    global?.applyThreshold && joint.length > 0
      ? `${thresholdInWords(global, kind)} by ${joint.map(heading).join(', ')}${joint.length > 1 ? ' (ranked jointly)' : ''}`
      : null;
  return { metrics, threshold };
}
