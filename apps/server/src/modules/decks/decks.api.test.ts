// The slide decks of the analytics tabs through the running app: each deck is opened again and its
// native charts read back, so the series must equal the numbers the tab's own answer holds (as the
// screen rounds them), the bars carry the marks and bases the screen shows, and every slide states
// the filters in words. Roles as the tabs' spreadsheets.
import type {
  FragranceResponse,
  MetricSearchPageStatus,
  MetricSearchRequest,
  MetricSearchStatus,
  SignificanceStatus,
  TendenciesResponse,
  TopAttributesStatus,
} from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { readDeck } from '../../testing/pptx-deck.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';
import { DECK_MESSAGES } from './decks.routes.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-decks-',
    { studies: 6, seed: 11, respondents: 60, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

const post = (url: string, payload: unknown, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'POST', url, payload, token: role ? tokens[role] : undefined });
const get = (url: string, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'GET', url, token: role ? tokens[role] : undefined });

const METRICS: MetricSearchRequest['q']['metrics']['metricsList'] = [
  { metricType: 'Performance', metric: 'liking', aggregation: 'top_2_box', confidence: true },
  { metricType: 'Performance', metric: 'liking', aggregation: 'mean', confidence: true },
];

async function someRegion(): Promise<string> {
  const { rows } = await t.database.sql.executeSql(
    `select unnest(region) as region from studies where verified order by 1 limit 1`,
  );
  return (rows as { region: string }[])[0]!.region;
}

async function metricSearch(body: MetricSearchRequest, role: DemoRole = 'researcher') {
  const queued = await post('/api/analytics/fragrances', body, role);
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  const status = (await get(`/api/analytics/fragrances/${jobid}`, role)).json<MetricSearchStatus>();
  expect(status.status, status.error ?? '').toBe('SUCCESS');
  return { jobid, result: status.result!.json };
}

async function deck(url: string, role: DemoRole = 'researcher', body?: unknown) {
  const response = body === undefined ? await get(url, role) : await post(url, body, role);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toContain('presentationml.presentation');
  return readDeck(response.rawPayload);
}

const percent = (value: number | null | undefined) =>
  value === null || value === undefined ? null : Math.round(value * 100);
const mean = (value: number | null | undefined) =>
  value === null || value === undefined ? null : Math.round(value * 100) / 100;

