/**
 * Significance marks of the metrics tab (document 3 sections 2.1 and 3.2, METRICS.md section 2):
 * per product and confidence column a level (0.01, 0.05, 0.1) and a direction (mt higher, let lower).
 * The server matches rows to a tag and counts them; these helpers name and colour what it answers.
 */
import { SIGNIFICANCE_LEVELS, type SignificanceMarkFilter } from '@accord/contracts';

export interface Mark {
  level: number | null;
  table: 'mt' | 'let' | null;
  test: string;
  p_value: number | null;
  n: number;
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
};

/** The hover text of a mark: the test, its p-value and the level. */
export function markText(mark: Mark): string {
  const test = TEST_NAMES[mark.test] ?? mark.test;
  const p =
    mark.p_value === null ? 'p = -' : mark.p_value < 0.0001 ? 'p < 0.0001' : `p = ${mark.p_value.toFixed(4)}`;
  const level =
    mark.level === null
      ? 'not significant'
      : `${levelPercent(mark.level)}% ${mark.table === 'mt' ? 'higher' : 'lower'}`;
  return `${test}, ${p}, ${level}`;
}
