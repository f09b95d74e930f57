// Pages of a metric search through the running app: roles, validation, rows sorted and filtered on
// the server as sorting and filtering the whole result would, the selection kept with the search (in
// every server process), and significance and the download over exactly the selected rows.
import {
  MetricSearchPageStatus,
  type MetricResultRow,
  type MetricSearchPage,
  type MetricSearchRequest,
  type MetricSearchResult,
  type MetricSearchStatus,
  type MetricSelection,
  type SignificanceStatus,
} from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkbook, readReport } from '../../testing/report-table.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-metric-pages-',
    { studies: 10, seed: 11, respondents: 40, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

const post = (url: string, payload: unknown, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'POST', url, payload, token: role ? tokens[role] : undefined });
const get = (url: string, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'GET', url, token: role ? tokens[role] : undefined });

const REQUEST = {
  q: {
    metrics: {
      rdfType: 'all',
      metricsList: [
        { metricType: 'Performance', metric: 'liking', aggregation: 'top_2_box', confidence: true },
        { metricType: 'Performance', metric: 'strength', aggregation: 'mean', confidence: false },
      ],
    },
  },
} as MetricSearchRequest;

/** Runs the whole-library search and answers its job id and full result (the reference). */
async function searchAll(
  role: DemoRole = 'researcher',
): Promise<{ jobid: string; full: MetricSearchResult }> {
  const queued = await post('/api/analytics/fragrances?no_cache=true', REQUEST, role);
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  const status = (await get(`/api/analytics/fragrances/${jobid}`, role)).json<MetricSearchStatus>();
  expect(status.status).toBe('SUCCESS');
  return { jobid, full: status.result!.json };
}

async function page(jobid: string, query: string, role: DemoRole = 'researcher'): Promise<MetricSearchPage> {
  const answer = await get(`/api/analytics/fragrances/${jobid}/page?${query}`, role);
  expect(answer.statusCode, answer.body).toBe(200);
  const status = answer.json<MetricSearchPageStatus>();
  expect(MetricSearchPageStatus.parse(status)).toEqual(status);
  expect(status.status).toBe('SUCCESS');
  return status.result!;
}

/** Every matching row, read page by page (small pages, so that paging itself is exercised). */
async function allPages(jobid: string, query: string): Promise<MetricSearchPage['rows']> {
  const rows: MetricSearchPage['rows'] = [];
  for (let offset = 0; ; offset += 7) {
    const answer = await page(jobid, `${query}&offset=${offset}&limit=7`);
    rows.push(...answer.rows);
    if (offset + 7 >= answer.matching) return rows;
  }
}

const nameOf = (row: MetricResultRow) => row.name ?? row.prod;
const collator = new Intl.Collator('en-GB', { sensitivity: 'base', numeric: true });

