// "How was this computed?" through the running app: the trace of a metric search cell, a profile row
// and a group comparison value lists exactly the answers that make it (its csv has the base n rows and
// gives the number back), significance p-values are those of the significance job, and scoping and
// validation answer as everywhere else.
import {
  TRACE_CSV_COLUMNS,
  type MetricSearchRequest,
  type MetricSearchResult,
  type MetricSearchStatus,
  type ProfileResponse,
  type SignificanceStatus,
  type StatisticsResults,
  type StatisticsStudyProducts,
  type TraceRequest,
  type TraceResponse,
} from '@accord/contracts';
import { compareSelectionVsRest, harmoniseToFivePoint, summariseHarmonised } from '@accord/stats';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../seed/users.ts';
import { ANSWER_PAGE_ROWS } from './trace.repository.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  // The app reads the results files the library stored.
  t = await createLibraryTestApp(
    'accord-trace-',
    { studies: 8, seed: 5, respondents: 50, lastYear: 2024 },
    tokens,
    { readsLibraryFiles: true },
  );
});

afterAll(() => t?.close());

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

const post = (url: string, payload: unknown, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'POST', url, payload, token: role ? tokens[role] : undefined });
const get = (url: string, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'GET', url, token: role ? tokens[role] : undefined });

async function traced(body: TraceRequest, role: DemoRole = 'researcher'): Promise<TraceResponse> {
  const response = await post('/api/trace', body, role);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TraceResponse>();
}

type CsvRow = Record<(typeof TRACE_CSV_COLUMNS)[number], string>;
async function csvOf(body: TraceRequest, role: DemoRole = 'researcher'): Promise<CsvRow[]> {
  const response = await post('/api/trace/answers.csv', body, role);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(response.headers['content-disposition']).toBe('attachment; filename="answers.csv"');
  const [header, ...records] = parse(response.body) as string[][];
  expect(header).toEqual([...TRACE_CSV_COLUMNS]);
  return records.map(
    (record) => Object.fromEntries(header!.map((name, at) => [name, record[at]!])) as CsvRow,
  );
}

async function searchResult(body: MetricSearchRequest): Promise<MetricSearchResult> {
  const queued = await post('/api/analytics/fragrances', body);
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  const status = (await get(`/api/analytics/fragrances/${jobid}`)).json<MetricSearchStatus>();
  expect(status.status, status.error ?? '').toBe('SUCCESS');
  return status.result!.json;
}

const LIKING = (aggregation: string) => ({ metricType: 'Performance', metric: 'liking', aggregation });
const FEMALE = { gender: ['Female'] };

/** The scale of each question (for recomputing harmonised values from the csv's raw values). */
async function scales(): Promise<Map<string, { min: number; max: number }>> {
  const rows = await query<{ c_mi_number: string; qid: string; scale_min: number; scale_max: number }>(
    `select s.c_mi_number, q.qid, q.scale_min, q.scale_max from questions q join studies s on s.id = q.study_id`,
  );
  return new Map(
    rows.map((row) => [`${row.c_mi_number}|${row.qid}`, { min: row.scale_min, max: row.scale_max }]),
  );
}

