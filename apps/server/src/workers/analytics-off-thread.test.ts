import { afterAll, describe, expect, it } from 'vitest';
import { poolSums, sumsKey, sumsView } from '../modules/analytics/analytics-context.ts';
import { EMPTY_SUMS, summarise, type Sums } from '../modules/analytics/analytics-metrics.ts';
import type { MetricSums, ProductRecord } from '../modules/analytics/analytics-types.ts';
import { storedSumsOf } from '../modules/analytics/stored-sums.ts';
import {
  assembleMetricSearch,
  searchProductsOf,
  type SearchAssemblyInput,
  type SearchMetric,
} from '../modules/analytics/metric-search-rows.ts';
import {
  demographicSearchSums,
  demographicSums,
  demographicTableBuilder,
  type DemographicRow,
  type DemographicTable,
} from '../modules/analytics/demographic-table.ts';
import { handSums, packSums, unpackSums } from '../modules/analytics/packed-sums.ts';
import { emptyRespondentCells, type RespondentCells } from '../modules/analytics/respondent-cells.ts';
import {
  respondentIndexBuilder,
  type RespondentIndex,
  type RespondentList,
} from '../modules/analytics/respondent-index.ts';
import { indexedCellBuffers, indexedCellsOf } from '../modules/analytics/respondent-sums.ts';
import { significanceOf, type SignificanceInput } from '../modules/analytics/significance-tests.ts';
import {
  createResultStore,
  resultBytesOf,
  storedSearch,
  type StoredSearch,
} from '../modules/analytics/result-store.ts';
import { assembleMetricSearchOffThread, closeUploadWorkers, significanceTextOffThread } from './pool.ts';

afterAll(async () => {
  await closeUploadWorkers();
});

/** The full answer's JSON text, as the status answer sends it. */
const searchJson = (search: StoredSearch) =>
  resultBytesOf(createResultStore({ maxBytes: 0 }).statusBytes(search)).toString('utf8');

const liking: SearchMetric = {
  id: 3,
  name: 'liking',
  label: 'Liking',
  metricType: 'hedonic',
  kind: 'hedonic',
};
const strength: SearchMetric = { id: 7, name: 'strength', label: 'Strength', metricType: 'jar', kind: 'jar' };
const hedonicEeg: SearchMetric = { id: 9, name: 'eeg_hedonic', label: 'EEG', metricType: 'eeg', kind: 'eeg' };

/** 60 products over 6 studies of every kind, with uneven statistics (some none, some low bases). */
const products: ProductRecord[] = Array.from({ length: 60 }, (_, at) => ({
  id: 1000 + ((at * 37) % 60),
  studyId: 10 + (at % 6),
  kind: 'fragrance',
  code: `F${at}`,
  name: at % 7 === 0 ? null : `Fragrance "${at}" é`,
  cMiNumber: `CMI-${String(20 - (at % 6)).padStart(3, '0')}`,
  projectName: 'Project',
  client: 'Client',
  category: at % 2 ? 'Fine' : null,
  productType: 'EDP',
  rdfType: (['rdf', 'eeg', 'irt'] as const)[at % 3]!,
  ...(at % 4 === 0 ? { sapCode: `${100000 + at}` } : {}),
}));

function sumsFor(productId: number, metric: number): Sums | undefined {
  if ((productId + metric) % 9 === 0) return undefined;
  const n = ((productId * 7 + metric * 3) % 70) + (metric === 7 ? 0 : 1);
  const top2 = Math.floor(n * (((productId + metric) % 10) / 10));
  const top = Math.floor(top2 / 2);
  const bottom2 = Math.floor((n - top2) / 3);
  return {
    n,
    sum: n * 3.1 + ((productId % 13) / 7) * Math.sqrt(n),
    sumSq: n * 11.3 + (productId % 17) / 3,
    nTopBox: top,
    nTop2Box: top2,
    nJustRight: n - top2 - bottom2,
    nBottom2Box: bottom2,
    nBottomBox: Math.floor(bottom2 / 2),
  };
}
const table = new Map<number, Sums>();
for (const product of products)
  for (const metric of [liking, strength, hedonicEeg]) {
    const found = sumsFor(product.id, metric.id);
    if (found) table.set(sumsKey(product.id, metric.id), found);
  }