describe('GET /api/analytics/fragrances/{jobId}/page', () => {
  it('needs analytics access, your own finished job and a known sort', async () => {
    const { jobid } = await searchAll();
    const url = `/api/analytics/fragrances/${jobid}/page`;
    expect((await get(url, null)).statusCode).toBe(401);
    expect((await get(url, 'client')).statusCode).toBe(403);
    expect((await get(url, 'sales')).statusCode).toBe(403);
    // Another user's job is not found, as its status is not.
    expect((await get(url, 'admin')).statusCode).toBe(404);
    expect((await get('/api/analytics/fragrances/not-a-job/page')).statusCode).toBe(400);
    for (const bad of ['limit=501', 'limit=-1', 'offset=x', 'desc=maybe', 'mark=mt-0.5', 'significance=x']) {
      const answer = await get(`${url}?${bad}`);
      expect(answer.statusCode, bad).toBe(400);
    }
    const sort = await get(`${url}?sort=colour.mean`);
    expect(sort.statusCode).toBe(400);
    expect(errorBody(sort).message).toBe(
      'Cannot sort by "colour.mean": choose name, c_mi_number or a column of the search.',
    );
  });

  it('answers the first page with the summary, diagnostics and chart bins, not every row', async () => {
    const { jobid, full } = await searchAll();
    expect(full.results.length).toBeGreaterThan(20);
    const first = await page(jobid, 'limit=20');
    expect(first.total).toBe(full.results.length);
    expect(first.matching).toBe(full.results.length);
    expect(first.rows).toHaveLength(20);
    expect(first.rows.map(({ selected: _s, marks: _m, ...row }) => row)).toEqual(full.results.slice(0, 20));
    expect(first.summary).toEqual(full.summary);
    expect(first.diagnostics).toEqual(full.diagnostics);
    expect(first.columns).toEqual(full.columns);
    const liking = full.results.map((row) => row.values['liking.top_2_box']).filter((v) => v !== null);
    expect(first.histograms['liking.top_2_box']!.reduce((sum, bin) => sum + bin.count, 0)).toBe(
      liking.length,
    );
    expect(first.histograms['liking.top_2_box']).toHaveLength(8);
    expect(first.selected).toBe(0);
    expect(first.mark_counts).toBeNull();
    // The summary alone.
    expect((await page(jobid, 'limit=0')).rows).toEqual([]);

    // A performance search's breakdown comes with its first page too.
    const queued = await post('/api/analytics/fragrances', {
      ...REQUEST,
      data: { category: 'metadata', field: 'client' },
    });
    const performance = queued.json<{ jobid: string }>().jobid;
    const status = (await get(`/api/analytics/fragrances/${performance}`)).json<MetricSearchStatus>();
    expect(status.result!.json.performance!.length).toBeGreaterThan(1);
    expect((await page(performance, 'limit=0')).performance).toEqual(status.result!.json.performance);
  });

  it('sorts and filters as sorting and filtering the whole result does', async () => {
    const { jobid, full } = await searchAll();
    for (const [key, desc] of [
      ['liking.top_2_box', true],
      ['liking.top_2_box', false],
      ['strength.mean', true],
    ] as const) {
      const value = (row: MetricResultRow) => row.values[key] ?? null;
      const expected = full.results
        .map((row, position) => ({ row, position }))
        .sort((left, right) => {
          const a = value(left.row);
          const b = value(right.row);
          if (a === null || b === null)
            return a === null ? (b === null ? left.position - right.position : 1) : -1;
          return (desc ? b - a : a - b) || left.position - right.position;
        })
        .map((item) => item.row.id);
      const ids = (await allPages(jobid, `sort=${key}&desc=${desc}`)).map((row) => row.id);
      expect(ids).toEqual(expected);
    }
    const byName = [...full.results].sort(
      (left, right) =>
        collator.compare(nameOf(right), nameOf(left)) ||
        full.results.indexOf(left) - full.results.indexOf(right),
    );
    expect((await allPages(jobid, 'sort=name&desc=true')).map((row) => row.id)).toEqual(
      byName.map((row) => row.id),
    );

    // A search text keeps the rows whose name (or code) contains it, in any case; with a sort.
    const needle = nameOf(full.results[3]!).slice(1, 4);
    const matching = full.results.filter((row) => nameOf(row).toLowerCase().includes(needle.toLowerCase()));
    expect(matching.length).toBeGreaterThan(0);
    expect(matching.length).toBeLessThan(full.results.length);
    const filtered = await allPages(
      jobid,
      `search=${encodeURIComponent(needle.toUpperCase())}&sort=c_mi_number`,
    );
    expect(filtered.map((row) => row.id)).toEqual(
      [...matching]
        .sort(
          (left, right) =>
            collator.compare(left.c_mi_number, right.c_mi_number) ||
            full.results.indexOf(left) - full.results.indexOf(right),
        )
        .map((row) => row.id),
    );
    expect((await page(jobid, `search=${encodeURIComponent(needle)}`)).matching).toBe(matching.length);
    expect((await page(jobid, 'search=no-such-fragrance-name')).rows).toEqual([]);
  });
});

