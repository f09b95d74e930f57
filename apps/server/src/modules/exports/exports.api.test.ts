// The analytics downloads through the running app: each job keeps its request, so the files state the
// search's filters in words; fragrance_metrics.xlsx carries the marks of the significance job the user
// names (theirs, finished, on the very list of the search) beside the numbers, as the API answers them.
import type {
  MetricSearchRequest,
  MetricSearchStatus,
  SignificanceRequest,
  SignificanceStatus,
  TopAttributesStatus,
} from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkbook, readReport } from '../../testing/report-table.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';
import { FILTERS_NOT_KEPT } from '../analytics/analytics-exports.ts';
import { SIGNIFICANCE_EXPORT_MESSAGES } from './significance-marks.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-exports-',
    { studies: 6, seed: 7, respondents: 60, lastYear: 2024 },
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

/** A region of a verified study, so the filtered search finds fragrances. */
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

async function significance(body: SignificanceRequest, role: DemoRole = 'researcher') {
  const queued = await post('/api/analytics/significance', body, role);
  expect(queued.statusCode, queued.body).toBe(200);
  const { job_id } = queued.json<{ job_id: string }>();
  const status = (await get(`/api/analytics/significance/${job_id}`, role)).json<SignificanceStatus>();
  expect(status.status, status.error ?? '').toBe('SUCCESS');
  return { job_id, result: status.result! };
}

async function report(url: string, role: DemoRole = 'researcher', body?: unknown) {
  const response = body === undefined ? await get(url, role) : await post(url, body, role);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return readReport(await openWorkbook(response.rawPayload));
}

describe('the analytics downloads state the search’s filters in words', () => {
  it('fragrance_metrics.xlsx and fragrance_performance.xlsx name the filters, the selection and its respondents', async () => {
    const region = await someRegion();
    const q: MetricSearchRequest['q'] = {
      essentials: { region: [region] },
      demographics: { gender: ['Female'], startAge: 18, endAge: 34 },
      metrics: { rdfType: 'all', metricsList: METRICS },
    };
    const { jobid, result } = await metricSearch({ q });
    expect(result.results.length).toBeGreaterThan(1);
    const sheet = await report(`/api/analytics/fragrances/xlsx/${jobid}`);
    expect(sheet.lines[1]).toBe(`Filters: Region: ${region}; Gender: Female; Age: 18 to 34`);
    expect(sheet.lines).toContain('Metrics: T2B Overall Liking, M Overall Liking');

    const chosen = result.results.slice(0, 2).map((row) => ({ id: row.id }));
    const narrowed = await metricSearch({
      q,
      fragrances: chosen,
      demographics_fragrances: [{ field: 'age', filter: { type: 'range', from: 25, to: 34 } }],
    });
    const selection = await report(`/api/analytics/fragrances/xlsx/${narrowed.jobid}`);
    expect(selection.lines.slice(1, 4)).toEqual([
      `Filters: Region: ${region}; Gender: Female; Age: 18 to 34`,
      'Selection: 2 chosen fragrances',
      'Respondents of the selection: Age: 25 to 34',
    ]);

    const performance = await metricSearch({ q, data: { category: 'metadata', field: 'client' } });
    const byClient = await report(`/api/analytics/performance/xlsx/${performance.jobid}`);
    expect(byClient.lines[0]).toBe('Performance by Client');
    expect(byClient.lines[1]).toBe(`Filters: Region: ${region}; Gender: Female; Age: 18 to 34`);
  });

  it('says "No filters" when there are none, and what it cannot know for a job that kept no request', async () => {
    const { jobid } = await metricSearch({ q: { metrics: { rdfType: 'all', metricsList: METRICS } } });
    expect((await report(`/api/analytics/fragrances/xlsx/${jobid}`)).lines[1]).toBe('Filters: No filters');
    // A row written before jobs kept their request.
    await t.database.sql.executeSql(`update job_results set request = null where id = $1`, [jobid]);
    expect((await report(`/api/analytics/fragrances/xlsx/${jobid}`)).lines[1]).toBe(
      `Filters: ${FILTERS_NOT_KEPT}`,
    );
  });

  it('fragrance_attributes.xlsx names the filters and the ranking asked for', async () => {
    const region = await someRegion();
    const queued = await post('/api/analytics/top-attributes', {
      q: { essentials: { region: [region] } },
      demographics: [{ field: 'gender', filter: { type: 'equal', value: 'Female' } }],
      data: { order: 'worst', count: 4, attribute_type: 'all', aggregation: 'mean' },
    });
    expect(queued.statusCode, queued.body).toBe(200);
    const { jobid } = queued.json<{ jobid: string }>();
    const status = (await get(`/api/analytics/top-attributes/${jobid}`)).json<TopAttributesStatus>();
    expect(status.status, status.error ?? '').toBe('SUCCESS');
    const sheet = await report(`/api/analytics/top-attributes/xlsx/${jobid}`);
    expect(sheet.lines.slice(1, 5)).toEqual([
      `Filters: Region: ${region}`,
      'Respondents of the selection: Gender: Female',
      'Ranking: Worst 4 by Mean, all attributes',
      `Pooled over: ${status.result!.json.fragrances} fragrances`,
    ]);
  });

  it('fragrance_tendencies.xlsx names the study filters (sales users may download it)', async () => {
    const region = await someRegion();
    const sheet = await report('/api/analytics/tendencies/xlsx', 'sales', {
      q: { essentials: { region: [region] }, metrics: { rdfType: 'rdf' } },
      data: { return: 'count', groupby: 'perfume_characteristics.family' },
    });
    expect(sheet.lines.slice(1, 3)).toEqual([`Filters: Region: ${region}`, 'Study type: Traditional']);
  });
});

