import { describe, expect, it } from 'vitest';
import { benjaminiHochbergAdjust, holmAdjust } from './index.ts';
import { expectRelative } from './test-helpers.ts';

describe('holmAdjust', () => {
  it('multiplies the i-th smallest p by (m − i + 1) and keeps the order monotone', () => {
    // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 → 0.06 (running maximum).
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((value, index) => expectRelative(adjusted[index] ?? NaN, value, 1e-15));
  });

  it('caps at 1, leaves NaN out of the family and handles ties and an empty family', () => {
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
    const withMissing = holmAdjust([0.01, Number.NaN, 0.02]);
    expect(withMissing[1]).toBeNaN();
    expectRelative(withMissing[0] ?? NaN, 0.02, 1e-15);
    expectRelative(withMissing[2] ?? NaN, 0.02, 1e-15);
    expect(holmAdjust([0.02, 0.02])).toEqual([0.04, 0.04]);
    expect(holmAdjust([])).toEqual([]);
    expect(holmAdjust([0.3])).toEqual([0.3]);
  });

  it('rejects values that are not probabilities', () => {
    expect(() => holmAdjust([0.1, 1.5])).toThrow(RangeError);
    expect(() => benjaminiHochbergAdjust([-0.1])).toThrow(RangeError);
  });
});

describe('benjaminiHochbergAdjust', () => {
  it('takes the running minimum of m·p/i from the largest p down', () => {
    // Sorted: 0.005·4/1 = 0.02, 0.01·4/2 = 0.02, 0.03·4/3 = 0.04, 0.04·4/4 = 0.04.
    const adjusted = benjaminiHochbergAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.02, 0.04, 0.04, 0.02].forEach((value, index) => expectRelative(adjusted[index] ?? NaN, value, 1e-15));
  });

  it('leaves NaN out of the family and never exceeds 1', () => {
    const adjusted = benjaminiHochbergAdjust([Number.NaN, 0.8, 0.9]);
    expect(adjusted[0]).toBeNaN();
    expect(adjusted.slice(1)).toEqual([0.9, 0.9]);
    expect(benjaminiHochbergAdjust([1, 1])).toEqual([1, 1]);
  });
});
