/**
 * The filter model of the Advanced Analytics screen (document 3 section 3.1, document 2 section 3
 * "Study filter model"): the editable state, its defaults, the MetricSearchRequest it becomes, the
 * emptiness rule of saving, and reading a request back (a saved search, a wizard's navigation state).
 */
import {
  ANALYTICS_AGE_RANGE,
  type Aggregation,
  type MetricSearchRequest,
  type RdfType,
} from '@accord/contracts';

export type SearchKind = 'fragrances' | 'concepts';

export interface MetricEntryState {
  /** Local key of the row (React list key); never sent. */
  key: number;
  metricType: string | null;
  metric: string | null;
  aggregation: Aggregation | null;
  /** 'use this metric' for significance. */
  confidence: boolean;
  /** The entry's own best/worst threshold; when applied it replaces the global one for this metric. */
  threshold: ThresholdState;
}

export interface ThresholdState {
  applyThreshold: boolean;
  amount: number;
  /** true: best (highest values); false: worst. */
  desc: boolean;
  type: 'fragrances' | 'percentage';
}

export interface AnalyticsFilters {
  type: SearchKind;
  essentials: {
    client: string[];
    region: string[];
    businessUnit: string[];
    category: string[];
    product: string[];
    startYear: number | null;
    endYear: number | null;
  };
  fragranceDetails: { family: string[]; fragranceName: string };
  demographics: {
    ethnicity: string[];
    gender: string[];
    startAge: number | null;
    endAge: number | null;
  };
  metrics: { rdfType: RdfType; threshold: ThresholdState; metricsList: MetricEntryState[] };
}

let nextKey = 1;
function newKey(): number {
  nextKey += 1;
  return nextKey;
}

export function emptyMetricEntry(): MetricEntryState {
  return {
    key: newKey(),
    metricType: null,
    metric: null,
    aggregation: null,
    confidence: false,
    threshold: defaultThreshold(),
  };
}

/** Default threshold of an added entry (document 3 section 9): 10, best first, a number of products. */
export function defaultThreshold(): ThresholdState {
  return { applyThreshold: false, amount: 10, desc: true, type: 'fragrances' };
}

export function defaultFilters(): AnalyticsFilters {
  return {
    type: 'fragrances',
    essentials: {
      client: [],
      region: [],
      businessUnit: [],
      category: [],
      product: [],
      startYear: null,
      endYear: null,
    },
    fragranceDetails: { family: [], fragranceName: '' },
    demographics: { ethnicity: [], gender: [], startAge: null, endAge: null },
    metrics: { rdfType: 'all', threshold: defaultThreshold(), metricsList: [emptyMetricEntry()] },
  };
}

export interface YearRange {
  min: number;
  max: number;
}

/** A metric entry complete enough to be sent: a metric and an aggregation. */
export function isCompleteEntry(
  entry: MetricEntryState,
): entry is MetricEntryState & { metric: string; aggregation: Aggregation } {
  return Boolean(entry.metric) && entry.aggregation !== null;
}

function compactGroup(values: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    entries[key] = typeof value === 'string' ? value.trim() : value;
  }
  return Object.keys(entries).length > 0 ? entries : undefined;
}

/**
 * The search request of the filters: only values that are set, the year range dropped when it is
 * the full range, the age range dropped when it is the slider's full range, incomplete metric rows
 * dropped (missing confidence flags are false). Null when no metric row is complete (nothing to search).
 */
export function toSearchRequest(
  filters: AnalyticsFilters,
  years?: YearRange | null,
): (MetricSearchRequest & { type: SearchKind }) | null {
  const request = buildRequest(filters, years);
  return request.q.metrics.metricsList.length > 0 ? request : null;
}

