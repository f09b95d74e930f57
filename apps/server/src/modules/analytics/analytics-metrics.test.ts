import { summariseHarmonised } from '@accord/stats';
import { describe, expect, it } from 'vitest';
import {
  addSums,
  addSumsInto,
  aggregate,
  applyThreshold,
  columnValue,
  rankJointly,
  summarise,
  thresholdSize,
  yesNoShare,
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

describe('rankJointly', () => {
  const best = { applyThreshold: true, amount: 10, desc: true, type: 'fragrances' } as const;
  it('orders by the mean of the places on each metric the product has a value for', () => {
    const liking = [
      { id: 1, value: 0.9 },
      { id: 2, value: 0.8 },
      { id: 3, value: 0.7 },
      { id: 4, value: null },
    ];
    const hedonic = [
      { id: 1, value: 0.1 },
      { id: 2, value: 0.6 },
      { id: 3, value: 0.5 },
      { id: 4, value: 0.55 },
    ];
    // Places: 1 -> (0 + 1) / 2, 2 -> (0.5 + 0) / 2, 3 -> (1 + 2/3) / 2, 4 -> 1/3.
    expect(rankJointly([liking, hedonic], best)).toEqual([2, 4, 1, 3]);
    expect(rankJointly([liking, hedonic], { ...best, amount: 2 })).toEqual([2, 4]);
    expect(rankJointly([liking, hedonic], { ...best, desc: false, amount: 1 })).toEqual([3]);
  });

  it('keeps the one-metric order of applyThreshold', () => {
    const values = [
      { id: 1, value: 0.5 },
      { id: 2, value: 0.9 },
      { id: 3, value: null },
      { id: 4, value: 0.9 },
    ];
    expect(rankJointly([values], { ...best, amount: 2 })).toEqual([
      ...applyThreshold(values, { ...best, amount: 2 }),
    ]);
    expect(rankJointly([values], best)).toEqual([2, 4, 1]);
  });
});

describe('yes/no (CATA) columns', () => {
  // Three of five answers select the word (harmonised 5), two do not (1).
  const sums = sumsOf([5, 1, 5, 5, 1]);

  it('are shares whatever the aggregation: % selected for the mean and top boxes, % not selected for a bottom box', () => {
    for (const aggregation of ['mean', 'top_box', 'top_2_box'] as const) {
      expect(yesNoShare(sums, aggregation)).toBe(3 / 5);
      expect(columnValue(sums, aggregation, 'binary')).toBe(3 / 5);
    }
    expect(columnValue(sums, 'bottom_2_box', 'binary')).toBe(2 / 5);
    expect(columnValue(sums, 'bottom_box', 'binary')).toBe(2 / 5);
    expect(columnValue(sums, 'variance', 'binary')).toBeNull();
    // A scale metric keeps its mean: 1 + 4 x 3/5 here would be a yes/no read as a mean.
    expect(columnValue(sums, 'mean', 'hedonic')).toBe(3.4);
  });

  it('pool to their shares alone, without a mean, a variance or boxes', () => {
    expect(summarise(sums, 'binary')).toEqual({
      selected: 3 / 5,
      'selected.count': 3,
      not_selected: 2 / 5,
      'not_selected.count': 2,
      'answers.count': 5,
    });
  });
});