describe('the selection of a search', () => {
  it('needs analytics access, your own finished job and either ids or a filter', async () => {
    const { jobid, full } = await searchAll();
    const url = `/api/analytics/fragrances/${jobid}/selection`;
    const body = { action: 'select', ids: [full.results[0]!.id] };
    expect((await post(url, body, null)).statusCode).toBe(401);
    expect((await post(url, body, 'client')).statusCode).toBe(403);
    expect((await get(url, 'client')).statusCode).toBe(403);
    expect((await post(url, body, 'admin')).statusCode).toBe(404);
    expect((await get(url, 'admin')).statusCode).toBe(404);
    for (const bad of [
      { action: 'select' },
      { action: 'select', ids: [1], matching: {} },
      { action: 'toggle', ids: [1] },
      { action: 'select', ids: ['x'] },
    ]) {
      const answer = await post(url, bad);
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const stranger = Math.max(...full.results.map((row) => row.id)) + 1000;
    const outside = await post(url, { action: 'select', ids: [stranger] });
    expect(outside.statusCode).toBe(400);
    expect(errorBody(outside).message).toBe(`Not rows of this search: ${stranger}.`);
    // Nothing changed by the refusals.
    expect((await get(url)).json<MetricSelection>().selected).toBe(0);
  });

  it('selects by id and every matching row, shown on every page and in another server process', async () => {
    const { jobid, full } = await searchAll();
    const url = `/api/analytics/fragrances/${jobid}/selection`;
    const [a, b] = [full.results[0]!.id, full.results[5]!.id];
    const picked = await post(url, { action: 'select', ids: [a, b, a] });
    expect(picked.json()).toEqual({ selected: 2, total: full.results.length });
    const first = await page(jobid, 'limit=10');
    expect(first.selected).toBe(2);
    expect(first.rows.filter((row) => row.selected).map((row) => row.id)).toEqual([a, b]);
    expect((await post(url, { action: 'deselect', ids: [a] })).json()).toEqual({
      selected: 1,
      total: full.results.length,
    });

    // "Select all" of the rows a search text keeps: exactly those, whatever page is shown.
    const needle = nameOf(full.results[2]!).slice(0, 3);
    const matching = full.results.filter((row) => nameOf(row).toLowerCase().includes(needle.toLowerCase()));
    expect(matching.length).toBeLessThan(full.results.length);
    await post(url, { action: 'clear' });
    const all = await post(url, { action: 'select', matching: { search: needle } });
    expect(all.json()).toEqual({ selected: matching.length, total: full.results.length });
    const shown = await page(jobid, `search=${encodeURIComponent(needle)}&limit=2`);
    expect(shown.all_matching_selected).toBe(true);
    expect((await page(jobid, 'limit=1')).all_matching_selected).toBe(
      matching.length === full.results.length,
    );
    const selection = (await get(url)).json<MetricSelection>();
    expect(selection.products.map((row) => row.id)).toEqual(matching.map((row) => row.id));
    expect(selection.products[0]).toEqual({
      id: matching[0]!.id,
      c_mi_number: matching[0]!.c_mi_number,
      prod: matching[0]!.prod,
    });

    // The selection is kept with the job: a second server process sees it.
    const other = await t.secondProcess({ workers: false });
    try {
      const elsewhere = await other.request({
        method: 'GET',
        url: `/api/analytics/fragrances/${jobid}/page?limit=500`,
        token: tokens.researcher,
      });
      const rows = elsewhere.json<MetricSearchPageStatus>().result!.rows;
      expect(rows.filter((row) => row.selected).map((row) => row.id)).toEqual(matching.map((row) => row.id));
    } finally {
      await other.close();
    }

    // Deselecting every matching row empties it.
    await post(url, { action: 'deselect', matching: { search: needle } });
    expect((await get(url)).json<MetricSelection>().selected).toBe(0);
  });

  it('feeds significance (exactly the selected rows, or every row when none) and the download', async () => {
    const { jobid, full } = await searchAll();
    const url = `/api/analytics/fragrances/${jobid}/selection`;
    const metrics = [{ field: 'liking', aggregation: 'top_2_box', confidence: true }];
    async function significance(body: Record<string, unknown>) {
      const queued = await post('/api/analytics/significance', { calculation: 'rest', metrics, ...body });
      expect(queued.statusCode, queued.body).toBe(200);
      const { job_id } = queued.json<{ job_id: string }>();
      const status = (await get(`/api/analytics/significance/${job_id}`)).json<SignificanceStatus>();
      expect(status.status).toBe('SUCCESS');
      return { job_id, results: status.result!.results };
    }

    // Nothing selected: every row, as sending every row does.
    const everyRow = await significance({ search_job: jobid });
    expect(everyRow.results.map((row) => row.id)).toEqual(full.results.map((row) => row.id));

    // Select all of a filter, then significance: exactly the matching rows, and the same marks as
    // sending those rows.
    const needle = nameOf(full.results[1]!).slice(0, 2);
    const matching = full.results.filter((row) => nameOf(row).toLowerCase().includes(needle.toLowerCase()));
    expect(matching.length).toBeGreaterThanOrEqual(2);
    expect(matching.length).toBeLessThan(full.results.length);
    await post(url, { action: 'select', matching: { search: needle } });
    const chosen = await significance({ search_job: jobid });
    expect(chosen.results.map((row) => row.id)).toEqual(matching.map((row) => row.id));
    const sent = await significance({ data: matching.map((row) => ({ id: row.id })) });
    expect(chosen.results).toEqual(sent.results);

    // Its marks show on the pages, and the tags filter on them.
    const marked = await page(jobid, `significance=${chosen.job_id}&limit=500`);
    expect(marked.mark_counts![0]).toEqual({ value: 'all', count: full.results.length });
    const higher = chosen.results.filter((row) =>
      Object.values(row).some(
        (mark) => typeof mark === 'object' && mark.table === 'mt' && mark.level === 0.01,
      ),
    );
    expect(marked.mark_counts!.find((tag) => tag.value === 'mt-0.01')!.count).toBe(higher.length);
    const tagged = await page(jobid, `significance=${chosen.job_id}&mark=mt-0.01&limit=500`);
    expect(tagged.rows.map((row) => row.id)).toEqual(higher.map((row) => row.id));
    const row = marked.rows.find((item) => item.id === matching[0]!.id)!;
    expect(row.marks['liking.top_2_box']).toEqual(chosen.results[0]!['liking.top_2_box.confidence']);

    // One selected row is not enough; data and search_job together are refused.
    await post(url, { action: 'clear' });
    await post(url, { action: 'select', ids: [full.results[0]!.id] });
    const one = await post('/api/analytics/significance', { calculation: 'avg', metrics, search_job: jobid });
    expect(one.statusCode).toBe(400);
    expect(errorBody(one).message).toBe('Significance needs at least two products.');
    const both = await post('/api/analytics/significance', {
      calculation: 'avg',
      metrics,
      search_job: jobid,
      data: [{ id: 1 }, { id: 2 }],
    });
    expect(both.statusCode).toBe(400);
    const foreign = await post(
      '/api/analytics/significance',
      { calculation: 'avg', metrics, search_job: jobid },
      'admin',
    );
    expect(foreign.statusCode).toBe(404);

    // The download of the selection holds its rows alone; without the flag, every row.
    await post(url, { action: 'select', ids: [full.results[4]!.id] });
    const selectedOnly = await get(`/api/analytics/fragrances/xlsx/${jobid}?selected=true`);
    expect(selectedOnly.statusCode).toBe(200);
    const everything = await get(`/api/analytics/fragrances/xlsx/${jobid}`);
    const codes = async (body: Buffer) => readReport(await openWorkbook(body)).rows.map((line) => line[4]);
    expect(await codes(selectedOnly.rawPayload)).toEqual([full.results[0]!.prod, full.results[4]!.prod]);
    expect(await codes(everything.rawPayload)).toEqual(full.results.map((item) => item.prod));
  });
});
