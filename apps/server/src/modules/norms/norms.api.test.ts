// Norms through the running app on a generated library: sign-in and bad input, percentiles checked
// against numpy's linear method applied in this file to product scores recomputed from the raw
// answers, the privacy rule for client users (norms of large bases, withheld otherwise, never a
// foreign study, product or client named), percentile ranks, the spreadsheet, and the cache following
// the data.
import ExcelJS from 'exceljs';
import {
  NORM_MESSAGES,
  NORM_RULE,
  type NormOptionsResponse,
  type NormRankResponse,
  type NormResponse,
} from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../seed/users.ts';
import { createLibraryTestApp, likingCategories, queryString, sqlRows } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};
const CLIENT_CLIENTS = DEMO_USERS.find((user) => user.roleId === 3)!.clients;

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-norms-',
    { studies: 36, seed: 18, respondents: 30, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

const query = <T>(text: string, values: unknown[] = []) => sqlRows(t)<T>(text, values);

const get = (url: string, role: DemoRole | null = 'client') =>
  t.request({ method: 'GET', url, ...(role ? { token: tokens[role] } : {}) });
const qs = queryString;

/** numpy.percentile(values, p, method="linear"), written out: h = (n - 1)·p/100 between order statistics. */
function numpyLinear(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const h = ((sorted.length - 1) * p) / 100;
  const low = Math.floor(h);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low]! + (h - low) * (sorted[high]! - sorted[low]!);
}

interface RawScore {
  id: number;
  study_id: number;
  client: string;
  score: number;
}

/**
 * Liking scores per fragrance of the verified studies of a category, from the raw harmonised answers
 * (answers outside the 1-5 scale left out, as METRICS.md says): top 2 box share or mean.
 */
async function rawScores(
  category: string,
  aggregation: 'top_2_box' | 'mean',
  extra = '',
  values: unknown[] = [],
): Promise<RawScore[]> {
  const score =
    aggregation === 'mean'
      ? 'avg(a.value)'
      : 'count(*) filter (where a.value >= 3.5 - 1e-9)::float8 / count(*)';
  return query<RawScore>(
    `select p.id, p.study_id, s.client, ${score} as score
       from products p join studies s on s.id = p.study_id
       join answers a on a.product_id = p.id join metrics m on m.id = a.metric_id
      where s.verified and p.kind = 'fragrance' and m.name = 'liking' and s.category = $1
        and a.value between 1 - 1e-9 and 5 + 1e-9 ${extra}
      group by p.id, p.study_id, s.client`,
    [category, ...values],
  );
}

const categories = () => likingCategories(t);

async function normOf(params: Record<string, string | number | undefined>, role: DemoRole = 'client') {
  const response = await get(`/api/norms?${qs(params)}`, role);
  expect(response.statusCode, response.body).toBe(200);
  return { norm: response.json<NormResponse>(), body: response.body };
}

/** Names of studies, clients and products outside the client user's scope. */
async function foreignNames(): Promise<string[]> {
  const studies = await query<{ c_mi_number: string; project_name: string; client: string }>(
    `select c_mi_number, project_name, client from studies where not (client = any($1::text[]))`,
    [CLIENT_CLIENTS],
  );
  const products = await query<{ name: string }>(
    `select f.name from fragrances f join studies s on s.id = f.study_id
      where not (s.client = any($1::text[])) and f.name is not null and length(f.name) > 6`,
    [CLIENT_CLIENTS],
  );
  return [
    ...new Set([
      ...studies.flatMap((study) => [study.c_mi_number, study.project_name, study.client]),
      ...products.map((product) => product.name),
    ]),
  ];
}

describe('norms: sign-in and bad input', () => {
  it('needs a signed-in user (401)', async () => {
    for (const url of [
      '/api/norms/options',
      '/api/norms?category=Fabric%20Care&metric=liking&aggregation=mean',
      '/api/norms/rank?product_id=1&metric=liking&aggregation=mean',
      '/api/norms/xlsx?category=Fabric%20Care&metric=liking&aggregation=mean',
    ]) {
      expect((await get(url, null)).statusCode, url).toBe(401);
    }
  });

  it('refuses a missing category, unknown metrics, aggregations not offered and reversed years (400)', async () => {
    const [first] = await categories();
    const category = first!.category;
    const cases: [Record<string, string | number | undefined>, string][] = [
      [{ metric: 'liking', aggregation: 'mean' }, 'category'],
      [{ category, metric: 'no_such_metric', aggregation: 'mean' }, 'Unknown metric "no_such_metric".'],
      [{ category, metric: 'liking', aggregation: 'irt_yes' }, 'not offered'],
      [{ category, metric: 'liking', aggregation: 'median' }, 'aggregation'],
      [
        { category, metric: 'liking', aggregation: 'mean', year_from: 2024, year_to: 2020 },
        NORM_MESSAGES.yearOrder,
      ],
      [{ category, metric: 'liking', aggregation: 'mean', year_from: 'soon' }, 'year'],
    ];
    for (const [params, expected] of cases) {
      const response = await get(`/api/norms?${qs(params)}`);
      expect(response.statusCode, JSON.stringify(params)).toBe(400);
      expect(JSON.stringify(errorBody(response)), JSON.stringify(params)).toContain(
        JSON.stringify(expected).slice(1, -1),
      );
    }
    const rank = await get('/api/norms/rank?product_id=abc&metric=liking&aggregation=mean');
    expect(rank.statusCode).toBe(400);
  });
});

