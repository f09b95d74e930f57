import { describe, expect, it } from 'vitest';
import {
  blockedAnova,
  completeBlocks,
  friedmanTest,
  kruskalWallis,
  oneWayAnova,
  pairedT,
  studentT,
} from './index.ts';
import { expectRelative } from './test-helpers.ts';

// Expected values from SciPy 1.17 (f_oneway, kruskal, friedmanchisquare) unless derived by hand.
const a = [4.1, 5.2, 3.9, 6.0, 5.5];
const b = [6.3, 7.1, 5.9, 6.8];
const c = [5.0, 4.4, 5.8, 5.1, 4.9, 5.3];
/** Six respondents (rows) rating three products (columns). */
const blocks = [
  [7, 5, 6],
  [6, 6, 4],
  [8, 6, 7],
  [5, 4, 4],
  [7, 7, 5],
  [6, 5, 5],
];

describe('oneWayAnova', () => {
  it('matches SciPy f_oneway', () => {
    const result = oneWayAnova([a, b, c]);
    expectRelative(result.statistic, 7.7377668256152585, 1e-12);
    expectRelative(result.pValue, 0.0069408180219017465, 1e-10);
    expect([result.df1, result.df2, result.k, result.n]).toEqual([2, 12, 3, 15]);
  });

  it('with two products is the pooled t-test squared', () => {
    const result = oneWayAnova([a, b]);
    const t = studentT(a, b);
    expectRelative(result.statistic, t.statistic ** 2, 1e-12);
    expectRelative(result.pValue, t.pValue, 1e-10);
  });

  it('leaves out a product without answers and missing answers', () => {
    const reference = oneWayAnova([a, b, c]);
    const result = oneWayAnova([a, [], [...b, Number.NaN], [Number.NaN], c]);
    expect(result).toEqual(reference);
  });

  it('gives NaN when every answer is tied, an infinite F when only the means differ', () => {
    const tied = oneWayAnova([
      [3, 3],
      [3, 3, 3],
    ]);
    expect(tied.statistic).toBeNaN();
    expect(tied.pValue).toBeNaN();
    const separated = oneWayAnova([
      [3, 3],
      [4, 4, 4],
    ]);
    expect(separated.statistic).toBe(Number.POSITIVE_INFINITY);
    expect(separated.pValue).toBe(0);
  });

  it('is undefined (NaN) with one product or no error degrees of freedom', () => {
    expect(oneWayAnova([a]).pValue).toBeNaN();
    expect(oneWayAnova([[1], [2]]).pValue).toBeNaN();
    expect(oneWayAnova([]).k).toBe(0);
  });
});

