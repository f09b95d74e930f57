import { MetricSearchResult } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import type { ProductRecord } from './analytics.repository.ts';
import { metricSearchBytes, type ComputedRows } from './metric-search.presenter.ts';

const metricSearchJson = (...args: Parameters<typeof metricSearchBytes>) =>
  metricSearchBytes(...args).toString('utf8');

const product = (id: number, extra: Partial<ProductRecord> = {}): ProductRecord => ({
  id,
  studyId: 10 + id,
  kind: 'fragrance',
  code: `P${id}`,
  name: `Fragrance "${id}" \\ é`,
  cMiNumber: `CMI-${id}`,
  projectName: 'Project',
  client: 'Client',
  category: id % 2 ? 'Fine Fragrance' : null,
  productType: null,
  rdfType: 'rdf',
  ...extra,
});

const column = (metric: string, aggregation: 'mean' | 'top_2_box') => ({
  metric,
  label: metric,
  metric_type: 'Performance',
  aggregation,
  aggregation_label: aggregation === 'mean' ? 'Mean' : 'T2B',
  confidence: true,
  key: `${metric}.${aggregation}`,
});

const answer = {
  type: 'fragrances' as const,
  // The same key twice: its values and bases appear once per row.
  columns: [column('liking', 'top_2_box'), column('freshness', 'mean'), column('liking', 'top_2_box')],
  summary: { liking: { mean: 3.5, n: 40 } },
  diagnostics: { studies_found: 2, studies_with_anomalies: 0, studies: [] },
  filtered: true,
};

/** Rows given as [product, values per column, bases per column], in columns as the service holds them. */
function columnar(list: [ProductRecord, number[], number[]][], order?: number[]): ComputedRows {
  return {
    products: list.map(([entry]) => entry),
    values: answer.columns.map((_, index) => Float64Array.from(list, ([, values]) => values[index]!)),
    bases: answer.columns.map((_, index) => Int32Array.from(list, ([, , bases]) => bases[index]!)),
    order: order ?? list.map((_, position) => position),
  };
}

describe('metricSearchBytes', () => {
  it('writes the rows an object per row would give, in the order given, flagging low bases', () => {
    const rows = columnar(
      [
        [product(1), [0.5, 3.25, 0.5], [20, 45, 20]],
        [product(2), [Number.NaN, Number.NaN, Number.NaN], [0, 0, 0]],
        [product(3, { kind: 'concept' }), [1 / 3, 4, 1 / 3], [31, 29, 31]],
      ],
      [2, 0, 1],
    );
    const parsed = JSON.parse(metricSearchJson(answer, rows)) as MetricSearchResult;
    expect(MetricSearchResult.parse(parsed)).toEqual(parsed);
    const row = (entry: ProductRecord) => ({
      id: entry.id,
      study_id: entry.studyId,
      c_mi_number: entry.cMiNumber,
      category: entry.category,
      product: entry.productType,
      name: entry.name,
      prod: entry.code,
      kind: entry.kind,
    });
    expect(parsed).toEqual({
      ...answer,
      results: [
        {
          ...row(rows.products[2]!),
          values: { 'liking.top_2_box': 1 / 3, 'freshness.mean': 4 },
          bases: { 'liking.top_2_box': 31, 'freshness.mean': 29 },
          low_base: ['freshness.mean'],
        },
        {
          ...row(rows.products[0]!),
          values: { 'liking.top_2_box': 0.5, 'freshness.mean': 3.25 },
          bases: { 'liking.top_2_box': 20, 'freshness.mean': 45 },
          low_base: ['liking.top_2_box'],
        },
        {
          ...row(rows.products[1]!),
          values: { 'liking.top_2_box': null, 'freshness.mean': null },
          bases: { 'liking.top_2_box': 0, 'freshness.mean': 0 },
          low_base: [],
        },
      ],
    });
  });

  it('writes a value that is not a finite number as null, as JSON.stringify does', () => {
    const rows = columnar([[product(4), [Infinity, -Infinity, -0], [40, 40, 40]]]);
    const parsed = JSON.parse(metricSearchJson(answer, rows)) as MetricSearchResult;
    expect(parsed.results[0]!.values).toEqual({ 'liking.top_2_box': null, 'freshness.mean': null });
  });

  it('leaves out the rows not in the order, and writes the optional parts it is given', () => {
    const performance = [
      { category: { name: 'family', value: 'Floral' }, metrics: [], fragrances: 0, n: {} },
    ];
    const rows = columnar([[product(5), [1, 2, 1], [40, 40, 40]]], []);
    const parsed = JSON.parse(metricSearchJson({ ...answer, performance }, rows)) as MetricSearchResult;
    expect(parsed.results).toEqual([]);
    expect(parsed.performance).toEqual(performance);
  });

  it('writes the bytes JSON.stringify gives for the answer as objects, over several buffers and any text', () => {
    // About 3 MB: the rows cross the writer's 1 MB buffers; names with accents, quotes, a pair of
    // UTF-16 units (4 bytes in UTF-8) and control characters, and no name at all.
    const names = ['Rosée « 1 » \u{1F338}', 'Plain', 'Tab\tand "quote" \\ \u0001', null, 'ÅØ €'];
    const list: [ProductRecord, number[], number[]][] = Array.from({ length: 12_000 }, (_, at) => [
      product(at + 1, { name: names[at % names.length]!, sapCode: at % 3 ? `SAP-${at}` : null }),
      [at / 7, at % 11 ? Math.sqrt(at) : Number.NaN, at / 7],
      [at % 40, 30 + (at % 5), at % 40],
    ]);
    const order = Array.from({ length: list.length }, (_, at) => (at * 7919) % list.length);
    const rows = columnar(list, order);
    const bytes = metricSearchBytes(answer, rows, { before: '{"head":1,"json":', after: '}' });
    expect(bytes.byteLength).toBeGreaterThan(2 * 1024 * 1024);
    const results = order.map((position) => {
      const [entry, values, bases] = list[position]!;
      const keys = ['liking.top_2_box', 'freshness.mean'];
      return {
        id: entry.id,
        study_id: entry.studyId,
        c_mi_number: entry.cMiNumber,
        category: entry.category,
        product: entry.productType,
        name: entry.name,
        prod: entry.code,
        ...(entry.sapCode ? { sap_code: entry.sapCode } : {}),
        kind: entry.kind,
        values: Object.fromEntries(keys.map((key, index) => [key, values[index]])),
        bases: Object.fromEntries(keys.map((key, index) => [key, bases[index]])),
        low_base: keys.filter((_, index) => bases[index]! > 0 && bases[index]! < 30),
      };
    });
    const expected = `{"head":1,"json":${JSON.stringify({ results, ...answer })}}`;
    expect(bytes.equals(Buffer.from(expected, 'utf8'))).toBe(true);
  });
});