describe('norms: the numbers', () => {
  it('offers the metrics with their aggregations and the library categories to a client user', async () => {
    const response = await get('/api/norms/options');
    expect(response.statusCode, response.body).toBe(200);
    const options = response.json<NormOptionsResponse>();
    const liking = options.metrics.find((metric) => metric.name === 'liking')!;
    expect(liking.aggregations.map((entry) => entry.value)).toContain('top_2_box');
    expect(options.categories).toEqual((await categories()).map((row) => row.category).sort());
  });

  it('gives the percentiles of numpy linear on the product scores recomputed from the raw answers', async () => {
    const all = await categories();
    const big = all.find((row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients);
    expect(big, JSON.stringify(all)).toBeDefined();
    for (const aggregation of ['top_2_box', 'mean'] as const) {
      const raw = await rawScores(big!.category, aggregation);
      const scores = raw.map((row) => row.score);
      const { norm } = await normOf({ category: big!.category, metric: 'liking', aggregation });
      expect(norm.status).toBe('available');
      expect(norm.products).toBe(raw.length);
      expect(norm.studies).toBe(new Set(raw.map((row) => row.study_id)).size);
      expect(norm.clients).toBe(new Set(raw.map((row) => row.client)).size);
      expect(norm.mean).toBeCloseTo(scores.reduce((sum, value) => sum + value, 0) / scores.length, 9);
      for (const p of [10, 25, 50, 75, 90] as const) {
        expect(norm.percentiles![`p${p}`], `${aggregation} P${p}`).toBeCloseTo(numpyLinear(scores, p), 9);
      }
      expect(norm.histogram.reduce((sum, bin) => sum + bin.count, 0)).toBe(raw.length);
      expect(norm.lines.find((line) => line.key === 'p75')!.label).toBe(
        'Action standard: top quartile (P75)',
      );
      expect(norm.base.description).toContain(`${big!.category}, `);
      expect(norm.base.description).toContain(`: ${raw.length} fragrances in ${norm.studies} studies`);
    }
  });

  it('narrows the base by year range, and counts what it holds', async () => {
    const [big] = await categories();
    const years = await query<{ year: number }>(
      `select distinct year from studies where category = $1 order by year`,
      [big!.category],
    );
    const from = years[0]!.year;
    const to = years.at(-1)!.year;
    const raw = await rawScores(big!.category, 'top_2_box', 'and s.year between $2 and $3', [from, to - 1]);
    const { norm } = await normOf(
      {
        category: big!.category,
        metric: 'liking',
        aggregation: 'top_2_box',
        year_from: from,
        year_to: to - 1,
      },
      'researcher',
    );
    expect(norm.products).toBe(raw.length);
    expect(norm.base.description.startsWith(`${big!.category}, ${from}-${to - 1}`)).toBe(true);
  });
});

describe('norms: the privacy rule', () => {
  it('shows a client user the norm of a large base without naming anything outside their scope', async () => {
    const big = (await categories()).find(
      (row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients,
    )!;
    const { norm, body } = await normOf({
      category: big.category,
      metric: 'liking',
      aggregation: 'top_2_box',
    });
    expect(norm.status).toBe('available');
    const foreign = await foreignNames();
    expect(foreign.length).toBeGreaterThan(0);
    for (const name of foreign) expect(body.includes(name), name).toBe(false);
  });

  it('withholds the norm of a small base with the reason, and its counts from client users', async () => {
    const small = (await categories()).find(
      (row) => row.studies < NORM_RULE.studies || row.clients < NORM_RULE.clients,
    );
    expect(small).toBeDefined();
    const params = { category: small!.category, metric: 'liking', aggregation: 'top_2_box' };
    for (const role of ['client', 'sales'] as const) {
      const { norm, body } = await normOf(params, role);
      expect(norm.status).toBe('withheld');
      expect(norm.reason).toBe(NORM_MESSAGES.withheld);
      expect([norm.products, norm.studies, norm.clients, norm.mean, norm.percentiles]).toEqual([
        null,
        null,
        null,
        null,
        null,
      ]);
      expect(norm.histogram).toEqual([]);
      for (const name of await foreignNames()) expect(body.includes(name), name).toBe(false);
    }
    const staff = (await normOf(params, 'researcher')).norm;
    expect(staff.status).toBe('withheld');
    expect(staff.studies).toBe(small!.studies);
    expect(staff.percentiles).toBeNull();
    const file = await get(`/api/norms/xlsx?${qs(params)}`, 'client');
    expect(file.statusCode).toBe(403);
    expect(errorBody(file).message).toBe(NORM_MESSAGES.withheld);
  });
});

describe('norms: percentile rank', () => {
  it("ranks a client's own product within its category norm, as the share below plus half the ties", async () => {
    const [own] = await query<{ id: number; category: string }>(
      `select p.id, s.category from products p join studies s on s.id = p.study_id
        where s.verified and p.kind = 'fragrance' and s.client = any($1::text[]) and s.category = any($2::text[])
          and exists (select 1 from answers a join metrics m on m.id = a.metric_id where a.product_id = p.id and m.name = 'liking')
        order by p.id limit 1`,
      [
        CLIENT_CLIENTS,
        (await categories())
          .filter((row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients)
          .map((row) => row.category),
      ],
    );
    expect(own).toBeDefined();
    const response = await get(`/api/norms/rank?product_id=${own!.id}&metric=liking&aggregation=top_2_box`);
    expect(response.statusCode, response.body).toBe(200);
    const ranked = response.json<NormRankResponse>();
    const raw = await rawScores(own!.category, 'top_2_box');
    const score = raw.find((row) => row.id === own!.id)!.score;
    const below = raw.filter((row) => row.score < score - 1e-12).length;
    const same = raw.filter((row) => Math.abs(row.score - score) <= 1e-12).length;
    expect(ranked.product.score).toBeCloseTo(score, 12);
    expect(ranked.rank).toBeCloseTo((below + same / 2) / raw.length, 12);
    expect(ranked.norm.base.category).toBe(own!.category);
    expect(ranked.norm.status).toBe('available');
    // A profile names the product by its study and code.
    const [address] = await query<{ study_id: number; code: string }>(
      `select study_id, code from products where id = $1`,
      [own!.id],
    );
    const byAddress = await get(
      `/api/norms/rank?${qs({ study_id: address!.study_id, code: address!.code, kind: 'fragrance', metric: 'liking', aggregation: 'top_2_box' })}`,
    );
    expect(byAddress.statusCode, byAddress.body).toBe(200);
    expect(byAddress.json<NormRankResponse>()).toEqual(ranked);
    const neither = await get('/api/norms/rank?metric=liking&aggregation=top_2_box');
    expect(neither.statusCode).toBe(400);
    expect(errorBody(neither).message).toContain(NORM_MESSAGES.whichProduct);
  });

  it("answers 404 for a product outside the caller's scope, naming nothing", async () => {
    const [foreign] = await query<{ id: number }>(
      `select p.id from products p join studies s on s.id = p.study_id
        where not (s.client = any($1::text[])) order by p.id limit 1`,
      [CLIENT_CLIENTS],
    );
    const response = await get(`/api/norms/rank?product_id=${foreign!.id}&metric=liking&aggregation=mean`);
    expect(response.statusCode).toBe(404);
    expect(errorBody(response).message).toBe(NORM_MESSAGES.noSuchProduct);
  });
});

describe('norms: spreadsheet and cache', () => {
  it('writes the norm as a workbook with its base in words and the same numbers', async () => {
    const big = (await categories()).find(
      (row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients,
    )!;
    const params = { category: big.category, metric: 'liking', aggregation: 'top_2_box' };
    const { norm } = await normOf(params);
    const file = await get(`/api/norms/xlsx?${qs(params)}`);
    expect(file.statusCode, file.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const cells = new Map<string, unknown>();
    sheet.eachRow((row) => {
      const label = row.getCell(1).value;
      if (typeof label === 'string') cells.set(label, row.getCell(2).value);
    });
    const text = JSON.stringify([...cells.entries()]);
    expect(text).toContain(norm.base.description);
    expect(cells.get('Fragrances (n)')).toBe(norm.products);
    expect(cells.get('Studies')).toBe(norm.studies);
    expect(cells.get('P50 (median)')).toBeCloseTo(norm.percentiles!.p50, 12);
    expect(cells.get('Action standard: top quartile (P75)')).toBeCloseTo(norm.percentiles!.p75, 12);
    expect(sheet.getCell(`B${[...cells.keys()].indexOf('P10') + 1}`)).toBeDefined();
  });

  it('follows a change of the library (data_versions)', async () => {
    const big = (await categories()).find(
      (row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients,
    )!;
    const params = { category: big.category, metric: 'liking', aggregation: 'mean' };
    const before = (await normOf(params, 'admin')).norm;
    const [study] = await query<{ id: number }>(
      `select s.id from studies s where s.category = $1 and s.verified
          and exists (select 1 from products p where p.study_id = s.id) order by s.id limit 1`,
      [big.category],
    );
    await query(`update studies set verified = false where id = $1`, [study!.id]);
    try {
      const after = (await normOf(params, 'admin')).norm;
      const raw = await rawScores(big.category, 'mean');
      expect(after.products).toBe(raw.length);
      expect(after.products).toBeLessThan(before.products!);
    } finally {
      await query(`update studies set verified = true where id = $1`, [study!.id]);
    }
  });
});
