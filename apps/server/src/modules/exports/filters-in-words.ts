/**
 * The filters of an analytics download in words, as a client reads them in the file's header block:
 * "Region: Europe; Category: Fabric Care; Gender: Female; Age: 18 to 34", or "No filters". Study
 * filters read as the filter screens label them; respondent filters as the
 * analytics panel and the results filter label them. The wording is shared with the screens
 * (packages/contracts, filters-in-words.ts); the threshold and metric words are the files' own.
 */
import type { MetricSearchResult, Threshold } from '@accord/contracts';

export {
  NO_FILTERS,
  RESPONDENT_LABELS,
  STUDY_TYPE_LABELS,
  conditionsInWords,
  filtersInWords,
  joinedOrNone,
  respondentFiltersInWords,
  studyFiltersInWords,
} from '@accord/contracts';

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
