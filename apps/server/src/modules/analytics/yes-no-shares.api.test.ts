// Yes/no (CATA) attributes as shares "% selected" through the running app (METRICS.md section 3): the
// top attributes give a yes/no attribute its share of answers selecting it, recomputed here from the
// raw answers, never a mean or a box, and rank the yes/no attributes apart from the scale ones; the
// performance breakdown shows a yes/no metric as that share under any aggregation (its workbook
// too); the profile's yes/no rows are checked in analytics-profile.api.test.ts. Sign-in, the role (client users have no analytics) and bad input too.
import {
  AttributeRow,
  MetricSearchPageStatus,
  MetricSearchStatus,
  SignificanceStatus,
  TraceResponse,
  YES_NO_SHARE_LABEL,
} from '@accord/contracts';
import { clusterTwoSample, harmoniseToFivePoint } from '@accord/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { openWorkbook, readReport } from '../../testing/report-table.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-yes-no-',
    { studies: 8, seed: 23, respondents: 40, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

const post = (url: string, payload: unknown, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'POST', url, payload, ...(role ? { token: tokens[role] } : {}) });
const get = (url: string, role: DemoRole = 'researcher') =>
  t.request({ method: 'GET', url, token: tokens[role] });

async function topAttributes(body: unknown) {
  const queued = await post('/api/analytics/top-attributes', body);
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  const status = await get(`/api/analytics/top-attributes/${jobid}`);
  expect(status.statusCode).toBe(200);
  const json = status.json<{ status: string; result: { json: { attributes: unknown[] } } | null }>();
  expect(json.status).toBe('SUCCESS');
  return { jobid, rows: json.result!.json.attributes.map((row) => AttributeRow.parse(row)) };
}

/** Each answer to a yes/no metric of the products, from the raw answers: 1 when it selects the word. */
async function selections(productIds: number[], metric: string) {
  const rows = await query<{
    product_id: number;
    respondent_id: number;
    raw_value: number;
    scale_min: number;
    scale_max: number;
  }>(
    `select a.product_id, a.respondent_id, a.raw_value, q.scale_min, q.scale_max from answers a
      join questions q on q.id = a.question_id join metrics m on m.id = q.metric_id
      where a.product_id = any($1::int[]) and m.name = $2`,
    [productIds, metric],
  );
  return rows
    .map((row) => ({
      product: Number(row.product_id),
      respondent: Number(row.respondent_id),
      value: harmoniseToFivePoint(Number(row.raw_value), row.scale_min, row.scale_max),
    }))
    .filter((answer) => Number.isFinite(answer.value) && answer.value >= 1 && answer.value <= 5)
    .map((answer) => ({ ...answer, selected: answer.value === 5 ? 1 : 0 }));
}

/** The share of answers selecting a yes/no attribute over products, from the raw answers. */
async function selectedShare(productIds: number[], metric: string) {
  const rows = await query<{ raw_value: number; scale_min: number; scale_max: number }>(
    `select a.raw_value, q.scale_min, q.scale_max from answers a
      join questions q on q.id = a.question_id join metrics m on m.id = q.metric_id
      where a.product_id = any($1::int[]) and m.name = $2`,
    [productIds, metric],
  );
  const values = rows
    .map((row) => harmoniseToFivePoint(Number(row.raw_value), row.scale_min, row.scale_max))
    .filter((value) => Number.isFinite(value) && value >= 1 && value <= 5);
  return { n: values.length, share: values.filter((value) => value === 5).length / values.length };
}

