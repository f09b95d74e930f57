import { describe, expect, it } from 'vitest';
import { mannWhitneyU, wilcoxonSignedRank, type Alternative } from './index.ts';
import { expectRelative } from './test-helpers.ts';

// Expected values from SciPy 1.17: mannwhitneyu(method='asymptotic') and
// wilcoxon(method='asymptotic', correction=True).
describe('mannWhitneyU', () => {
  const x = [1, 2, 2, 3, 3, 3, 4, 5];
  const y = [2, 3, 3, 4, 4, 5, 5, 5, 5];

  it.each([
    ['two-sided', 0.08260559774748445],
    ['greater', 0.9667434775654529],
    ['less', 0.041302798873742226],
  ] as [Alternative, number][])('matches SciPy with ties, alternative %s', (alternative, pValue) => {
    const result = mannWhitneyU(x, y, alternative);
    expect(result.statistic).toBe(18);
    expectRelative(result.pValue, pValue, 1e-12);
  });

  it('reports U of the first sample and is symmetric in the two-sided p-value', () => {
    const forward = mannWhitneyU(x, y);
    const backward = mannWhitneyU(y, x);
    expect(forward.statistic + backward.statistic).toBe(x.length * y.length);
    expectRelative(backward.pValue, forward.pValue, 1e-14);
  });

  it('ignores missing values', () => {
    expect(mannWhitneyU([...x, Number.NaN], [Number.NaN, ...y])).toEqual(mannWhitneyU(x, y));
  });

  it('has no p-value when every value is tied, and none for an empty sample', () => {
    const tied = mannWhitneyU([3, 3, 3], [3, 3]);
    expect(tied.statistic).toBe(3);
    expect(tied.pValue).toBeNaN();
    expect(mannWhitneyU([], [1, 2]).pValue).toBeNaN();
  });

  it('caps the two-sided p-value at 1 when U sits on its mean', () => {
    expect(mannWhitneyU([1, 4], [2, 3]).pValue).toBe(1);
  });
});

describe('wilcoxonSignedRank', () => {
  const x = [3, 4, 5, 2, 4, 5, 3, 3, 4, 5, 1, 2];
  const y = [2, 4, 3, 3, 2, 4, 3, 5, 2, 3, 2, 2];

  it.each([
    ['two-sided', 12, 0.2235428745713205],
    ['greater', 33, 0.11177143728566025],
    ['less', 33, 0.9096946998882547],
  ] as [Alternative, number, number][])(
    'matches SciPy with zeros and ties, alternative %s',
    (alternative, statistic, pValue) => {
      const result = wilcoxonSignedRank(x, y, alternative);
      expect(result.statistic).toBe(statistic);
      expectRelative(result.pValue, pValue, 1e-12);
      expect(result.zeros).toBe(3);
      expect(result.n).toBe(9);
      expect(result.wPlus + result.wMinus).toBe((9 * 10) / 2);
    },
  );

  it('gives the same answer on harmonised 7-point scores as on raw answers', () => {
    // SciPy on these harmonised scores gives 12.5 / 0.0689 because rounding noise breaks ties;
    // the raw answers give 13 / 0.07293744796817736.
    const rawX = [3, 4, 5, 2, 4, 5, 3, 3, 4, 5, 1, 2, 7, 6];
    const rawY = [2, 4, 3, 3, 2, 4, 3, 5, 2, 3, 2, 2, 5, 4];
    const harmonise = (value: number): number => 1 + (4 * (value - 1)) / 6;
    const raw = wilcoxonSignedRank(rawX, rawY);
    const harmonised = wilcoxonSignedRank(rawX.map(harmonise), rawY.map(harmonise));
    expect(raw.statistic).toBe(13);
    expectRelative(raw.pValue, 0.07293744796817736, 1e-12);
    expect(harmonised.statistic).toBe(13);
    expectRelative(harmonised.pValue, raw.pValue, 1e-14);
  });

  it('has no statistic when every difference is zero', () => {
    const result = wilcoxonSignedRank([1, 2, 3], [1, 2, 3]);
    expect(result.pValue).toBeNaN();
    expect(result.statistic).toBeNaN();
    expect(result.zeros).toBe(3);
  });

  it('handles a single non-zero difference and drops incomplete pairs', () => {
    const result = wilcoxonSignedRank([2, Number.NaN], [1, 5], 'greater');
    expect(result.n).toBe(1);
    expect(result.wPlus).toBe(1);
    // z = (1 − 0.5 − 0.5)/0.5 = 0, p = 0.5.
    expect(result.pValue).toBeCloseTo(0.5, 15);
  });

  it('rejects samples of different lengths', () => {
    expect(() => wilcoxonSignedRank([1, 2], [1])).toThrow(RangeError);
  });
});