const searchInput = (overrides: Partial<SearchAssemblyInput> = {}): SearchAssemblyInput => ({
  type: 'fragrances',
  entries: [
    { metric: liking, aggregation: 'top_2_box', confidence: true, threshold: null },
    { metric: strength, aggregation: 'just_right', confidence: false, threshold: null },
    { metric: liking, aggregation: 'mean', confidence: false, threshold: null },
    { metric: hedonicEeg, aggregation: 'eeg_mean', confidence: false, threshold: null },
  ],
  globalThreshold: null,
  metrics: [liking, strength, hedonicEeg],
  products: searchProductsOf(products),
  sums: table,
  mapped: Int32Array.from([10, 3, 11, 3, 12, 7, 13, 9, 14, 3, 14, 7]),
  outOfScale: [
    { productId: products[4]!.id, studyId: products[4]!.studyId, qid: 'Q4', filename: 'a.csv', count: 2 },
    { productId: products[10]!.id, studyId: products[10]!.studyId, qid: 'Q4', filename: 'a.csv', count: 1 },
  ],
  filtered: false,
  ...overrides,
});

describe('packSums', () => {
  it('gives back every statistic of the products and metrics packed, and none of others', () => {
    const ids = products.map((product) => product.id);
    const unpacked = unpackSums(packSums(table, ids, [3, 7, 9]));
    for (const id of ids)
      for (const metricId of [3, 7, 9])
        expect(unpacked.get(sumsKey(id, metricId))).toEqual(
          table.get(sumsKey(id, metricId)) ?? {
            n: 0,
            sum: 0,
            sumSq: 0,
            nTopBox: 0,
            nTop2Box: 0,
            nJustRight: 0,
            nBottom2Box: 0,
            nBottomBox: 0,
          },
        );
    expect(unpacked.get(sumsKey(ids[0]!, 4))).toBeUndefined();
    expect(unpacked.get(sumsKey(99, 3))).toBeUndefined();
  });
});

describe('metric search assembled in a worker thread', () => {
  const cases: [string, Partial<SearchAssemblyInput>][] = [
    ['every product', {}],
    [
      'own thresholds',
      {
        entries: [
          {
            metric: liking,
            aggregation: 'top_2_box',
            confidence: true,
            threshold: { applyThreshold: true, amount: 40, desc: true, type: 'percentage' },
          },
          {
            metric: strength,
            aggregation: 'just_right',
            confidence: false,
            threshold: { applyThreshold: true, amount: 30, desc: false, type: 'fragrances' },
          },
        ],
      },
    ],
    [
      'a global threshold, filtered',
      {
        globalThreshold: { applyThreshold: true, amount: 12, desc: true, type: 'fragrances' },
        filtered: true,
      },
    ],
  ];
  it.each(cases)(
    'answers as on the request loop: %s',
    async (_, overrides) => {
      const here = assembleMetricSearch(searchInput(overrides));
      const there = await assembleMetricSearchOffThread(searchInput(overrides));
      expect(there).toEqual(here);
      // The answer has something to compare: rows, low bases, errors, warnings, infos.
      const parsed = JSON.parse(searchJson(storedSearch({ ...here, products }))) as {
        results: { low_base: string[] }[];
        diagnostics: { studies: { errors: number; warnings: number; infos: number }[] };
      };
      expect(parsed.results.length).toBeGreaterThan(5);
      expect(parsed.results.some((row) => row.low_base.length > 0)).toBe(true);
      expect(parsed.diagnostics.studies.some((study) => study.warnings > 0 && study.infos > 0)).toBe(true);
      // A worker thread loads the server's modules at its start: seconds on a busy machine.
    },
    60_000,
  );

  it('writes the text JSON.stringify would, with or without a performance breakdown', () => {
    const assembled = { ...assembleMetricSearch(searchInput()), products };
    const { results, type, columns, summary, diagnostics, filtered } = JSON.parse(
      searchJson(storedSearch(assembled)),
    ) as Record<string, unknown>;
    const performance = [
      {
        category: { name: 'family', value: 'Floral' },
        metrics: [{ name: 'liking.top_2_box', value: 0.5 }],
        fragrances: 3,
        n: { 'liking.top_2_box': 90 },
      },
    ];
    expect(searchJson(storedSearch(assembled))).toBe(
      JSON.stringify({ results, type, columns, summary, diagnostics, filtered }),
    );
    expect(searchJson(storedSearch({ ...assembled, performance }))).toBe(
      JSON.stringify({ results, type, columns, summary, performance, diagnostics, filtered }),
    );
  });
});

