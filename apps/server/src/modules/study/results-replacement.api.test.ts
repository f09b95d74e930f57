// A study's results data file can be replaced only by a file of that study: another study's results
// file is refused with a message naming what differs (the study, product codes, respondents), and
// the analytics keep the study's answers. A replacement that belongs is followed by the analytics:
// its answers replace the old ones, the product statistics are recomputed and the caches see it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import type { DemoRole, TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

interface ResultsFile {
  studyId: number;
  cMiNumber: string;
  name: string;
}
let own: ResultsFile;
let other: ResultsFile;

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-results-replacement-',
    { studies: 4, seed: 23, respondents: 30, lastYear: 2024 },
    tokens,
    { readsLibraryFiles: true },
  );
  const files = await query<{ study_id: number; c_mi_number: string; name: string }>(
    `select f.study_id, s.c_mi_number, f.name from study_files f join studies s on s.id = f.study_id
      where f.folder = 'results' and f.name like '%.csv' and f.name not like '%.scale.csv'
        and exists (select 1 from questions q where q.results_file_id = f.id and q.metric_id is not null)
      order by f.study_id`,
  );
  const [first, second] = files.map((row) => ({
    studyId: Number(row.study_id),
    cMiNumber: row.c_mi_number,
    name: row.name,
  }));
  own = first!;
  other = second!;
});

afterAll(() => t?.close());

const get = (url: string, role: DemoRole | null = 'admin') =>
  t.request({ method: 'GET', url, token: role ? tokens[role] : undefined });

