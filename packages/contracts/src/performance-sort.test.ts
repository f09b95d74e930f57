import { describe, expect, it } from 'vitest';
import { performanceValue, sortPerformance, type PerformanceRow } from './performance-sort.ts';

const row = (value: string, fragrances: number, liking: number | null): PerformanceRow => ({
  category: { name: 'client', value },
  metrics: [{ name: 'liking.top_2_box', value: liking }],
  fragrances,
  n: { 'liking.top_2_box': fragrances * 150 },
});

const rows = [row('Beta', 3, 0.5), row('Alpha', 8, null), row('Gamma', 1, 0.9), row('Item 10', 2, 0.7)];

describe('sortPerformance', () => {
  it('sorts by a metric, rows without a value last whichever the direction', () => {
    expect(
      sortPerformance(rows, { key: 'liking.top_2_box', desc: true }).map((r) => r.category.value),
    ).toEqual(['Gamma', 'Item 10', 'Beta', 'Alpha']);
    expect(
      sortPerformance(rows, { key: 'liking.top_2_box', desc: false }).map((r) => r.category.value),
    ).toEqual(['Beta', 'Item 10', 'Gamma', 'Alpha']);
  });

  it('sorts by the breakdown value (numbers within words in numeric order) and by the product count', () => {
    const items = [row('Item 10', 1, 0), row('Item 9', 1, 0), ...rows.slice(0, 3)];
    expect(sortPerformance(items, { key: 'category', desc: false }).map((r) => r.category.value)).toEqual([
      'Alpha',
      'Beta',
      'Gamma',
      'Item 9',
      'Item 10',
    ]);
    expect(sortPerformance(rows, { key: 'fragrances', desc: true }).map((r) => r.fragrances)).toEqual([
      8, 3, 2, 1,
    ]);
  });

  it('leaves the rows given as they were', () => {
    const before = rows.map((r) => r.category.value);
    sortPerformance(rows, { key: 'category', desc: true });
    expect(rows.map((r) => r.category.value)).toEqual(before);
  });
});

describe('performanceValue', () => {
  it('reads a metric key, null when the row has none', () => {
    expect(performanceValue(rows[0]!, 'liking.top_2_box')).toBe(0.5);
    expect(performanceValue(rows[1]!, 'liking.top_2_box')).toBeNull();
    expect(performanceValue(rows[0]!, 'fresh.mean')).toBeNull();
  });
});