/** The request shape of the filters, also with no complete metric row (what a saved search keeps). */
export function buildRequest(
  filters: AnalyticsFilters,
  years?: YearRange | null,
): MetricSearchRequest & { type: SearchKind } {
  const metricsList = filters.metrics.metricsList.filter(isCompleteEntry).map((entry) => ({
    ...(entry.metricType ? { metricType: entry.metricType } : {}),
    metric: entry.metric,
    aggregation: entry.aggregation,
    confidence: entry.confidence,
    ...(entry.threshold.applyThreshold ? { applyThreshold: true, threshold: { ...entry.threshold } } : {}),
  }));
  const essentials = { ...filters.essentials };
  if (years) {
    if (essentials.startYear !== null && essentials.startYear <= years.min) essentials.startYear = null;
    if (essentials.endYear !== null && essentials.endYear >= years.max) essentials.endYear = null;
  }
  const demographics = { ...filters.demographics };
  if (
    (demographics.startAge ?? ANALYTICS_AGE_RANGE.min) <= ANALYTICS_AGE_RANGE.min &&
    (demographics.endAge ?? ANALYTICS_AGE_RANGE.max) >= ANALYTICS_AGE_RANGE.max
  ) {
    demographics.startAge = null;
    demographics.endAge = null;
  }
  const q: Record<string, unknown> = {};
  const essentialsGroup = compactGroup(essentials);
  if (essentialsGroup) q.essentials = essentialsGroup;
  const fragranceGroup = compactGroup(filters.fragranceDetails);
  if (fragranceGroup) q.fragranceDetails = fragranceGroup;
  const demographicsGroup = compactGroup(demographics);
  if (demographicsGroup) q.demographics = demographicsGroup;
  const threshold = filters.metrics.threshold;
  q.metrics = {
    rdfType: filters.metrics.rdfType,
    useConcepts: filters.type === 'concepts',
    ...(threshold.applyThreshold ? { threshold: { ...threshold } } : {}),
    metricsList,
  };
  return { type: filters.type, q: q as MetricSearchRequest['q'] };
}

/**
 * Whether the filters hold a value a user chose (document 3 section 5): a study or respondent
 * filter, a chosen metric, or an applied threshold. The search type and rdf type alone do not count.
 */
