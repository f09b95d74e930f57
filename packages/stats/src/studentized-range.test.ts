import { describe, expect, it } from 'vitest';
import { normalRangeSf, studentTSf, studentizedRangeSf } from './index.ts';
import { expectRelative } from './test-helpers.ts';

describe('studentizedRangeSf', () => {
  it.each([
    // [q, k, df, SciPy studentized_range.sf]
    [3.5, 3, 10, 0.07710331083841038],
    [4.2, 5, 60, 0.0334860668814273],
    [2.9, 4, 200, 0.17319439166891348],
    [5.1, 8, 30, 0.021657676187654573],
    [6.0, 12, 500, 0.0015632151895260682],
    [1.2, 3, 15, 0.6796362926253348],
    [3.0, 2, 5, 0.08735930812736137],
    [7.5, 6, 120, 7.741614970857569e-6],
    [4.0, 20, 1000, 0.3378839090952328],
    [3.3, 3, 2, 0.25090950736461826],
  ])('sf(%d; k=%d, df=%d) matches SciPy', (q, k, df, expected) => {
    expectRelative(studentizedRangeSf(q, k, df), expected, 1e-8);
  });

  it('keeps its precision in the far tail, where SciPy returns 1 − cdf', () => {
    // mpmath at 25 digits: 2.744132239844747748e-8 (SciPy prints 2.7441283e-8, off by 1.4e-6 relative).
    expectRelative(studentizedRangeSf(8.657, 4, 207), 2.744132239844748e-8, 1e-9);
    const farTail = studentizedRangeSf(19.2636, 5, 172);
    expect(farTail).toBeGreaterThan(0);
    expect(farTail).toBeLessThan(1e-26);
  });

  it('with two means is the two-sided t-test at q/√2', () => {
    for (const [q, df] of [
      [1.5, 4],
      [4.2, 30],
      [9, 250],
      // Far beyond √df, where the whole mass sits near s = 0 (these once needed 10^16 panels).
      [1000, 1],
      [1e6, 2],
      [1e16, 4],
    ] as const) {
      expectRelative(studentizedRangeSf(q, 2, df), 2 * studentTSf(q / Math.SQRT2, df), 1e-9);
    }
    // Without estimated variance (normal range of two values): P(|Z1 − Z2| > w) = 2·Φ(−w/√2).
    expectRelative(studentizedRangeSf(3, 2, 1e6), normalRangeSf(3, 2), 1e-15);
  });

  it('decreases with q and has the limits at 0 and Infinity', () => {
    let previous = 1;
    for (let q = 0.5; q < 12; q += 0.5) {
      const value = studentizedRangeSf(q, 6, 40);
      expect(value).toBeLessThan(previous);
      previous = value;
    }
    expect(studentizedRangeSf(0, 4, 10)).toBe(1);
    expect(studentizedRangeSf(Number.POSITIVE_INFINITY, 4, 10)).toBe(0);
    expect(studentizedRangeSf(Number.NaN, 4, 10)).toBeNaN();
    expect(studentizedRangeSf(3, 1, 10)).toBeNaN();
    expect(studentizedRangeSf(3, 4, 0)).toBeNaN();
  });
});
