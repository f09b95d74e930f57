/**
 * The significance marks of fragrance_metrics.xlsx, as the metrics tab shows them beside its numbers:
 * per product and metric with confidence on, an arrow up (higher) or down (lower) and the level
 * (99, 95 or 90 %), green for good news and red for bad (METRICS.md section 2), "low base: not
 * tested" under 30 answers, with a legend naming the comparison, its tests and the correction. A
 * download names the significance job the user calculated; it must cover the very list of the search
 * it is written with.
 */
import {
  CLUSTERED_TEST_NAMES,
  CORRECTION_LABELS,
  LOW_BASE,
  SIGNIFICANCE_LEVELS,
  SIGNIFICANCE_NOT_TESTED,
  markIsGood,
  type SignificanceCorrection,
  type MetricSearchResult,
  type ParsedMetricSearchRequest,
  type ParsedSignificanceRequest,
  type SignificanceStatus,
} from '@accord/contracts';
import { errors } from '../../lib/errors.ts';

/** Refusals of a download naming a significance job. */
export const SIGNIFICANCE_EXPORT_MESSAGES = {
  notFinished: 'The significance is still being calculated: download once it shows.',
  failed: 'The significance could not be calculated: calculate it again, then download.',
  otherList:
    'This significance was calculated on another list of products or respondents: calculate it again, then download.',
  notKept: 'This significance no longer keeps what it was calculated on: calculate it again, then download.',
} as const;

/** The comparison as the metrics tab's Compare field names it. */
export const CALCULATION_LABELS: Record<'avg' | 'rest', string> = {
  avg: 'Selection vs Average',
  rest: 'Selection vs Average of the rest',
};

/** The tests as the mark's hover text names them. */
export const TEST_NAMES: Record<string, string> = {
  'two-proportion-z': 'two-proportion z-test',
  'one-proportion-z': 'one-sample z-test of a proportion',
  'one-sample-z': 'one-sample z-test of a proportion',
  'welch-t': 'Welch two-sample t-test',
  'one-sample-t': 'one-sample t-test',
  ...CLUSTERED_TEST_NAMES,
};

export const HIGHER = '▲';
export const LOWER = '▼';

/** One product's mark of one column, as the significance job answers it. */
export interface Mark {
  level: number | null;
  table: 'mt' | 'let' | null;
  test: string;
  p_value: number | null;
  n: number;
  adjusted_p_value?: number | null;
  correction?: SignificanceCorrection;
  not_tested?: string | null;
}

type SignificanceResult = NonNullable<SignificanceStatus['result']>;

/** 0.01 reads 99, 0.05 reads 95, 0.1 reads 90. */
export function levelPercent(level: number): number {
  return Math.round((1 - level) * 100);
}

/**
 * A mark as the cell shows it ("▲ 99%", "▼ 90%"), or "low base: not tested"; null when the product
 * is not significant.
 */
export function markText(mark: Mark | undefined): string | null {
  if (mark?.not_tested === SIGNIFICANCE_NOT_TESTED.lowBase) return SIGNIFICANCE_NOT_TESTED.lowBase;
  if (!mark || mark.level === null || mark.table === null) return null;
  return `${mark.table === 'mt' ? HIGHER : LOWER} ${levelPercent(mark.level)}%`;
}

/**
 * The colour of a mark of a column ("metric.aggregation"): good news green, bad news red (a higher
 * bottom box is bad); none when there is no mark.
 */
export function markTone(mark: Mark | undefined, key: string): 'good' | 'bad' | undefined {
  if (!mark || mark.level === null || mark.table === null) return undefined;
  const dot = key.lastIndexOf('.');
  return markIsGood(key.slice(0, dot), key.slice(dot + 1), mark.table) ? 'good' : 'bad';
}

/** The marks of a significance result per product id and column key ("metric.aggregation"). */
export interface MarkTable {
  calculation: 'avg' | 'rest';
  /** The correction the levels read (jobs from before corrections read raw p-values). */
  correction: SignificanceCorrection;
  /** Tests with a p-value in the family of the correction. */
  tested: number;
  /** Column keys with confidence on (the columns that get a mark column). */
  keys: ReadonlySet<string>;
  mark(productId: number, key: string): Mark | undefined;
  /** The tests behind the marks, in words. */
  tests: string[];
}