describe('significance in a worker thread', () => {
  /**
   * Each study's 40 respondents rate its products (one in eight skipped), with uneven answers on the
   * 5-point scale; a study's third product has only 20 answers (a low base).
   */
  function cellsFor(metric: number): RespondentCells {
    const list: { product: number; respondent: number; value: number }[] = [];
    products.forEach((product, at) => {
      const raters = at % 3 === 2 ? 20 : 40;
      for (let r = 0; r < raters; r++) {
        if ((r + at) % 8 === 0) continue;
        const value = 1 + ((r * 7 + product.id * 3 + metric + (at % 4) * r) % 5);
        list.push({ product: product.id, respondent: product.studyId * 100 + r, value });
      }
    });
    const cells = emptyRespondentCells(list.length);
    list.forEach(({ product, respondent, value }, at) => {
      cells.product[at] = product;
      cells.respondent[at] = respondent;
      cells.n[at] = 1;
      cells.sum[at] = value;
      cells.sumSq[at] = value * value;
      cells.nTopBox[at] = value >= 5 ? 1 : 0;
      cells.nTop2Box[at] = value >= 4 ? 1 : 0;
      cells.nJustRight[at] = value === 3 ? 1 : 0;
      cells.nBottom2Box[at] = value <= 2 ? 1 : 0;
      cells.nBottomBox[at] = value <= 1 ? 1 : 0;
    });
    return cells;
  }
  const input = (calculation: SignificanceInput['calculation']): SignificanceInput => ({
    calculation,
    correction: 'benjamini_hochberg',
    productIds: products.map((product) => product.id),
    tests: [
      { key: 'liking.top_2_box.confidence', metricId: 3, kind: 'hedonic', aggregation: 'top_2_box' },
      { key: 'liking.mean.confidence', metricId: 3, kind: 'hedonic', aggregation: 'mean' },
      { key: 'strength.just_right.confidence', metricId: 7, kind: 'jar', aggregation: 'just_right' },
    ],
    cells: new Map([
      [3, cellsFor(3)],
      [7, cellsFor(7)],
    ]),
  });
  /** The same answers as a metric's respondent index (respondent-index.ts), as the server holds them. */
  function indexFor(metric: number): RespondentIndex {
    const cells = cellsFor(metric);
    const byProduct = new Map<number, [number[], number[]]>();
    cells.product.forEach((product, at) => {
      let list = byProduct.get(product);
      if (!list) byProduct.set(product, (list = [[], []]));
      list[0].push(cells.respondent[at]!);
      list[1].push(cells.sum[at]!);
    });
    const builder = respondentIndexBuilder(metric);
    builder.add(
      [...byProduct.entries()]
        .sort(([a], [b]) => a - b)
        .map(([product, [ids, values]]): RespondentList => [product, ids, values]),
    );
    return builder.finish();
  }
  it.each(['rest', 'avg'] as const)(
    'reads the respondent index where it is and answers the text of the columns of sums (%s)',
    async (calculation) => {
      const indexes = [indexFor(3), indexFor(7)];
      const productIds = products.map((product) => product.id);
      const indexedInput = (): SignificanceInput => ({
        ...input(calculation),
        cells: new Map(),
        indexed: new Map(indexes.map((index) => [index.metricId, indexedCellsOf(index, productIds, null)])),
      });
      const here = JSON.stringify(significanceOf(input(calculation)));
      const moving = indexedInput();
      const transfer = [...moving.indexed!.values()].flatMap(indexedCellBuffers);
      expect(await significanceTextOffThread(moving, { transfer, again: indexedInput })).toBe(here);
      // The cells moved to the thread; the index stayed, on memory both threads read.
      expect(transfer.every((buffer) => buffer.byteLength === 0)).toBe(true);
      expect(indexes[0]!.respondents.length).toBeGreaterThan(0);
      expect(indexes[0]!.respondents.buffer).toBeInstanceOf(SharedArrayBuffer);
    },
    60_000,
  );
  it.each(['rest', 'avg'] as const)(
    'answers the text of the request loop (%s)',
    async (calculation) => {
      const here = JSON.stringify(significanceOf(input(calculation)));
      expect(await significanceTextOffThread(input(calculation))).toBe(here);
      const parsed = JSON.parse(here) as {
        results: Record<string, { level: number | null; p_value: number | null }>[];
      };
      expect(parsed.results).toHaveLength(60);
      // Tests were made: p-values, and some products differ at the analytics levels.
      expect(
        parsed.results.some((row) => typeof row['liking.top_2_box.confidence']!.p_value === 'number'),
      ).toBe(true);
      expect(parsed.results.some((row) => Object.values(row).some((test) => test.level !== null))).toBe(true);
    },
    60_000,
  );
});