describe('blockedAnova', () => {
  it('with two products is the paired t-test squared', () => {
    const pairs = blocks.map((row) => [row[0] ?? 0, row[1] ?? 0]);
    const result = blockedAnova(pairs);
    const t = pairedT(
      pairs.map((row) => row[0] ?? 0),
      pairs.map((row) => row[1] ?? 0),
    );
    expectRelative(result.statistic, t.statistic ** 2, 1e-12);
    expectRelative(result.pValue, t.pValue, 1e-10);
    expect([result.df1, result.df2]).toEqual([1, 5]);
  });

  it('computes MS products over MS error with (k − 1)(n − 1) df', () => {
    // numpy by the textbook formulas: SS products 52/9, SS error 44/9 on 10 df; p from scipy.stats.f.
    const result = blockedAnova(blocks);
    expectRelative(result.statistic, 52 / 9 / 2 / (44 / 9 / 10), 1e-12);
    expectRelative(result.pValue, 0.020225870265882222, 1e-10);
    expect([result.df1, result.df2, result.k, result.n]).toEqual([2, 10, 3, 6]);
    expectRelative(result.meanSquareError, 44 / 90, 1e-12);
  });

  it('keeps complete respondents and products with answers', () => {
    const reference = blockedAnova(blocks);
    const withGaps = blocks.map((row) => [row[0] ?? 0, Number.NaN, row[1] ?? 0, row[2] ?? 0]);
    withGaps.push([Number.NaN, Number.NaN, 3, 4]);
    expect(blockedAnova(withGaps)).toEqual(reference);
  });

  it('is undefined for a single respondent and for all ties, infinite for a pure product effect', () => {
    const single = blockedAnova([[5, 6, 7]]);
    expect(single.statistic).toBeNaN();
    expect(single.df2).toBe(0);
    expect(
      blockedAnova([
        [4, 4],
        [4, 4],
      ]).pValue,
    ).toBeNaN();
    const pure = blockedAnova([
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
    expect(pure.statistic).toBe(Number.POSITIVE_INFINITY);
    expect(pure.pValue).toBe(0);
  });

  it('rejects rows of different lengths', () => {
    expect(() => blockedAnova([[1, 2], [3]])).toThrow(RangeError);
    expect(completeBlocks([]).rows).toEqual([]);
  });
});

describe('kruskalWallis', () => {
  it('matches SciPy kruskal, with and without ties', () => {
    const result = kruskalWallis([a, b, c]);
    expectRelative(result.statistic, 7.522500000000008, 1e-12);
    expectRelative(result.pValue, 0.023254653882273477, 1e-10);
    const tied = kruskalWallis([
      [1, 2, 2, 3],
      [2, 3, 3, 4, 4],
      [1, 1, 2],
    ]);
    expectRelative(tied.statistic, 6.306117353308373, 1e-12);
    expectRelative(tied.pValue, 0.04272125631439174, 1e-10);
    expect([tied.df, tied.k, tied.n]).toEqual([2, 3, 12]);
  });

  it('handles two products, one answer per product and zero variance like SciPy', () => {
    expectRelative(kruskalWallis([a, b]).statistic, 4.859999999999999, 1e-12);
    expectRelative(kruskalWallis([a, b]).pValue, 0.027486336111510433, 1e-10);
    const single = kruskalWallis([[1], [2]]);
    expectRelative(single.statistic, 1, 1e-14);
    expectRelative(single.pValue, 0.31731050786291115, 1e-10);
    const separated = kruskalWallis([
      [3, 3, 3],
      [5, 5],
    ]);
    expectRelative(separated.statistic, 4, 1e-14);
    expectRelative(separated.pValue, 0.04550026389635857, 1e-10);
  });

  it('leaves out empty products and missing answers; NaN when all tied or one product', () => {
    expect(kruskalWallis([a, [Number.NaN], b, c])).toEqual(kruskalWallis([a, b, c]));
    expect(
      kruskalWallis([
        [2, 2],
        [2, 2],
      ]).statistic,
    ).toBeNaN();
    expect(kruskalWallis([a]).pValue).toBeNaN();
  });
});

describe('friedmanTest', () => {
  it('matches SciPy friedmanchisquare (with ties within respondents)', () => {
    const result = friedmanTest(blocks);
    expectRelative(result.statistic, 7.599999999999994, 1e-12);
    expectRelative(result.pValue, 0.022370771856165653, 1e-10);
    expect([result.df, result.k, result.n]).toEqual([2, 3, 6]);
  });

  it('is defined for one respondent and for two products', () => {
    // One respondent ranking 1, 2, 3: χ² = 12/(1·3·4)·14 − 12 = 2, p = e^−1.
    const single = friedmanTest([[1, 2, 3]]);
    expectRelative(single.statistic, 2, 1e-14);
    expectRelative(single.pValue, Math.exp(-1), 1e-12);
    // Two products: 4 respondents prefer the first, 1 the second, 1 tie: χ² = (4 − 1)²/5 = 1.8.
    const two = friedmanTest([
      [5, 3],
      [4, 2],
      [6, 5],
      [7, 1],
      [2, 3],
      [4, 4],
    ]);
    expectRelative(two.statistic, 1.8, 1e-12);
  });

  it('drops incomplete respondents; NaN when every respondent ties all products', () => {
    expect(friedmanTest([...blocks, [Number.NaN, 3, 4]])).toEqual(friedmanTest(blocks));
    expect(friedmanTest(blocks.map((row) => [Number.NaN, ...row]))).toEqual(friedmanTest(blocks));
    expect(
      friedmanTest([
        [3, 3, 3],
        [5, 5, 5],
      ]).statistic,
    ).toBeNaN();
    expect(friedmanTest([[4], [5]]).pValue).toBeNaN();
  });
});