describe('yes/no (CATA) attributes are shares, ranked apart', () => {
  it('refuses the unsigned, the client role and bad settings', async () => {
    expect((await post('/api/analytics/top-attributes', { q: {} }, null)).statusCode).toBe(401);
    expect((await post('/api/analytics/top-attributes', { q: {} }, 'client')).statusCode).toBe(403);
    const bad = await post('/api/analytics/top-attributes', { q: {}, data: { attribute_type: 'yes' } });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toContain('attribute_type');
  });

  it('gives each yes/no attribute its share selected from the raw answers, with no mean or box', async () => {
    const products = (
      await query<{ id: number }>(
        `select distinct a.product_id as id from answers a join metrics m on m.id = a.metric_id
          join products p on p.id = a.product_id join studies s on s.id = p.study_id
          where m.kind = 'binary' and m.metric_type = 'Attribute' and s.verified and p.kind = 'fragrance'
          order by 1 limit 5`,
      )
    ).map((row) => Number(row.id));
    expect(products.length).toBeGreaterThan(0);
    const frags = products.map((id) => ({ id }));
    const { jobid, rows } = await topAttributes({
      q: {},
      frags,
      data: { order: 'best', count: 50, attribute_type: 'all', aggregation: 'mean' },
    });
    const binary = rows.filter((row) => row.is_binary_scale);
    const scale = rows.filter((row) => !row.is_binary_scale);
    expect(binary.length).toBeGreaterThan(0);
    expect(scale.length).toBeGreaterThan(0);
    for (const row of binary) {
      expect([row.mean, row.top_box, row.top_2_box, row.bottom_box, row.bottom_2_box]).toEqual([
        null,
        null,
        null,
        null,
        null,
      ]);
      const expected = await selectedShare(products, row.field);
      expect(row.n).toBe(expected.n);
      expect(row.selected).toBeCloseTo(expected.share, 12);
    }
    for (const row of scale) {
      expect(row.selected).toBeNull();
      expect(row.mean).not.toBeNull();
    }
    // Ranked apart: every scale attribute (by mean) before the yes/no ones (by share), each in order.
    expect(rows.findIndex((row) => row.is_binary_scale)).toBe(scale.length);
    const means = scale.map((row) => row.mean!);
    expect(means).toEqual([...means].sort((a, b) => b - a));
    const shares = binary.map((row) => row.selected!);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));

    // The workbook shows the same share under "% selected" and no mean for a yes/no attribute.
    const response = await get(`/api/analytics/top-attributes/xlsx/${jobid}`);
    expect(response.statusCode).toBe(200);
    const sheet = readReport(await openWorkbook(response.rawPayload));
    const share = sheet.headings.indexOf(YES_NO_SHARE_LABEL);
    const mean = sheet.headings.indexOf('Mean');
    expect(share).toBeGreaterThan(0);
    const first = sheet.rows.find((row) => row[0] === `${binary[0]!.attribute}*`)!;
    expect(first[share]).toBeCloseTo(binary[0]!.selected!, 9);
    expect(first[mean] ?? null).toBeNull();
  });

  it('ranks the worst yes/no attributes by their share not selected under a bottom box', async () => {
    const { rows } = await topAttributes({
      q: {},
      data: { order: 'best', count: 5, attribute_type: 'binary', aggregation: 'bottom_2_box' },
    });
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.every((row) => row.is_binary_scale && row.selected !== null)).toBe(true);
    // Best by bottom 2 box: the most "not selected", i.e. the smallest shares selected first.
    const shares = rows.map((row) => row.selected!);
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
  });

  it('shows a yes/no metric as its share in the performance breakdown and its workbook, never a mean', async () => {
    const [{ name }] = (await query<{ name: string }>(
      `select m.name from metrics m where m.kind = 'binary' and m.metric_type = 'Attribute'
        and exists (select 1 from answers a where a.metric_id = m.id) order by m.name limit 1`,
    )) as [{ name: string }];
    const entry = (aggregation: string) => ({ metricType: 'Attribute', metric: name, aggregation });
    const queued = await post('/api/analytics/fragrances', {
      q: { metrics: { rdfType: 'all', metricsList: [entry('mean'), entry('bottom_2_box')] } },
      type: 'fragrances',
      data: { category: 'metadata', field: 'client' },
    });
    expect(queued.statusCode, queued.body).toBe(200);
    const { jobid } = queued.json<{ jobid: string }>();
    const status = MetricSearchStatus.parse((await get(`/api/analytics/fragrances/${jobid}`)).json());
    expect(status.status).toBe('SUCCESS');
    const result = status.result!.json;
    expect(result.columns.every((column) => column.yes_no === true)).toBe(true);
    const group = result.performance!.find((row) => row.category.value !== 'No tag')!;
    const inResult = new Set(result.results.map((row) => row.id));
    const ids = (
      await query<{ id: number }>(
        `select p.id from products p join studies s on s.id = p.study_id where s.client = $1`,
        [group.category.value],
      )
    )
      .map((row) => Number(row.id))
      .filter((id) => inResult.has(id));
    const expected = await selectedShare(ids, name);
    const value = (key: string) => group.metrics.find((metric) => metric.name === key)!.value!;
    // "Mean" of a yes/no metric: the share selected; bottom 2 box: the share not selected.
    expect(value(`${name}.mean`)).toBeCloseTo(expected.share, 12);
    expect(value(`${name}.bottom_2_box`)).toBeCloseTo(1 - expected.share, 12);
    expect(group.n[`${name}.mean`]).toBe(expected.n);

    const response = await get(`/api/analytics/performance/xlsx/${jobid}`);
    expect(response.statusCode).toBe(200);
    const sheet = readReport(await openWorkbook(response.rawPayload));
    const label = result.columns[0]!.label;
    expect(sheet.headings).toContain(`% selected ${label}`);
    expect(sheet.headings).toContain(`% not selected ${label}`);
    expect(sheet.headings.some((heading) => /^M /.test(String(heading)))).toBe(false);
    const row = sheet.rows.find((cells) => cells[0] === group.category.value)!;
    expect(row[sheet.headings.indexOf(`% selected ${label}`)]).toBeCloseTo(expected.share, 9);
  });

  it('offers a yes/no metric its two shares only, in the analytics picker and the norms, and refuses its norm as a mean', async () => {
    const options = await get('/api/analytics/options');
    expect(options.statusCode).toBe(200);
    const metrics = options.json<{
      data: { fields: { metrics: { kind: string; aggregations: string[] }[] } };
    }>().data.fields.metrics;
    const yesNo = metrics.filter((metric) => metric.kind === 'binary');
    expect(yesNo.length).toBeGreaterThan(0);
    for (const metric of yesNo) expect(metric.aggregations).toEqual(['top_box', 'bottom_box']);
    expect(metrics.find((metric) => metric.kind === 'hedonic')!.aggregations).toContain('mean');

    const normOptions = await get('/api/norms/options');
    expect(normOptions.statusCode).toBe(200);
    const normMetrics = normOptions.json<{
      metrics: { name: string; kind: string; aggregations: { value: string; label: string }[] }[];
    }>().metrics;
    const normYesNo = normMetrics.find((metric) => metric.kind === 'binary')!;
    expect(normYesNo.aggregations).toEqual([
      { value: 'top_box', label: '% selected' },
      { value: 'bottom_box', label: '% not selected' },
    ]);
    const asMean = await get(`/api/norms?category=Fabric%20Care&metric=${normYesNo.name}&aggregation=mean`);
    expect(asMean.statusCode).toBe(400);
    expect(asMean.json<{ message: string }>().message).toMatch(/mean/);
    const asShare = await get(
      `/api/norms?category=Fabric%20Care&metric=${normYesNo.name}&aggregation=top_box`,
    );
    expect(asShare.statusCode).toBe(200);
  });

  it('yes/no rows are shares on every analytics endpoint: the metric search, its pages, significance, workbook and trace', async () => {
    // A yes/no attribute answered in a verified study with several fragrances: the Calculate's list.
    const [found] = await query<{ name: string; label: string; ids: number[] }>(
      `select m.name, m.label, array_agg(distinct p.id order by p.id) as ids
         from answers a join metrics m on m.id = a.metric_id join products p on p.id = a.product_id
         join studies s on s.id = p.study_id
        where m.kind = 'binary' and s.verified and p.kind = 'fragrance'
        group by m.name, m.label, p.study_id having count(distinct p.id) >= 3
        order by count(*) desc, m.name limit 1`,
    );
    expect(found).toBeDefined();
    const { name, label } = found!;
    const list = found!.ids.map(Number);
    const mean = `${name}.mean`;
    const notSelected = `${name}.bottom_2_box`;
    const entry = (aggregation: string) => ({
      metricType: 'Attribute',
      metric: name,
      aggregation,
      confidence: true,
    });
    const queued = await post('/api/analytics/fragrances', {
      q: { metrics: { rdfType: 'all', metricsList: [entry('mean'), entry('bottom_2_box')] } },
    });
    expect(queued.statusCode, queued.body).toBe(200);
    const { jobid } = queued.json<{ jobid: string }>();
    const status = MetricSearchStatus.parse((await get(`/api/analytics/fragrances/${jobid}`)).json());
    expect(status.status).toBe('SUCCESS');
    const result = status.result!.json;

    // The search: a "mean" of a yes/no metric is its share selected, a bottom 2 box its share not
    // selected, each named so; the pooled summary holds the shares and no mean or box.
    expect(result.columns.map((column) => [column.key, column.aggregation_label, column.yes_no])).toEqual([
      [mean, YES_NO_SHARE_LABEL, true],
      [notSelected, '% not selected', true],
    ]);
    const rowsOfList = result.results.filter((row) => list.includes(row.id));
    expect(rowsOfList.length).toBe(list.length);
    const answers = await selections(list, name);
    for (const row of rowsOfList) {
      const own = answers.filter((answer) => answer.product === row.id);
      const share = own.filter((answer) => answer.selected === 1).length / own.length;
      expect(row.bases[mean]).toBe(own.length);
      expect(row.values[mean]).toBeCloseTo(share, 12);
      expect(row.values[notSelected]).toBeCloseTo(1 - share, 12);
    }
    const summary = result.summary[name]!;
    expect(summary.mean).toBeUndefined();
    expect(summary.top_2_box).toBeUndefined();
    const all = await selections(
      result.results.map((row) => row.id),
      name,
    );
    expect(summary.selected).toBeCloseTo(all.filter((answer) => answer.selected).length / all.length, 12);
    expect(summary['answers.count']).toBe(all.length);

    // Its pages: the same shares under the same names.
    const pageAnswer = await get(`/api/analytics/fragrances/${jobid}/page?limit=500`);
    expect(pageAnswer.statusCode, pageAnswer.body).toBe(200);
    const paged = MetricSearchPageStatus.parse(pageAnswer.json()).result!;
    expect(paged.columns.map((column) => column.aggregation_label)).toEqual([
      YES_NO_SHARE_LABEL,
      '% not selected',
    ]);
    for (const row of paged.rows.filter((item) => list.includes(item.id)))
      expect(row.values[mean]).toBe(rowsOfList.find((item) => item.id === row.id)!.values[mean]);

    // Significance of the one-study list: the clustered test of the 0/1 selections (the share),
    // recomputed here from the raw answers, and named as a test of the share.
    const significance = await post('/api/analytics/significance', {
      data: list.map((id) => ({ id })),
      calculation: 'rest',
      correction: 'none',
      metrics: [{ field: name, aggregation: 'mean', confidence: true }],
    });
    expect(significance.statusCode, significance.body).toBe(200);
    const { job_id } = significance.json<{ job_id: string }>();
    const marks = SignificanceStatus.parse((await get(`/api/analytics/significance/${job_id}`)).json())
      .result!.results;
    let tested = 0;
    for (const row of marks) {
      const mark = row[`${mean}.confidence`]!;
      expect(mark.test).toBe('cluster-two-sample-share');
      const expected = clusterTwoSample(
        answers.map((answer) => answer.selected),
        answers.map((answer) => (answer.product === row.id ? 1 : 0)),
        answers.map((answer) => answer.respondent),
      );
      expect(mark.n).toBe(answers.filter((answer) => answer.product === row.id).length);
      if (mark.p_value === null) continue;
      tested++;
      expect(Math.abs(mark.p_value - expected.pValue)).toBeLessThanOrEqual(1e-9);
    }
    expect(tested).toBeGreaterThan(0);

    // The workbook, with the marks of a Calculate over the whole search: the shares under "% selected"
    // and "% not selected", and the legend naming the test of the share.
    const whole = await post('/api/analytics/significance', {
      search_job: jobid,
      calculation: 'rest',
      metrics: [{ field: name, aggregation: 'mean', confidence: true }],
    });
    expect(whole.statusCode, whole.body).toBe(200);
    const wholeJob = whole.json<{ job_id: string }>().job_id;
    expect((await get(`/api/analytics/significance/${wholeJob}`)).json<{ status: string }>().status).toBe(
      'SUCCESS',
    );
    const workbook = await get(`/api/analytics/fragrances/xlsx/${jobid}?significance=${wholeJob}`);
    expect(workbook.statusCode, workbook.body).toBe(200);
    const sheet = readReport(await openWorkbook(workbook.rawPayload));
    const shareColumn = sheet.headings.indexOf(`${YES_NO_SHARE_LABEL} ${label}`);
    expect(shareColumn).toBeGreaterThan(0);
    expect(sheet.headings).toContain(`% not selected ${label}`);
    expect(sheet.headings.some((heading) => /^M /.test(String(heading)))).toBe(false);
    const first = rowsOfList[0]!;
    const cells = sheet.rows.find((row) => row[0] === first.c_mi_number && row[1] === first.name)!;
    expect(cells[shareColumn]).toBeCloseTo(first.values[mean]!, 9);
    expect(sheet.footnotes.join(' ')).toContain('yes/no share (% selected)');

    // The trace of a cell: the share, its rule and its test in words.
    const trace = await post('/api/trace', {
      products: [first.id],
      metric: name,
      aggregation: 'mean',
      significance: { calculation: 'rest', products: list },
    });
    expect(trace.statusCode, trace.body).toBe(200);
    const traced = TraceResponse.parse(trace.json());
    expect(traced.aggregation_label).toBe(YES_NO_SHARE_LABEL);
    expect(traced.value).toBeCloseTo(first.values[mean]!, 12);
    expect(traced.rule).toContain('% selected');
    expect(traced.significance!.test).toBe('cluster-two-sample-share');
    const markOfFirst = marks.find((row) => row.id === first.id)![`${mean}.confidence`]!;
    if (markOfFirst.p_value !== null)
      expect(traced.significance!.p_value).toBeCloseTo(markOfFirst.p_value, 12);
  });
});
