// The metric search keeps product lists and stored statistics in memory while the data is unchanged:
// a mapping change or an upload must show in the very next search, cached or not, with the numbers
// of the raw answers.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { MetricSearchRequest, MetricSearchResult, MetricSearchStatus } from '@accord/contracts';
import { harmoniseToFivePoint, summariseHarmonised } from '@accord/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS } from '../../seed/catalogue.ts';
import { seedDemoLibrary } from '../../seed/library.ts';
import { buildSampleZips } from '../../seed/sample-zips.ts';
import { createLocalFileStorage } from '../../storage/file-storage.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let storageDir: string;
let admin: string;
let researcher: string;
let study: number;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'accord-analytics-caches-'));
  t = await createTestApp({
    seed: async (database) => {
      await seedDemoLibrary(database, createLocalFileStorage(storageDir), {
        studies: 3,
        seed: 5,
        lastYear: 2024,
        products: 3,
        respondents: 30,
        questions: 14,
      });
    },
  });
  // A verified study with fragrances: its fragrances are in every researcher's search.
  const [found] = await query<{ id: number }>(
    `select s.id from studies s where s.verified
      and exists (select 1 from products p where p.study_id = s.id and p.kind = 'fragrance')
      order by s.id limit 1`,
  );
  study = Number(found!.id);
  admin = await t.login('admin');
  researcher = await t.login('researcher');
});

afterAll(async () => {
  await t?.close();
  await rm(storageDir, { recursive: true, force: true });
});

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

/** Every harmonised answer of a product and metric (no respondent filter), from raw values and scales. */
async function rawAnswers(productId: number, metric: string): Promise<number[]> {
  const rows = await query<{ raw_value: number; scale_min: number; scale_max: number }>(
    `select a.raw_value, q.scale_min, q.scale_max from answers a
      join questions q on q.id = a.question_id join metrics m on m.id = q.metric_id
      where a.product_id = $1 and m.name = $2`,
    [productId, metric],
  );
  return rows.map((row) => harmoniseToFivePoint(Number(row.raw_value), row.scale_min, row.scale_max));
}

