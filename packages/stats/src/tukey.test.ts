import { describe, expect, it } from 'vitest';
import { pairedT, studentT, tukeyHsd, tukeyHsdBlocked } from './index.ts';
import { expectRelative } from './test-helpers.ts';

const a = [4.1, 5.2, 3.9, 6.0, 5.5];
const b = [6.3, 7.1, 5.9, 6.8];
const c = [5.0, 4.4, 5.8, 5.1, 4.9, 5.3];
const blocks = [
  [7, 5, 6],
  [6, 6, 4],
  [8, 6, 7],
  [5, 4, 4],
  [7, 7, 5],
  [6, 5, 5],
];

describe('tukeyHsd (Tukey-Kramer)', () => {
  it('matches SciPy tukey_hsd with unequal group sizes', () => {
    // scipy.stats.tukey_hsd(a, b, c).pvalue
    const expected = [
      [1, 0.009672165940133093, 0.9317050389727882],
      [0.009672165940133093, 1, 0.013758080137661],
      [0.9317050389727882, 0.013758080137661, 1],
    ];
    const result = tukeyHsd([a, b, c]);
    expected.forEach((row, i) =>
      row.forEach((p, j) => expectRelative(result.pValues[i]?.[j] ?? NaN, p, 1e-8)),
    );
    expectRelative(result.meanDifferences[0]?.[1] ?? NaN, 4.94 - 6.525, 1e-12);
    expectRelative(result.meanDifferences[1]?.[0] ?? NaN, 6.525 - 4.94, 1e-12);
    expect([result.df, result.k]).toEqual([12, 3]);
  });

  it('with two products equals the pooled t-test (q = √2·|t|)', () => {
    const result = tukeyHsd([a, b]);
    expectRelative(result.pValues[0]?.[1] ?? NaN, studentT(a, b).pValue, 1e-9);
    expectRelative(result.statistics[0]?.[1] ?? NaN, Math.SQRT2 * Math.abs(studentT(a, b).statistic), 1e-12);
  });

  it('gives a product without answers NaN and compares the others among themselves', () => {
    const result = tukeyHsd([a, [Number.NaN], b, c]);
    const reference = tukeyHsd([a, b, c]);
    expect(result.pValues[1]).toEqual([NaN, NaN, NaN, NaN]);
    expect(result.pValues[0]?.[1]).toBeNaN();
    expect(result.pValues[0]?.[2]).toBe(reference.pValues[0]?.[1]);
    expect(result.means[1]).toBeNaN();
    expect(result.k).toBe(3);
  });

  it('handles zero variance: p 0 where means differ, NaN where they are equal', () => {
    const result = tukeyHsd([
      [3, 3],
      [4, 4],
      [3, 3, 3],
    ]);
    expect(result.pValues[0]?.[1]).toBe(0);
    expect(result.pValues[0]?.[2]).toBeNaN();
    expect(result.pValues[2]?.[2]).toBe(1);
  });

  it('is undefined (NaN) with one answer per product (no error df)', () => {
    const result = tukeyHsd([[3], [4], [5]]);
    expect(result.df).toBe(0);
    expect(result.pValues[0]?.[1]).toBeNaN();
    expect(result.meanDifferences[2]?.[0]).toBe(2);
  });
});

describe('tukeyHsdBlocked', () => {
  it('with two products equals the paired t-test', () => {
    const pairs = blocks.map((row) => [row[0] ?? 0, row[2] ?? 0]);
    const result = tukeyHsdBlocked(pairs);
    const t = pairedT(
      pairs.map((row) => row[0] ?? 0),
      pairs.map((row) => row[1] ?? 0),
    );
    expectRelative(result.pValues[0]?.[1] ?? NaN, t.pValue, 1e-9);
    expect(result.df).toBe(5);
  });

  it('uses the blocked ANOVA error mean square with (k − 1)(n − 1) df', () => {
    const result = tukeyHsdBlocked(blocks);
    expect(result.df).toBe(10);
    expectRelative(result.meanSquareError, 44 / 90, 1e-12);
    // q(A, C) = (6.5 − 5.1667)/√(MSE/6); SciPy studentized_range.sf(q, 3, 10).
    expectRelative(result.statistics[0]?.[2] ?? NaN, (6.5 - 31 / 6) / Math.sqrt(44 / 90 / 6), 1e-12);
    expectRelative(result.pValues[0]?.[2] ?? NaN, 0.019895574069497046, 1e-8);
  });

  it('leaves out products without answers and incomplete respondents', () => {
    const withGaps = blocks.map((row) => [row[0] ?? 0, row[1] ?? 0, Number.NaN, row[2] ?? 0]);
    withGaps.push([4, Number.NaN, Number.NaN, 5]);
    const result = tukeyHsdBlocked(withGaps);
    const reference = tukeyHsdBlocked(blocks);
    expect(result.pValues[0]?.[3]).toBe(reference.pValues[0]?.[2]);
    expect(result.pValues[2]?.[0]).toBeNaN();
  });

  it('gives NaN for tied products and p 0 for a pure product effect', () => {
    const result = tukeyHsdBlocked([
      [2, 2, 4],
      [3, 3, 5],
      [1, 1, 3],
    ]);
    expect(result.meanSquareError).toBe(0);
    expect(result.pValues[0]?.[1]).toBeNaN();
    expect(result.pValues[0]?.[2]).toBe(0);
  });

  it('is undefined (NaN) for a single respondent but keeps the diagonal', () => {
    const result = tukeyHsdBlocked([[5, 6, 7]]);
    expect(result.pValues[0]?.[1]).toBeNaN();
    expect(result.pValues[1]?.[1]).toBe(1);
    expect(result.meanDifferences[2]?.[0]).toBe(2);
  });
});