/** The marks of a finished significance job, keyed for the spreadsheet. */
export function markTable(result: SignificanceResult): MarkTable {
  const byId = new Map<number, Record<string, unknown>>();
  const keys = new Set<string>();
  const tests = new Set<string>();
  let tested = 0;
  for (const row of result.results) {
    byId.set(row.id, row as Record<string, unknown>);
    for (const [name, value] of Object.entries(row)) {
      if (!name.endsWith('.confidence') || value === null || typeof value !== 'object') continue;
      keys.add(name.slice(0, -'.confidence'.length));
      const test = (value as Mark).test;
      if (test) tests.add(TEST_NAMES[test] ?? test);
      if ((value as Mark).p_value !== null) tested++;
    }
  }
  return {
    calculation: result.calculation,
    correction: result.correction ?? 'none',
    tested,
    keys,
    mark: (productId, key) => byId.get(productId)?.[`${key}.confidence`] as Mark | undefined,
    tests: [...tests],
  };
}

/** The significance line of the header block. */
export function significanceInWords(table: MarkTable): string {
  const levels = SIGNIFICANCE_LEVELS.map(levelPercent).join(', ');
  return `${CALCULATION_LABELS[table.calculation]}, two-sided tests at ${levels} % confidence; correction: ${CORRECTION_LABELS[table.correction]}`;
}

/** The legend under the table. */
export function significanceLegend(table: MarkTable): string[] {
  const against =
    table.calculation === 'avg' ? 'the average of the list' : 'the average of the rest of the list';
  const correction =
    table.correction === 'none'
      ? `Correction: ${CORRECTION_LABELS.none}: each of the ${table.tested} tests is read on its own p-value.`
      : `Correction: ${CORRECTION_LABELS[table.correction]} across the ${table.tested} tests of this calculation (products × metrics); the levels read the adjusted p-values.`;
  return [
    `${HIGHER} 99% / ${HIGHER} 95% / ${HIGHER} 90%: significantly higher than ${against} at that confidence; ${LOWER}: significantly lower; blank: not significant (${CALCULATION_LABELS[table.calculation]}).`,
    'Green: good news, red: bad news (a higher bottom box, bottom 2 box, too strong or too weak share is bad news).',
    correction,
    `"${SIGNIFICANCE_NOT_TESTED.lowBase}": fewer than ${LOW_BASE} answers, so no test and no mark.`,
    ...(table.tests.length > 0 ? [`Tests: ${table.tests.join('; ')}.`] : []),
  ];
}

/** Filters compared as what they keep: empty lists and open ends are no filter at all. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(
      ([, inner]) => inner !== null && inner !== undefined && !(Array.isArray(inner) && inner.length === 0),
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, inner]) => [key, canonical(inner)] as const);
  return Object.fromEntries(entries);
}

const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/**
 * Refuses (400) a significance job that does not cover the search's list: the same products, the
 * same respondent filters and the same filter of the selection; its metrics must be the search's.
 */
export function checkSameList(
  search: ParsedMetricSearchRequest,
  result: MetricSearchResult,
  significance: ParsedSignificanceRequest,
): void {
  const refuse = () => {
    throw errors.badRequest(SIGNIFICANCE_EXPORT_MESSAGES.otherList, [
      { path: 'significance', message: SIGNIFICANCE_EXPORT_MESSAGES.otherList },
    ]);
  };
  const listed = new Set(result.results.map((row) => row.id));
  const tested = new Set(significance.data.map((product) => product.id));
  if (listed.size !== tested.size || [...tested].some((id) => !listed.has(id))) refuse();
  if (!same(search.q.demographics, significance.demographics)) refuse();
  if (!same(search.demographics_fragrances, significance.demographics_fragrances)) refuse();
  const keys = new Set(result.columns.map((column) => column.key));
  if (
    significance.metrics.some((entry) => entry.confidence && !keys.has(`${entry.field}.${entry.aggregation}`))
  )
    refuse();
}
