// The analytics calls through the running app on a generated library: roles, validation, the job
// protocol (success and failure), and every number checked against the raw answers recomputed with
// the statistics package (harmonised from raw values and question scales, independently of the SQL).
import {
  MetricSearchStatus,
  type AnalyticsOptionsResponse,
  type MetricSearchRequest,
  type MetricSearchResult,
  type SignificanceRequest,
  type SignificanceStatus,
} from '@accord/contracts';
import { harmoniseToFivePoint, summariseHarmonised } from '@accord/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../seed/users.ts';
import { openWorkbook, readReport } from '../../testing/report-table.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-analytics-',
    { studies: 10, seed: 11, respondents: 60, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

/** The harmonised answers of a product and metric, recomputed from raw values and question scales. */
async function rawAnswers(
  productId: number,
  metric: string,
  where = 'true',
  values: unknown[] = [],
): Promise<number[]> {
  const rows = await query<{ raw_value: number; scale_min: number; scale_max: number }>(
    `select a.raw_value, q.scale_min, q.scale_max from answers a
      join questions q on q.id = a.question_id join metrics m on m.id = q.metric_id
      join respondents r on r.id = a.respondent_id
      where a.product_id = $1 and m.name = $2 and (${where})`,
    [productId, metric, ...values],
  );
  return rows.map((row) => harmoniseToFivePoint(Number(row.raw_value), row.scale_min, row.scale_max));
}

const post = (url: string, payload: unknown, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'POST', url, payload, token: role ? tokens[role] : undefined });
const get = (url: string, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'GET', url, token: role ? tokens[role] : undefined });

const LIKING_T2B = {
  metricType: 'Performance',
  metric: 'liking',
  aggregation: 'top_2_box',
  confidence: true,
} as const;
const LIKING_MEAN = {
  metricType: 'Performance',
  metric: 'liking',
  aggregation: 'mean',
  confidence: true,
} as const;

async function search(
  body: MetricSearchRequest,
  role: DemoRole = 'researcher',
  url = '/api/analytics/fragrances',
) {
  const queued = await post(url, body, role);
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  const status = await get(`/api/analytics/fragrances/${jobid}`, role);
  expect(status.statusCode).toBe(200);
  expect(status.headers['content-type']).toBe('application/json; charset=utf-8');
  // The status is written as text by the server: it must be what the contract says and nothing more.
  const answer = status.json<MetricSearchStatus>();
  expect(MetricSearchStatus.parse(answer)).toEqual(answer);
  return { jobid, status: answer };
}

async function searchResult(body: MetricSearchRequest): Promise<MetricSearchResult> {
  const { status } = await search(body);
  expect(status.status, status.error ?? '').toBe('SUCCESS');
  return status.result!.json;
}

const withMetrics = (metricsList: unknown[], extra: Record<string, unknown> = {}) =>
  ({ q: { metrics: { rdfType: 'all', metricsList }, ...extra } }) as MetricSearchRequest;

describe('GET /api/analytics/options', () => {
  it('needs a signed-in user with analytics access', async () => {
    expect((await get('/api/analytics/options', null)).statusCode).toBe(401);
    for (const role of ['client', 'sales'] as const) {
      const response = await get('/api/analytics/options', role);
      expect(response.statusCode).toBe(403);
      expect(errorBody(response).message).toBe('You do not have permission to do this.');
    }
  });

  it('counts respondents per demographic value and offers each metric with its aggregations', async () => {
    const response = await get('/api/analytics/options', 'admin');
    expect(response.statusCode).toBe(200);
    const { fields } = response.json<AnalyticsOptionsResponse>().data;
    const gender = fields.demographics.find((field) => field.field === 'gender')!;
    const counted = await query<{ gender: string; n: number }>(
      'select gender, count(*)::int as n from respondents group by gender',
    );
    for (const row of counted)
      expect(gender.options.find((option) => option.value === row.gender)?.count).toBe(row.n);
    expect(fields.demographics.map((field) => field.field)).toEqual(
      expect.arrayContaining(['gender', 'ethnicity', 'social_class', 'age', 'bumo']),
    );
    const liking = fields.metrics.find((metric) => metric.field === 'liking')!;
    expect(liking).toMatchObject({ type: 'Performance', name: 'Overall Liking' });
    expect(liking.aggregations).toContain('top_2_box');
    expect(liking.count).toBeGreaterThan(0);
    expect(fields.metrics.find((metric) => metric.field === 'irt_clean')?.aggregations).toEqual([
      'irt_yes',
      'irt_no',
      'hi_yes',
      'hi_no',
    ]);
    expect(fields.metrics_range.age.min).toBeGreaterThanOrEqual(18);
    expect(fields.metrics_range.age.max).toBeLessThanOrEqual(64);
    const years = await query<{ min: number; max: number }>(
      'select min(year) as min, max(year) as max from studies',
    );
    expect(fields.metadata.year).toEqual({ min: years[0]!.min, max: years[0]!.max });
    expect(fields.aggregation_metadata.find((group) => group.category === 'Performance')?.options[1]).toEqual(
      {
        field: 'top_2_box',
        label: 'T2B',
      },
    );
  });
});