describe('POST /api/trace of a metric search cell', () => {
  it('lists exactly the answers of the cell under the search filters, and its csv gives the number back', async () => {
    const result = await searchResult({
      q: {
        demographics: FEMALE,
        metrics: { rdfType: 'all', metricsList: [LIKING('top_2_box'), LIKING('mean')] },
      },
    } as MetricSearchRequest);
    const rows = result.results.filter((row) => (row.bases['liking.top_2_box'] ?? 0) > 0).slice(0, 3);
    expect(rows.length).toBeGreaterThan(0);
    const scaleOf = await scales();
    for (const row of rows) {
      const body: TraceRequest = {
        products: [row.id],
        metric: 'liking',
        aggregation: 'top_2_box',
        demographics: FEMALE,
      };
      const trace = await traced(body);
      expect(trace.base.answers).toBe(row.bases['liking.top_2_box']);
      expect(trace.value).toBeCloseTo(row.values['liking.top_2_box']!, 12);
      expect(trace.base.products).toBe(1);
      expect(trace.base.studies).toBe(1);
      expect(trace.low_base).toBe(trace.base.answers < 30);
      expect(trace.filters).toEqual(['Gender: Female']);
      expect(trace.studies[0]!.study_id).toBe(row.study_id);
      const question = trace.studies[0]!.questions.find((entry) => entry.answers > 0)!;
      expect(question.harmonisation).toMatch(/^h = |^Already on the 5-point scale/);
      expect(question.results_file?.url).toMatch(new RegExp(`^/api/study/${row.study_id}/study-files/\\d+$`));

      const csv = await csvOf(body);
      expect(csv).toHaveLength(row.bases['liking.top_2_box']!);
      // Only women, only this product, each harmonised value recomputed from its raw value and scale.
      const women = await query<{ respondent_code: string }>(
        `select respondent_code from respondents where study_id = $1 and gender = 'Female'`,
        [row.study_id],
      );
      const womenCodes = new Set(women.map((entry) => entry.respondent_code));
      const harmonised = csv.map((line) => {
        expect(line.study).toBe(row.c_mi_number);
        expect(line.product).toBe(row.prod);
        expect(womenCodes.has(line.respondent)).toBe(true);
        const scale = scaleOf.get(`${line.study}|${line.question}`)!;
        const h = harmoniseToFivePoint(Number(line.raw_value), scale.min, scale.max);
        expect(Number(line.harmonised_value)).toBeCloseTo(h, 12);
        return Number(line.harmonised_value);
      });
      const summary = summariseHarmonised(harmonised);
      expect(summary.top_2_box).toBeCloseTo(row.values['liking.top_2_box']!, 12);
      expect(summary.mean).toBeCloseTo(row.values['liking.mean']!, 12);
      const mean = await traced({ ...body, aggregation: 'mean' });
      expect(mean.value).toBeCloseTo(row.values['liking.mean']!, 12);
      expect(new Set(csv.map((line) => line.respondent)).size).toBe(trace.base.respondents);
    }
  });

  it('without filters counts every respondent and says so', async () => {
    const result = await searchResult({
      q: { metrics: { rdfType: 'all', metricsList: [LIKING('bottom_2_box')] } },
    } as MetricSearchRequest);
    const row = result.results.find((entry) => (entry.bases['liking.bottom_2_box'] ?? 0) > 0)!;
    const trace = await traced({ products: [row.id], metric: 'liking', aggregation: 'bottom_2_box' });
    expect(trace.base.answers).toBe(row.bases['liking.bottom_2_box']);
    expect(trace.value).toBeCloseTo(row.values['liking.bottom_2_box']!, 12);
    expect(trace.filters).toEqual(['No respondent filters: every respondent of the products.']);
    expect(trace.rule).toBe('Share of the answers counted with h ≤ 2.5.');
    const csv = await csvOf({ products: [row.id], metric: 'liking', aggregation: 'bottom_2_box' });
    expect(csv).toHaveLength(trace.base.answers);
  });

  it('gives the clustered test and p-value behind a significance mark, as the significance job computed them', async () => {
    const result = await searchResult({
      q: { metrics: { rdfType: 'all', metricsList: [LIKING('top_2_box'), LIKING('mean')] } },
    } as MetricSearchRequest);
    const list = result.results.slice(0, 12).map((row) => row.id);
    for (const calculation of ['rest', 'avg'] as const) {
      const queued = await post('/api/analytics/significance', {
        data: list.map((id) => ({ id })),
        calculation,
        // The trace tests one cell; with no correction its level is the mark's (with one, the mark
        // reads the p-value adjusted across the whole Calculate).
        correction: 'none',
        metrics: [
          { field: 'liking', aggregation: 'top_2_box', confidence: true },
          { field: 'liking', aggregation: 'mean', confidence: true },
        ],
      });
      expect(queued.statusCode, queued.body).toBe(200);
      const { job_id } = queued.json<{ job_id: string }>();
      const status = (await get(`/api/analytics/significance/${job_id}`)).json<SignificanceStatus>();
      expect(status.status).toBe('SUCCESS');
      for (const aggregation of ['top_2_box', 'mean'] as const) {
        for (const id of list.slice(0, 4)) {
          const mark = (status.result!.results.find((row) => row.id === id) as Record<string, unknown>)[
            `liking.${aggregation}.confidence`
          ] as { level: number | null; p_value: number | null; table: string | null; test: string };
          const trace = await traced({
            products: [id],
            metric: 'liking',
            aggregation,
            significance: { calculation, products: list },
          });
          expect(trace.significance!.test).toBe(mark.test);
          if (mark.p_value === null) expect(trace.significance!.p_value).toBeNull();
          else expect(trace.significance!.p_value).toBeCloseTo(mark.p_value, 12);
          expect(trace.significance!.level).toBe(mark.level);
          expect(trace.significance!.direction).toBe(mark.table);
        }
      }
    }
  });
});

