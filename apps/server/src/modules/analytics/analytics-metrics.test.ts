import { summariseHarmonised } from '@accord/stats';
import { describe, expect, it } from 'vitest';
import {
  addSums,
  addSumsInto,
  aggregate,
  applyThreshold,
  compareBoxVsAverage,
  summarise,
  thresholdSize,
  type Sums,
} from './analytics-metrics.ts';

function sumsOf(values: number[]): Sums {
  return {
    n: values.length,
    sum: values.reduce((a, b) => a + b, 0),
    sumSq: values.reduce((a, b) => a + b * b, 0),
    nTopBox: values.filter((v) => v >= 4.5).length,
    nTop2Box: values.filter((v) => v >= 3.5).length,
    nJustRight: values.filter((v) => v > 2.5 && v < 3.5).length,
    nBottom2Box: values.filter((v) => v <= 2.5).length,
    nBottomBox: values.filter((v) => v <= 1.5).length,
  };
}

describe('aggregate', () => {
  const values = [1, 2, 3, 3.5, 4, 5, 5, 2.5];
  const expected = summariseHarmonised(values);

  it('matches the statistics package on every aggregation', () => {
    const sums = sumsOf(values);
    expect(aggregate(sums, 'mean', 'hedonic')).toBeCloseTo(expected.mean!, 12);
    expect(aggregate(sums, 'variance', 'hedonic')).toBeCloseTo(expected.variance!, 12);
    expect(aggregate(sums, 'top_box', 'hedonic')).toBe(expected.top_box);
    expect(aggregate(sums, 'top_2_box', 'hedonic')).toBe(expected.top_2_box);
    expect(aggregate(sums, 'just_right', 'hedonic')).toBe(expected.just_right);
    expect(aggregate(sums, 'bottom_2_box', 'hedonic')).toBe(expected.bottom_2_box);
    expect(aggregate(sums, 'bottom_box', 'hedonic')).toBe(expected.bottom_box);
  });

  it('reads implicit shares from the boxes: yes T2B, fast yes TB, no B2B, fast no BB', () => {
    const implicit = sumsOf([1, 2.333, 3.667, 5, 5]);
    expect(aggregate(implicit, 'irt_yes', 'implicit')).toBe(3 / 5);
    expect(aggregate(implicit, 'hi_yes', 'implicit')).toBe(2 / 5);
    expect(aggregate(implicit, 'irt_no', 'implicit')).toBe(2 / 5);
    expect(aggregate(implicit, 'hi_no', 'implicit')).toBe(1 / 5);
  });

  it('gives null for an empty base, a variance of one answer and neutral on binary scales', () => {
    expect(aggregate(sumsOf([]), 'mean', 'hedonic')).toBeNull();
    expect(aggregate(sumsOf([4]), 'variance', 'hedonic')).toBeNull();
    expect(aggregate(sumsOf([1, 5]), 'just_right', 'binary')).toBeNull();
    expect(aggregate(sumsOf([3, 3, 3]), 'variance', 'hedonic')).toBe(0);
  });

  it('summarises with counts under dotted keys, without boxes for EEG scores', () => {
    expect(summarise(sumsOf([1, 5, 5]), 'hedonic')).toMatchObject({
      'answers.count': 3,
      'top_box.count': 2,
      top_box: 2 / 3,
    });
    expect(Object.keys(summarise(sumsOf([0.4, 0.6]), 'eeg')).sort()).toEqual([
      'answers.count',
      'mean',
      'variance',
    ]);
  });
});

describe('thresholds', () => {
  const values = [
    { id: 1, value: 0.5 },
    { id: 2, value: 0.9 },
    { id: 3, value: null },
    { id: 4, value: 0.7 },
    { id: 5, value: 0.7 },
  ];

  it('keeps the best or worst N among products with a value, ties by id', () => {
    const best = { applyThreshold: true, amount: 2, desc: true, type: 'fragrances' } as const;
    expect([...applyThreshold(values, best)]).toEqual([2, 4]);
    expect([...applyThreshold(values, { ...best, desc: false })]).toEqual([1, 4]);
    expect([...applyThreshold(values, { ...best, amount: 10 })]).toHaveLength(4);
  });

  it('rounds a percentage up', () => {
    const percent = { applyThreshold: true, amount: 10, desc: true, type: 'percentage' } as const;
    expect(thresholdSize(percent, 25)).toBe(3);
    expect(thresholdSize(percent, 20)).toBe(2);
    expect(thresholdSize(percent, 0)).toBe(0);
    expect(thresholdSize({ ...percent, amount: 100 }, 7)).toBe(7);
  });
});

describe('addSumsInto', () => {
  it('adds every count and sum into the total, as addSums does without a new object', () => {
    const total = sumsOf([1, 5]);
    const part = sumsOf([2.5, 3, 4.5]);
    const expected = addSums(sumsOf([1, 5]), part);
    addSumsInto(total, part);
    expect(total).toEqual(expected);
    expect(total).toEqual(sumsOf([1, 5, 2.5, 3, 4.5]));
  });
});

describe('compareBoxVsAverage', () => {
  it('tests a product whose share is 0 % or 100 % with the standard error of the average', () => {
    // 0 of 40 against an average of 30 %: z = -0.3 / sqrt(0.3 * 0.7 / 40) = -4.1404, p = 3.4671e-5 (SciPy).
    const none = compareBoxVsAverage({ count: 0, n: 40 }, 0.3);
    expect(none.testable).toBe(true);
    expect(none.statistic).toBeCloseTo(-0.3 / Math.sqrt((0.3 * 0.7) / 40), 12);
    expect(none.pValue).toBeCloseTo(3.4671076872696536e-5, 12);
    expect(none).toMatchObject({ level: 0.01, direction: 'let', test: 'one-proportion-z' });
    const all = compareBoxVsAverage({ count: 40, n: 40 }, 0.7);
    expect(all).toMatchObject({ testable: true, level: 0.01, direction: 'mt' });
  });

  it('leaves untestable only an average of exactly 0 or 1, or fewer than 2 answers', () => {
    expect(compareBoxVsAverage({ count: 0, n: 40 }, 0).testable).toBe(false);
    expect(compareBoxVsAverage({ count: 40, n: 40 }, 1).testable).toBe(false);
    expect(compareBoxVsAverage({ count: 1, n: 1 }, 0.5).testable).toBe(false);
    expect(compareBoxVsAverage({ count: 20, n: 40 }, 0.5)).toMatchObject({
      testable: true,
      pValue: 1,
      level: null,
      direction: null,
    });
  });
});
