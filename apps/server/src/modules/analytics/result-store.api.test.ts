// The result store through the running app: a search's answer and pages equal, cell by cell, those
// the implementation before the store gave on the same demo library (fixtures/search-answers.json,
// recorded by record-search-answers.ts); a search summed in memory is done at its first poll; a
// second process, which never computed the search, serves its pages, selection and significance
// from the request its job row keeps; a data change refreshes the answer; every call keeps its
// roles and its client scope.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  MetricSearchPageStatus,
  MetricSearchRequest,
  MetricSearchResult,
  MetricSearchStatus,
  MetricSelection,
  RankingStatus,
  SignificanceStatus,
} from '@accord/contracts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../seed/users.ts';
import { createLibraryTestApp, sqlRows } from '../../testing/library-app.ts';
import type { DemoRole, SecondProcess, TestApp } from '../../testing/test-app.ts';
import { ANSWERS_LIBRARY, ANSWER_PAGES, ANSWER_SEARCHES } from './result-store.cases.ts';

type Recorded = Record<string, { full: MetricSearchResult; pages: Record<string, MetricSearchPageStatus> }>;

let t: TestApp;
let second: SecondProcess;
let recorded: Recorded;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp('accord-result-store-', ANSWERS_LIBRARY, tokens);
  second = await t.secondProcess();
  const here = path.dirname(fileURLToPath(import.meta.url));
  recorded = JSON.parse(
    await readFile(path.join(here, 'fixtures', 'search-answers.json'), 'utf8'),
  ) as Recorded;
});

afterAll(async () => {
  await second?.close();
  await t?.close();
});

type Caller = Pick<TestApp, 'request'>;
const call = (
  app: Caller,
  method: 'GET' | 'POST',
  url: string,
  role: DemoRole | null = 'researcher',
  payload?: unknown,
) => app.request({ method, url, payload, ...(role ? { token: tokens[role] } : {}) });

async function queue(app: Caller, request: MetricSearchRequest, role: DemoRole = 'researcher') {
  const queued = await call(app, 'POST', '/api/analytics/fragrances?no_cache=true', role, request);
  expect(queued.statusCode, queued.body).toBe(200);
  return queued.json<{ jobid: string }>().jobid;
}

async function full(app: Caller, jobid: string, role: DemoRole = 'researcher'): Promise<MetricSearchStatus> {
  const answer = await call(app, 'GET', `/api/analytics/fragrances/${jobid}`, role);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<MetricSearchStatus>();
}

async function page(app: Caller, jobid: string, query: string, role: DemoRole = 'researcher') {
  const answer = await call(app, 'GET', `/api/analytics/fragrances/${jobid}/page?${query}`, role);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<MetricSearchPageStatus>();
}

/** Every number of an answer with its path, so that a difference names its cell. */
function cells(value: unknown, at = '', into: Map<string, unknown> = new Map()): Map<string, unknown> {
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) cells(inner, `${at}/${key}`, into);
    if (Object.keys(value).length === 0) into.set(at, Array.isArray(value) ? '[]' : '{}');
  } else into.set(at, value);
  return into;
}