describe('gender and age sums taken in a worker thread', () => {
  /**
   * A metric's demographic table over the products (in id order, as the database reads it): rows per
   * gender (none too) and year of age (none too) with uneven sums; one product in seven has no row,
   * one in five only rows of men.
   */
  function tableFor(metric: number): DemographicTable {
    const builder = demographicTableBuilder(metric);
    const ids = products.map((product) => product.id).sort((a, b) => a - b);
    for (const id of ids) {
      if ((id + metric) % 7 === 0) continue;
      const rows: DemographicRow[] = [];
      for (const gender of id % 5 === 0 ? ['Male'] : ['Female', 'Male', null])
        for (const age of [18, 24, 31, 38, 45, 59, null]) {
          if ((id + metric + (age ?? 3)) % 4 === 0) continue;
          const n = ((id * 3 + metric + (age ?? 7)) % 9) + 1;
          const top2 = Math.floor(n / 2);
          rows.push([id, gender, age, n, n * 3.1 + id / 7, n * 10.3 + age! / 3, top2 >> 1, top2, 1, 0, 0]);
        }
      builder.add(rows);
    }
    return builder.finish();
  }
  const tables = [tableFor(liking.id), tableFor(strength.id), tableFor(hedonicEeg.id)];
  const match = (gender: string | null, age: number | null) =>
    gender === 'Female' && age !== null && age >= 24 && age < 45;
  const ids = () => products.map((product) => product.id);

  it('keeps the tables on shared memory', () => {
    for (const table of tables) {
      expect(table.rows).toBeGreaterThan(100);
      for (const column of [
        table.productIds,
        table.starts,
        table.cellOf,
        table.n,
        table.sum,
        table.sumSq,
        table.boxes,
      ])
        expect(column.buffer).toBeInstanceOf(SharedArrayBuffer);
    }
  });

  it('sums in the thread what demographicSums sums on the request loop, to the bit, without reading them here', async () => {
    const lazy = demographicSearchSums(tables, match, ids());
    // Handed over by reference: the tables themselves, no packed copy.
    const handed = handSums(lazy, searchProductsOf(products).ids, [3, 7, 9]);
    expect('demographic' in handed && handed.demographic.tables).toBe(tables);
    // The request loop must not read the sums: a read here fails the test.
    const untouchable = {
      ...lazy,
      get: () => expect.fail('the sums were read on the request loop'),
      copyTo: () => expect.fail('the sums were copied on the request loop'),
    };
    const there = await assembleMetricSearchOffThread(searchInput({ sums: untouchable, filtered: true }));
    // On the loop, from demographicSums over the same tables.
    const byMetric = new Map(tables.map((table) => [table.metricId, demographicSums(table, match, ids())]));
    const onLoop = {
      get(key: number) {
        const metricId = key % 65536;
        return byMetric.get(metricId)?.get((key - metricId) / 65536);
      },
    };
    const here = assembleMetricSearch(searchInput({ sums: onLoop, filtered: true }));
    expect(there).toEqual(here);
    here.values.forEach((column, index) =>
      expect(Buffer.from(there.values[index]!.buffer).equals(Buffer.from(column.buffer))).toBe(true),
    );
    expect(searchJson(storedSearch({ ...there, products }))).toBe(
      searchJson(storedSearch({ ...here, products })),
    );
    // The filter kept some rows and left others out: products with a base and products without.
    expect(here.bases[0]!.some((n) => n > 0)).toBe(true);
    expect(here.bases[0]!.some((n) => n === 0)).toBe(true);
    // The same sums at the lazy table's first read on the loop (a short search).
    expect(assembleMetricSearch(searchInput({ sums: lazy, filtered: true }))).toEqual(here);
  }, 60_000);

  it('packs the sums as before when the products are not the ones they were wanted for', () => {
    const lazy = demographicSearchSums(tables, match, ids().slice(1));
    const handed = handSums(lazy, searchProductsOf(products).ids, [3, 7, 9]);
    expect('packed' in handed).toBe(true);
  });
});

