import { describe, expect, it } from 'vitest';
import {
  BOX_KEYS,
  classifyBoxes,
  harmoniseToFivePoint,
  isBinaryScale,
  summariseHarmonised,
  summariseScale,
  type BoxKey,
} from './index.ts';

/**
 * Independent integer oracle: with r = max − min and d = v − min, h = 1 + 4d/r, so h ≥ 4.5 ⇔ 8d ≥ 7r,
 * h ≥ 3.5 ⇔ 8d ≥ 5r, h ≤ 2.5 ⇔ 8d ≤ 3r, h ≤ 1.5 ⇔ 8d ≤ r.
 */
function integerBoxes(value: number, min: number, max: number): Record<BoxKey, boolean> {
  const range = max - min;
  const scaled = 8 * (value - min);
  return {
    top_box: scaled >= 7 * range,
    top_2_box: scaled >= 5 * range,
    just_right: scaled > 3 * range && scaled < 5 * range,
    bottom_2_box: scaled <= 3 * range,
    bottom_box: scaled <= range,
  };
}

const SCALES: [number, number][] = [
  [1, 5],
  [1, 7],
  [1, 9],
  [0, 10],
  [1, 10],
  [0, 1],
  [1, 2],
  [1, 3],
];

describe('harmoniseToFivePoint', () => {
  it('maps scale ends to 1 and 5 and the midpoint to 3', () => {
    expect(harmoniseToFivePoint(1, 1, 9)).toBe(1);
    expect(harmoniseToFivePoint(9, 1, 9)).toBe(5);
    expect(harmoniseToFivePoint(5, 1, 9)).toBe(3);
    expect(harmoniseToFivePoint(5, 0, 10)).toBe(3);
    expect(harmoniseToFivePoint(4, 1, 7)).toBeCloseTo(3, 15);
  });

  it('turns binary answers into 1 or 5', () => {
    expect(harmoniseToFivePoint(0, 0, 1)).toBe(1);
    expect(harmoniseToFivePoint(1, 0, 1)).toBe(5);
    expect(harmoniseToFivePoint(2, 1, 2)).toBe(5);
    expect(isBinaryScale(0, 1)).toBe(true);
    expect(isBinaryScale(1, 2)).toBe(true);
    expect(isBinaryScale(1, 5)).toBe(false);
  });

  it('returns NaN for missing or out-of-scale answers', () => {
    expect(harmoniseToFivePoint(Number.NaN, 1, 5)).toBeNaN();
    expect(harmoniseToFivePoint(6, 1, 5)).toBeNaN();
    expect(harmoniseToFivePoint(0, 1, 5)).toBeNaN();
  });

  it('rejects an invalid scale', () => {
    expect(() => harmoniseToFivePoint(3, 5, 5)).toThrow(RangeError);
    expect(() => harmoniseToFivePoint(3, 5, 1)).toThrow(RangeError);
    expect(() => harmoniseToFivePoint(3, Number.NaN, 5)).toThrow(RangeError);
  });
});

describe('box classification', () => {
  it.each(SCALES)('agrees with integer arithmetic for every answer on %d-%d', (min, max) => {
    for (let value = min; value <= max; value++) {
      expect(classifyBoxes(harmoniseToFivePoint(value, min, max)), `answer ${value}`).toEqual(
        integerBoxes(value, min, max),
      );
    }
  });

  it('follows the METRICS.md examples', () => {
    const boxed = (key: BoxKey, min: number, max: number): number[] => {
      const members: number[] = [];
      for (let value = min; value <= max; value++)
        if (classifyBoxes(harmoniseToFivePoint(value, min, max))[key]) members.push(value);
      return members;
    };
    expect(boxed('top_box', 1, 9)).toEqual([8, 9]);
    expect(boxed('top_2_box', 1, 9)).toEqual([6, 7, 8, 9]);
    expect(boxed('top_box', 1, 7)).toEqual([7]);
    expect(boxed('top_box', 1, 5)).toEqual([5]);
    expect(boxed('top_2_box', 1, 5)).toEqual([4, 5]);
    expect(boxed('just_right', 1, 5)).toEqual([3]);
    expect(boxed('just_right', 0, 1)).toEqual([]);
  });

  it('counts values a rounding error away from a threshold on the inclusive side', () => {
    expect(classifyBoxes(3.5 - 1e-12).top_2_box).toBe(true);
    expect(classifyBoxes(3.5 - 1e-12).just_right).toBe(false);
    expect(classifyBoxes(2.5 + 1e-12).bottom_2_box).toBe(true);
    expect(classifyBoxes(3.49).top_2_box).toBe(false);
  });

  it('puts a missing answer in no box', () => {
    expect(Object.values(classifyBoxes(Number.NaN))).toEqual(BOX_KEYS.map(() => false));
  });
});

describe('summariseHarmonised', () => {
  it('computes mean, variance and box shares', () => {
    const summary = summariseScale([1, 2, 3, 4, 5, 5], 1, 5);
    expect(summary.n).toBe(6);
    expect(summary.mean).toBeCloseTo(20 / 6, 14);
    expect(summary.variance).toBeCloseTo(2.6666666666666665, 14);
    expect(summary.top_box).toBeCloseTo(2 / 6, 15);
    expect(summary.top_2_box).toBeCloseTo(3 / 6, 15);
    expect(summary.just_right).toBeCloseTo(1 / 6, 15);
    expect(summary.bottom_2_box).toBeCloseTo(2 / 6, 15);
    expect(summary.bottom_box).toBeCloseTo(1 / 6, 15);
  });

  it('counts 9-point 6 as T2B and 4 as B2B', () => {
    const summary = summariseScale([6, 6, 4, 5], 1, 9);
    expect(summary.top_2_box).toBe(0.5);
    expect(summary.bottom_2_box).toBe(0.25);
    expect(summary.just_right).toBe(0.25);
  });

  it('has no neutral share on binary scales', () => {
    const summary = summariseScale([0, 1, 1, 0, 1], 0, 1);
    expect(summary.just_right).toBe(0);
    expect(summary.top_box).toBe(0.6);
    expect(summary.bottom_box).toBe(0.4);
    expect(summary.mean).toBeCloseTo(1 + 4 * 0.6, 14);
  });

  it('returns nulls instead of NaN for an empty base and a null variance for one answer', () => {
    expect(summariseHarmonised([])).toEqual({
      n: 0,
      mean: null,
      variance: null,
      top_box: null,
      top_2_box: null,
      just_right: null,
      bottom_2_box: null,
      bottom_box: null,
    });
    const single = summariseHarmonised([4]);
    expect(single.n).toBe(1);
    expect(single.mean).toBe(4);
    expect(single.variance).toBeNull();
    expect(single.top_2_box).toBe(1);
  });

  it('drops missing and out-of-scale answers from the base', () => {
    const summary = summariseScale([5, Number.NaN, 12, 1], 1, 5);
    expect(summary.n).toBe(2);
    expect(summary.mean).toBe(3);
    expect(summary.variance).toBe(8);
  });

  it('gives zero variance for identical answers', () => {
    expect(summariseScale([3, 3, 3], 1, 7).variance).toBe(0);
  });
});
