import { MetricSearchResult } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import type { ProductRecord } from './analytics.repository.ts';
import { metricSearchJson, type ComputedRow } from './metric-search.presenter.ts';

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
  columns: [column('liking', 'top_2_box'), column('liking', 'mean'), column('liking', 'top_2_box')],
  summary: { liking: { mean: 3.5, n: 40 } },
  diagnostics: { studies_found: 2, studies_with_anomalies: 0, studies: [] },
  filtered: true,
};

describe('metricSearchJson', () => {
  it('writes the answer an object of the same rows would give, one key per column key', () => {
    const rows: ComputedRow[] = [
      { product: product(1), values: [0.5, 3.25, 0.5], bases: [20, 20, 20], lowBase: ['liking.top_2_box'] },
      { product: product(2), values: [null, null, null], bases: [0, 0, 0], lowBase: [] },
      {
        product: product(3, { kind: 'concept' }),
        values: [1 / 3, 4, 1 / 3],
        bases: [31, 31, 31],
        lowBase: [],
      },
    ];
    const parsed = JSON.parse(metricSearchJson(answer, rows)) as MetricSearchResult;
    expect(MetricSearchResult.parse(parsed)).toEqual(parsed);
    expect(parsed).toEqual({
      ...answer,
      results: rows.map((row) => ({
        id: row.product.id,
        study_id: row.product.studyId,
        c_mi_number: row.product.cMiNumber,
        category: row.product.category,
        product: row.product.productType,
        name: row.product.name,
        prod: row.product.code,
        kind: row.product.kind,
        values: { 'liking.top_2_box': row.values[0], 'liking.mean': row.values[1] },
        bases: { 'liking.top_2_box': row.bases[0], 'liking.mean': row.bases[1] },
        low_base: row.lowBase,
      })),
    });
    expect(parsed.results[2]!.values['liking.top_2_box']).toBe(1 / 3);
  });

  it('writes a value that is not a finite number as null, as JSON.stringify does', () => {
    const rows: ComputedRow[] = [
      { product: product(4), values: [Number.NaN, Infinity, -0], bases: [1, 1, 1], lowBase: [] },
    ];
    const parsed = JSON.parse(metricSearchJson(answer, rows)) as MetricSearchResult;
    expect(parsed.results[0]!.values).toEqual({ 'liking.top_2_box': null, 'liking.mean': null });
  });

  it('writes an empty result and the optional parts it is given', () => {
    const performance = [
      { category: { name: 'family', value: 'Floral' }, metrics: [], fragrances: 0, n: {} },
    ];
    const parsed = JSON.parse(metricSearchJson({ ...answer, performance }, [])) as MetricSearchResult;
    expect(parsed.results).toEqual([]);
    expect(parsed.performance).toEqual(performance);
  });
});