/** A metric search of every fragrance (cached unless noCache), run to its end. */
async function search(metric: string, noCache: boolean): Promise<MetricSearchResult> {
  const body: MetricSearchRequest = {
    q: {
      metrics: {
        rdfType: 'all',
        metricsList: [
          { metric, aggregation: 'mean', confidence: false },
          { metric, aggregation: 'top_2_box', confidence: false },
        ],
      },
    },
  } as MetricSearchRequest;
  const queued = await t.request({
    method: 'POST',
    url: `/api/analytics/fragrances${noCache ? '?no_cache=true' : ''}`,
    payload: body,
    token: researcher,
  });
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  for (let attempt = 0; attempt < 100; attempt++) {
    const polled = await t.request({
      method: 'GET',
      url: `/api/analytics/fragrances/${jobid}`,
      token: researcher,
    });
    const status = polled.json<MetricSearchStatus>();
    if (status.status === 'SUCCESS') return status.result!.json;
    expect(status.status, status.error ?? '').toBe('STARTED');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('The metric search did not end');
}

/**
 * Bases and values of the rows of the given studies against the raw answers (stored as single
 * precision harmonised values, hence 6 decimals); answers the bases.
 */
async function expectRawNumbers(result: MetricSearchResult, studyIds: number[], metric: string) {
  const rows = result.results.filter((row) => studyIds.includes(row.study_id));
  expect(rows.length).toBeGreaterThan(0);
  const bases: number[] = [];
  for (const row of rows) {
    const expected = summariseHarmonised(await rawAnswers(row.id, metric));
    expect(row.bases[`${metric}.mean`]).toBe(expected.n);
    expect(row.bases[`${metric}.top_2_box`]).toBe(expected.n);
    if (expected.n === 0) expect(row.values[`${metric}.mean`]).toBeNull();
    else {
      expect(row.values[`${metric}.mean`]).toBeCloseTo(expected.mean!, 6);
      expect(row.values[`${metric}.top_2_box`]).toBeCloseTo(expected.top_2_box!, 6);
    }
    bases.push(expected.n);
  }
  return bases;
}

/** The bases of a study's fragrances: there are some, and none has an answer to the metric. */
function expectNoAnswers(result: MetricSearchResult, studyId: number, metric: string) {
  const bases = result.results
    .filter((row) => row.study_id === studyId)
    .map((row) => row.bases[`${metric}.mean`]);
  expect(bases.length).toBeGreaterThan(0);
  expect(bases.every((n) => n === 0)).toBe(true);
}

describe('metric search caches', () => {
  it('show a mapping change in the next search at once, with or without the result cache', async () => {
    const [question] = await query<{ id: number }>(
      `select id from questions where study_id = $1 and metric_id is null and question_type = 'numerical'
        order by sort_order limit 1`,
      [study],
    );
    const used = await query<{ metric_id: number }>(
      'select distinct metric_id from questions where study_id = $1 and metric_id is not null',
      [study],
    );
    const usedIds = new Set(used.map((row) => Number(row.metric_id)));
    const metric = METRICS.find((m) => m.kind === 'hedonic' && !usedIds.has(m.id))!.name;
    expect(question).toBeDefined();
    const map = (name: string | null) =>
      t.request({
        method: 'PUT',
        url: `/api/study/${study}/question/`,
        token: researcher,
        payload: { q_upd: { id: question!.id, metric: name } },
      });

    // Both searches read (and keep) the product list and the metric's statistics before the change.
    for (const noCache of [false, true]) expectNoAnswers(await search(metric, noCache), study, metric);

    expect((await map(metric)).statusCode).toBe(200);
    for (const noCache of [false, true]) {
      const bases = await expectRawNumbers(await search(metric, noCache), [study], metric);
      expect(bases.every((n) => n > 0)).toBe(true);
    }

    expect((await map(null)).statusCode).toBe(200);
    for (const noCache of [false, true]) expectNoAnswers(await search(metric, noCache), study, metric);
  });

  it('show the fragrances of an upload in the next search at once, with the numbers of its answers', async () => {
    const samples = buildSampleZips();
    const before = await search('liking', false);
    expect(before.results.length).toBeGreaterThan(0);

    const form = new FormData();
    for (const [key, value] of Object.entries({
      client: 'Northwind',
      study_type: 'Fragrance',
      region: 'Europe',
      year: '2024',
    }))
      form.append(key, value);
    form.append('file', new Blob([samples.clean]), 'studies.zip');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const uploaded = await t.request({
      method: 'POST',
      url: '/api/fileprocess/studies_upload',
      token: admin,
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type')! },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { task_id, file_process_id } = uploaded.json<{ task_id: string; file_process_id: number }>();
    // The status stream ends at validation: the sample's studies differ from the form and wait for a confirmation.
    const validated = await t.request({
      method: 'GET',
      url: `/api/fileprocess/${task_id}/status`,
      token: admin,
    });
    expect(validated.body).toContain('"VALIDATED"');
    const confirmed = await t.request({
      method: 'POST',
      url: `/api/fileprocess/fileprocess/${file_process_id}/process_studies`,
      token: admin,
      payload: { confirm_form: true },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // The status stream ends once the studies are in the library.
    const stream = await t.request({
      method: 'GET',
      url: `/api/fileprocess/${confirmed.json<{ task_id: string }>().task_id}/status`,
      token: admin,
    });
    expect(stream.body).toContain('event: result');
    const added = await query<{ id: number }>('select id from studies where c_mi_number = any($1::text[])', [
      samples.cleanCmis,
    ]);
    expect(added).toHaveLength(samples.cleanCmis.length);
    const addedIds = added.map((row) => Number(row.id));
    expect(before.results.some((row) => addedIds.includes(row.study_id))).toBe(false);

    for (const noCache of [false, true]) {
      const after = await search('liking', noCache);
      expect(after.results.length).toBeGreaterThan(before.results.length);
      const bases = await expectRawNumbers(after, addedIds, 'liking');
      expect(bases.some((n) => n > 0)).toBe(true);
    }
  });
});
