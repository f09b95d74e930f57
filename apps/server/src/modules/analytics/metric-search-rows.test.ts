import { AGGREGATIONS, ANALYTICS_MESSAGES } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import { sumsKey } from './analytics-context.ts';
import { columnValue, EMPTY_SUMS, type Sums } from './analytics-metrics.ts';
import type { ProductRecord } from './analytics-types.ts';
import {
  assembleMetricSearch,
  cMiNumberOf,
  searchProductsOf,
  valueRule,
  type SearchEntry,
  type SearchMetric,
} from './metric-search-rows.ts';
import { storedSumsOf } from './stored-sums.ts';
import { sumsView } from './analytics-context.ts';

const liking: SearchMetric = {
  id: 3,
  name: 'liking',
  label: 'Liking',
  metricType: 'hedonic',
  kind: 'hedonic',
};

/**
 * C-MI numbers whose localeCompare order is not their code units' order (case, spaces, accents), two
 * of them comparing equal (é precomposed and decomposed), met in no particular order.
 */
const C_MI_NUMBERS = [
  'CMI-2020-00010',
  'cmi-2020-00002',
  'CMI-2020-0000\u00e9',
  'CMI-2019-00003',
  'Cmi-2021-00001',
  'CMI-2020-0000e\u0301',
  'CMI 2020 00004',
  '\u00c7MI-2018-00001',
];

/** Per study two products, the second study's first; each with a low base, so every study has infos. */
const products: ProductRecord[] = C_MI_NUMBERS.flatMap((cMiNumber, study) =>
  [0, 1].map((index) => ({
    id: 500 - study * 2 - index,
    studyId: 40 + study,
    kind: 'fragrance' as const,
    code: `F${study}-${index}`,
    name: null,
    cMiNumber,
    projectName: 'Project',
    client: 'Client',
    category: null,
    productType: 'EDP',
    rdfType: 'rdf' as const,
  })),
);

const sums = new Map<number, Sums>(
  products.map((product, at) => {
    const n = 3 + at;
    const sumsOfProduct = { n, sum: n * 3.5, sumSq: n * 13, nTopBox: 1, nTop2Box: 2, nJustRight: 0 };
    return [sumsKey(product.id, liking.id), { ...sumsOfProduct, nBottom2Box: 1, nBottomBox: 0 }];
  }),
);

/** The search of the products above by one liking column. */
const assembleLiking = (entry: Pick<SearchEntry, 'aggregation' | 'threshold'>) =>
  assembleMetricSearch({
    type: 'fragrances',
    entries: [{ metric: liking, confidence: false, ...entry }],
    globalThreshold: null,
    metrics: [liking],
    products: searchProductsOf(products),
    sums,
    mapped: new Int32Array(0),
    outOfScale: [],
    filtered: false,
  });

describe('assembleMetricSearch diagnostics', () => {
  it('lists the studies by their C-MI numbers as localeCompare orders them, ties in the order met', () => {
    expect('CMI-2020-0000\u00e9'.localeCompare('CMI-2020-0000e\u0301')).toBe(0);
    const assembled = assembleLiking({ aggregation: 'top_2_box', threshold: null });
    const expected = [...C_MI_NUMBERS].sort((left, right) => left.localeCompare(right));
    expect(expected).not.toEqual([...C_MI_NUMBERS].sort());
    expect(assembled.diagnostics.studies.map((study) => study.c_mi_number)).toEqual(expected);
    expect(assembled.diagnostics.studies.map((study) => study.infos)).toEqual(C_MI_NUMBERS.map(() => 1));
    // The low bases of a study: both its products (3 and 4 answers), smallest and largest.
    const first = assembled.diagnostics.studies.find((study) => study.c_mi_number === C_MI_NUMBERS[0]);
    expect(first?.details.find((detail) => detail.level === 'info')?.message).toBe(
      ANALYTICS_MESSAGES.lowBase('liking', 2, 3, 4),
    );
  });

  it('packs the C-MI numbers on shared memory, each read back as it was', () => {
    const packed = searchProductsOf(products);
    // A worker thread is handed the list without a string in it to copy.
    expect(packed.cMiNumbers.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(packed.cMiNumbers.starts.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(products.map((_, at) => cMiNumberOf(packed, packed.cMiAt[at]!))).toEqual(
      products.map((product) => product.cMiNumber),
    );
    expect(cMiNumberOf(searchProductsOf([{ ...products[0]!, cMiNumber: '' }]), 0)).toBe('');
  });

  it('keeps the ranked products only, in the threshold order, and diagnoses those alone', () => {
    const assembled = assembleLiking({
      aggregation: 'mean',
      threshold: { applyThreshold: true, amount: 3, desc: true, type: 'fragrances' },
    });
    // Every mean is 3.5: ties by product id, the smallest first.
    const ids = [...assembled.order].map((position) => products[position]!.id);
    expect(ids).toEqual([...products.map((product) => product.id)].sort((a, b) => a - b).slice(0, 3));
    expect(assembled.diagnostics.studies_found).toBe(2);
    expect(assembled.summary.liking!['mean']).toBe(3.5);
  });
});

describe('column values read from the columns', () => {
  const KINDS = ['hedonic', 'jar', 'binary', 'eeg', 'implicit'] as const;
  /** Statistics with no answer, one answer, and many, with fractional totals. */
  const samples: Sums[] = [
    EMPTY_SUMS,
    { n: 1, sum: 4, sumSq: 16, nTopBox: 0, nTop2Box: 1, nJustRight: 0, nBottom2Box: 0, nBottomBox: 0 },
    { n: 7, sum: 23.3, sumSq: 91.17, nTopBox: 2, nTop2Box: 3, nJustRight: 1, nBottom2Box: 3, nBottomBox: 1 },
    {
      n: 213,
      sum: 777.7,
      sumSq: 3001.3,
      nTopBox: 45,
      nTop2Box: 101,
      nJustRight: 17,
      nBottom2Box: 61,
      nBottomBox: 29,
    },
  ];

  it('follow columnValue for every aggregation of every kind of metric, to the last bit', () => {
    let ruled = 0;
    for (const kind of KINDS)
      for (const aggregation of AGGREGATIONS) {
        const rule = valueRule(aggregation, kind);
        if (rule) ruled++;
        const metric: SearchMetric = { id: 5, name: 'm', label: 'M', metricType: 'x', kind };
        const products = samples.map((_, at) => ({ ...productOf(at), id: 700 + at, studyId: 90 }));
        const stored = storedSumsOf(
          5,
          samples.slice(1).map((sample, at) => ({ ...sample, productId: 701 + at, metricId: 5 })),
        );
        const assembled = assembleMetricSearch({
          type: 'fragrances',
          entries: [{ metric, aggregation, confidence: false, threshold: null }],
          globalThreshold: null,
          metrics: [metric],
          products: searchProductsOf(products),
          sums: sumsView(new Map([[5, stored]])),
          mapped: new Int32Array(0),
          outOfScale: [],
          filtered: false,
        });
        const expected = samples.map((sample) => columnValue(sample, aggregation, kind) ?? Number.NaN);
        expect([...assembled.values[0]!].map((value) => Object.is(value, expected.shift()))).toEqual(
          samples.map(() => true),
        );
      }
    // Means and shares take the columns' path; variances and yes/no columns without a share do not.
    expect(ruled).toBeGreaterThan(40);
  });
});

function productOf(at: number): ProductRecord {
  return { ...products[0]!, code: `S${at}` };
}
