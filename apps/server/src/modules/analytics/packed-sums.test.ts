import { describe, expect, it } from 'vitest';
import type { SumsTable } from './analytics-context.ts';
import { SUMS_FIELDS as FIELDS } from './analytics-metrics.ts';
import type { MetricSums } from './analytics-types.ts';
import { demographicSums, demographicTableBuilder } from './demographic-table.ts';
import { packSums } from './packed-sums.ts';
import { storedSumsOf, type StoredSums } from './stored-sums.ts';

const row = (productId: number, n: number): MetricSums => ({
  productId,
  metricId: 7,
  n,
  sum: n * 3.25,
  sumSq: n * 11.0625 + 0.1,
  nTopBox: n - 3,
  nTop2Box: n - 2,
  nJustRight: 1,
  nBottom2Box: 2,
  nBottomBox: 1,
});

/** What copyTo writes for a product, or null when it writes nothing. */
function copied(stored: StoredSums, productId: number): number[] | null {
  const target = new Float64Array(10).fill(-1);
  if (!stored.copyTo(productId, target, 1)) {
    expect([...target]).toEqual(new Array(10).fill(-1));
    return null;
  }
  expect([target[0], target[9]]).toEqual([-1, -1]);
  return [...target.subarray(1, 9)];
}

/** What get gives for a product, in the packed order. */
const fieldsOf = (stored: StoredSums, productId: number) => {
  const found = stored.get(productId);
  return found ? FIELDS.map((field) => found[field]) : null;
};

describe('statistics copied into packed arrays', () => {
  it('writes the stored statistics of a product as get reads them, and nothing for others', () => {
    const stored = storedSumsOf(7, [row(40, 120), row(3, 5), row(17, 2_000_000)]);
    for (const productId of [40, 3, 17, -1, 0, 4, 41, 10_000])
      expect(copied(stored, productId)).toEqual(fieldsOf(stored, productId));
  });

  it('writes the sums of a demographic filter as get reads them', () => {
    const builder = demographicTableBuilder(7);
    builder.add([
      [1, 'Female', 30, 4, 22.5, 130.25, 1, 2, 1, 0, 0],
      [1, 'Male', 30, 3, 12, 50, 0, 1, 1, 1, 0],
      [2, 'Female', 50, 2, 9, 41, 1, 1, 0, 0, 0],
      [5, 'Female', 31, 6, 30, 160, 2, 4, 1, 1, 1],
    ]);
    const sums = demographicSums(builder.finish(), (gender, age) => gender === 'Female' && age! < 40, null);
    for (const productId of [1, 2, 5, 3, 0, 99])
      expect(copied(sums, productId)).toEqual(fieldsOf(sums, productId));
  });

  it('packs the same numbers through copyTo as through get', () => {
    const stored = storedSumsOf(7, [row(40, 120), row(3, 5), row(17, 2_000_000)]);
    const byGet: SumsTable = { get: (key) => stored.get((key - (key % 65536)) / 65536) };
    const byCopy: SumsTable = {
      ...byGet,
      copyTo: (productId, _metricId, target, at) => stored.copyTo(productId, target, at),
    };
    const ids = [3, 99, 17, 40, 3];
    expect([...packSums(byCopy, ids, [7]).values]).toEqual([...packSums(byGet, ids, [7]).values]);
    expect(packSums(byCopy, ids, [7]).values[8]).toBe(0);
  });
});
