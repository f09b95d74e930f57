import { describe, expect, it } from 'vitest';
import { describeBase, histogram, niceStep, normLines, percentileRecord } from './norm-shape.ts';

describe('histogram', () => {
  it('bins shares in steps of 5 points, the last bin closed', () => {
    const bins = histogram([0.5, 0.52, 0.55, 0.61, 0.7], true);
    expect(bins.map((bin) => [bin.from, bin.to, bin.count])).toEqual([
      [0.5, 0.55, 2],
      [0.55, 0.6, 1],
      [0.6, 0.65, 1],
      [0.65, 0.7, 1],
    ]);
    expect(bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(5);
  });

  it('keeps empty bins between the first and the last, and counts every score once', () => {
    const scores = [3.01, 3.02, 4.4, 3.9, 3.33];
    const bins = histogram(scores, false);
    expect(bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(scores.length);
    for (let index = 1; index < bins.length; index++) expect(bins[index]!.from).toBe(bins[index - 1]!.to);
    expect(bins[0]!.from).toBeLessThanOrEqual(3.01);
    expect(bins.at(-1)!.to).toBeGreaterThanOrEqual(4.4);
  });

  it('gives one bin to a single score and none to no score', () => {
    expect(histogram([0.4], true)).toEqual([{ from: 0.4, to: 0.45, count: 1 }]);
    expect(histogram([], true)).toEqual([]);
  });
});

describe('niceStep', () => {
  it('is 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceStep(1.2)).toBe(0.1);
    expect(niceStep(2)).toBe(0.2);
    expect(niceStep(0.3)).toBe(0.025);
    expect(niceStep(0)).toBe(0.1);
  });
});

describe('normLines', () => {
  const record = percentileRecord([1, 2, 3, 4, 5]);
  it('names the top quartile and top decile as action standards', () => {
    const lines = normLines(record, 'top_2_box');
    expect(lines.map((line) => line.label)).toEqual([
      'P10',
      'P25',
      'P50 (median)',
      'Action standard: top quartile (P75)',
      'Action standard: top decile (P90)',
    ]);
    expect(lines.filter((line) => line.action_standard).map((line) => line.value)).toEqual([4, 5]);
  });
  it('puts them low where a lower score is better', () => {
    const lines = normLines(record, 'bottom_2_box');
    expect(lines.filter((line) => line.action_standard).map((line) => line.label)).toEqual([
      'Action standard: top decile (P10)',
      'Action standard: top quartile (P25)',
    ]);
  });
});

describe('describeBase', () => {
  const base = {
    category: 'Fabric Care',
    region: 'Europe',
    productType: null,
    methodology: null,
    kind: 'fragrance' as const,
  };
  it('names the base in words with its years and counts', () => {
    expect(describeBase(base, { from: 2022, to: 2026 }, { products: 412, studies: 96 })).toBe(
      'Fabric Care, Europe, 2022-2026: 412 fragrances in 96 studies',
    );
    expect(
      describeBase({ ...base, region: null }, { from: 2024, to: 2024 }, { products: 1, studies: 1 }),
    ).toBe('Fabric Care, 2024: 1 fragrance in 1 study');
  });
  it('names open year ranges and leaves counts out when not given', () => {
    expect(describeBase(base, { from: 2020, to: null }, null)).toBe('Fabric Care, Europe, from 2020');
    expect(describeBase(base, { from: null, to: 2021 }, null)).toBe('Fabric Care, Europe, until 2021');
  });
});