describe('stored statistics read in a worker thread', () => {
  const metricIds = [3, 7, 9];
  // The stored statistics of every product, and two products recomputed (without out-of-scale
  // answers): their numbers differ from the stored ones, and one has none for a metric.
  const recomputedIds = [products[4]!.id, products[10]!.id];
  const recomputed = new Map<number, Sums>();
  for (const id of recomputedIds)
    for (const metricId of metricIds) {
      const found = table.get(sumsKey(id, metricId));
      recomputed.set(
        sumsKey(id, metricId),
        found && metricId !== 7
          ? { ...found, n: found.n - 1, sum: found.sum - 2.5, nTopBox: Math.max(0, found.nTopBox - 1) }
          : EMPTY_SUMS,
      );
    }
  const byMetric = new Map(
    metricIds.map((metricId) => {
      const rows: MetricSums[] = [];
      for (const product of products) {
        const found = table.get(sumsKey(product.id, metricId));
        if (found) rows.push({ productId: product.id, metricId, ...found });
      }
      return [metricId, storedSumsOf(metricId, rows)];
    }),
  );
  /** What the search reads: the recomputed numbers before the stored ones. */
  const truth = new Map(table);
  for (const [key, found] of recomputed) truth.set(key, found);

  it('hands the columns over on shared memory and sums nothing on the request loop, to the bit', async () => {
    const view = sumsView(byMetric, recomputed);
    const handed = handSums(view, searchProductsOf(products).ids, metricIds);
    expect('stored' in handed).toBe(true);
    if (!('stored' in handed)) return;
    for (const columns of handed.stored.columns)
      for (const column of [columns.positionOf, columns.counts, columns.totals])
        expect(column.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(handed.stored.keys.length).toBe(recomputed.size);
    // The request loop must not read the sums: a read here fails the test.
    const untouchable = {
      ...view,
      get: () => expect.fail('the sums were read on the request loop'),
      copyTo: () => expect.fail('the sums were copied on the request loop'),
    };
    const there = await assembleMetricSearchOffThread(searchInput({ sums: untouchable }));
    const here = assembleMetricSearch(searchInput({ sums: truth }));
    expect(there).toEqual(here);
    here.values.forEach((column, index) =>
      expect(Buffer.from(there.values[index]!.buffer).equals(Buffer.from(column.buffer))).toBe(true),
    );
    expect(searchJson(storedSearch({ ...there, products }))).toBe(
      searchJson(storedSearch({ ...here, products })),
    );
    // The recomputed products answer with their own numbers, not the stored ones.
    const position = products.findIndex((product) => product.id === recomputedIds[0]);
    expect(there.bases[0]![position]).toBe(truth.get(sumsKey(recomputedIds[0]!, 3))?.n ?? 0);
    expect(there.bases[0]![position]).not.toBe(table.get(sumsKey(recomputedIds[0]!, 3))?.n ?? 0);
    // On the loop, over the view (its columns read without an object per product), the same.
    expect(assembleMetricSearch(searchInput({ sums: view }))).toEqual(here);
    // The summary pooled while the rows were read is poolSums' over every row, to the bit.
    const ids = products.map((product) => product.id);
    expect(there.summary).toEqual(
      Object.fromEntries(
        [liking, strength, hedonicEeg].map((metric) => [
          metric.name,
          summarise(poolSums(truth, ids, metric.id), metric.kind),
        ]),
      ),
    );
  }, 60_000);

  it('packs the sums as before when a metric has no stored statistics', () => {
    const view = sumsView(new Map([[3, byMetric.get(3)!]]), recomputed);
    expect('packed' in handSums(view, searchProductsOf(products).ids, metricIds)).toBe(true);
  });
});
