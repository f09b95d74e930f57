import { MetricPageQuery, MetricSearchPageStatus } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../../plugins/auth.ts';
import type { ProductRecord } from './analytics-types.ts';
import type { AnalyticsRepository } from './analytics.repository.ts';
import { createMetricPages } from './metric-pages.ts';
import { storedSearch, type StoredSearch } from './result-store.ts';

const user = { id: 7 } as AuthUser;

const product = (id: number): ProductRecord => ({
  id,
  studyId: 100 + (id % 3),
  kind: 'fragrance',
  code: `P${id}`,
  name: id % 4 === 0 ? null : `Rose ${id}`,
  cMiNumber: `CMI-${100 + (id % 3)}`,
  projectName: 'Project',
  client: 'Client',
  category: id % 2 === 0 ? 'Fine Fragrance' : null,
  productType: null,
  rdfType: 'rdf',
});

/**
 * A search of 40 products whose small parts are written in another order of keys than the response
 * schema's, with a key the schema does not know: the page's text must still be the schema's.
 */
function search(): StoredSearch {
  const products = Array.from({ length: 40 }, (_, at) => product(at + 1));
  const column = (aggregation: 'mean' | 'top_2_box') => ({
    key: `liking.${aggregation}`,
    label: 'Liking',
    metric: 'liking',
    metric_type: 'Performance',
    aggregation,
    aggregation_label: aggregation,
    confidence: aggregation === 'mean',
  });
  return storedSearch({
    type: 'fragrances',
    columns: [column('mean'), column('top_2_box')],
    values: [
      Float64Array.from(products, (_, at) => (at % 5 === 0 ? Number.NaN : (at * 7) % 10)),
      Float64Array.from(products, (_, at) => at / 40),
    ],
    bases: [
      Int32Array.from(products, (_, at) => (at % 5 === 0 ? 0 : 10 + at)),
      Int32Array.from(products, (_, at) => 40 + at),
    ],
    order: Int32Array.from(products, (_, at) => 39 - at),
    summary: { 'liking.top_2_box': { n: 12, value: 0.25 }, 'liking.mean': { value: null } } as never,
    diagnostics: {
      studies: [
        {
          details: [{ file: null, message: 'Liking: 3 products with a base under 30', level: 'info' }],
          infos: 1,
          warnings: 0,
          errors: 0,
          c_mi_number: 'CMI-101',
          study_id: 101,
          hidden: true,
        },
      ],
      studies_with_anomalies: 0,
      studies_found: 3,
    } as never,
    filtered: true,
    products,
    performance: [
      {
        n: { 'liking.mean': 30 },
        fragrances: 4,
        metrics: [{ value: 6.5, name: 'liking.mean' }],
        category: { value: 'Floral', name: 'category' },
      },
    ],
  });
}

function pages(stored: StoredSearch, selection: number[]) {
  return createMetricPages({
    analytics: {
      jobSelection: async () => selection,
    } as unknown as AnalyticsRepository,
    searchOf: async () => ({ status: 'SUCCESS', progress: 100, error: null, search: stored }),
    significanceResult: async () => {
      throw new Error('no significance asked');
    },
  });
}

describe('metric pages as text', () => {
  it('writes each page as the response schema writes the page object', async () => {
    const stored = search();
    const metricPages = pages(stored, [3, 5, 40]);
    for (const query of [
      {},
      { offset: '7', limit: '9' },
      { limit: '0' },
      { sort: 'liking.mean', desc: 'true' },
      { sort: 'name', limit: '200' },
      { search: 'rose 1', sort: 'liking.top_2_box', desc: 'false' },
    ]) {
      const parsed = MetricPageQuery.parse(query);
      const text = await metricPages.pageText(user, 'job', parsed);
      const object = await metricPages.page(user, 'job', parsed);
      expect(text).toBe(JSON.stringify(MetricSearchPageStatus.parse(object)));
      expect(JSON.parse(text).result.rows.length).toBe(object.result!.rows.length);
    }
    // The shared parts are written once and kept with the search.
    expect(stored.views.pageHead).toMatch(/^\{"type":"fragrances","columns":\[\{"metric":"liking"/);
    expect(stored.views.pageHead).not.toContain('hidden');
  });

  it("writes a search's state alone until it succeeded", async () => {
    const metricPages = createMetricPages({
      // The selection is asked for with the state; a search not done yet has none.
      analytics: { jobSelection: async () => [] } as unknown as AnalyticsRepository,
      searchOf: async () => ({ status: 'STARTED', progress: 30, error: null, search: null }),
      significanceResult: async () => {
        throw new Error('no significance asked');
      },
    });
    expect(await metricPages.pageText(user, 'job', MetricPageQuery.parse({}))).toBe(
      '{"status":"STARTED","progress":30,"result":null,"error":null}',
    );
  });
});
