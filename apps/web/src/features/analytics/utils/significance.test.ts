import { describe, expect, it } from 'vitest';
import { levelPercent, markOf, markText, rowMatches, significanceTags } from './significance.ts';

const mark = (level: number | null, table: 'mt' | 'let' | null, p: number | null = 0.001) => ({
  level,
  table,
  test: 'two-proportion-z',
  p_value: p,
  n: 150,
});

const rows = [
  { id: 1, 'liking.top_2_box.confidence': mark(0.01, 'mt') },
  { id: 2, 'liking.top_2_box.confidence': mark(0.05, 'let', 0.03) },
  { id: 3, 'liking.top_2_box.confidence': mark(null, null, 0.6) },
];

describe('significance marks', () => {
  it('reads a column mark by its metric.aggregation key', () => {
    expect(markOf(rows[0], 'liking.top_2_box')).toEqual(mark(0.01, 'mt'));
    expect(markOf(rows[0], 'strength.mean')).toBeNull();
  });
  it('counts products per level and direction', () => {
    const tags = significanceTags(rows, 3);
    expect(tags.map((tag) => `${tag.label} (${tag.count})`)).toEqual([
      'All (3)',
      '99% higher (1)',
      '95% higher (0)',
      '90% higher (0)',
      '99% lower (0)',
      '95% lower (1)',
      '90% lower (0)',
    ]);
    expect(tags[1]!.color).toBe('#1b5e20');
    expect(tags[4]!.color).toBe('#8e1b1b');
  });
  it('filters rows by a tag', () => {
    expect(rows.filter((row) => rowMatches(row, 'mt-0.01')).map((row) => row.id)).toEqual([1]);
    expect(rows.filter((row) => rowMatches(row, 'all'))).toHaveLength(3);
  });
  it('names the test, p-value and level', () => {
    expect(levelPercent(0.1)).toBe(90);
    expect(markText(mark(0.05, 'let', 0.03))).toBe('Two-proportion z-test, p = 0.0300, 95% lower');
    expect(markText(mark(0.01, 'mt', 0.00001))).toBe('Two-proportion z-test, p < 0.0001, 99% higher');
    expect(markText(mark(null, null, 0.6))).toBe('Two-proportion z-test, p = 0.6000, not significant');
  });
});
