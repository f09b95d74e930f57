import { harmoniseToFivePoint } from '@accord/stats';
import { describe, expect, it } from 'vitest';
import { AnswerStatistics } from './answer-stats.ts';

describe('AnswerStatistics', () => {
  it('sums the answers per product, metric, gender, age and scale membership, with the boxes', () => {
    const stats = new AnswerStatistics(new Set());
    const woman30 = stats.group('female', 30);
    const man = stats.group('male', null);
    for (const value of [5, 4, 3, 1]) stats.add(7, 2, woman30, value);
    stats.add(7, 2, man, 2);
    stats.add(7, 2, man, 9); // out of the 5-point scale: a row of its own
    expect(stats.group('female', 30)).toBe(woman30);

    const rows = stats.demographicRows();
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.gender === 'female')).toEqual({
      productId: 7,
      metricId: 2,
      gender: 'female',
      age: 30,
      inScale: true,
      n: 4,
      sum: 13,
      sumSq: 51,
      topBox: 1,
      top2Box: 2,
      justRight: 1,
      bottom2Box: 1,
      bottomBox: 1,
    });
    expect(rows.filter((r) => r.gender === 'male').map((r) => [r.inScale, r.n, r.sum])).toEqual([
      [true, 1, 2],
      [false, 1, 9],
    ]);

    expect(stats.productRows()).toEqual([
      {
        productId: 7,
        metricId: 2,
        n: 6,
        sum: 24,
        sumSq: 136,
        topBox: 2,
        top2Box: 3,
        justRight: 1,
        bottom2Box: 2,
        bottomBox: 1,
      },
    ]);
  });

  it('keeps a missing gender apart from an empty one, and products and metrics apart', () => {
    const stats = new AnswerStatistics(new Set());
    const unknown = stats.group(null, null);
    const empty = stats.group('', null);
    expect(unknown).not.toBe(empty);
    stats.add(1, 3, unknown, 4);
    stats.add(1, 3, empty, 4);
    stats.add(65_537, 3, unknown, 4);
    stats.add(1, 4, unknown, 4);
    const keys = stats.demographicRows().map((r) => `${r.productId}/${r.metricId}/${String(r.gender)}`);
    expect(keys.sort()).toEqual(['1/3/', '1/3/null', '1/4/null', '65537/3/null']);
    expect(stats.productRows().map((r) => [r.productId, r.metricId, r.n])).toEqual([
      [1, 3, 2],
      [65_537, 3, 1],
      [1, 4, 1],
    ]);
  });

  it('counts no boxes of EEG scores in the product statistics, as the database stores them', () => {
    const stats = new AnswerStatistics(new Set([9]));
    const group = stats.group('female', 41);
    stats.add(1, 9, group, 4.7);
    const [product] = stats.productRows();
    expect(product).toMatchObject({ n: 1, topBox: 0, top2Box: 0, justRight: 0, bottom2Box: 0, bottomBox: 0 });
    // Double precision, as the column reads back.
    expect(product!.sum).toBe(4.7);
    expect(stats.demographicRows()[0]).toMatchObject({ topBox: 1, top2Box: 1 });
  });

  it('keeps harmonised answers in double precision: a 7-point mean of 37/9 reads 4.111111111111111', () => {
    const stats = new AnswerStatistics(new Set());
    const group = stats.group(null, null);
    // Six answers 6 and three answers 5 on a 1-7 scale: 1 + 4 * 5/6 and 1 + 4 * 4/6.
    for (const raw of [6, 6, 6, 6, 6, 6, 5, 5, 5]) stats.add(1, 1, group, harmoniseToFivePoint(raw, 1, 7));
    const [product] = stats.productRows();
    expect(Math.abs(product!.sum / product!.n - 37 / 9)).toBeLessThan(1e-9 * (37 / 9));
    expect(Math.abs(stats.demographicRows()[0]!.sum / 9 - 37 / 9)).toBeLessThan(1e-9 * (37 / 9));
  });

  it('applies the box thresholds with their tolerances', () => {
    const stats = new AnswerStatistics(new Set());
    const group = stats.group(null, null);
    for (const value of [4.4999995, 3.5, 2.5000004, 1.5]) stats.add(1, 1, group, value);
    const [demographic] = stats.demographicRows();
    // 4.4999995 is within 1e-6 of 4.5 but not within 1e-9; 2.5000004 the same for 2.5.
    expect(demographic).toMatchObject({ topBox: 0, top2Box: 2, justRight: 1, bottom2Box: 1, bottomBox: 1 });
    const [product] = stats.productRows();
    expect(product).toMatchObject({ topBox: 1, top2Box: 2, justRight: 0, bottom2Box: 2, bottomBox: 1 });
  });
});
