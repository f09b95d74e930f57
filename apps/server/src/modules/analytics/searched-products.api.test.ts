// Top Attributes and Tendencies compute on exactly the fragrances a search found: a Best-10 search
// answers its 10 rows (GET /analytics/fragrances/{job}/products), and the two calls carrying them as
// frags pool and count those 10, not every fragrance the study filters select.
import { MetricSearchProducts, type MetricSearchRequest } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-searched-products-',
    { studies: 10, seed: 31, respondents: 40, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

const post = (url: string, payload: unknown, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'POST', url, payload, token: role ? tokens[role] : undefined });
const get = (url: string, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'GET', url, token: role ? tokens[role] : undefined });

const LIKING_T2B = { metricType: 'Performance', metric: 'liking', aggregation: 'top_2_box' } as const;

const best10: MetricSearchRequest = {
  q: {
    metrics: {
      rdfType: 'all',
      threshold: { applyThreshold: true, amount: 10, desc: true, type: 'fragrances' },
      metricsList: [LIKING_T2B],
    },
  },
};
const everything: MetricSearchRequest = { q: { metrics: { rdfType: 'all', metricsList: [LIKING_T2B] } } };

async function searchJob(body: MetricSearchRequest, role: DemoRole = 'researcher'): Promise<string> {
  const queued = await post('/api/analytics/fragrances', body, role);
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  const status = await get(`/api/analytics/fragrances/${jobid}`, role);
  expect(status.json<{ status: string }>().status).toBe('SUCCESS');
  return jobid;
}

async function productsOf(jobId: string, role: DemoRole = 'researcher'): Promise<MetricSearchProducts> {
  const response = await get(`/api/analytics/fragrances/${jobId}/products`, role);
  expect(response.statusCode, response.body).toBe(200);
  return MetricSearchProducts.parse(response.json());
}

async function topAttributes(body: unknown): Promise<{ attributes: { n: number }[]; fragrances: number }> {
  const queued = await post('/api/analytics/top-attributes', body);
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  const status = await get(`/api/analytics/top-attributes/${jobid}`);
  const answer = status.json<{
    status: string;
    error: string | null;
    result: { json: { attributes: { n: number }[]; fragrances: number } } | null;
  }>();
  expect(answer.status, answer.error ?? '').toBe('SUCCESS');
  return answer.result!.json;
}

describe('GET /api/analytics/fragrances/{jobId}/products', () => {
  it('needs a signed-in user with analytics access, and the search must be the caller own', async () => {
    const jobId = await searchJob(best10);
    expect((await get(`/api/analytics/fragrances/${jobId}/products`, null)).statusCode).toBe(401);
    for (const role of ['client', 'sales'] as const)
      expect((await get(`/api/analytics/fragrances/${jobId}/products`, role)).statusCode).toBe(403);
    // Another analyst's search is not found: each user reads only their own jobs.
    const foreign = await get(`/api/analytics/fragrances/${jobId}/products`, 'admin');
    expect(foreign.statusCode).toBe(404);
    expect(errorBody(foreign).message).toBe('No such job.');
    const bad = await get('/api/analytics/fragrances/not-a-job/products');
    expect(bad.statusCode).toBe(400);
  });

  it('answers every row of a Best-10 search, in its order', async () => {
    const jobId = await searchJob(best10);
    const { total, products } = await productsOf(jobId);
    expect(total).toBe(10);
    expect(products).toHaveLength(10);
    const page = await get(`/api/analytics/fragrances/${jobId}/page?limit=50`);
    const rows = page.json<{ result: { rows: { id: number; c_mi_number: string; prod: string }[] } }>().result
      .rows;
    expect(products).toEqual(rows.map(({ id, c_mi_number, prod }) => ({ id, c_mi_number, prod })));
  });
});

describe('Top Attributes and Tendencies after a Best-10 search', () => {
  it('pool and count exactly the 10 fragrances found, not every fragrance of the filters', async () => {
    const all = await productsOf(await searchJob(everything));
    expect(all.total).toBeGreaterThan(10);
    const { products } = await productsOf(await searchJob(best10));
    const settings = { order: 'best', count: 10, attribute_type: 'all', aggregation: 'top_2_box' };

    const unrestricted = await topAttributes({ q: best10.q, data: settings });
    expect(unrestricted.fragrances).toBeGreaterThan(10);
    const restricted = await topAttributes({ q: best10.q, frags: products, data: settings });
    expect(restricted.fragrances).toBe(10);
    expect(restricted.attributes.length).toBeGreaterThan(0);
    // Pooled over 10 fragrances, each attribute rests on fewer answers than over all of them.
    expect(restricted.attributes[0]!.n).toBeLessThan(
      Math.max(...unrestricted.attributes.map((attribute) => attribute.n)),
    );

    const tendencies = await post('/api/analytics/tendencies', {
      q: best10.q,
      data: { return: 'percentage', groupby: 'perfume_characteristics.family' },
      frags: products,
    });
    expect(tendencies.statusCode, tendencies.body).toBe(200);
    const counted = tendencies.json<{ total: number; table_data: { count: number }[] }>();
    expect(counted.total).toBe(10);
    expect(counted.table_data.reduce((sum, row) => sum + row.count, 0)).toBeGreaterThanOrEqual(10);
  });
});