export function hasFilterValues(filters: AnalyticsFilters): boolean {
  const { essentials, fragranceDetails, demographics, metrics } = filters;
  const groups = [essentials, fragranceDetails, demographics];
  const anyValue = groups.some((group) =>
    Object.values(group).some((value) =>
      Array.isArray(value)
        ? value.length > 0
        : typeof value === 'string'
          ? value.trim() !== ''
          : value !== null,
    ),
  );
  return (
    anyValue ||
    metrics.metricsList.some((entry) => Boolean(entry.metric) || entry.threshold.applyThreshold) ||
    metrics.threshold.applyThreshold
  );
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** A threshold read back from a request; missing or wrong values take the defaults. */
function thresholdFrom(value: unknown): ThresholdState {
  const threshold = record(value);
  return {
    applyThreshold: threshold.applyThreshold === true,
    amount: numberOrNull(threshold.amount) ?? 10,
    desc: threshold.desc !== false,
    type: threshold.type === 'percentage' ? 'percentage' : 'fragrances',
  };
}

/** A threshold in words: 'Best 10', 'Worst 5 %'. */
export function describeThreshold(threshold: ThresholdState): string {
  return `${threshold.desc ? 'Best' : 'Worst'} ${threshold.amount}${threshold.type === 'percentage' ? ' %' : ''}`;
}

/**
 * The editable filters of a search request (a saved analytics search, a wizard's navigation state or
 * the URL). Accepts the whole request ({ type, q }) or the filters alone ({ essentials, metrics, ... });
 * unknown keys and wrongly typed values are ignored, so an old or hand-made link cannot break the screen.
 */
export function filtersFromRequest(input: unknown): AnalyticsFilters {
  const filters = defaultFilters();
  const source = record(input);
  const query = 'q' in source ? record(source.q) : source;
  if (source.type === 'concepts' || source.type === 'fragrances') filters.type = source.type;
  const essentials = record(query.essentials);
  filters.essentials = {
    client: strings(essentials.client),
    region: strings(essentials.region),
    businessUnit: strings(essentials.businessUnit),
    category: strings(essentials.category),
    product: strings(essentials.product),
    startYear: numberOrNull(essentials.startYear),
    endYear: numberOrNull(essentials.endYear),
  };
  const fragrance = record(query.fragranceDetails);
  filters.fragranceDetails = {
    family: strings(fragrance.family),
    fragranceName: typeof fragrance.fragranceName === 'string' ? fragrance.fragranceName : '',
  };
  const demographics = record(query.demographics);
  filters.demographics = {
    ethnicity: strings(demographics.ethnicity),
    gender: strings(demographics.gender),
    startAge: numberOrNull(demographics.startAge),
    endAge: numberOrNull(demographics.endAge),
  };
  const metrics = record(query.metrics);
  const rdfType = metrics.rdfType;
  if (rdfType === 'all' || rdfType === 'rdf' || rdfType === 'eeg' || rdfType === 'irt')
    filters.metrics.rdfType = rdfType;
  if (metrics.useConcepts === true && !('type' in source)) filters.type = 'concepts';
  filters.metrics.threshold = thresholdFrom(metrics.threshold);
  const list = Array.isArray(metrics.metricsList) ? metrics.metricsList.map(record) : [];
  const entries = list
    .filter((entry) => typeof entry.metric === 'string' && entry.metric !== '')
    .map((entry) => ({
      key: newKey(),
      metricType: typeof entry.metricType === 'string' ? entry.metricType : null,
      metric: entry.metric as string,
      aggregation: typeof entry.aggregation === 'string' ? (entry.aggregation as Aggregation) : null,
      confidence: entry.confidence === true,
      threshold: {
        ...thresholdFrom(entry.threshold),
        applyThreshold: entry.applyThreshold === true && entry.threshold !== undefined,
      },
    }));
  filters.metrics.metricsList = entries.length > 0 ? entries : [emptyMetricEntry()];
  return filters;
}

/** Reads filters from JSON text (a saved search's metadata_query); bad JSON gives the defaults. */
export function parseFiltersText(text: string | null | undefined): AnalyticsFilters {
  if (!text) return defaultFilters();
  try {
    return filtersFromRequest(JSON.parse(text));
  } catch {
    return defaultFilters();
  }
}

/** Whether any complete metric row has its confidence flag on (significance needs one). */
export function hasConfidenceMetric(request: MetricSearchRequest | null): boolean {
  return Boolean(request?.q.metrics.metricsList.some((entry) => entry.confidence));
}

const SUMMARY_LABELS: Record<string, string> = {
  'essentials.client': 'Client',
  'essentials.region': 'Region',
  'essentials.businessUnit': 'Business Unit',
  'essentials.category': 'Category',
  'essentials.product': 'Product',
  'fragranceDetails.family': 'Family',
  'fragranceDetails.fragranceName': 'Fragrance Name',
  'demographics.gender': 'Gender',
  'demographics.ethnicity': 'Ethnicity',
};

/**
 * One line per non-empty filter, for the saved-search summary: search type, metrics, study and
 * respondent filters, the year and age ranges and the threshold.
 */
export function summariseFilters(filters: AnalyticsFilters): { id: string; label: string; value: string }[] {
  const lines: { id: string; label: string; value: string }[] = [
    { id: 'type', label: 'Search', value: filters.type === 'concepts' ? 'Concepts' : 'Fragrances' },
  ];
  if (filters.metrics.rdfType !== 'all')
    lines.push({ id: 'rdfType', label: 'Study type', value: filters.metrics.rdfType.toUpperCase() });
  const metrics = filters.metrics.metricsList.filter(isCompleteEntry);
  if (metrics.length > 0)
    lines.push({
      id: 'metrics',
      label: 'Metrics',
      value: metrics
        .map(
          (entry) =>
            `${entry.metric} (${entry.aggregation}${entry.confidence ? ', use this metric' : ''}${
              entry.threshold.applyThreshold ? `, ${describeThreshold(entry.threshold).toLowerCase()}` : ''
            })`,
        )
        .join(', '),
    });
  for (const [group, values] of [
    ['essentials', filters.essentials],
    ['fragranceDetails', filters.fragranceDetails],
    ['demographics', filters.demographics],
  ] as const) {
    for (const [key, value] of Object.entries(values)) {
      const label = SUMMARY_LABELS[`${group}.${key}`];
      if (!label) continue;
      const text = Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value.trim() : '';
      if (text) lines.push({ id: `${group}.${key}`, label, value: text });
    }
  }
  const { startYear, endYear } = filters.essentials;
  if (startYear !== null || endYear !== null)
    lines.push({ id: 'year', label: 'Year', value: `${startYear ?? '…'} – ${endYear ?? '…'}` });
  const { startAge, endAge } = filters.demographics;
  if (startAge !== null || endAge !== null)
    lines.push({
      id: 'age',
      label: 'Age',
      value: `${startAge ?? ANALYTICS_AGE_RANGE.min} – ${endAge ?? ANALYTICS_AGE_RANGE.max}`,
    });
  const threshold = filters.metrics.threshold;
  if (threshold.applyThreshold)
    lines.push({
      id: 'threshold',
      label: 'Threshold',
      value: describeThreshold(threshold),
    });
  return lines;
}
