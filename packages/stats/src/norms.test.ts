import { describe, expect, it } from 'vitest';
import { derSimonianLaird, NORM_PERCENTILES, percentileRank, percentiles } from './index.ts';
import { expectRelative } from './test-helpers.ts';

describe('percentiles', () => {
  it('interpolates linearly like numpy', () => {
    // np.percentile([3, 1, 2, 4, 10], [10, 25, 50, 75, 90]) = [1.4, 2, 3, 4, 7.6]
    const result = percentiles([3, 1, 2, 4, 10]);
    [1.4, 2, 3, 4, 7.6].forEach((value, index) => expectRelative(result[index] ?? NaN, value, 1e-15));
    expect(NORM_PERCENTILES).toEqual([10, 25, 50, 75, 90]);
    expect(percentiles([5, 1], [0, 100])).toEqual([1, 5]);
  });

  it('ignores missing scores; a single score is every percentile; none gives NaN', () => {
    expect(percentiles([Number.NaN, 2, 4], [50])).toEqual([3]);
    expect(percentiles([7], [10, 90])).toEqual([7, 7]);
    expect(percentiles([], [50])[0]).toBeNaN();
    expect(() => percentiles([1, 2], [101])).toThrow(RangeError);
  });
});

describe('percentileRank', () => {
  it('is the share below plus half the share equal', () => {
    expect(percentileRank([1, 2, 2, 3], 2)).toBe(0.5);
    expect(percentileRank([1, 2, 2, 3], 2.5)).toBe(0.75);
    expect(percentileRank([1, 2, 3], 0)).toBe(0);
    expect(percentileRank([1, 2, 3], 9)).toBe(1);
    // Scores that differ only by rounding count as equal.
    expect(percentileRank([0.1 + 0.2, 1], 0.3)).toBe(0.25);
  });

  it('is NaN without a base or a score', () => {
    expect(percentileRank([], 1)).toBeNaN();
    expect(percentileRank([1, 2], Number.NaN)).toBeNaN();
  });
});

describe('derSimonianLaird', () => {
  it('pools heterogeneous studies with the between-study variance', () => {
    const studies = [
      { mean: 3.2, sd: 1, n: 100 },
      { mean: 3.8, sd: 1, n: 100 },
      { mean: 3.5, sd: 2, n: 400 },
    ];
    // By hand: every w = 100, Q = 100·(0.09 + 0.09 + 0) = 18, C = 300 − 300²/… = 200,
    // τ² = (18 − 2)/200 = 0.08, w* = 1/0.09 each, estimate 3.5, se = √(0.09/3).
    const result = derSimonianLaird(studies);
    expectRelative(result.q, 18, 1e-13);
    expectRelative(result.tau2, 0.08, 1e-13);
    expectRelative(result.estimate, 3.5, 1e-15);
    expectRelative(result.stdError, Math.sqrt(0.03), 1e-13);
    expectRelative(result.i2, 16 / 18, 1e-13);
    expectRelative(result.ciLow, 3.5 - 1.959963984540054 * Math.sqrt(0.03), 1e-13);
    expect(result.k).toBe(3);
  });

  it('gives the fixed-effect answer without heterogeneity and one study its own mean', () => {
    const same = derSimonianLaird([
      { mean: 4, sd: 1, n: 50 },
      { mean: 4, sd: 2, n: 50 },
    ]);
    expect([same.tau2, same.q, same.i2, same.estimate]).toEqual([0, 0, 0, 4]);
    const single = derSimonianLaird([{ mean: 3.7, sd: 0.9, n: 81 }]);
    expect(single.estimate).toBe(3.7);
    expectRelative(single.stdError, 0.1, 1e-15);
    expect([single.tau2, single.q, single.i2]).toEqual([0, 0, 0]);
  });

  it('leaves out studies without a variance and is NaN with none left', () => {
    const result = derSimonianLaird([
      { mean: 3.7, sd: 0.9, n: 81 },
      { mean: 4.1, sd: 0, n: 30 },
      { mean: Number.NaN, sd: 1, n: 30 },
    ]);
    expect(result.k).toBe(1);
    expect(result.estimate).toBe(3.7);
    expect(derSimonianLaird([]).estimate).toBeNaN();
  });
});
