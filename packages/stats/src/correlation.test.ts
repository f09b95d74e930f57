import { describe, expect, it } from 'vitest';
import { pearson, spearman } from './index.ts';
import { expectRelative } from './test-helpers.ts';

// Expected values from SciPy 1.17 pearsonr / spearmanr.
describe('pearson', () => {
  it('matches SciPy for alternative "less"', () => {
    const result = pearson([1, 2, 2, 3, 4, 4, 4, 5], [3, 3, 2, 4, 5, 4, 6, 6], 'less');
    expectRelative(result.r, 0.858087374952545, 1e-12);
    expectRelative(result.pValue, 0.9967969385875174, 1e-12);
    expect(result.df).toBe(6);
  });

  it('gives p = 0 for a perfect correlation and the limit against the alternative', () => {
    const result = pearson([1, 2, 3, 4], [2, 4, 6, 8]);
    expect(result.r).toBe(1);
    expect(result.statistic).toBe(Number.POSITIVE_INFINITY);
    expect(result.pValue).toBe(0);
    expect(pearson([1, 2, 3, 4], [2, 4, 6, 8], 'less').pValue).toBe(1);
    expect(pearson([1, 2, 3], [3, 2, 1]).r).toBe(-1);
  });

  it('is undefined for a constant variable or too few pairs', () => {
    expect(pearson([1, 2, 3], [5, 5, 5]).r).toBeNaN();
    expect(pearson([1], [2]).r).toBeNaN();
    const two = pearson([1, 2], [5, 3]);
    expect(two.r).toBe(-1);
    expect(two.pValue).toBeNaN();
  });

  it('drops incomplete pairs and rejects different lengths', () => {
    expect(pearson([1, 2, Number.NaN, 3, 4], [1, 3, 2, 2, 5])).toEqual(pearson([1, 2, 3, 4], [1, 3, 2, 5]));
    expect(() => pearson([1, 2], [1, 2, 3])).toThrow(RangeError);
  });
});

describe('spearman', () => {
  it('matches SciPy without ties', () => {
    const result = spearman([1, 2, 3, 4, 5, 6, 7, 8], [2, 1, 4, 3, 7, 8, 6, 5]);
    expectRelative(result.r, 0.7380952380952381, 1e-12);
    expectRelative(result.pValue, 0.03655276105286081, 1e-12);
  });

  it('matches SciPy with ties and alternative "greater"', () => {
    const result = spearman([1, 2, 2, 3, 4, 4, 4, 5], [3, 3, 2, 4, 5, 4, 6, 6], 'greater');
    expectRelative(result.r, 0.8813188557253854, 1e-12);
    expectRelative(result.pValue, 0.0019079827577178597, 1e-12);
  });

  it('is invariant under monotone transformations, unlike Pearson', () => {
    const x = [1, 2, 3, 4, 5, 6];
    const y = [1.2, 1.9, 3.5, 3.1, 6.0, 5.2];
    const cubed = y.map((value) => value ** 3);
    expect(spearman(x, cubed).r).toBeCloseTo(spearman(x, y).r, 14);
    expect(Math.abs(pearson(x, cubed).r - pearson(x, y).r)).toBeGreaterThan(1e-3);
  });
});