describe('POST /api/trace of a profile row and a group comparison value', () => {
  it('traces a profile row under its respondent conditions', async () => {
    const [product] = await query<{ id: number; study_id: number; code: string }>(
      `select p.id, p.study_id, p.code from products p where p.kind = 'fragrance'
        and exists (select 1 from answers a where a.product_id = p.id) order by p.id limit 1`,
    );
    const conditions = [{ field: 'age', filter: { type: 'range', from: 25, to: 50 } }];
    const response = await post(
      `/api/study/${product!.study_id}/fragrance/${encodeURIComponent(product!.code)}`,
      { demographics: conditions },
    );
    expect(response.statusCode, response.body).toBe(200);
    const liking = response.json<ProfileResponse>().result.find((row) => row.metric === 'liking')!;
    const body = {
      products: [product!.id],
      metric: 'liking',
      aggregation: 'top_box',
      demographics_fragrances: conditions,
    } as TraceRequest;
    const trace = await traced(body);
    expect(trace.base.answers).toBe(liking.n);
    expect(trace.value).toBeCloseTo(liking.top_box as number, 12);
    expect(trace.filters).toEqual(['Age: 25 to 50']);
    expect(await csvOf(body)).toHaveLength(liking.n);
  });

  it('traces a group value as the mean of its product scores, with the Welch test on them', async () => {
    const result = await searchResult({
      q: { metrics: { rdfType: 'rdf', metricsList: [LIKING('top_2_box')] } },
    } as MetricSearchRequest);
    const scored = result.results.filter((row) => row.values['liking.top_2_box'] != null);
    const one = scored.slice(0, 6);
    const two = scored.slice(6, 14);
    const scores = (rows: typeof scored) => rows.map((row) => row.values['liking.top_2_box']!);
    const trace = await traced({
      products: one.map((row) => row.id),
      metric: 'liking',
      aggregation: 'top_2_box',
      unit: 'products',
      versus: { products: two.map((row) => row.id) },
    });
    const mean = scores(one).reduce((sum, value) => sum + value, 0) / one.length;
    expect(trace.value).toBeCloseTo(mean, 12);
    expect(trace.base.products).toBe(one.length);
    expect(trace.base.answers).toBe(one.reduce((sum, row) => sum + row.bases['liking.top_2_box']!, 0));
    expect(trace.low_base).toBe(true);
    const welch = compareSelectionVsRest({ kind: 'mean', selection: scores(one), rest: scores(two) });
    expect(trace.significance!.test).toBe('welch-t');
    expect(trace.significance!.p_value).toBeCloseTo(welch.pValue!, 12);
    expect(trace.significance!.level).toBe(welch.level);
  });
});