describe('POST /api/smartsearch/dropdown_options_analytics', () => {
  it('refuses users without analytics access and bad study kinds', async () => {
    expect((await post('/api/smartsearch/dropdown_options_analytics', {}, null)).statusCode).toBe(401);
    expect((await post('/api/smartsearch/dropdown_options_analytics', {}, 'sales')).statusCode).toBe(403);
    const bad = await post('/api/smartsearch/dropdown_options_analytics', { rdf_type: 'xyz' });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toContain('rdf_type');
  });

  it('lists the study options and only the metrics answered in studies of the chosen kind', async () => {
    const all = await post('/api/smartsearch/dropdown_options_analytics', {});
    expect(all.statusCode).toBe(200);
    const body = all.json<{
      data: { fields: { metadata: { field: string }[]; metrics: { field: string; count: number }[] } };
    }>();
    expect(body.data.fields.metadata.map((field) => field.field)).toContain('client');
    const likingStudies = await query<{ n: number }>(
      `select count(distinct q.study_id)::int as n from questions q join metrics m on m.id = q.metric_id
        join studies s on s.id = q.study_id where m.name = 'liking' and s.verified`,
    );
    expect(body.data.fields.metrics.find((metric) => metric.field === 'liking')?.count).toBe(
      likingStudies[0]!.n,
    );
    const implicit = await post('/api/smartsearch/dropdown_options_analytics', {
      irt_implict: true,
      rdf_type: 'irt',
    });
    const metrics = implicit.json<{ data: { fields: { metrics: { field: string }[] } } }>().data.fields
      .metrics;
    expect(metrics.every((metric) => metric.field.startsWith('irt_'))).toBe(true);
  });
});

