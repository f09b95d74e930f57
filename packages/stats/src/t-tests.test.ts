import { describe, expect, it } from 'vitest';
import { oneSampleT, pairedT, studentT, studentTCdf, welchT } from './index.ts';
import { expectRelative } from './test-helpers.ts';

// Expected values from SciPy 1.17 (ttest_ind, ttest_rel, ttest_1samp).
describe('welchT', () => {
  it('matches SciPy when one sample has zero variance', () => {
    const result = welchT([3, 4, 5, 5, 6, 8], [5, 5, 5, 5]);
    expectRelative(result.statistic, 0.23702273156998904, 1e-12);
    expectRelative(result.df, 5, 1e-12);
    expectRelative(result.pValue, 0.8220441884436613, 1e-12);
    expect(result.estimate).toBeCloseTo(31 / 6 - 5, 14);
    expect([result.n1, result.n2]).toEqual([6, 4]);
  });

  it('drops missing values instead of propagating NaN', () => {
    const clean = welchT([3, 4, 5, 5, 6, 8], [5, 5, 5, 5]);
    const withMissing = welchT([3, Number.NaN, 4, 5, 5, 6, 8], [5, 5, Number.POSITIVE_INFINITY, 5, 5]);
    expect(withMissing).toEqual(clean);
  });

  it('is undefined (NaN) with fewer than two values in a sample', () => {
    for (const [x, y] of [
      [[1], [1, 2, 3]],
      [[], [1, 2]],
      [
        [1, 2],
        [Number.NaN, 3],
      ],
    ] as const) {
      const result = welchT(x, y);
      expect(result.statistic).toBeNaN();
      expect(result.pValue).toBeNaN();
    }
  });

  it('gives an infinite statistic for zero variance on both sides with different means, NaN with equal ones', () => {
    const different = welchT([5, 5, 5], [3, 3]);
    expect(different.statistic).toBe(Number.POSITIVE_INFINITY);
    expect(different.pValue).toBe(0);
    expect(welchT([5, 5, 5], [3, 3], 'less').pValue).toBe(1);
    expect(different.df).toBeNaN();
    const equal = welchT([4, 4], [4, 4, 4]);
    expect(equal.statistic).toBeNaN();
    expect(equal.pValue).toBeNaN();
  });

  it('splits the two-sided p-value between the one-sided ones', () => {
    const x = [2.1, 3.4, 2.8, 3.9, 3.1];
    const y = [2.5, 2.2, 2.9, 2.0, 2.4, 2.6];
    const twoSided = welchT(x, y).pValue;
    const greater = welchT(x, y, 'greater').pValue;
    const less = welchT(x, y, 'less').pValue;
    expectRelative(greater, twoSided / 2, 1e-12);
    expectRelative(greater + less, 1, 1e-12);
    expect(() => welchT(x, y, 'up' as never)).toThrow(RangeError);
  });
});

describe('studentT', () => {
  it('matches SciPy with a single value in one sample', () => {
    const result = studentT([4], [2, 3, 5]);
    expectRelative(result.statistic, 0.3779644730092272, 1e-12);
    expect(result.df).toBe(2);
    expectRelative(result.pValue, 0.741801110252839, 1e-12);
  });

  it('matches SciPy for alternative "less"', () => {
    const result = studentT([1, 2, 3, 4], [2, 4, 6, 8, 10], 'less');
    expectRelative(result.statistic, -2.0578065752724592, 1e-12);
    expect(result.df).toBe(7);
    expectRelative(result.pValue, 0.0393096175293469, 1e-12);
  });

  it('is undefined with fewer than three values in total', () => {
    expect(studentT([1], [2]).pValue).toBeNaN();
    expect(studentT([], [2, 3, 4]).pValue).toBeNaN();
  });
});

describe('pairedT', () => {
  it('matches SciPy ttest_rel', () => {
    const result = pairedT([1, 2, 3, 4, 5], [1.5, 2.1, 2.9, 4.6, 5.8]);
    expectRelative(result.statistic, -2.2956639546546724, 1e-12);
    expect(result.df).toBe(4);
    expectRelative(result.pValue, 0.0833357094752621, 1e-12);
  });

  it('drops incomplete pairs', () => {
    const complete = pairedT([1, 2, 3, 4, 5], [1.5, 2.1, 2.9, 4.6, 5.8]);
    const withMissing = pairedT([1, 2, 9, 3, 4, 5], [1.5, 2.1, Number.NaN, 2.9, 4.6, 5.8]);
    expect(withMissing).toEqual(complete);
    expect(withMissing.n).toBe(5);
  });

  it('rejects samples of different lengths', () => {
    expect(() => pairedT([1, 2, 3], [1, 2])).toThrow(RangeError);
  });

  it('gives ±Infinity when every difference is the same non-zero value', () => {
    const result = pairedT([2, 3, 4], [1, 2, 3], 'greater');
    expect(result.statistic).toBe(Number.POSITIVE_INFINITY);
    expect(result.pValue).toBe(0);
    expect(pairedT([1, 2], [1, 2]).pValue).toBeNaN();
  });
});

describe('oneSampleT', () => {
  it('matches SciPy ttest_1samp with alternative "less"', () => {
    const result = oneSampleT([2.5, 3.1, 2.8, 3.6, 3.3], 3.4, 'less');
    expectRelative(result.statistic, -1.7772084698636783, 1e-12);
    expect(result.df).toBe(4);
    expectRelative(result.pValue, 0.07508604504067268, 1e-12);
    expectRelative(result.pValue, studentTCdf(result.statistic, 4), 1e-14);
  });

  it('is undefined for one value or a non-finite reference', () => {
    expect(oneSampleT([3], 2).pValue).toBeNaN();
    expect(oneSampleT([], 2).pValue).toBeNaN();
    expect(oneSampleT([1, 2, 3], Number.NaN).pValue).toBeNaN();
  });
});
