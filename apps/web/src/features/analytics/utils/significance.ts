/**
 * Significance marks of the metrics tab (document 3 sections 2.1 and 3.2, METRICS.md section 2):
 * per product and confidence column a level (0.01, 0.05, 0.1) and a direction (mt higher, let lower).
 */
import { SIGNIFICANCE_LEVELS } from '@accord/contracts';

export interface Mark {
  level: number | null;
  table: 'mt' | 'let' | null;
  test: string;
  p_value: number | null;
  n: number;
}

export type SignificanceRows = ({ id: number } & Record<string, Mark | number>)[];

/** The mark of a product's column (key "metric.aggregation"), when the test found one. */
export function markOf(row: Record<string, unknown> | undefined, columnKey: string): Mark | null {
  const mark = row?.[`${columnKey}.confidence`];
  if (!mark || typeof mark !== 'object') return null;
  return mark as Mark;
}

/** 0.01 reads 99 %, 0.05 reads 95 %, 0.1 reads 90 %. */
export function levelPercent(level: number): number {
  return Math.round((1 - level) * 100);
}

export type SignificanceFilter = 'all' | `${'mt' | 'let'}-${number}`;

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

/** Whether any of the product's marks is significant at exactly this level and direction. */
export function rowMatches(row: Record<string, unknown> | undefined, filter: SignificanceFilter): boolean {
  if (filter === 'all') return true;
  const [table, level] = filter.split('-') as ['mt' | 'let', string];
  return Object.values(row ?? {}).some(
    (value) =>
      value !== null &&
      typeof value === 'object' &&
      (value as Mark).table === table &&
      (value as Mark).level === Number(level),
  );
}

/** The filter tags with their counts of products: All, then 99/95/90 % higher, then lower. */
export function significanceTags(
  rows: readonly Record<string, unknown>[],
  totalProducts: number,
): SignificanceTag[] {
  const tags: SignificanceTag[] = [{ value: 'all', label: 'All', count: totalProducts, color: '#495057' }];
  for (const [table, word, colors] of [
    ['mt', 'higher', GREENS],
    ['let', 'lower', REDS],
  ] as const) {
    SIGNIFICANCE_LEVELS.forEach((level, index) => {
      const value = `${table}-${level}` as SignificanceFilter;
      tags.push({
        value,
        label: `${levelPercent(level)}% ${word}`,
        count: rows.filter((row) => rowMatches(row, value)).length,
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
