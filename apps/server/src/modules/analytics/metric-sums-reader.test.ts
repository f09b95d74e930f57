import { describe, expect, it } from 'vitest';
import {
  metricSumsReader,
  sumsKey,
  sumsOf,
  sumsReader,
  sumsView,
  type SumsTable,
} from './analytics-context.ts';
import { EMPTY_SUMS, SUMS_FIELDS as FIELDS, type Sums } from './analytics-metrics.ts';
import type { DemographicRow, MetricSums } from './analytics-types.ts';
import { demographicSearchSums, demographicSumsTable, demographicTableBuilder } from './demographic-table.ts';
import { packSums, unpackSums } from './packed-sums.ts';
import { storedSumsOf } from './stored-sums.ts';

/** A seeded generator (the same tables at every run): integers in [0, below). */
function randomOf(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    // A 32-bit linear congruential step (Math.imul keeps it exact), its high bits used.
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return Math.floor((state / 2 ** 32) * below);
  };
}

/** Statistics with fractional totals, so that a field read from the wrong column shows. */
function randomSums(random: (below: number) => number, productId: number, metricId: number): MetricSums {
  const n = 1 + random(200);
  return {
    productId,
    metricId,
    n,
    sum: n * (1 + random(4)) + random(1000) / 7,
    sumSq: n * 30 + random(1000) / 3,
    nTopBox: random(n),
    nTop2Box: random(n),
    nJustRight: random(n),
    nBottom2Box: random(n),
    nBottomBox: random(n),
  };
}

/** The fields of a read, copied (readers reuse their object), as bits: -0 and NaN compare exactly. */
const fieldsOf = (sums: Sums) =>
  FIELDS.map((field) => (Object.is(sums[field], -0) ? '-0' : String(sums[field])));

/** Reads every product id from 0 to `maxId` through the per-metric reader and through sumsOf/sumsReader. */
function expectSameReads(table: SumsTable, metricIds: readonly number[], maxId: number): number {
  let found = 0;
  const reader = sumsReader(table);
  for (const metricId of metricIds) {
    const read = metricSumsReader(table, metricId);
    for (let productId = 0; productId <= maxId; productId++) {
      const expected = fieldsOf(sumsOf(table, productId, metricId));
      expect(fieldsOf(read(productId))).toEqual(expected);
      expect(fieldsOf(reader(productId, metricId))).toEqual(expected);
      if (expected[0] !== '0') found++;
    }
  }
  return found;
}

/** Stored statistics of two metrics over random products (about half of the ids have none). */
function storedTables(seed: number) {
  const random = randomOf(seed);
  const byMetric = new Map(
    [3, 9].map((metricId) => {
      const rows: MetricSums[] = [];
      for (let productId = 1; productId <= 300; productId++)
        if (random(2) === 0) rows.push(randomSums(random, productId, metricId));
      // The stored rows come in any order.
      rows.reverse();
      return [metricId, storedSumsOf(metricId, rows)] as const;
    }),
  );
  return { random, byMetric };
}

describe('metricSumsReader', () => {
  it('reads the stored statistics of each metric as sumsOf does, none for products outside them', () => {
    for (const seed of [1, 2, 3]) {
      const { byMetric } = storedTables(seed);
      const found = expectSameReads(sumsView(byMetric), [3, 9, 12], 320);
      expect(found).toBeGreaterThan(200);
    }
  });

  it('reads the recomputed products of a view from its map, the others from the columns', () => {
    for (const seed of [4, 5]) {
      const { random, byMetric } = storedTables(seed);
      const map = new Map<number, Sums>();
      for (let productId = 1; productId <= 320; productId += 1 + random(9)) {
        // Recomputed as none (every answer out of scale), as other numbers, or for a metric without columns.
        map.set(sumsKey(productId, 3), random(3) === 0 ? EMPTY_SUMS : randomSums(random, productId, 3));
        map.set(sumsKey(productId, 12), randomSums(random, productId, 12));
      }
      const view = sumsView(byMetric, map);
      expectSameReads(view, [3, 9, 12], 330);
      const [recomputedId] = [...map.keys()].map((key) => (key - (key % 65536)) / 65536);
      expect(fieldsOf(metricSumsReader(view, 3)(recomputedId!))).toEqual(
        fieldsOf(map.get(sumsKey(recomputedId!, 3))!),
      );
    }
  });

  it('reads the sums of a gender and age filter as sumsOf does, taken or not yet taken', () => {
    const random = randomOf(7);
    const tables = [4, 8].map((metricId) => {
      const builder = demographicTableBuilder(metricId);
      for (let productId = 1; productId <= 120; productId++) {
        if (random(4) === 0) continue;
        const rows: DemographicRow[] = [];
        for (const gender of ['Female', 'Male', null] as const)
          for (const age of [22, 31, 47, null])
            if (random(3) > 0) {
              const sums = randomSums(random, productId, metricId);
              rows.push([
                productId,
                gender,
                age,
                sums.n,
                sums.sum,
                sums.sumSq,
                sums.nTopBox,
                sums.nTop2Box,
                sums.nJustRight,
                sums.nBottom2Box,
                sums.nBottomBox,
              ]);
            }
        builder.add(rows);
      }
      return builder.finish();
    });
    const match = (gender: string | null, age: number | null) =>
      gender === 'Female' && age !== null && age < 40;
    const wanted = Array.from({ length: 130 }, (_, at) => at);
    const lazy = demographicSearchSums(tables, match, wanted);
    expect(expectSameReads(lazy, [4, 8, 5], 130)).toBeGreaterThan(60);
    expectSameReads(demographicSumsTable(lazy.demographic!.source, wanted), [4, 8, 5], 130);
  });

  it('reads tables without columns (a map, packed statistics) as sumsOf does', () => {
    const random = randomOf(11);
    const map = new Map<number, Sums>();
    for (let productId = 1; productId <= 80; productId += 1 + random(3))
      map.set(sumsKey(productId, 6), randomSums(random, productId, 6));
    expect(expectSameReads(map, [6, 2], 90)).toBeGreaterThan(20);
    const ids = Array.from({ length: 60 }, (_, at) => at * 2);
    expectSameReads(unpackSums(packSums(map, ids, [6])), [6, 2], 130);
  });
});
