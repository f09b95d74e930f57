// The summary-based significance must agree with the array-based rule of METRICS.md section 2.
import { describe, expect, it } from 'vitest';
import { compareSelectionVsAverage, compareSelectionVsRest } from './significance.ts';
import {
  compareMeanVsAverageFromSummary,
  compareMeanVsRestFromSummaries,
  subtractSums,
  summaryFromSums,
  welchTFromSummaries,
} from './summary-tests.ts';
import { welchT } from './t-tests.ts';
import { expectRelative } from './test-helpers.ts';

function sums(values: readonly number[]) {
  return {
    n: values.length,
    sum: values.reduce((total, value) => total + value, 0),
    sumOfSquares: values.reduce((total, value) => total + value * value, 0),
  };
}
const summaryOf = (values: readonly number[]) => {
  const s = sums(values);
  return summaryFromSums(s.n, s.sum, s.sumOfSquares);
};

// A deterministic pseudo-random sample of harmonised answers (1, 2, 3, 4, 5 and 9-point steps).
function sample(seed: number, size: number, shift: number): number[] {
  let state = seed;
  const values: number[] = [];
  for (let index = 0; index < size; index++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    values.push(Math.min(5, Math.max(1, 1 + Math.round(((state / 2147483648) * 4 + shift) * 2) / 2)));
  }
  return values;
}

describe('t-tests from sufficient statistics', () => {
  it('gives the Welch test of the answers themselves', () => {
    const x = sample(1, 140, 0.4);
    const y = sample(2, 900, 0);
    const fromArrays = welchT(x, y);
    const fromSummaries = welchTFromSummaries(summaryOf(x), summaryOf(y));
    expectRelative(fromSummaries.statistic, fromArrays.statistic, 1e-9);
    expectRelative(fromSummaries.df, fromArrays.df, 1e-9);
    expectRelative(fromSummaries.pValue, fromArrays.pValue, 1e-9);
  });

  it('pools the rest of the list by subtraction', () => {
    const products = [sample(3, 120, 0.5), sample(4, 150, 0), sample(5, 90, -0.3)];
    const all = products.flat();
    const rest = [...products[1]!, ...products[2]!];
    const bySubtraction = subtractSums(sums(all), sums(products[0]!));
    const direct = summaryOf(rest);
    expect(bySubtraction.n).toBe(direct.n);
    expectRelative(bySubtraction.mean, direct.mean, 1e-12);
    expectRelative(bySubtraction.squaredDeviations, direct.squaredDeviations, 1e-9);
  });

  it('marks the same level, direction and p-value as the rule on arrays (rest and avg)', () => {
    const products = [sample(6, 150, 0.6), sample(7, 150, 0), sample(8, 150, -0.5), sample(9, 40, 0.1)];
    const all = products.flat();
    const average = products.reduce((total, p) => total + summaryOf(p).mean, 0) / products.length;
    products.forEach((selection, index) => {
      const rest = products.filter((_, other) => other !== index).flat();
      const expectedRest = compareSelectionVsRest({ kind: 'mean', selection, rest });
      const actualRest = compareMeanVsRestFromSummaries(
        summaryOf(selection),
        subtractSums(sums(all), sums(selection)),
      );
      expect(actualRest.level).toBe(expectedRest.level);
      expect(actualRest.direction).toBe(expectedRest.direction);
      expectRelative(actualRest.pValue!, expectedRest.pValue!, 1e-8);
      const expectedAvg = compareSelectionVsAverage({ kind: 'mean', selection, average });
      const actualAvg = compareMeanVsAverageFromSummary(summaryOf(selection), average);
      expect(actualAvg.level).toBe(expectedAvg.level);
      expect(actualAvg.direction).toBe(expectedAvg.direction);
      expectRelative(actualAvg.pValue!, expectedAvg.pValue!, 1e-8);
    });
  });

  it('is never NaN: one answer, constant answers on both sides, an empty sample', () => {
    expect(compareMeanVsRestFromSummaries(summaryOf([4]), summaryOf([1, 2, 3])).testable).toBe(false);
    const constant = compareMeanVsRestFromSummaries(summaryOf([5, 5, 5]), summaryOf([1, 1, 1, 1]));
    expect(constant).toMatchObject({ testable: false, pValue: null, level: null });
    expect(compareMeanVsAverageFromSummary(summaryOf([3.5, 3.5]), 3).testable).toBe(false);
    expect(compareMeanVsAverageFromSummary(summaryOf([]), 3).testable).toBe(false);
    expect(summaryFromSums(0, 0, 0).n).toBe(0);
  });

  it('treats rounding left by the subtraction as zero variance', () => {
    const values = Array.from({ length: 1000 }, () => 3.6666667);
    expect(summaryOf(values).squaredDeviations).toBe(0);
  });
});