describe('POST /api/trace of a study statistics summary cell', () => {
  it('gives back the base, mean and boxes of the summary from the answers of the column’s product', async () => {
    const [study] = await query<{ id: number }>(
      `select s.id from studies s where s.rdf_type = 'rdf' and exists (select 1 from answers a where a.study_id = s.id)
        order by s.id limit 1`,
    );
    const studyId = Number(study!.id);
    const response = await post(`/api/statistics/${studyId}/`, {
      query: {
        product_order: 'Unspecified Product Order',
        main_question_column: 'liking',
        test_types: ['two_95'],
        paired: true,
        parametric: false,
        charts: false,
        regression: false,
        replace_product_codes: true,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json<StatisticsResults>();
    const products = (await get(`/api/statistics/${studyId}/products/`)).json<StatisticsStudyProducts>();
    const idOf = new Map(products.products.map((product) => [product.code, product.id]));
    expect(results.product_codes.length).toBe(results.summary.headers.length - 2);
    const rowsOf = (statistic: string) =>
      results.summary.data.find((row) => String(row[0]).startsWith('liking: ') && row[1] === statistic)!;
    expect(results.product_codes.length).toBeGreaterThan(1);
    for (const [index, code] of results.product_codes.entries()) {
      const column = index + 2;
      const body = { products: [idOf.get(code)!], metric: 'liking' };
      const mean = await traced({ ...body, aggregation: 'mean' });
      expect(mean.base.answers).toBe(rowsOf('Base (n)')[column]);
      expect(mean.value).toBeCloseTo(rowsOf('Mean')[column] as number, 12);
      const top2 = await traced({ ...body, aggregation: 'top_2_box' });
      expect(top2.value).toBeCloseTo(rowsOf('Top 2 box')[column] as number, 12);
    }
  });
});

describe('scoping and validation', () => {
  const clientsOf = (role: DemoRole) =>
    DEMO_USERS.find((user) => user.roleId === { admin: 1, researcher: 2, client: 3, sales: 4 }[role])!
      .clients;
  async function productWhere(condition: string, clients = clientsOf('client')): Promise<number> {
    const [row] = await query<{ id: number }>(
      `select p.id from products p join studies s on s.id = p.study_id
        where ${condition} and exists (select 1 from answers a where a.product_id = p.id and a.metric_id is not null)
        order by p.id limit 1`,
      [clients],
    );
    if (!row) throw new Error(`no product where ${condition}`);
    return Number(row.id);
  }
  const body = (id: number): TraceRequest => ({ products: [id], metric: 'liking', aggregation: 'mean' });

  it('needs a signed-in user and answers 400 for a malformed request', async () => {
    const own = await productWhere('true or $1::text[] is null');
    expect((await post('/api/trace', body(own), null)).statusCode).toBe(401);
    expect((await post('/api/trace/answers.csv', body(own), null)).statusCode).toBe(401);
    const cases: [unknown, string][] = [
      [{ ...body(own), products: [] }, 'products'],
      [{ ...body(own), metric: 'no_such_metric' }, 'Unknown metric "no_such_metric".'],
      [
        { ...body(own), aggregation: 'irt_yes' },
        'The aggregation irt_yes is not offered for the metric liking.',
      ],
      [{ ...body(own), versus: { products: [own] } }, 'set unit to products'],
      [{ ...body(own), extra: 1 }, 'extra'],
    ];
    for (const [payload, message] of cases) {
      for (const url of ['/api/trace', '/api/trace/answers.csv']) {
        const response = await post(url, payload, 'admin');
        expect(response.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
        expect(errorBody(response).message).toContain(message);
      }
    }
  });

  it('limits client and sales users to the verified studies of their clients (404 otherwise)', async () => {
    for (const role of ['client', 'sales'] as const) {
      const own = await productWhere('s.client = any($1::text[]) and s.verified', clientsOf(role));
      const foreign = await productWhere('not (s.client = any($1::text[]))', clientsOf(role));
      const unverified = await productWhere(
        's.client = any($1::text[]) and not s.verified',
        clientsOf(role),
      ).catch(() => null);
      expect((await post('/api/trace', body(own), role)).statusCode).toBe(200);
      const hidden = await post('/api/trace', body(foreign), role);
      expect(hidden.statusCode).toBe(404);
      expect(errorBody(hidden).message).toBe('Some of the products are not available to you.');
      // One foreign product among own ones hides the whole aggregate.
      expect((await post('/api/trace', { ...body(own), products: [own, foreign] }, role)).statusCode).toBe(
        404,
      );
      if (unverified !== null)
        expect((await post('/api/trace', body(unverified), role)).statusCode).toBe(404);
      expect(
        (
          await post(
            '/api/trace',
            { ...body(own), significance: { calculation: 'rest', products: [own, foreign] } },
            role,
          )
        ).statusCode,
      ).toBe(404);
    }
    const foreign = await productWhere('not (s.client = any($1::text[]))');
    expect((await post('/api/trace', body(foreign), 'researcher')).statusCode).toBe(200);
    expect((await post('/api/trace', body(2_000_000_000), 'admin')).statusCode).toBe(404);
  });

  it('gives the answers csv to users with the download right only, scoped, and links results files to them', async () => {
    // A client both demo users share, and one the sales user does not have.
    const own = await productWhere('s.client = any($1::text[]) and s.verified', [clientsOf('sales')[0]!]);
    const foreign = await productWhere('not (s.client = any($1::text[]))', clientsOf('sales'));
    const refused = await post('/api/trace/answers.csv', body(own), 'client');
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).message).toBe('You are not allowed to download answers.');
    const clientTrace = await traced(body(own), 'client');
    expect(clientTrace.can_download).toBe(false);
    expect(
      clientTrace.studies.flatMap((study) => study.questions).every((q) => q.results_file === null),
    ).toBe(true);

    const salesTrace = await traced(body(own), 'sales');
    expect(salesTrace.can_download).toBe(true);
    expect((await csvOf(body(own), 'sales')).length).toBe(salesTrace.base.answers);
    expect((await post('/api/trace/answers.csv', body(foreign), 'sales')).statusCode).toBe(404);

    const file = salesTrace.studies[0]!.questions.find((q) => q.results_file)!.results_file!;
    const download = await get(file.url, 'sales');
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-disposition']).toContain(file.name);
  });

  it('streams a large base page by page with every answer once', async () => {
    const ids = (
      await query<{ id: number }>(`select id from products where kind = 'fragrance' order by id`)
    ).map((row) => Number(row.id));
    const request: TraceRequest = { products: ids, metric: 'liking', aggregation: 'mean' };
    const trace = await traced(request, 'admin');
    // More answers than one page of the download (ANSWER_PAGE_ROWS).
    expect(trace.base.answers).toBeGreaterThan(ANSWER_PAGE_ROWS);
    const csv = await csvOf(request, 'admin');
    expect(csv).toHaveLength(trace.base.answers);
    const keys = new Set(
      csv.map((line) => `${line.study}|${line.product}|${line.question}|${line.respondent}`),
    );
    expect(keys.size).toBe(csv.length);
    const mean = csv.reduce((sum, line) => sum + Number(line.harmonised_value), 0) / csv.length;
    expect(mean).toBeCloseTo(trace.value!, 9);
  });
});
