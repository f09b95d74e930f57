import type { ProfileResponse, ProfileRow } from '@accord/contracts';

/** What a missing number shows (document 2 section 9). */
export const MISSING = '-';
/** What a placeholder row of a required metric shows. */
export const NOT_AVAILABLE = 'N/A';

export type ProfileValueKey = 'mean' | 'top_box' | 'top_2_box' | 'just_right' | 'bottom_box' | 'bottom_2_box';
export type ProfileTableKind = 'performance' | 'strength' | 'attributes' | 'genisys' | 'other';

export interface ProfileColumn {
  key: 'metric_type' | 'metric_name' | ProfileValueKey;
  label: string;
}

const VALUE_KEYS: ProfileValueKey[] = [
  'mean',
  'top_box',
  'top_2_box',
  'just_right',
  'bottom_box',
  'bottom_2_box',
];

const BOX_LABELS: Record<Exclude<ProfileValueKey, 'mean'>, string> = {
  top_box: 'Top Box',
  top_2_box: 'Top 2 Box',
  just_right: 'Neutral',
  bottom_box: 'Bottom Box',
  bottom_2_box: 'Bottom 2 Box',
};

/** The strength (JAR) metric reads its boxes as too strong ... too weak (METRICS.md section 1). */
const STRENGTH_LABELS: Record<Exclude<ProfileValueKey, 'mean'>, string> = {
  top_box: 'Too strong',
  top_2_box: 'Strong',
  just_right: 'Just right',
  bottom_box: 'Too weak',
  bottom_2_box: 'Weak',
};

/**
 * The columns of a profile table in the order of document 2 section 9: type, metric, mean, then the
 * boxes. The strength table heads its boxes Strong / Too strong / Too weak / Weak; the others head
 * just_right 'Neutral'. The Genisys (EEG) table has means only.
 */
export function profileColumns(kind: ProfileTableKind): ProfileColumn[] {
  const start: ProfileColumn[] = [
    { key: 'metric_type', label: 'Type' },
    { key: 'metric_name', label: 'Metric' },
    { key: 'mean', label: 'Mean' },
  ];
  if (kind === 'genisys') return start;
  const labels = kind === 'strength' ? STRENGTH_LABELS : BOX_LABELS;
  return [
    ...start,
    ...VALUE_KEYS.filter((key) => key !== 'mean').map((key) => ({
      key,
      label: labels[key as Exclude<ProfileValueKey, 'mean'>],
    })),
  ];
}

/** A mean with 2 decimals, a box as a rounded percentage, N/A as is, anything missing as '-'. */
export function formatProfileValue(
  value: ProfileRow[ProfileValueKey] | undefined,
  key: ProfileValueKey,
): string {
  if (value === 'N/A') return NOT_AVAILABLE;
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  if (key === 'mean') return value.toFixed(2);
  return `${Math.round(value * 100)}%`;
}

/** A metric name, marked '*' when it is a binary (CATA) scale. */
export function metricLabel(row: ProfileRow): string {
  return row.is_binary_scale ? `${row.metric_name}*` : row.metric_name;
}

/** A header value, '-' when missing or 'nan' (document 2 section 2). */
export function headerValue(value: string | null | undefined): string {
  if (value === null || value === undefined) return MISSING;
  const trimmed = value.trim();
  return trimmed === '' || trimmed.toLowerCase() === 'nan' ? MISSING : trimmed;
}

export interface ProfileTables {
  performance: ProfileRow[];
  strength: ProfileRow[];
  attributes: ProfileRow[];
  genisys: ProfileRow[];
  other: ProfileRow[];
}

/** Splits the rows into the tables of the page: performance (without strength), strength, attributes, Genisys (EEG), other. */
export function splitProfileRows(rows: ProfileRow[]): ProfileTables {
  const tables: ProfileTables = { performance: [], strength: [], attributes: [], genisys: [], other: [] };
  for (const row of rows) {
    if (row.metric_type === 'Performance') {
      (row.metric === 'strength' ? tables.strength : tables.performance).push(row);
    } else if (row.metric_type === 'Attribute') tables.attributes.push(row);
    else if (row.metric_type === 'EEG') tables.genisys.push(row);
    else tables.other.push(row);
  }
  return tables;
}

/** Rows whose metric name, key or type contains the text (case-insensitive); all rows for an empty text. */
export function filterProfileRows(rows: ProfileRow[], text: string): ProfileRow[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return rows;
  return rows.filter((row) =>
    [row.metric_name, row.metric, row.metric_type].some((value) => value.toLowerCase().includes(needle)),
  );
}

/** The base of a row as hover text: the number of answers, or why there is none. */
export function baseText(row: ProfileRow): string {
  if (row.mean === 'N/A') return 'No answers for this metric (n = 0)';
  return `Base: n = ${row.n}`;
}

/** True when any row is on a binary (CATA) scale: the page then adds the no-neutral-scores footnote. */
export function hasBinaryScale(rows: ProfileRow[]): boolean {
  return rows.some((row) => row.is_binary_scale);
}

/** The time-series metrics the response holds data for, in the order it lists them. */
/** The EEG metrics of the time series by name, where the profile rows do not name them. */
export const EEG_METRIC_LABELS: Readonly<Record<string, string>> = {
  hfd_hedonic: 'HFD Hedonic',
  addiction: 'Addiction',
  cogproc: 'Cognitive Processing',
  attention: 'Attention',
  relaxation: 'Relaxation',
  energizing: 'Energizing (EEG)',
  energizing_eeg: 'Energizing (EEG)',
};

/**
 * A time-series metric's label: as the profile rows name it, else as the EEG metrics are named,
 * else its key in words ("hfd_hedonic" never reaches a legend).
 */
export function timeSeriesLabel(metric: string, rows: readonly Pick<ProfileRow, 'metric' | 'metric_name'>[]) {
  const named = rows.find((row) => row.metric === metric)?.metric_name;
  if (named && named !== metric) return named;
  if (EEG_METRIC_LABELS[metric]) return EEG_METRIC_LABELS[metric];
  const words = metric.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function timeSeriesMetrics(series: ProfileResponse['time_series']): string[] {
  return Object.entries(series)
    .filter(([, points]) => Object.keys(points).length > 0)
    .map(([metric]) => metric);
}

/**
 * The metrics named by the optional query `attributes`, a JSON array of names to highlight (document 2
 * section 2); anything else reads as none.
 */
export function parseHighlighted(raw: string | null): Set<string> {
  if (!raw) return new Set();
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return new Set();
    return new Set(
      parsed.filter((name): name is string => typeof name === 'string').map((name) => name.toLowerCase()),
    );
  } catch {
    return new Set();
  }
}

/** True when the row's metric key or name is among the highlighted names. */
export function isHighlighted(row: ProfileRow, highlighted: Set<string>): boolean {
  return highlighted.has(row.metric.toLowerCase()) || highlighted.has(row.metric_name.toLowerCase());
}