describe('GET /api/analytics/fragrances/xlsx/{jobId}?significance=', () => {
  async function listAndMarks(role: DemoRole = 'researcher') {
    const search = await metricSearch({ q: { metrics: { rdfType: 'all', metricsList: METRICS } } }, role);
    const body: SignificanceRequest = {
      data: search.result.results.map((row) => ({
        id: row.id,
        c_mi_number: row.c_mi_number,
        prod: row.prod,
      })),
      calculation: 'avg',
      metrics: METRICS.map((entry) => ({
        field: entry.metric,
        aggregation: entry.aggregation,
        confidence: true,
      })),
      demographics: {},
      demographics_fragrances: [],
    };
    return { search, body, marks: await significance(body, role) };
  }

  it('writes the marks the significance job answered beside the numbers, with the legend', async () => {
    const { search, marks } = await listAndMarks();
    const sheet = await report(`/api/analytics/fragrances/xlsx/${search.jobid}?significance=${marks.job_id}`);
    expect(sheet.lines).toContain(
      'Significance: Selection vs Average, two-sided tests at 99, 95, 90 % confidence; correction: Benjamini-Hochberg (false discovery rate)',
    );
    expect(sheet.headings.slice(5)).toEqual([
      'T2B Overall Liking',
      'Significance (T2B Overall Liking)',
      'Base n (T2B Overall Liking)',
      'M Overall Liking',
      'Significance (M Overall Liking)',
      'Base n (M Overall Liking)',
    ]);
    const byId = new Map(marks.result.results.map((row) => [row.id, row as Record<string, unknown>]));
    const text = (id: number, key: string) => {
      const mark = byId.get(id)![`${key}.confidence`] as {
        level: number | null;
        table: 'mt' | 'let' | null;
        not_tested: string | null;
      };
      if (mark.not_tested === 'low base: not tested') return 'low base: not tested';
      if (mark.level === null) return undefined;
      return `${mark.table === 'mt' ? '▲' : '▼'} ${Math.round((1 - mark.level) * 100)}%`;
    };
    let shown = 0;
    search.result.results.forEach((row, index) => {
      const cells = sheet.rows[index]!;
      expect(cells[1]).toBe(row.name ?? undefined);
      expect(cells.slice(5)).toEqual([
        row.values['liking.top_2_box'] ?? undefined,
        text(row.id, 'liking.top_2_box'),
        row.bases['liking.top_2_box'],
        row.values['liking.mean'] ?? undefined,
        text(row.id, 'liking.mean'),
        row.bases['liking.mean'],
      ]);
      if (cells[6] !== undefined || cells[9] !== undefined) shown += 1;
      // Higher liking is good news (green), lower bad news (red); "low base" carries no colour.
      for (const at of [6, 9]) {
        const value = cells[at];
        if (typeof value !== 'string' || !/^[▲▼]/.test(value)) continue;
        const colour = sheet.tableRows[index]!.getCell(at + 1).font?.color?.argb;
        expect(colour).toBe(value.startsWith('▲') ? 'FF1B5E20' : 'FF8E1B1B');
      }
    });
    // The generated library has products far from the average: some marks are written.
    expect(shown).toBeGreaterThan(0);
    expect(
      sheet.footnotes.some((line) => line.startsWith('▲ 99% / ▲ 95% / ▲ 90%: significantly higher')),
    ).toBe(true);
    const tested = marks.result.results.reduce(
      (count, row) =>
        count +
        Object.values(row).filter(
          (mark) => typeof mark === 'object' && (mark as { p_value: number | null }).p_value !== null,
        ).length,
      0,
    );
    expect(sheet.footnotes).toContain(
      `Correction: Benjamini-Hochberg (false discovery rate) across the ${tested} tests of this calculation (products × metrics); the levels read the adjusted p-values.`,
    );
    expect(sheet.footnotes).toContain(
      '"low base: not tested": fewer than 30 answers, so no test and no mark.',
    );
    expect(sheet.footnotes).toContain('Tests: contrast with the average, clustered by respondent.');
  });

  it('refuses anonymous callers, users without analytics, bad ids, others’ jobs and another list', async () => {
    const { search, body, marks } = await listAndMarks();
    const url = (significanceId: string) =>
      `/api/analytics/fragrances/xlsx/${search.jobid}?significance=${significanceId}`;
    expect((await get(url(marks.job_id), null)).statusCode).toBe(401);
    expect((await get(url(marks.job_id), 'client')).statusCode).toBe(403);
    expect((await get(url(marks.job_id), 'sales')).statusCode).toBe(403);
    const bad = await get(url('not-a-job'));
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toContain('Not a significance job id');
    // Another user's significance job, and a job of another kind, are no job of the caller's.
    const admins = await listAndMarks('admin');
    expect((await get(url(admins.marks.job_id))).statusCode).toBe(404);
    expect((await get(url(search.jobid))).statusCode).toBe(404);
    // Significance of part of the list, or of other respondents, does not qualify this list's numbers.
    const part = await significance({ ...body, data: body.data!.slice(0, 2) });
    const partial = await get(url(part.job_id));
    expect(partial.statusCode).toBe(400);
    expect(errorBody(partial).message).toBe(SIGNIFICANCE_EXPORT_MESSAGES.otherList);
    const others = await significance({ ...body, demographics: { gender: ['Male'] } });
    expect((await get(url(others.job_id))).statusCode).toBe(400);
    // A significance job that kept no request cannot be checked against the list.
    await t.database.sql.executeSql(`update job_results set request = null where id = $1`, [marks.job_id]);
    const unkept = await get(url(marks.job_id));
    expect(unkept.statusCode).toBe(400);
    expect(errorBody(unkept).message).toBe(SIGNIFICANCE_EXPORT_MESSAGES.notKept);
    // Without the parameter the download is as before: no marks.
    const plain = await report(`/api/analytics/fragrances/xlsx/${search.jobid}`);
    expect(plain.headings.some((heading) => String(heading).startsWith('Significance'))).toBe(false);
  });
});