describe('POST /api/analytics/fragrances and its status', () => {
  it('needs a signed-in user with analytics access', async () => {
    const body = withMetrics([LIKING_T2B]);
    expect((await post('/api/analytics/fragrances', body, null)).statusCode).toBe(401);
    expect((await post('/api/analytics/fragrances', body, 'client')).statusCode).toBe(403);
    expect((await post('/api/analytics/fragrances', body, 'sales')).statusCode).toBe(403);
  });

  it('refuses bad filters with a message naming the problem', async () => {
    const cases: [unknown, string][] = [
      [{ q: { metrics: { metricsList: [] } } }, 'Choose at least one metric'],
      [withMetrics([{ ...LIKING_T2B, aggregation: 'median' }]), 'aggregation'],
      [withMetrics([LIKING_T2B], { essentials: { colour: ['red'] } }), 'colour'],
      [
        withMetrics([LIKING_T2B], { demographics: { startAge: 50, endAge: 20 } }),
        'startAge must not be after endAge',
      ],
      [withMetrics([{ ...LIKING_T2B, metric: 'sparkle' }]), 'Unknown metric "sparkle".'],
      [
        withMetrics([{ ...LIKING_T2B, aggregation: 'irt_yes' }]),
        'The aggregation irt_yes is not offered for the metric liking.',
      ],
      [
        {
          ...withMetrics([LIKING_T2B]),
          demographics_fragrances: [{ field: 'age', filter: { type: 'range', from: 60, to: 20 } }],
        },
        'from must not be after to',
      ],
      [
        withMetrics([
          { ...LIKING_T2B, applyThreshold: true, threshold: { amount: 150, type: 'percentage' } },
        ]),
        'above 100',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await post('/api/analytics/fragrances', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorBody(response).message).toContain(message);
    }
    const concept = await post(
      '/api/analytics/fragrances',
      withMetrics([LIKING_T2B], { conceptDetails: { theme: ['x'] } }),
    );
    expect(concept.statusCode).toBe(403);
    expect(errorBody(concept).message).toBe('Only admins may filter on concept details.');
  });

  it('answers a fast job at its first poll, with every fragrance and its liking from the raw answers', async () => {
    const result = await searchResult(
      withMetrics([LIKING_T2B, LIKING_MEAN, { metric: 'strength', aggregation: 'just_right' }]),
    );
    const expected = await query<{ id: number }>(
      `select p.id from products p join studies s on s.id = p.study_id where p.kind = 'fragrance' and s.verified`,
    );
    expect(result.results.map((row) => row.id).sort((a, b) => a - b)).toEqual(
      expected.map((row) => row.id).sort((a, b) => a - b),
    );
    expect(result.columns.map((column) => column.key)).toEqual([
      'liking.top_2_box',
      'liking.mean',
      'strength.just_right',
    ]);
    expect(result.filtered).toBe(false);
    for (const row of result.results.filter((_, index) => index % 5 === 0)) {
      const liking = summariseHarmonised(await rawAnswers(row.id, 'liking'));
      expect(row.bases['liking.top_2_box']).toBe(liking.n);
      expect(row.values['liking.top_2_box']).toBeCloseTo(liking.top_2_box ?? Number.NaN, 9);
      expect(row.values['liking.mean']).toBeCloseTo(liking.mean ?? Number.NaN, 5);
      const strength = summariseHarmonised(await rawAnswers(row.id, 'strength'));
      expect(row.bases['strength.just_right']).toBe(strength.n);
      expect(row.values['strength.just_right']).toBeCloseTo(strength.just_right ?? Number.NaN, 9);
    }
    const pooled = summariseHarmonised(
      (await Promise.all(result.results.map((row) => rawAnswers(row.id, 'liking')))).flat(),
    );
    expect(result.summary.liking!['answers.count']).toBe(pooled.n);
    expect(result.summary.liking!.top_2_box).toBeCloseTo(pooled.top_2_box!, 9);
    expect(result.summary.liking!.variance).toBeCloseTo(pooled.variance!, 5);
    expect(result.diagnostics.studies_found).toBe(new Set(result.results.map((row) => row.study_id)).size);
  });

  it('computes from the answers of the respondents the demographic filters keep', async () => {
    const result = await searchResult({
      ...withMetrics([LIKING_T2B, { metric: 'liking', aggregation: 'variance' }], {
        demographics: { gender: ['Female'], startAge: 25, endAge: 50 },
      }),
      demographics_fragrances: [{ field: 'social_class', filter: { type: 'equal', value: 'C' } }],
    });
    expect(result.filtered).toBe(true);
    for (const row of result.results.filter((_, index) => index % 6 === 1)) {
      const answers = await rawAnswers(
        row.id,
        'liking',
        `r.gender = 'Female' and r.age between 25 and 50 and r.social_class = 'C'`,
      );
      const expected = summariseHarmonised(answers);
      expect(row.bases['liking.top_2_box']).toBe(expected.n);
      if (expected.n === 0) expect(row.values['liking.top_2_box']).toBeNull();
      else expect(row.values['liking.top_2_box']).toBeCloseTo(expected.top_2_box!, 9);
      if (expected.variance === null) expect(row.values['liking.variance']).toBeNull();
      else expect(row.values['liking.variance']).toBeCloseTo(expected.variance, 5);
      expect(row.low_base.includes('liking.top_2_box')).toBe(expected.n > 0 && expected.n < 30);
    }
    // Small bases are reported as infos of their study.
    const lowBases = result.results.filter((row) => row.low_base.length > 0);
    expect(lowBases.length).toBeGreaterThan(0);
    const study = result.diagnostics.studies.find((entry) => entry.study_id === lowBases[0]!.study_id)!;
    expect(study.infos).toBeGreaterThan(0);
    expect(
      study.details.some(
        (detail) => detail.level === 'info' && detail.message.startsWith('Low base on liking: '),
      ),
    ).toBe(true);
  });

  it('keeps the best or worst N, or N percent, by the thresholded metric', async () => {
    const all = await searchResult(withMetrics([LIKING_T2B]));
    const ranked = all.results
      .filter((row) => row.values['liking.top_2_box'] !== null)
      .sort((a, b) => b.values['liking.top_2_box']! - a.values['liking.top_2_box']! || a.id - b.id);
    const best = await searchResult({
      q: {
        metrics: {
          rdfType: 'all',
          threshold: { applyThreshold: true, amount: 3, desc: true, type: 'fragrances' },
          metricsList: [LIKING_T2B],
        },
      },
    });
    expect(best.results.map((row) => row.id)).toEqual(ranked.slice(0, 3).map((row) => row.id));
    const worst = await searchResult(
      withMetrics([
        {
          ...LIKING_T2B,
          applyThreshold: true,
          threshold: { applyThreshold: true, amount: 10, desc: false, type: 'percentage' },
        },
      ]),
    );
    expect(worst.results).toHaveLength(Math.ceil(ranked.length * 0.1));
    const ascending = [...ranked].sort(
      (a, b) => a.values['liking.top_2_box']! - b.values['liking.top_2_box']! || a.id - b.id,
    );
    expect(worst.results.map((row) => row.id)).toEqual(
      ascending.slice(0, worst.results.length).map((row) => row.id),
    );
  });

  it('lists concepts for a concept search and honours the selected products', async () => {
    const concepts = await searchResult({ ...withMetrics([LIKING_T2B]), type: 'concepts' });
    const expected = await query<{ n: number }>(
      `select count(*)::int as n from products p join studies s on s.id = p.study_id where p.kind = 'concept' and s.verified`,
    );
    expect(concepts.type).toBe('concepts');
    expect(concepts.results).toHaveLength(expected[0]!.n);
    expect(concepts.results.every((row) => row.kind === 'concept')).toBe(true);
    const all = await searchResult(withMetrics([LIKING_T2B]));
    const chosen = all.results
      .slice(0, 2)
      .map((row) => ({ id: row.id, c_mi_number: row.c_mi_number, prod: row.prod }));
    const selected = await searchResult({ ...withMetrics([LIKING_T2B]), fragrances: chosen });
    expect(selected.results.map((row) => row.id)).toEqual(chosen.map((row) => row.id));
  });

  it('reads means and variances to 1e-9 of the raw answers: answers are stored in double precision', async () => {
    // Liking on 5-, 7- and 9-point scales: a 7-point answer harmonises to thirds, which single
    // precision (or rounding to 1e-6) would leave off by about 1e-8.
    const scales = await query<{ points: number }>(
      `select distinct (q.scale_max - q.scale_min + 1)::int as points from questions q
        join metrics m on m.id = q.metric_id where m.name = 'liking'`,
    );
    expect(scales.map((row) => row.points)).toContain(7);
    const result = await searchResult(
      withMetrics([LIKING_MEAN, { ...LIKING_MEAN, aggregation: 'variance' }]),
    );
    const rows = result.results.filter((row) => row.values['liking.mean'] != null);
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      const expected = summariseHarmonised(await rawAnswers(row.id, 'liking'));
      const relative = (value: number | null | undefined, reference: number) =>
        Math.abs((value ?? Number.NaN) - reference) / Math.abs(reference);
      expect(relative(row.values['liking.mean'], expected.mean!)).toBeLessThan(1e-9);
      expect(relative(row.values['liking.variance'], expected.variance!)).toBeLessThan(1e-9);
    }
  });

  it('breaks the rows down by a study or fragrance field for the performance tab', async () => {
    const bad = await post('/api/analytics/fragrances', {
      ...withMetrics([LIKING_T2B]),
      data: { category: 'metadata', field: 'colour' },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toContain('Cannot break down by metadata.colour; choose one of client');
    const result = await searchResult({
      ...withMetrics([LIKING_T2B, LIKING_MEAN]),
      data: { category: 'metadata', field: 'client' },
    });
    const performance = result.performance!;
    expect(performance.reduce((sum, group) => sum + group.fragrances, 0)).toBe(
      result.results.filter((row) => row.bases['liking.top_2_box']! > 0).length,
    );
    const largest = performance[0]!;
    expect(largest.category.name).toBe('client');
    const inResult = new Set(result.results.map((row) => row.id));
    const ids = (
      await query<{ id: number }>(
        'select p.id from products p join studies s on s.id = p.study_id where s.client = $1',
        [largest.category.value],
      )
    )
      .map((row) => Number(row.id))
      .filter((id) => inResult.has(id));
    // The fragrances a group's values are pooled over: those with liking answers.
    const answered = await query<{ n: number }>(
      `select count(distinct a.product_id)::int as n from answers a join metrics m on m.id = a.metric_id
        where m.name = 'liking' and a.product_id = any($1::int[])`,
      [ids],
    );
    expect(largest.fragrances).toBe(answered[0]!.n);
    const pooled = summariseHarmonised((await Promise.all(ids.map((id) => rawAnswers(id, 'liking')))).flat());
    expect(largest.n['liking.top_2_box']).toBe(pooled.n);
    expect(largest.metrics).toEqual([
      { name: 'liking.top_2_box', value: expect.closeTo(pooled.top_2_box!, 9) },
      { name: 'liking.mean', value: expect.closeTo(pooled.mean!, 5) },
    ]);
    const families = await searchResult({
      ...withMetrics([LIKING_T2B]),
      data: { category: 'fragrance', field: 'family' },
    });
    const [expected] = await query<{ n: number }>(
      `select count(distinct f.family)::int as n from fragrances f join studies s on s.id = f.study_id where s.verified`,
    );
    expect(families.performance!.filter((group) => group.category.value !== 'No tag')).toHaveLength(
      expected!.n,
    );
  });

  it('reports FAILURE with the reason when chosen products no longer exist', async () => {
    const { status } = await search({ ...withMetrics([LIKING_T2B]), fragrances: [{ id: 99_999_999 }] });
    expect(status).toMatchObject({
      status: 'FAILURE',
      result: null,
      error: 'Some chosen products are no longer available: 99999999.',
    });
  });

  it('answers 404 for a job that is not yours and 400 for a malformed job id', async () => {
    const { jobid } = await search(withMetrics([LIKING_T2B]));
    const other = await get(`/api/analytics/fragrances/${jobid}`, 'admin');
    expect(other.statusCode).toBe(404);
    expect(errorBody(other).message).toBe('No such job.');
    expect((await get(`/api/analytics/fragrances/${jobid}`, null)).statusCode).toBe(401);
    expect((await get('/api/analytics/fragrances/not-a-job')).statusCode).toBe(400);
    expect((await get(`/api/analytics/significance/${jobid}`)).statusCode).toBe(404);
  });

  it('diagnoses out-of-scale answers (left out of the numbers) and missing mappings', async () => {
    const [target] = await query<{
      product_id: number;
      question_id: number;
      respondent_id: number;
      study_id: number;
      c_mi_number: string;
      filename: string;
      qid: string;
    }>(
      `select a.product_id, a.question_id, a.respondent_id, a.study_id, s.c_mi_number, q.filename, q.qid
        from answers a join questions q on q.id = a.question_id join metrics m on m.id = a.metric_id
        join studies s on s.id = a.study_id
        where m.name = 'liking' and s.verified and s.rdf_type = 'rdf' order by a.product_id limit 1`,
    );
    const before = summariseHarmonised(await rawAnswers(target!.product_id, 'liking'));
    await query(
      `update answers set raw_value = q.scale_max + 3, value = 1 + 4 * (q.scale_max + 3 - q.scale_min) / (q.scale_max - q.scale_min)
        from questions q where q.id = answers.question_id and answers.question_id = $1 and answers.product_id = $2 and answers.respondent_id = $3`,
      [target!.question_id, target!.product_id, target!.respondent_id],
    );
    const [unmapped] = await query<{ study_id: number; c_mi_number: string }>(
      `select s.id as study_id, s.c_mi_number from studies s where s.verified and s.rdf_type = 'rdf' and s.id <> $1 order by s.id limit 1`,
      [target!.study_id],
    );
    await query(
      `update questions set metric_id = null where study_id = $1 and metric_id = (select id from metrics where name = 'purchase_intention')`,
      [unmapped!.study_id],
    );
    const result = await searchResult(
      withMetrics([LIKING_MEAN, { metric: 'purchase_intention', aggregation: 'top_2_box' }]),
    );
    const row = result.results.find((entry) => entry.id === target!.product_id)!;
    const after = summariseHarmonised(await rawAnswers(target!.product_id, 'liking'));
    expect(after.n).toBe(before.n - 1);
    expect(row.bases['liking.mean']).toBe(after.n);
    expect(row.values['liking.mean']).toBeCloseTo(after.mean!, 5);
    const flagged = result.diagnostics.studies.find((study) => study.study_id === target!.study_id)!;
    expect(flagged.errors).toBe(1);
    expect(flagged.details).toContainEqual({
      level: 'error',
      message: `1 answers to question ${target!.qid} are outside the question's scale.`,
      file: target!.filename,
    });
    const missing = result.diagnostics.studies.find((study) => study.study_id === unmapped!.study_id)!;
    expect(missing.details).toContainEqual({
      level: 'warning',
      message: 'No question is mapped to the metric purchase_intention.',
      file: null,
    });
    expect(result.diagnostics.studies_with_anomalies).toBeGreaterThanOrEqual(2);
  });

  it('answers a repeated query from the cache unless no_cache is asked', async () => {
    const body = withMetrics([{ metric: 'fresh', aggregation: 'top_2_box' }]);
    const first = await searchResult(body);
    const second = await searchResult(body);
    expect(second).toEqual(first);
    const { status } = await search(body, 'researcher', '/api/analytics/fragrances?no_cache=true');
    expect(status.result!.json).toEqual(first);
    expect((await post('/api/analytics/fragrances?no_cache=maybe', body)).statusCode).toBe(400);
  });
});

describe('metrics spreadsheet: GET /api/analytics/fragrances/xlsxfilters and xlsx/{jobId}', () => {
  it('offers the spreadsheet filters to analytics users', async () => {
    expect((await get('/api/analytics/fragrances/xlsxfilters', 'client')).statusCode).toBe(403);
    const response = await get('/api/analytics/fragrances/xlsxfilters');
    expect(response.json()).toEqual({
      xlsxFilters: [
        { value: 'bases', label: 'Show bases (n)' },
        { value: 'hide_low_base', label: 'Hide rows with a low base' },
        { value: 'hide_empty', label: 'Hide rows without answers' },
      ],
      chosenXlsxFilters: ['bases'],
    });
  });

  it('downloads a finished search as fragrance_metrics.xlsx under the chosen filters', async () => {
    const { jobid, status } = await search(withMetrics([LIKING_T2B, LIKING_MEAN]));
    const result = status.result!.json;
    const load = async (url: string) => {
      const response = await get(url);
      expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
      expect(response.headers['content-disposition']).toBe('attachment; filename="fragrance_metrics.xlsx"');
      return readReport(await openWorkbook(response.rawPayload));
    };
    const sheet = await load(`/api/analytics/fragrances/xlsx/${jobid}`);
    expect(sheet.lines[0]).toBe(`Metric search: ${result.results.length} fragrances`);
    expect(sheet.lines).toContain('Metrics: T2B Overall Liking, M Overall Liking');
    expect(sheet.lines).toContain('All scores and metrics have been harmonized to a common 5 point scale.');
    // One heading per column: each base says which aggregate it is the base of.
    expect(sheet.headings).toEqual([
      'CMI #',
      'Fragrance',
      'Category',
      'Product',
      'Product code',
      'T2B Overall Liking',
      'Base n (T2B Overall Liking)',
      'M Overall Liking',
      'Base n (M Overall Liking)',
    ]);
    expect(sheet.rows).toHaveLength(result.results.length);
    // Every number is the API's, typed: the share under a % format, the mean under 2 decimals.
    result.results.forEach((row, index) => {
      const written = sheet.rows[index]!;
      expect(written[4]).toBe(row.prod);
      expect(written[5]).toBe(row.values['liking.top_2_box'] ?? undefined);
      expect(written[6]).toBe(row.bases['liking.top_2_box']);
      expect(written[7]).toBe(row.values['liking.mean'] ?? undefined);
      const cells = sheet.tableRows[index]!;
      const low = row.low_base.includes('liking.top_2_box');
      if (row.values['liking.top_2_box'] !== null)
        expect(cells.getCell(6).numFmt).toBe(low ? '0%" *"' : '0%');
      expect(cells.getCell(7).numFmt).toBe(low ? '#,##0" (low base)"' : '#,##0');
      if (row.values['liking.mean'] !== null)
        expect(cells.getCell(8).numFmt).toBe(row.low_base.includes('liking.mean') ? '0.00" *"' : '0.00');
    });
    const trimmed = await load(`/api/analytics/fragrances/xlsx/${jobid}?filters=hide_low_base,hide_empty`);
    expect(trimmed.headings).toHaveLength(7);
    expect(trimmed.rows).toHaveLength(
      result.results.filter((row) => row.low_base.length === 0 && Object.values(row.bases).some((n) => n > 0))
        .length,
    );
    const unknown = await get(`/api/analytics/fragrances/xlsx/${jobid}?filters=colour`);
    expect(unknown.statusCode).toBe(400);
    expect(errorBody(unknown).message).toContain('Unknown spreadsheet filter: colour');
    expect((await get(`/api/analytics/fragrances/xlsx/${jobid}`, 'admin')).statusCode).toBe(404);
  });

  it('downloads a finished performance search as fragrance_performance.xlsx in the table’s order', async () => {
    const { jobid, status } = await search({
      ...withMetrics([LIKING_T2B, LIKING_MEAN]),
      data: { category: 'metadata', field: 'client' },
    });
    const performance = status.result!.json.performance!;
    const response = await get(`/api/analytics/performance/xlsx/${jobid}?sort=liking.mean&desc=false`);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="fragrance_performance.xlsx"');
    const sheet = readReport(await openWorkbook(response.rawPayload));
    expect(sheet.lines[0]).toBe('Performance by Client');
    expect(sheet.headings).toEqual([
      'Client',
      'Products',
      'T2B Overall Liking',
      'Base n (T2B Overall Liking)',
      'M Overall Liking',
      'Base n (M Overall Liking)',
    ]);
    const mean = (row: (typeof performance)[number]) =>
      row.metrics.find((metric) => metric.name === 'liking.mean')?.value ?? null;
    const ordered = [...performance].sort((a, b) => (mean(a) ?? Infinity) - (mean(b) ?? Infinity));
    expect(sheet.rows.map((row) => row[0])).toEqual(ordered.map((row) => row.category.value));
    ordered.forEach((row, index) => {
      expect(sheet.rows[index]!.slice(1, 4)).toEqual([
        row.fragrances,
        row.metrics[0]!.value ?? undefined,
        row.n['liking.top_2_box'],
      ]);
    });
    expect(sheet.tableRows[0]!.getCell(2).numFmt).toBe('#,##0');
    const plain = await search(withMetrics([LIKING_T2B]));
    expect((await get(`/api/analytics/performance/xlsx/${plain.jobid}`)).statusCode).toBe(404);
    expect((await get(`/api/analytics/performance/xlsx/${jobid}`, 'client')).statusCode).toBe(403);
    expect((await get(`/api/analytics/performance/xlsx/${jobid}?desc=maybe`)).statusCode).toBe(400);
  });
});

describe('POST /api/analytics/significance and its status', () => {
  async function significance(body: SignificanceRequest, role: DemoRole = 'researcher') {
    const queued = await post('/api/analytics/significance', body, role);
    expect(queued.statusCode, queued.body).toBe(200);
    const { job_id } = queued.json<{ job_id: string }>();
    const status = await get(`/api/analytics/significance/${job_id}`, role);
    expect(status.statusCode).toBe(200);
    return status.json<SignificanceStatus>();
  }

  it('needs analytics access and a metric with confidence on', async () => {
    const body = {
      data: [{ id: 1 }, { id: 2 }],
      calculation: 'avg',
      metrics: [{ field: 'liking', aggregation: 'mean', confidence: true }],
    };
    expect((await post('/api/analytics/significance', body, null)).statusCode).toBe(401);
    expect((await post('/api/analytics/significance', body, 'client')).statusCode).toBe(403);
    const none = await post('/api/analytics/significance', {
      ...body,
      metrics: [{ field: 'liking', aggregation: 'mean', confidence: false }],
    });
    expect(none.statusCode).toBe(400);
    expect(errorBody(none).message).toContain(
      'You need to check at least one metric to calculate significance.',
    );
    const one = await post('/api/analytics/significance', { ...body, data: [{ id: 1 }] });
    expect(errorBody(one).message).toContain('Significance needs at least two products.');
    const calc = await post('/api/analytics/significance', { ...body, calculation: 'median' });
    expect(calc.statusCode).toBe(400);
    const variance = await post('/api/analytics/significance', {
      ...body,
      metrics: [{ field: 'liking', aggregation: 'variance', confidence: true }],
    });
    expect(errorBody(variance).message).toBe(
      'The aggregation variance is not offered for the metric liking.',
    );
  });

  // The marks themselves (clustered tests, the correction, low bases) are checked against the raw
  // answers in significance-clustered.api.test.ts.

  it('reports FAILURE when a product does not exist', async () => {
    const status = await significance({
      data: [{ id: 99_999_998 }, { id: 99_999_999 }],
      calculation: 'rest',
      metrics: [{ field: 'liking', aggregation: 'mean', confidence: true }],
    });
    expect(status).toMatchObject({
      status: 'FAILURE',
      result: null,
      error: 'Some chosen products are no longer available: 99999998, 99999999.',
    });
  });
});

describe('POST /api/analytics/tendencies (and xlsx)', () => {
  const body = (extra: Record<string, unknown> = {}) => ({
    q: {},
    data: { return: 'percentage', groupby: 'perfume_characteristics.family' },
    ...extra,
  });

  it('needs a signed-in user and a known field', async () => {
    expect((await post('/api/analytics/tendencies', body(), null)).statusCode).toBe(401);
    const bad = await post('/api/analytics/tendencies', {
      ...body(),
      data: { groupby: 'perfume_characteristics.colour' },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toContain('groupby must be perfume_characteristics.<family');
  });

  it('counts the fragrances of each family, in percent of the fragrances counted', async () => {
    const response = await post('/api/analytics/tendencies', body());
    expect(response.statusCode).toBe(200);
    const found = response.json<{
      table_data: { name: string; count: number; percentage: number }[];
      chart_data: { labels: string[]; data: number[] };
      total: number;
    }>();
    const expected = await query<{ family: string | null; n: number }>(
      `select f.family, count(*)::int as n from fragrances f join studies s on s.id = f.study_id
        where s.verified group by f.family order by n desc, f.family`,
    );
    const total = expected.reduce((sum, row) => sum + row.n, 0);
    expect(found.total).toBe(total);
    expect(found.table_data.map((row) => [row.name, row.count])).toEqual(
      expected.map((row) => [row.family ?? 'No tag', row.n]),
    );
    expect(found.chart_data.labels).toEqual(found.table_data.map((row) => row.name));
    expect(found.chart_data.data[0]).toBeCloseTo((100 * expected[0]!.n) / total, 9);
    const counts = (
      await post(
        '/api/analytics/tendencies',
        body({ data: { return: 'count', groupby: 'perfume_characteristics.family', count: 2 } }),
      )
    ).json<{ chart_data: { data: number[] } }>();
    expect(counts.chart_data.data).toEqual(expected.slice(0, 2).map((row) => row.n));
  });

  it('counts only the client user\u2019s studies', async () => {
    const found = (await post('/api/analytics/tendencies', body(), 'client')).json<{ total: number }>();
    const [expected] = await query<{ n: number }>(
      `select count(*)::int as n from fragrances f join studies s on s.id = f.study_id
        where s.verified and s.client = any($1::text[])`,
      [DEMO_USERS.find((user) => user.roleId === 3)!.clients],
    );
    expect(found.total).toBe(expected!.n);
  });

  it('downloads fragrance_tendencies.xlsx for users who may download', async () => {
    expect((await post('/api/analytics/tendencies/xlsx', body(), 'client')).statusCode).toBe(403);
    const response = await post('/api/analytics/tendencies/xlsx', body(), 'sales');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="fragrance_tendencies.xlsx"');
    const sheet = readReport(await openWorkbook(response.rawPayload));
    expect(sheet.lines[0]).toBe('Tendencies: fragrances by Family');
    expect(sheet.headings).toEqual(['Family', 'Number of fragrances', 'Percentage of fragrances']);
  });
});

describe('POST /api/analytics/top-attributes, its status and xlsx', () => {
  interface Attribute {
    attribute: string;
    field: string;
    top_2_box: number | null;
    mean: number | null;
    bottom_box: number | null;
    selected: number | null;
    is_binary_scale: boolean;
    n: number;
  }
  async function attributes(body: unknown) {
    const queued = await post('/api/analytics/top-attributes', body);
    expect(queued.statusCode, queued.body).toBe(200);
    const { jobid } = queued.json<{ jobid: string }>();
    const status = await get(`/api/analytics/top-attributes/${jobid}`);
    expect(status.statusCode).toBe(200);
    return {
      jobid,
      status: status.json<{
        status: string;
        error: string | null;
        result: { json: { attributes: Attribute[]; fragrances: number } } | null;
      }>(),
    };
  }

  it('needs analytics access and valid settings', async () => {
    expect((await post('/api/analytics/top-attributes', { q: {} }, null)).statusCode).toBe(401);
    expect((await post('/api/analytics/top-attributes', { q: {} }, 'client')).statusCode).toBe(403);
    const bad = await post('/api/analytics/top-attributes', { q: {}, data: { aggregation: 'variance' } });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toContain('aggregation must be one of "top_2_box"');
  });

  it('pools each attribute over the chosen fragrances and ranks best or worst', async () => {
    const all = await searchResult(withMetrics([LIKING_T2B]));
    const frags = all.results.slice(0, 6).map((row) => ({ id: row.id }));
    const best = await attributes({
      q: {},
      frags,
      data: { order: 'best', count: 5, aggregation: 'top_2_box' },
    });
    expect(best.status.status).toBe('SUCCESS');
    const rows = best.status.result!.json.attributes;
    expect(best.status.result!.json.fragrances).toBe(6);
    // Scale and yes/no attributes are ranked apart: up to 5 of each, the scale ones first.
    const scaleRows = rows.filter((row) => !row.is_binary_scale);
    expect(scaleRows.length).toBeLessThanOrEqual(5);
    expect(rows.length - scaleRows.length).toBeLessThanOrEqual(5);
    expect(scaleRows.length).toBeGreaterThan(0);
    const values = scaleRows.map((row) => row.top_2_box!);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    for (const row of scaleRows.slice(0, 2)) {
      const pooled = summariseHarmonised(
        (await Promise.all(frags.map((frag) => rawAnswers(frag.id, row.field)))).flat(),
      );
      expect(row.n).toBe(pooled.n);
      expect(row.top_2_box).toBeCloseTo(pooled.top_2_box!, 9);
      expect(row.mean).toBeCloseTo(pooled.mean!, 5);
    }
    const worst = await attributes({
      q: {},
      frags,
      data: { order: 'worst', count: 3, attribute_type: 'binary', aggregation: 'top_2_box' },
    });
    const worstRows = worst.status.result!.json.attributes;
    expect(worstRows.every((row) => row.is_binary_scale)).toBe(true);
    const worstValues = worstRows.map((row) => row.selected!);
    expect(worstValues).toEqual([...worstValues].sort((a, b) => a - b));
  });

  it('keeps only the respondents of the demographic filters', async () => {
    // Fragrances of verified studies with attribute answers from men of 18 to 40.
    const frags = (
      await query<{ id: number }>(
        `select distinct a.product_id as id from answers a join metrics m on m.id = a.metric_id
          join respondents r on r.id = a.respondent_id join studies s on s.id = a.study_id
          join products p on p.id = a.product_id
          where m.metric_type = 'Attribute' and r.gender = 'Male' and r.age between 18 and 40
            and s.verified and p.kind = 'fragrance'
          order by a.product_id limit 4`,
      )
    ).map((row) => ({ id: Number(row.id) }));
    expect(frags.length).toBeGreaterThan(0);
    const { status } = await attributes({
      q: { demographics: { gender: ['Male'] } },
      frags,
      demographics: [{ field: 'age', filter: { type: 'range', from: 18, to: 40 } }],
      data: { count: 1 },
    });
    const [row] = status.result!.json.attributes;
    const pooled = summariseHarmonised(
      (
        await Promise.all(
          frags.map((frag) =>
            rawAnswers(frag.id, row!.field, `r.gender = 'Male' and r.age between 18 and 40`),
          ),
        )
      ).flat(),
    );
    expect(row!.n).toBe(pooled.n);
    expect(row!.top_2_box).toBeCloseTo(pooled.top_2_box!, 9);
  });

  it('says over how many fragrances it pooled: those with answers, not those selected', async () => {
    // Respondents of one age: fragrances with attribute answers from them, and one with attribute
    // answers from other ages only, which contributes nothing under the filter.
    const answeredBy = `select distinct a.product_id as id, r.age from answers a
        join metrics m on m.id = a.metric_id join respondents r on r.id = a.respondent_id
        join studies s on s.id = a.study_id join products p on p.id = a.product_id
        where m.metric_type = 'Attribute' and s.verified and p.kind = 'fragrance' and r.age is not null`;
    const [{ age }] = (await query<{ age: number }>(
      `select age from (${answeredBy}) x group by age order by count(*), age limit 1`,
    )) as [{ age: number }];
    const withAnswers = await query<{ id: number }>(
      `select id from (${answeredBy}) x where age = $1 order by id limit 2`,
      [age],
    );
    const [without] = await query<{ id: number }>(
      `select id from (${answeredBy}) x group by id having bool_and(age <> $1) order by id limit 1`,
      [age],
    );
    expect(withAnswers.length).toBeGreaterThan(0);
    expect(without).toBeDefined();
    const { status } = await attributes({
      q: {},
      frags: [...withAnswers, without!].map((row) => ({ id: Number(row.id) })),
      demographics: [{ field: 'age', filter: { type: 'range', from: age, to: age } }],
      data: { count: 20 },
    });
    expect(status.status).toBe('SUCCESS');
    expect(status.result!.json.attributes.length).toBeGreaterThan(0);
    expect(status.result!.json.fragrances).toBe(withAnswers.length);
  });

  it('leaves out-of-scale answers out of the pooled attributes', async () => {
    const [target] = await query<{
      product_id: number;
      question_id: number;
      respondent_id: number;
      name: string;
    }>(
      `select a.product_id, a.question_id, a.respondent_id, m.name from answers a
        join metrics m on m.id = a.metric_id join products p on p.id = a.product_id
        join studies s on s.id = a.study_id
        where m.name = 'fresh' and p.kind = 'fragrance' and s.verified order by a.product_id limit 1`,
    );
    await query(
      `update answers set raw_value = q.scale_min - 2, value = 1 + 4 * (-2) / (q.scale_max - q.scale_min)
        from questions q where q.id = answers.question_id and answers.question_id = $1
          and answers.product_id = $2 and answers.respondent_id = $3`,
      [target!.question_id, target!.product_id, target!.respondent_id],
    );
    // Touch the question so the data fingerprint changes, as any load of answers does.
    await query('update questions set text = text where id = $1', [target!.question_id]);
    const frags = [{ id: Number(target!.product_id) }];
    const { status } = await attributes({ q: {}, frags, data: { count: 100, attribute_type: 'hedonic' } });
    const fresh = status.result!.json.attributes.find((row) => row.field === 'fresh')!;
    const expected = summariseHarmonised(await rawAnswers(frags[0]!.id, 'fresh'));
    expect(fresh.n).toBe(expected.n);
    expect(fresh.mean).toBeCloseTo(expected.mean!, 5);
  });

  it('fails the job for products that do not exist, and downloads a finished one', async () => {
    const failed = await attributes({ q: {}, frags: [{ id: 99_999_997 }] });
    expect(failed.status).toMatchObject({
      status: 'FAILURE',
      error: 'Some chosen products are no longer available: 99999997.',
    });
    expect((await get(`/api/analytics/top-attributes/xlsx/${failed.jobid}`)).statusCode).toBe(404);
    const done = await attributes({ q: {}, data: { count: 4 } });
    const response = await get(`/api/analytics/top-attributes/xlsx/${done.jobid}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="fragrance_attributes.xlsx"');
    const sheet = readReport(await openWorkbook(response.rawPayload));
    expect(sheet.headings[0]).toBe('Attribute');
    expect(sheet.rows).toHaveLength(done.status.result!.json.attributes.length);
    const first = done.status.result!.json.attributes[0]!;
    expect(sheet.rows[0]![0]).toBe(first.is_binary_scale ? `${first.attribute}*` : first.attribute);
    expect((await get(`/api/analytics/top-attributes/${done.jobid}`, 'admin')).statusCode).toBe(404);
  });
});

describe('OpenAPI document', () => {
  it('documents every analytics and profile call', async () => {
    const response = await t.request({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/analytics/options',
        '/api/smartsearch/dropdown_options_analytics',
        '/api/analytics/fragrances',
        '/api/analytics/fragrances/{jobId}',
        '/api/analytics/fragrances/xlsxfilters',
        '/api/analytics/fragrances/xlsx/{jobId}',
        '/api/analytics/significance',
        '/api/analytics/significance/{jobId}',
        '/api/analytics/top-attributes',
        '/api/analytics/top-attributes/{jobId}',
        '/api/analytics/top-attributes/xlsx/{jobId}',
        '/api/analytics/performance/xlsx/{jobId}',
        '/api/analytics/tendencies',
        '/api/analytics/tendencies/xlsx',
        '/api/study/{id}/fragrance/{code}',
        '/api/study/{id}/concept/{code}',
        '/api/study/{id}/fragrance/{code}/xlsx',
      ]),
    );
  });
});
