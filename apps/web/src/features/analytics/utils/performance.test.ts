import { describe, expect, it } from 'vitest';
import { breakdownOptions, sortPerformance, type PerformanceRow } from './performance.ts';

const row = (value: string, fragrances: number, liking: number | null): PerformanceRow => ({
  category: { name: 'client', value },
  metrics: [{ name: 'liking.top_2_box', value: liking }],
  fragrances,
  n: { 'liking.top_2_box': fragrances * 150 },
});

const rows = [row('Beta', 3, 0.5), row('Alpha', 8, null), row('Gamma', 1, 0.9)];

describe('sortPerformance', () => {
  it('sorts by a metric, rows without a value last', () => {
    expect(
      sortPerformance(rows, { key: 'liking.top_2_box', desc: true }).map((r) => r.category.value),
    ).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect(
      sortPerformance(rows, { key: 'liking.top_2_box', desc: false }).map((r) => r.category.value),
    ).toEqual(['Beta', 'Gamma', 'Alpha']);
  });
  it('sorts by the breakdown value and by the product count', () => {
    expect(sortPerformance(rows, { key: 'category', desc: true }).map((r) => r.category.value)).toEqual([
      'Gamma',
      'Beta',
      'Alpha',
    ]);
    expect(sortPerformance(rows, { key: 'fragrances', desc: true }).map((r) => r.fragrances)).toEqual([
      8, 3, 1,
    ]);
  });
});

describe('performance helpers', () => {
  it('labels the breakdown fields', () => {
    expect(breakdownOptions('metadata')[0]).toEqual({ value: 'client', label: 'Client' });
    expect(breakdownOptions('fragrance').map((option) => option.label)).toContain('Perfumer Name');
  });
});