async function upload(
  studyId: number,
  slot: string,
  file: { name: string; text: string },
  role: DemoRole | null,
) {
  const form = new FormData();
  form.append('filename', slot);
  form.append('filetype', 'RDF');
  form.append('foldertype', 'results');
  form.append('file', new Blob([new TextEncoder().encode(file.text)]), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return t.request({
    method: 'POST',
    url: `/api/study/${studyId}/upload`,
    token: role ? tokens[role] : undefined,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
}

async function uploadAndPoll(studyId: number, slot: string, file: { name: string; text: string }) {
  const started = await upload(studyId, slot, file, 'admin');
  expect(started.statusCode, started.body).toBe(200);
  const jobId = started.json<{ job_id: string }>().job_id;
  for (let attempt = 0; attempt < 100; attempt++) {
    const status = (await get(`/api/study/${studyId}/upload/${jobId}`)).json<{
      status: string;
      high_msg: string;
    }>();
    if (status.status === 'failed' || status.status === 'finished') return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the upload job did not end');
}

async function resultsText(file: ResultsFile): Promise<string> {
  const response = await get(`/api/study/${file.studyId}/study-files-path/${encodeURIComponent(file.name)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
}

/** The study's answers and product statistics, as the analytics read them. */
async function analyticsOf(studyId: number) {
  const answers = await query<{ n: number; total: number }>(
    'select count(*)::int as n, coalesce(sum(value), 0)::float8 as total from answers where study_id = $1',
    [studyId],
  );
  const stats = await query<{ n: number; total: number }>(
    `select coalesce(sum(n), 0)::int as n, coalesce(sum(sum), 0)::float8 as total from product_metric_stats
      where product_id in (select id from products where study_id = $1)`,
    [studyId],
  );
  const demographic = await query<{ n: number }>(
    `select coalesce(sum(n), 0)::int as n from product_metric_demo_stats
      where product_id in (select id from products where study_id = $1)`,
    [studyId],
  );
  return { answers: answers[0]!, stats: stats[0]!, demographic: demographic[0]!.n };
}

describe('replacing a study results file', () => {
  it('needs an admin and a file', async () => {
    const file = { name: 'x.csv', text: 'respondent_id,product_code\n' };
    expect((await upload(own.studyId, own.name, file, null)).statusCode).toBe(401);
    expect((await upload(own.studyId, own.name, file, 'researcher')).statusCode).toBe(403);
    const form = new FormData();
    form.append('filename', own.name);
    form.append('filetype', 'RDF');
    form.append('foldertype', 'results');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const missing = await t.request({
      method: 'POST',
      url: `/api/study/${own.studyId}/upload`,
      token: tokens.admin,
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type')! },
    });
    expect(missing.statusCode).toBe(400);
  });

  it("refuses another study's results file, naming what differs, and keeps the study's analytics", async () => {
    const before = await analyticsOf(own.studyId);
    const foreign = await resultsText(other);
    const status = await uploadAndPoll(own.studyId, own.name, { name: other.name, text: foreign });
    expect(status.status).toBe('failed');
    expect(status.high_msg).toContain(`${other.name} was not accepted: The file is named for study`);
    expect(status.high_msg).toContain(`${other.cMiNumber}, not for this study (${own.cMiNumber})`);
    const tree = (await get(`/api/study/${own.studyId}/related-study-files/`)).json<{
      children: { name: string; children: { name: string; errors: { high_msg: string }[] }[] }[];
    }>();
    const node = tree.children
      .find((child) => child.name === 'results')!
      .children.find((child) => child.name === own.name)!;
    const messages = node.errors.map((entry) => entry.high_msg).join(' | ');
    expect(messages).toMatch(/product codes? not in this study/i);
    // The current file and the analytics are the study's own still.
    expect(await resultsText(own)).not.toBe(foreign);
    expect(await analyticsOf(own.studyId)).toEqual(before);
  });

  it('refuses a file whose respondents or product codes are not the study own, naming them', async () => {
    const [header, first, ...rest] = (await resultsText(own)).trim().split(/\r?\n/);
    const columns = header!.split(',');
    const cells = first!.split(',');
    cells[columns.indexOf('respondent_id')] = 'R-FOREIGN-1';
    cells[columns.indexOf('product_code')] = '999999';
    const text = [header, cells.join(','), ...rest].join('\n');
    const status = await uploadAndPoll(own.studyId, own.name, { name: 'corrected.csv', text });
    expect(status.status).toBe('failed');
    expect(status.high_msg).toMatch(
      /^corrected\.csv was not accepted: Product code not in this study: 999999 \(this study's products: .+\) \(and 1 more error\)\. The current file was kept\.$/,
    );
    const history = await t.request({
      method: 'POST',
      url: `/api/study/${own.studyId}/version-history/${encodeURIComponent(own.name)}`,
      token: tokens.admin,
      payload: { foldertype: 'results' },
    });
    const newest = history.json<{
      _source: { file_history: { name: string; errors: { high_msg: string }[] }[] };
    }>()._source.file_history[0]!;
    expect(newest.name).toBe('corrected.csv');
    expect(newest.errors.map((entry) => entry.high_msg)).toContain(
      'Respondent not in this study: R-FOREIGN-1',
    );
  });

  it('follows an accepted replacement: new answers, recomputed statistics, refreshed analytics', async () => {
    const text = await resultsText(own);
    const [header, ...lines] = text.trim().split(/\r?\n/);
    const columns = header!.split(',');
    const liking = await query<{ qid: string; scale_max: number }>(
      `select q.qid, q.scale_max from questions q join metrics m on m.id = q.metric_id
        where q.study_id = $1 and m.name = 'liking' limit 1`,
      [own.studyId],
    );
    const column = columns.indexOf(liking[0]!.qid);
    expect(column).toBeGreaterThan(1);
    const productAt = columns.indexOf('product_code');
    const firstProduct = lines[0]!.split(',')[productAt]!;
    const [product] = await query<{ id: number }>(
      'select id from products where study_id = $1 and code = $2',
      [own.studyId, firstProduct],
    );
    // Every answer of the first product to liking becomes the top of its scale.
    const corrected = [
      header,
      ...lines.map((line) => {
        const cells = line.split(',');
        if (cells[productAt] === firstProduct && cells[column] !== '')
          cells[column] = String(liking[0]!.scale_max);
        return cells.join(',');
      }),
    ].join('\n');
    const versions = async () =>
      (
        await query<{ table_name: string; version: string }>('select table_name, version from data_versions')
      ).reduce(
        (all, row) => ({ ...all, [row.table_name]: Number(row.version) }),
        {} as Record<string, number>,
      );
    const countersBefore = await versions();
    const search = async () => {
      const queued = await t.request({
        method: 'POST',
        url: '/api/analytics/fragrances',
        token: tokens.admin,
        payload: {
          q: { metrics: { rdfType: 'all', metricsList: [{ metric: 'liking', aggregation: 'mean' }] } },
        },
      });
      const { jobid } = queued.json<{ jobid: string }>();
      const status = (await get(`/api/analytics/fragrances/${jobid}`)).json<{
        result: { json: { results: { id: number; values: Record<string, number | null> }[] } };
      }>();
      return status.result.json.results.find((row) => row.id === Number(product!.id))?.values['liking.mean'];
    };
    const meanBefore = await search();
    expect(meanBefore).toBeLessThan(5);

    const status = await uploadAndPoll(own.studyId, own.name, {
      name: `${own.cMiNumber}_results v2.csv`,
      text: corrected,
    });
    expect(status.status, status.high_msg).toBe('finished');
    const stored = await query<{ mean: number; n: number }>(
      `select avg(a.value)::float8 as mean, count(*)::int as n from answers a join questions q on q.id = a.question_id
        where a.product_id = $1 and q.qid = $2`,
      [product!.id, liking[0]!.qid],
    );
    expect(stored[0]!.n).toBeGreaterThan(0);
    expect(stored[0]!.mean).toBeCloseTo(5, 9);
    const after = await analyticsOf(own.studyId);
    expect(after.stats.n).toBe(after.demographic);
    const countersAfter = await versions();
    expect(countersAfter.products).toBeGreaterThan(countersBefore.products!);
    expect(countersAfter.questions).toBeGreaterThan(countersBefore.questions!);
    // The metric search is computed again from the new answers, not answered from its cache.
    expect(await search()).toBeCloseTo(5, 9);

    // Making the first version current again brings its answers back.
    const history = await t.request({
      method: 'POST',
      url: `/api/study/${own.studyId}/version-history/${encodeURIComponent(own.name)}`,
      token: tokens.admin,
      payload: { foldertype: 'results' },
    });
    const first = history
      .json<{ _source: { file_history: { id: number; name: string; status: string }[] } }>()
      ._source.file_history.find((version) => version.name === own.name && version.status === 'success')!;
    const swapped = await t.request({
      method: 'POST',
      url: `/api/study/${own.studyId}/swap-version-file/${encodeURIComponent(own.name)}/${first.id}`,
      token: tokens.admin,
      payload: { filetype: 'RDF', foldertype: 'results' },
    });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(await search()).toBeCloseTo(meanBefore!, 9);
  });
});
