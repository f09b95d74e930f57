/**
 * Significance marks of the metrics tab (document 3 sections 2.1 and 3.2, METRICS.md section 2):
 * per product and confidence column a level (0.01, 0.05, 0.1) and a direction (mt higher, let lower).
 * The server matches rows to a tag and counts them; these helpers name and colour what it answers.
 */
import {
  CLUSTERED_TEST_NAMES,
  CORRECTION_LABELS,
  LOW_BASE,
  SIGNIFICANCE_LEVELS,
  SIGNIFICANCE_NOT_TESTED,
  markIsGood,
  type SignificanceCorrection,
  type SignificanceMarkFilter,
} from '@accord/contracts';

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

/** 0.01 reads 99 %, 0.05 reads 95 %, 0.1 reads 90 %. */
export function levelPercent(level: number): number {
  return Math.round((1 - level) * 100);
}

export type SignificanceFilter = SignificanceMarkFilter;

export interface SignificanceTag {
  value: SignificanceFilter;
  label: string;
  count: number;
  /** Greens for higher, reds for lower, darker when stricter. */
  color: string;
}

// Darker when stricter; text on them is picked for contrast (white on the dark, black on the light).
const GREENS = ['#1b5e20', '#2e7d32', '#66bb6a'];
const REDS = ['#8e1b1b', '#c62828', '#ef9a9a'];

/**
 * The filter tags, All first, then 99/95/90 % higher, then lower, with the counts of products the
 * server answers with a page (mark_counts).
 */
export function significanceTags(
  counts: readonly { value: SignificanceFilter; count: number }[],
): SignificanceTag[] {
  const countOf = (value: SignificanceFilter) => counts.find((entry) => entry.value === value)?.count ?? 0;
  const tags: SignificanceTag[] = [{ value: 'all', label: 'All', count: countOf('all'), color: '#495057' }];
  for (const [table, word, colors] of [
    ['mt', 'higher', GREENS],
    ['let', 'lower', REDS],
  ] as const) {
    SIGNIFICANCE_LEVELS.forEach((level, index) => {
      const value = `${table}-${level}` as SignificanceFilter;
      tags.push({
        value,
        label: `${levelPercent(level)}% ${word}`,
        count: countOf(value),
        color: colors[index]!,
      });
    });
  }
  return tags;
}

const TEST_NAMES: Record<string, string> = {
  'two-proportion-z': 'Two-proportion z-test',
  'one-proportion-z': 'One-sample z-test of a proportion',
  'one-sample-z': 'One-sample z-test of a proportion',
  'welch-t': 'Welch two-sample t-test',
  'one-sample-t': 'One-sample t-test',
  ...Object.fromEntries(
    Object.entries(CLUSTERED_TEST_NAMES).map(([key, name]) => [key, name[0]!.toUpperCase() + name.slice(1)]),
  ),
};

const pText = (label: string, p: number | null | undefined) =>
  p === null || p === undefined
    ? `${label} = -`
    : p < 0.0001
      ? `${label} < 0.0001`
      : `${label} = ${p.toFixed(4)}`;

/** Whether the mark says the product was not tested for its low base. */
export function isLowBase(mark: Mark | null | undefined): boolean {
  return mark?.not_tested === SIGNIFICANCE_NOT_TESTED.lowBase;
}

/**
 * The hover text of a mark: the test, its base n, the p-value, the adjusted p-value with the
 * correction, and the level; or why it was not tested.
 */
export function markText(mark: Mark): string {
  const test = TEST_NAMES[mark.test] ?? mark.test;
  if (isLowBase(mark)) return `${SIGNIFICANCE_NOT_TESTED.lowBase}: n = ${mark.n}, below ${LOW_BASE} answers`;
  const level =
    mark.level === null
      ? 'not significant'
      : `${levelPercent(mark.level)}% ${mark.table === 'mt' ? 'higher' : 'lower'}`;
  const parts = [test, `n = ${mark.n}`, pText('p', mark.p_value)];
  if (mark.correction)
    parts.push(
      mark.correction === 'none'
        ? CORRECTION_LABELS.none
        : `${pText('adjusted p', mark.adjusted_p_value)} (${CORRECTION_LABELS[mark.correction]})`,
    );
  if (mark.not_tested) parts.push(mark.not_tested);
  else parts.push(level);
  return parts.join(', ');
}

/** Dark green and dark red of the marks, as the tags' strictest shades. */
export const GOOD_COLOUR = '#1b5e20';
export const BAD_COLOUR = '#8e1b1b';

/** A mark's colour: good news green, bad news red (a higher bottom box is bad, METRICS.md 2). */
export function markColour(metric: string, aggregation: string, table: 'mt' | 'let'): string {
  return markIsGood(metric, aggregation, table) ? GOOD_COLOUR : BAD_COLOUR;
}

/** The legend of the marks: what they compare, the tests, the correction, colours and low bases. */
export function marksLegend(calculation: 'avg' | 'rest', correction: SignificanceCorrection): string[] {
  const against = calculation === 'avg' ? 'the average of the list' : 'the average of the rest of the list';
  return [
    `Arrows: significantly higher or lower than ${against} (two-sided, respondents as clusters) at 99, 95 or 90% confidence.`,
    correction === 'none'
      ? `Correction: ${CORRECTION_LABELS.none}; each test is read on its own p-value.`
      : `Correction: ${CORRECTION_LABELS[correction]} across every test of this calculation (products × metrics).`,
    'Green: good news, red: bad news (a higher bottom box, bottom 2 box, too strong or too weak share is bad news).',
    `"${SIGNIFICANCE_NOT_TESTED.lowBase}": fewer than ${LOW_BASE} answers, so no test and no mark.`,
  ];
}