function expectSameCells(actual: unknown, expected: unknown) {
  const now = cells(actual);
  const before = cells(expected);
  expect(
    [...now.keys()].filter((at) => !before.has(at)),
    'cells not answered before',
  ).toEqual([]);
  expect(
    [...before.keys()].filter((at) => !now.has(at)),
    'cells answered before',
  ).toEqual([]);
  expect([...now.keys()]).toEqual([...before.keys()]);
  for (const [at, value] of before) expect(now.get(at), at).toEqual(value);
  // The same text too: key order and every value as the earlier answer wrote them.
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe('answers of the result store', () => {
  // Recorded on the embedded database: a server adds the float sums of the demographic groups in
  // another order, so a mean may differ in its last bit and ties in a sorted page fall otherwise.
  it.runIf(process.env.DATABASE_URL === undefined).each(Object.keys(ANSWER_SEARCHES))(
    'equal the earlier implementation’s, every cell of the full answer and of each page: %s',
    async (name) => {
      const jobid = await queue(t, ANSWER_SEARCHES[name]!);
      const status = await full(t, jobid);
      expect(status.status).toBe('SUCCESS');
      const expected = recorded[name]!;
      expect(status.result!.json.results.length).toBe(expected.full.results.length);
      expectSameCells(status.result!.json, expected.full);
      const column = status.result!.json.columns[0]!.key;
      for (const query of ANSWER_PAGES) {
        const answer = await page(t, jobid, query.replace('COLUMN', column));
        expect(answer.status).toBe('SUCCESS');
        expectSameCells(answer, expected.pages[query]);
      }
    },
    60_000,
  );

  // The status answer is written as bytes straight from the columns: they are the ones the earlier
  // implementation sent (its answer, recorded, written as JSON writes it, in the status's order).
  it.runIf(process.env.DATABASE_URL === undefined).each(Object.keys(ANSWER_SEARCHES))(
    'sends the full answer byte for byte as the earlier implementation did, to every caller: %s',
    async (name) => {
      const jobid = await queue(t, ANSWER_SEARCHES[name]!);
      const expected = `{"status":"SUCCESS","progress":100,"error":null,"result":{"json":${JSON.stringify(recorded[name]!.full)}}}`;
      for (const app of [t, t, second]) {
        const answer = await call(app, 'GET', `/api/analytics/fragrances/${jobid}`);
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
        expect(answer.body === expected, `${name}: the bytes differ`).toBe(true);
      }
    },
    60_000,
  );

  it('sends the full answer compressed once per encoding a client accepts, the same bytes to every caller', async () => {
    const jobid = await queue(t, ANSWER_SEARCHES['all fragrances']!);
    const plain = await call(t, 'GET', `/api/analytics/fragrances/${jobid}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [encoding, decompress] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const sent: Buffer[] = [];
      for (const app of [t, t, second]) {
        const answer = await app.request({
          method: 'GET',
          url: `/api/analytics/fragrances/${jobid}`,
          token: tokens.researcher,
          headers: { 'accept-encoding': `${encoding}, identity;q=0.5` },
        });
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-encoding']).toBe(encoding);
        expect(answer.headers['vary']).toBe('accept-encoding');
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(decompress(answer.rawPayload).equals(plain.rawPayload), `${encoding}: other bytes`).toBe(true);
        expect(answer.rawPayload.byteLength).toBeLessThan(plain.rawPayload.byteLength / 3);
        sent.push(answer.rawPayload);
      }
      // Compressed once in this process (result-store.test.ts): its two answers are the same bytes.
      expect(sent[1]!.equals(sent[0]!)).toBe(true);
    }
  });

  it('answers a search summed in memory within its POST: the first poll is SUCCESS', async () => {
    for (const name of ['all fragrances', 'gender and age']) {
      const jobid = await queue(t, ANSWER_SEARCHES[name]!);
      const first = await page(t, jobid, 'limit=3');
      expect(first).toMatchObject({ status: 'SUCCESS', progress: 100, error: null });
      expect(first.result!.rows).toHaveLength(3);
      // Never queued: the queue holds no job of that id.
      const queued = await sqlRows(t)<{ count: number }>(
        `select count(*)::int as count from pgboss.job where id = $1`,
        [jobid],
      );
      expect(queued[0]!.count).toBe(0);
    }
  });

  it('queues a search that asks the database for its respondents, and it ends as the others', async () => {
    // A respondent filter over more metrics than the respondent indexes keep (five).
    const metricsList = ['liking', 'purchase_intention', 'clean', 'fresh', 'relaxing', 'natural'].map(
      (metric) => ({ metric, aggregation: 'mean' }),
    );
    const request = {
      q: { demographics: { socialClass: ['B', 'C'] }, metrics: { rdfType: 'all', metricsList } },
    } as MetricSearchRequest;
    const jobid = await queue(t, request);
    let status = await full(t, jobid);
    for (let tries = 0; status.status !== 'SUCCESS' && tries < 100; tries++) {
      expect(['PENDING', 'STARTED']).toContain(status.status);
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await full(t, jobid);
    }
    expect(status.status).toBe('SUCCESS');
    expect(status.result!.json.filtered).toBe(true);
    const queued = await sqlRows(t)<{ count: number }>(
      `select count(*)::int as count from pgboss.job where id = $1`,
      [jobid],
    );
    expect(queued[0]!.count).toBe(1);
    const [row] = await sqlRows(t)<{ result: string }>(`select result from job_results where id = $1`, [
      jobid,
    ]);
    expect(row!.result).toMatch(/^\{"search_fingerprint":"[0-9a-f]{64}"\}$/);
  });
});

describe('a second process', () => {
  it('serves the pages, selection and significance of a search made on the first, from its request', async () => {
    const name = 'all fragrances';
    const jobid = await queue(t, ANSWER_SEARCHES[name]!);
    // The row keeps the request and the fingerprint, never the result.
    const [row] = await sqlRows(t)<{ result: string; request: string }>(
      `select result, request from job_results where id = $1`,
      [jobid],
    );
    expect(row!.result.length).toBeLessThan(100);
    expect(JSON.parse(row!.request)).toMatchObject({ q: { metrics: { rdfType: 'all' } } });

    const expected = recorded[name]!;
    const column = expected.full.columns[0]!.key;
    for (const query of ANSWER_PAGES) {
      const answer = await page(second, jobid, query.replace('COLUMN', column));
      expectSameCells(answer, expected.pages[query]);
    }
    expectSameCells((await full(second, jobid)).result!.json, expected.full);

    // A selection made on the second process is the first's too.
    const ids = expected.full.results.slice(2, 6).map((result) => result.id);
    const selected = await call(
      second,
      'POST',
      `/api/analytics/fragrances/${jobid}/selection`,
      'researcher',
      {
        action: 'select',
        ids,
      },
    );
    expect(selected.statusCode, selected.body).toBe(200);
    expect(selected.json()).toEqual({ selected: 4, total: expected.full.results.length });
    const onFirst = await call(t, 'GET', `/api/analytics/fragrances/${jobid}/selection`);
    expect(onFirst.json<MetricSelection>().products.map((product) => product.id)).toEqual(ids);

    // Significance over the search's selection, queued on the second process.
    const significance = await call(second, 'POST', '/api/analytics/significance', 'researcher', {
      calculation: 'avg',
      search_job: jobid,
      metrics: [{ field: 'liking', aggregation: 'top_2_box', confidence: true }],
    });
    expect(significance.statusCode, significance.body).toBe(200);
    const { job_id } = significance.json<{ job_id: string }>();
    let marks = (
      await call(second, 'GET', `/api/analytics/significance/${job_id}`)
    ).json<SignificanceStatus>();
    for (let tries = 0; marks.status !== 'SUCCESS' && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      marks = (await call(second, 'GET', `/api/analytics/significance/${job_id}`)).json<SignificanceStatus>();
    }
    expect(marks.status).toBe('SUCCESS');
    expect(marks.result!.results.map((result) => result.id).sort()).toEqual([...ids].sort());
  });

  it('refreshes the answer after a data change, on either process', async () => {
    const name = 'all fragrances';
    const jobid = await queue(t, ANSWER_SEARCHES[name]!);
    const before = (await full(t, jobid)).result!.json;
    const changed = before.results[0]!;
    // The fragrance of the first row renamed: the fragrances table's version goes up.
    await sqlRows(t)(
      `update fragrances set name = 'Renamed after the search'
         where id = (select fragrance_id from products where id = $1)`,
      [changed.id],
    );
    for (const app of [t, second]) {
      const after = (await page(app, jobid, 'search=renamed after')).result!;
      expect(after.rows.map((row) => row.id)).toEqual([changed.id]);
      expect(after.rows[0]!.values).toEqual(changed.values);
    }
  });
});

describe('calls on a search', () => {
  it('refuse anonymous callers (401), users without the analytics (403), bad ids (400), another user’s job (404)', async () => {
    const jobid = await queue(t, ANSWER_SEARCHES['all fragrances']!);
    for (const url of [
      `/api/analytics/fragrances/${jobid}`,
      `/api/analytics/fragrances/${jobid}/page`,
      `/api/analytics/fragrances/${jobid}/selection`,
    ]) {
      expect((await call(second, 'GET', url, null)).statusCode).toBe(401);
      expect((await call(second, 'GET', url, 'client')).statusCode).toBe(403);
      expect((await call(second, 'GET', url, 'admin')).statusCode).toBe(404);
    }
    expect((await call(second, 'GET', '/api/analytics/fragrances/not-a-job/page')).statusCode).toBe(400);
    expect((await call(second, 'GET', `/api/analytics/fragrances/${jobid}/page?limit=-1`)).statusCode).toBe(
      400,
    );
  });

  it('keeps client scoping: a client user’s ranking (a metric search) holds only their clients’ studies, on either process', async () => {
    const body = {
      kind: 'testers',
      radioDesc: 'best',
      amount: 100,
      radioPercentType: 'percentage',
      type: 'fragrances',
      rdfType: 'all',
    };
    const ids: Record<string, number[]> = {};
    for (const role of ['admin', 'client'] as const) {
      const queued = await call(t, 'POST', '/api/rankings', role, body);
      expect(queued.statusCode, queued.body).toBe(200);
      const { jobid } = queued.json<{ jobid: string }>();
      for (const app of [t, second]) {
        const status = (await call(app, 'GET', `/api/rankings/${jobid}`, role)).json<RankingStatus>();
        expect(status.status).toBe('SUCCESS');
        ids[role] = status.result!.json.rows.map((row) => row.study_id);
      }
      // Nobody else reads it.
      expect(
        (await call(second, 'GET', `/api/rankings/${jobid}`, role === 'admin' ? 'client' : 'admin'))
          .statusCode,
      ).toBe(404);
    }
    const clients = DEMO_USERS.find((user) => user.roleId === 3)!.clients;
    const studies = await sqlRows(t)<{ id: number }>(
      `select id from studies where client = any($1::text[])`,
      [clients],
    );
    const allowed = new Set(studies.map((row) => row.id));
    expect(ids.client!.length).toBeGreaterThan(0);
    expect(ids.admin!.length).toBeGreaterThan(ids.client!.length);
    for (const studyId of ids.client!) expect(allowed.has(studyId)).toBe(true);
  });
});
