import { describe, expect, it } from 'vitest';
import {
  chiSquareCdf,
  chiSquareSf,
  fSf,
  normalCdf,
  normalPValue,
  normalQuantile,
  normalSf,
  studentTCdf,
  studentTPValue,
  studentTQuantile,
  studentTSf,
} from './index.ts';
import { expectRelative } from './test-helpers.ts';

// Expected values computed with mpmath at 60+ significant digits (or SciPy where stated). The
// functions come from @stdlib; these cases pin the precision the statistics rely on.
describe('normal distribution', () => {
  it.each([
    [-3, 0.9986501019683699],
    [-0.5, 0.6914624612740131],
    [0, 0.5],
    [1e-9, 0.49999999960105773],
    [0.5, 0.3085375387259869],
    [3, 0.0013498980316300946],
    [8.5, 9.479534822203318e-18],
    [20, 2.7536241186062337e-89],
    [37, 5.725571222524577e-300],
  ])('sf(%d) has relative error below 1e-13', (z, expected) => {
    expectRelative(normalSf(z), expected, 1e-13);
    expectRelative(normalCdf(-z), expected, 1e-13);
  });

  it('quantile inverts the cdf, including far tails', () => {
    expectRelative(normalQuantile(0.975), 1.959963984540054, 1e-14);
    // @stdlib inverts through erfinv(2p − 1), which keeps about 8 digits this far out; no reported
    // number depends on a quantile below 1e-8.
    expectRelative(normalQuantile(1e-10), -6.361340902404056, 1e-8);
    for (const p of [0.001, 0.3, 0.7, 0.999]) expectRelative(normalCdf(normalQuantile(p)), p, 1e-13);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(normalQuantile(1)).toBe(Number.POSITIVE_INFINITY);
    expect(normalQuantile(1.5)).toBeNaN();
    expect(normalQuantile(Number.NaN)).toBeNaN();
  });
});

describe('Student t distribution', () => {
  it.each([
    [0.7, 1, 0.30559988778578523],
    [2.1, 2.5, 0.07225122237742193],
    [-1.3, 7, 0.8826160823038114],
    [2.0, 30, 0.02731252248149155],
    [5.5, 12.3, 6.233627034856882e-5],
    [12, 40, 3.912085652127986e-15],
    [3.1, 1e5, 0.000967871856311278],
    [1.75, 2000, 0.04013582994408138],
    [30, 3, 4.0676402135819796e-5],
  ])('sf(%d, df=%d) has relative error below 1e-12', (t, df, expected) => {
    expectRelative(studentTSf(t, df), expected, 1e-12);
    expectRelative(studentTCdf(-t, df), expected, 1e-12);
  });

  it('keeps precision for huge df where a naive continued fraction cancels', () => {
    // mpmath: P(T > 4.38) with df = 1e9 and P(T > 15.18) with df = 1e9.
    expectRelative(studentTSf(4.38, 1e9), 5.933966047491646e-6, 1e-12);
    expectRelative(studentTSf(15.18, 1e9), 2.3989409200881738e-52, 1e-12);
    expectRelative(studentTSf(2, Number.POSITIVE_INFINITY), normalSf(2), 1e-15);
  });

  it('handles infinities, NaN and invalid df', () => {
    expect(studentTSf(Number.POSITIVE_INFINITY, 5)).toBe(0);
    expect(studentTSf(Number.NEGATIVE_INFINITY, 5)).toBe(1);
    expect(studentTSf(0, 5)).toBe(0.5);
    expect(studentTSf(Number.NaN, 5)).toBeNaN();
    expect(studentTSf(1, 0)).toBeNaN();
    expect(studentTSf(1, -3)).toBeNaN();
  });

  it('quantile matches SciPy and inverts the cdf', () => {
    expectRelative(studentTQuantile(0.975, 10), 2.228138851986274, 1e-13);
    expectRelative(studentTQuantile(0.005, 3), -5.840909309733357, 1e-13);
    expectRelative(studentTQuantile(0.9, 2.5), 1.7302509288071766, 1e-13);
    for (const df of [1, 4.5, 60, 1e6]) {
      for (const p of [1e-12, 0.01, 0.4, 0.95])
        expectRelative(studentTCdf(studentTQuantile(p, df), df), p, 1e-11);
    }
    expect(studentTQuantile(0.5, 7)).toBe(0);
    expect(studentTQuantile(1, 7)).toBe(Number.POSITIVE_INFINITY);
    expect(studentTQuantile(0.5, 0)).toBeNaN();
  });
});

describe('F distribution', () => {
  it('upper tail matches SciPy', () => {
    expectRelative(fSf(3.2, 4, 50), 0.02043013800730379, 1e-12);
    expectRelative(fSf(0.4, 2, 7), 0.6847184505954041, 1e-12);
    expectRelative(fSf(25, 3, 315), 1.552409861149169e-14, 1e-11);
    expect(fSf(0, 3, 10)).toBe(1);
    expect(fSf(Number.POSITIVE_INFINITY, 3, 10)).toBe(0);
    expect(fSf(1, 0, 10)).toBeNaN();
  });
});

describe('chi-square distribution', () => {
  it('upper tail matches SciPy, far into the tail', () => {
    expectRelative(chiSquareSf(3.84, 1), 0.05004352124870519, 1e-12);
    expectRelative(chiSquareSf(38.21596244131464, 3), 2.5440174266320765e-8, 1e-12);
    expectRelative(chiSquareSf(155.7983193277311, 5), 7.777199378961722e-32, 1e-12);
    expectRelative(chiSquareCdf(2, 4) + chiSquareSf(2, 4), 1, 1e-15);
    expect(chiSquareSf(0, 3)).toBe(1);
    expect(chiSquareSf(Number.POSITIVE_INFINITY, 3)).toBe(0);
    expect(chiSquareSf(1, 0)).toBeNaN();
    expect(chiSquareSf(Number.NaN, 2)).toBeNaN();
  });
});

describe('p-values from statistics', () => {
  it('follows the alternative and caps two-sided p at 1', () => {
    expectRelative(normalPValue(1.5, 'greater'), normalSf(1.5), 1e-15);
    expectRelative(normalPValue(1.5, 'less'), normalCdf(1.5), 1e-15);
    expectRelative(normalPValue(-1.5, 'two-sided'), 2 * normalSf(1.5), 1e-15);
    expect(normalPValue(0, 'two-sided')).toBe(1);
    expectRelative(studentTPValue(-2, 9, 'less'), studentTCdf(-2, 9), 1e-15);
    expectRelative(studentTPValue(-2, 9, 'two-sided'), 2 * studentTSf(2, 9), 1e-15);
  });

  it('gives the limits for infinite statistics whatever the df', () => {
    expect(studentTPValue(Number.POSITIVE_INFINITY, Number.NaN, 'two-sided')).toBe(0);
    expect(studentTPValue(Number.POSITIVE_INFINITY, 3, 'greater')).toBe(0);
    expect(studentTPValue(Number.POSITIVE_INFINITY, 3, 'less')).toBe(1);
    expect(studentTPValue(Number.NEGATIVE_INFINITY, 3, 'less')).toBe(0);
    expect(normalPValue(Number.NaN)).toBeNaN();
  });

  it('rejects an unknown alternative', () => {
    expect(() => normalPValue(1, 'both' as never)).toThrow(RangeError);
  });
});