describe('GET /api/analytics/fragrances/pptx/{jobId}', () => {
  it('charts each metric over the rows of the page shown, in its order, with the filters on every slide', async () => {
    const region = await someRegion();
    const q: MetricSearchRequest['q'] = {
      essentials: { region: [region] },
      demographics: { gender: ['Female'], startAge: 18, endAge: 44 },
      metrics: { rdfType: 'all', metricsList: METRICS },
    };
    const { jobid } = await metricSearch({ q });
    const query = 'sort=liking.top_2_box&desc=true&limit=7';
    const page = (
      await get(`/api/analytics/fragrances/${jobid}/page?${query}`)
    ).json<MetricSearchPageStatus>().result!;
    expect(page.rows.length).toBeGreaterThan(1);
    const slides = await deck(`/api/analytics/fragrances/pptx/${jobid}?${query}`);
    const filters = `Filters: Region: ${region}; Gender: Female; Age: 18 to 44`;
    expect(slides[0]!.text).toContain('Metric search: ');
    expect(slides[0]!.text).toContain(filters);
    expect(slides[0]!.text).toContain('Metrics: T2B Overall Liking, M Overall Liking');
    expect(slides).toHaveLength(3);
    const [t2b, liking] = [slides[1]!, slides[2]!];
    for (const slide of [t2b, liking]) {
      expect(slide.text).toContain(filters);
      expect(slide.text).toContain('sorted by T2B Overall Liking, largest first');
      expect(slide.charts).toHaveLength(1);
    }
    expect(t2b.text.split('\n')[0]).toBe('T2B Overall Liking');
    const shown = page.rows.filter((row) => row.values['liking.top_2_box'] != null);
    const series = t2b.charts[0]!.series[0]!;
    expect(series.values).toEqual(shown.map((row) => percent(row.values['liking.top_2_box'])));
    // Ranked as the table: largest first.
    expect([...series.values].sort((a, b) => b! - a!)).toEqual(series.values);
    shown.forEach((row, index) => {
      const n = row.bases['liking.top_2_box'];
      expect(series.categories[index]).toBe(
        `${row.name ?? row.prod} (${row.c_mi_number}) (n = ${n}${row.low_base.includes('liking.top_2_box') ? ', low base' : ''})`,
      );
    });
    expect(liking.charts[0]!.series[0]!.values).toEqual(
      page.rows
        .filter((row) => row.values['liking.mean'] != null)
        .map((row) => mean(row.values['liking.mean'])),
    );
    expect(t2b.text).toMatch(/Base n: \d+( to \d+)? answers per bar/);
    // The notes hold every bar's base.
    expect(t2b.notes).toContain(`base n = ${shown[0]!.bases['liking.top_2_box']}`);
  });

  it('names each bar with the mark the table shows, and charts the selection alone when asked', async () => {
    const { jobid } = await metricSearch({ q: { metrics: { rdfType: 'all', metricsList: METRICS } } });
    const queued = await post('/api/analytics/significance', {
      search_job: jobid,
      calculation: 'avg',
      metrics: METRICS.map((entry) => ({
        field: entry.metric,
        aggregation: entry.aggregation,
        confidence: true,
      })),
    });
    expect(queued.statusCode, queued.body).toBe(200);
    const { job_id } = queued.json<{ job_id: string }>();
    const status = (await get(`/api/analytics/significance/${job_id}`)).json<SignificanceStatus>();
    expect(status.status).toBe('SUCCESS');
    const query = `significance=${job_id}&limit=50`;
    const page = (
      await get(`/api/analytics/fragrances/${jobid}/page?${query}`)
    ).json<MetricSearchPageStatus>().result!;
    const slides = await deck(`/api/analytics/fragrances/pptx/${jobid}?${query}`);
    expect(slides[1]!.text).toContain(
      'Significance: Selection vs Average, two-sided tests at 99, 95, 90 % confidence',
    );
    const categories = slides
      .slice(1)
      .flatMap((slide) =>
        slide.text.startsWith('T2B Overall Liking') ? slide.charts[0]!.series[0]!.categories : [],
      );
    const rows = page.rows.filter((row) => row.values['liking.top_2_box'] != null);
    expect(categories).toHaveLength(rows.length);
    let marked = 0;
    rows.forEach((row, index) => {
      const mark = row.marks['liking.top_2_box'];
      if (mark && mark.level !== null && mark.table !== null) {
        marked += 1;
        expect(categories[index]).toContain(
          `${mark.table === 'mt' ? '▲' : '▼'} ${Math.round((1 - mark.level) * 100)}%`,
        );
      } else expect(categories[index]).not.toMatch(/[▲▼]/);
    });
    expect(marked).toBeGreaterThan(0);

    const none = await get(`/api/analytics/fragrances/pptx/${jobid}?selected=true`);
    expect(none.statusCode).toBe(400);
    expect(errorBody(none).message).toBe(DECK_MESSAGES.noneSelected);
    const chosen = page.rows.slice(0, 3);
    const selected = await post(`/api/analytics/fragrances/${jobid}/selection`, {
      action: 'select',
      ids: chosen.map((row) => row.id),
    });
    expect(selected.statusCode, selected.body).toBe(200);
    const selection = await deck(`/api/analytics/fragrances/pptx/${jobid}?selected=true&sort=name`);
    expect(selection[0]!.text).toContain('The 3 selected fragrances, sorted by name, smallest first');
    const names = [...chosen]
      .map((row) => `${row.name ?? row.prod} (${row.c_mi_number})`)
      .sort((a, b) => a.localeCompare(b, 'en-GB', { sensitivity: 'base', numeric: true }));
    expect(
      selection[1]!.charts[0]!.series[0]!.categories.map((name) => name.replace(/ \(n = .*$/, '')),
    ).toEqual(names.filter((_, index) => chosen.length > index));
  });

  it('refuses anonymous callers, users without analytics, bad ids and queries, and others’ jobs', async () => {
    const { jobid } = await metricSearch({ q: { metrics: { rdfType: 'all', metricsList: METRICS } } });
    const url = `/api/analytics/fragrances/pptx/${jobid}`;
    expect((await get(url, null)).statusCode).toBe(401);
    expect((await get(url, 'client')).statusCode).toBe(403);
    expect((await get(url, 'sales')).statusCode).toBe(403);
    expect((await get('/api/analytics/fragrances/pptx/not-a-job')).statusCode).toBe(400);
    expect((await get(`${url}?limit=5000`)).statusCode).toBe(400);
    expect((await get(`${url}?sort=no.such`)).statusCode).toBe(400);
    expect((await get(url, 'admin')).statusCode).toBe(404);
  });
});

describe('the performance, top attributes and tendencies decks', () => {
  it('fragrance_performance.pptx charts each metric per breakdown value in the table’s order', async () => {
    const region = await someRegion();
    const { jobid, result } = await metricSearch({
      q: { essentials: { region: [region] }, metrics: { rdfType: 'all', metricsList: METRICS } },
      data: { category: 'metadata', field: 'client' },
    });
    const url = `/api/analytics/performance/pptx/${jobid}?sort=liking.mean&desc=true`;
    const slides = await deck(url);
    expect(slides[0]!.text.split('\n')[0]).toBe('Performance by Client');
    const rows = [...result.performance!].sort(
      (a, b) =>
        (b.metrics.find((m) => m.name === 'liking.mean')?.value ?? -1) -
        (a.metrics.find((m) => m.name === 'liking.mean')?.value ?? -1),
    );
    const chart = slides.find((slide) => slide.text.startsWith('M Overall Liking by Client'))!;
    expect(chart.text).toContain(`Filters: Region: ${region}`);
    expect(chart.charts[0]!.series[0]!.values).toEqual(
      rows
        .map((row) => mean(row.metrics.find((m) => m.name === 'liking.mean')?.value))
        .filter((value) => value !== null),
    );
    expect((await get(url, null)).statusCode).toBe(401);
    expect((await get(url, 'client')).statusCode).toBe(403);
    expect((await get('/api/analytics/performance/pptx/nope')).statusCode).toBe(400);
    expect((await get(url, 'admin')).statusCode).toBe(404);
  });

  it('fragrance_attributes.pptx charts the ranked attributes by their ranking aggregation', async () => {
    const region = await someRegion();
    const queued = await post('/api/analytics/top-attributes', {
      q: { essentials: { region: [region] } },
      demographics: [{ field: 'gender', filter: { type: 'equal', value: 'Female' } }],
      data: { order: 'best', count: 5, attribute_type: 'all', aggregation: 'top_2_box' },
    });
    const { jobid } = queued.json<{ jobid: string }>();
    const status = (await get(`/api/analytics/top-attributes/${jobid}`)).json<TopAttributesStatus>();
    expect(status.status).toBe('SUCCESS');
    const url = `/api/analytics/top-attributes/pptx/${jobid}`;
    const slides = await deck(url);
    expect(slides[1]!.text).toContain(`Filters: Region: ${region}`);
    expect(slides[1]!.text).toContain('Respondents of the selection: Gender: Female');
    expect(slides[1]!.text).toContain('Ranking: Best 5 by Top 2 Box, all attributes');
    const attributes = status.result!.json.attributes.filter((row) => row.top_2_box !== null);
    expect(slides[1]!.charts[0]!.series[0]!.values).toEqual(attributes.map((row) => percent(row.top_2_box)));
    expect((await get(url, null)).statusCode).toBe(401);
    expect((await get(url, 'sales')).statusCode).toBe(403);
    expect((await get('/api/analytics/top-attributes/pptx/x')).statusCode).toBe(400);
  });

  it('fragrance_tendencies.pptx charts the table’s percentages (sales users may download it)', async () => {
    const region = await someRegion();
    const body = {
      q: { essentials: { region: [region] } },
      data: { return: 'percentage', groupby: 'perfume_characteristics.family' },
    };
    const found = (await post('/api/analytics/tendencies', body, 'sales')).json<TendenciesResponse>();
    const slides = await deck('/api/analytics/tendencies/pptx', 'sales', body);
    expect(slides[1]!.text).toContain(`Filters: Region: ${region}`);
    expect(slides[1]!.text).toContain(`Fragrances counted: ${found.total}`);
    expect(slides[1]!.charts[0]!.series[0]!.values).toEqual(
      found.table_data.map((row) => Math.round(row.percentage * 10) / 10),
    );
    expect((await post('/api/analytics/tendencies/pptx', body, null)).statusCode).toBe(401);
    expect((await post('/api/analytics/tendencies/pptx', body, 'client')).statusCode).toBe(403);
    const bad = await post('/api/analytics/tendencies/pptx', { ...body, data: { groupby: 'nope' } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET /api/fragrance/{code}/pptx', () => {
  it('charts each test of the fragrance page, the pooled estimate in words, for users who may download', async () => {
    const { rows } = await t.database.sql.executeSql(
      `select f.code from fragrances f join studies s on s.id = f.study_id
        where f.code is not null and s.verified
        group by f.code order by count(distinct f.study_id) desc, 1 limit 1`,
    );
    const code = (rows as { code: string }[])[0]!.code;
    const page = (await get(`/api/fragrance/${code}`)).json<FragranceResponse>();
    expect(page.tests.length).toBeGreaterThan(1);
    const url = `/api/fragrance/${code}/pptx`;
    const slides = await deck(url);
    expect(slides[0]!.text).toContain(`(6 Digit Code (SAP) ${code})`);
    const liking = slides.find((slide) => slide.text.startsWith('Liking (mean) in each test'))!;
    expect(liking.text).toContain(`Tests: ${page.tests.length} tests of 6 Digit Code (SAP) ${code}`);
    const pooled = page.pooled.find((entry) => entry.metric === 'liking')!;
    if (pooled.estimate !== null)
      expect(liking.text).toContain(`Liking: ${pooled.estimate.toFixed(2)} (95% interval`);
    const withLiking = page.tests.filter((test) => test.scores.liking?.mean != null);
    expect(liking.charts[0]!.series[0]!.values).toEqual(
      withLiking.map((test) => mean(test.scores.liking!.mean)),
    );
    expect(liking.charts[0]!.series[0]!.categories[0]).toContain(withLiking[0]!.c_mi_number);
    const t2b = slides.find((slide) => slide.text.startsWith('Liking (T2B) in each test'))!;
    expect(t2b.charts[0]!.series[0]!.values).toEqual(
      page.tests
        .filter((test) => test.scores.liking?.top_2_box != null)
        .map((test) => percent(test.scores.liking!.top_2_box)),
    );
    const byMarket = slides.find((slide) => slide.text.startsWith('Liking (mean) by market'))!;
    expect(byMarket.charts[0]!.series[0]!.values).toEqual(
      page.by_market
        .filter((group) => group.scores.liking?.mean != null)
        .map((group) => mean(group.scores.liking!.mean)),
    );
    expect((await get(url, null)).statusCode).toBe(401);
    expect((await get(url, 'client')).statusCode).toBe(403);
    expect((await get('/api/fragrance/12ab/pptx')).statusCode).toBe(400);
    // Sales users see the tests of their clients' studies alone, as on the page.
    const sales = await get(`/api/fragrance/${code}`, 'sales');
    const salesDeck = await get(url, 'sales');
    expect(salesDeck.statusCode).toBe(sales.statusCode);
    if (sales.statusCode === 200) {
      const shown = sales.json<FragranceResponse>().tests.length;
      expect((await readDeck(salesDeck.rawPayload))[1]!.text).toContain(`Tests: ${shown} test`);
    }
  });
});
