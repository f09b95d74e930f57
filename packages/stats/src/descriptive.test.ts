import { describe, expect, it } from 'vitest';
import {
  averageRanks,
  finitePairs,
  mean,
  rankWithTies,
  sampleVariance,
  standardDeviation,
  sum,
  tieCorrectionTerm,
} from './index.ts';
import { expectRelative } from './test-helpers.ts';

describe('mean and variance', () => {
  it('computes the mean and the n − 1 variance', () => {
    expect(mean([2, 4, 4, 4, 5, 5, 7, 9])).toBe(5);
    expect(sampleVariance([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(32 / 7, 14);
    expect(standardDeviation([1, 3])).toBeCloseTo(Math.SQRT2, 14);
  });

  it('drops NaN and infinite values as missing answers', () => {
    expect(mean([1, Number.NaN, 3, Number.POSITIVE_INFINITY])).toBe(2);
    expect(sampleVariance([1, Number.NaN, 3])).toBe(2);
  });

  it('is NaN only where undefined: no values for a mean, fewer than two for a variance', () => {
    expect(mean([])).toBeNaN();
    expect(mean([Number.NaN])).toBeNaN();
    expect(mean([4])).toBe(4);
    expect(sampleVariance([4])).toBeNaN();
    expect(sampleVariance([])).toBeNaN();
  });

  it('gives exactly zero variance for constant data, whatever rounding the mean has', () => {
    // 0.1 · 3 / 3 is not exactly 0.1 in floating point; the variance must still be 0.
    expect(sampleVariance([0.1, 0.1, 0.1])).toBe(0);
    expect(mean([0.1, 0.1, 0.1])).toBe(0.1);
    expect(sampleVariance([1 + 2 / 3, 1 + 2 / 3])).toBe(0);
  });

  it('stays accurate for a large offset (two-pass variance)', () => {
    expectRelative(sampleVariance([1e9 + 1, 1e9 + 2, 1e9 + 3]), 1, 1e-9);
  });

  it('sums with compensation', () => {
    expect(sum([1e16, 1, -1e16])).toBe(1);
    expect(sum([])).toBe(0);
  });
});

describe('ranks', () => {
  it('averages tied ranks like SciPy rankdata', () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
    expect(averageRanks([3, 3, 3])).toEqual([2, 2, 2]);
    const ranked = rankWithTies([1, 2, 2, 3, 3, 3]);
    expect(ranked.tieSizes).toEqual([2, 3]);
    expect(tieCorrectionTerm(ranked.tieSizes)).toBe(6 + 24);
  });

  it('gives missing values a NaN rank and ranks the rest among themselves', () => {
    const ranked = rankWithTies([5, Number.NaN, 1, 5]);
    expect(ranked.ranks[0]).toBe(2.5);
    expect(ranked.ranks[1]).toBeNaN();
    expect(ranked.ranks[2]).toBe(1);
    expect(ranked.n).toBe(3);
    expect(rankWithTies([]).ranks).toEqual([]);
  });

  it('ties values that differ only by floating-point noise', () => {
    // 7-point answers 4 − 1 and 6 − 3 harmonised: 2 and 2.000000000000001.
    const harmonise = (value: number): number => 1 + (4 * (value - 1)) / 6;
    const first = harmonise(4) - harmonise(1);
    const second = harmonise(6) - harmonise(3);
    expect(first).not.toBe(second);
    expect(averageRanks([first, second, 0.5])).toEqual([2.5, 2.5, 1]);
    // Genuinely different values are never merged.
    expect(averageRanks([1, 1 + 1e-9])).toEqual([1, 2]);
  });
});

describe('finitePairs', () => {
  it('drops a pair when either side is missing', () => {
    expect(finitePairs([1, Number.NaN, 3, 4], [5, 6, Number.NaN, 8])).toEqual({ x: [1, 4], y: [5, 8] });
  });

  it('rejects arrays of different lengths', () => {
    expect(() => finitePairs([1, 2], [1])).toThrow(RangeError);
  });
});
