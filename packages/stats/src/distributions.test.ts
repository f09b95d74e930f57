import { describe, expect, it } from 'vitest';
import {
  erf,
  erfc,
  fSf,
  incompleteBetaTails,
  logBeta,
  logGamma,
  normalCdf,
  normalPValue,
  normalQuantile,
  normalSf,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTPValue,
  studentTQuantile,
  studentTSf,
} from './index.ts';
import { expectRelative } from './test-helpers.ts';

// Expected values computed with mpmath at 60+ significant digits (or SciPy where stated).
describe('special functions', () => {
  it('logGamma matches high-precision values', () => {
    expectRelative(logGamma(0.5), 0.5723649429247001, 1e-14);
    expectRelative(logGamma(3), Math.log(2), 1e-14);
    expectRelative(logGamma(7.25), 7.0521854507385395, 1e-14);
    expectRelative(logGamma(100.5), 361.4355404677776, 1e-14);
    expectRelative(logGamma(1e6), 12815504.569147611, 1e-14);
    expect(Math.abs(logGamma(1))).toBeLessThan(1e-14);
    expect(logGamma(0)).toBe(Number.POSITIVE_INFINITY);
    expect(logGamma(-2)).toBe(Number.POSITIVE_INFINITY);
    expect(logGamma(Number.NaN)).toBeNaN();
    // Reflection: |Γ(−0.5)| = 2√π.
    expectRelative(logGamma(-0.5), Math.log(2 * Math.sqrt(Math.PI)), 1e-14);
  });

  it('logBeta stays exact for large arguments', () => {
    expectRelative(logBeta(2, 3), Math.log(1 / 12), 1e-14);
    // Where lnΓ(a) − lnΓ(a + b) would cancel (mpmath values).
    expectRelative(logBeta(5000, 0.5), -3.6862066527834605, 1e-14);
    expectRelative(logBeta(30, 45.5), -51.25512785785365, 1e-14);
    expectRelative(logBeta(1e7, 2.5), -40.01055644442287, 1e-14);
    expect(logBeta(0, 1)).toBeNaN();
  });

  it('regularized incomplete beta matches reference values and both tails add to 1', () => {
    expectRelative(regularizedIncompleteBeta(0.3, 2.5, 3.5), 0.2967529892956664, 1e-13);
    expectRelative(incompleteBetaTails(0.5, 400, 0.001).lower, 0.6288767946805289, 1e-13);
    expectRelative(incompleteBetaTails(300, 0.5, 0.99).lower, 0.014103172217926254, 1e-12);
    const tails = incompleteBetaTails(4, 7, 0.35);
    expectRelative(tails.lower + tails.upper, 1, 1e-15);
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
    expect(regularizedIncompleteBeta(1.2, 2, 3)).toBeNaN();
    expect(regularizedIncompleteBeta(0.5, -1, 3)).toBeNaN();
  });

  it('erf and erfc match reference values', () => {
    expectRelative(erfc(0.3), 0.6713732405408726, 1e-14);
    expectRelative(erfc(5), 1.537459794428035e-12, 1e-13);
    expectRelative(erfc(-1.2), 1.9103139782296354, 1e-14);
    expectRelative(erf(0.1), 0.1124629160182849, 1e-14);
    expectRelative(erf(-0.1), -0.1124629160182849, 1e-14);
    expect(erfc(Number.NaN)).toBeNaN();
  });
});

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
    expectRelative(normalQuantile(1e-10), -6.361340902404056, 1e-14);
    for (const p of [1e-300, 1e-20, 0.001, 0.3, 0.7, 0.999])
      expectRelative(normalCdf(normalQuantile(p)), p, 1e-13);
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
