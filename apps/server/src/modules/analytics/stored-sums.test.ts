import { describe, expect, it } from 'vitest';
import type { MetricSums } from './analytics-types.ts';
import { storedSumsOf } from './stored-sums.ts';

describe('storedSumsOf', () => {
  const row = (productId: number, n: number): MetricSums => ({
    productId,
    metricId: 7,
    n,
    sum: n * 3.25,
    sumSq: n * 11.0625 + 0.1,
    nTopBox: n - 3,
    nTop2Box: n - 2,
    nJustRight: 1,
    nBottom2Box: 2,
    nBottomBox: 1,
  });
  const rows = [row(40, 120), row(3, 5), row(17, 2_000_000)];
  const stored = storedSumsOf(7, rows);

  it('gives back each product exactly as stored, whatever the order of the rows', () => {
    expect(stored.size).toBe(3);
    for (const expected of rows) expect(stored.get(expected.productId)).toEqual(expected);
  });

  it('has nothing for other products, below, between and above the stored ids', () => {
    for (const productId of [-1, 0, 4, 39, 41, 10_000]) expect(stored.get(productId)).toBeUndefined();
    expect(storedSumsOf(7, []).get(0)).toBeUndefined();
  });
});
