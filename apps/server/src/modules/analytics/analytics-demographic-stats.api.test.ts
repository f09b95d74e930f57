// Gender and age filters are answered from product_metric_demo_stats: the numbers must equal those
// recomputed from the raw answers, also after a mapping change moves answers between metrics, and
// equal the numbers of the same filter read from the respondents (a filter the statistics cannot
// answer, gender and age plus a condition that keeps everybody).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { MetricSearchRequest, MetricSearchResult, MetricSearchStatus } from '@accord/contracts';
import { harmoniseToFivePoint, summariseHarmonised } from '@accord/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS } from '../../seed/catalogue.ts';
import { seedDemoLibrary } from '../../seed/library.ts';
import { createLocalFileStorage } from '../../storage/file-storage.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let storageDir: string;
let researcher: string;
let study: number;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'accord-analytics-demo-'));
  t = await createTestApp({
    seed: async (database) => {
      const summary = await seedDemoLibrary(database, createLocalFileStorage(storageDir), {
        studies: 3,
        seed: 7,
        lastYear: 2024,
        products: 3,
        respondents: 40,
        questions: 14,
      });
      study = summary.firstStudyId;
    },
  });
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

const FILTER = { gender: ['Female'], startAge: 22, endAge: 48 };
const FILTER_SQL = `r.gender = 'Female' and r.age between 22 and 48`;

/** The harmonised answers of a product and metric under the filter, from raw values and scales. */
async function rawAnswers(productId: number, metric: string): Promise<number[]> {
  const rows = await query<{ raw_value: number; scale_min: number; scale_max: number }>(
    `select a.raw_value, q.scale_min, q.scale_max from answers a
      join questions q on q.id = a.question_id join metrics m on m.id = q.metric_id
      join respondents r on r.id = a.respondent_id
      where a.product_id = $1 and m.name = $2 and ${FILTER_SQL}`,
    [productId, metric],
  );
  return rows.map((row) => harmoniseToFivePoint(Number(row.raw_value), row.scale_min, row.scale_max));
}

async function searchResult(body: MetricSearchRequest): Promise<MetricSearchResult> {
  const queued = await t.request({
    method: 'POST',
    url: '/api/analytics/fragrances?no_cache=true',
    payload: body,
    token: researcher,
  });
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  const status = await t.request({
    method: 'GET',
    url: `/api/analytics/fragrances/${jobid}`,
    token: researcher,
  });
  const json = status.json<MetricSearchStatus>();
  expect(json.status, json.error ?? '').toBe('SUCCESS');
  return json.result!.json;
}

const search = (metric: string, extra: Partial<MetricSearchRequest> = {}) =>
  searchResult({
    q: {
      demographics: FILTER,
      metrics: {
        rdfType: 'all',
        metricsList: [
          { metric, aggregation: 'top_2_box', confidence: true },
          { metric, aggregation: 'mean', confidence: true },
        ],
      },
    },
    ...extra,
  } as MetricSearchRequest);

/** Checks every product of the study against the raw answers; answers the bases found. */
async function expectRawNumbers(result: MetricSearchResult, metric: string): Promise<number[]> {
  const rows = result.results.filter((row) => row.study_id === study);
  expect(rows.length).toBe(3);
  const bases: number[] = [];
  for (const row of rows) {
    const expected = summariseHarmonised(await rawAnswers(row.id, metric));
    expect(row.bases[`${metric}.top_2_box`]).toBe(expected.n);
    expect(row.bases[`${metric}.mean`]).toBe(expected.n);
    if (expected.n === 0) {
      expect(row.values[`${metric}.top_2_box`]).toBeNull();
      expect(row.values[`${metric}.mean`]).toBeNull();
    } else {
      expect(row.values[`${metric}.top_2_box`]).toBeCloseTo(expected.top_2_box!, 9);
      expect(row.values[`${metric}.mean`]).toBeCloseTo(expected.mean!, 9);
    }
    bases.push(expected.n);
  }
  return bases;
}

const put = (q_upd: unknown) =>
  t.request({ method: 'PUT', url: `/api/study/${study}/question/`, token: researcher, payload: { q_upd } });

describe('gender and age filters read from the demographic statistics', () => {
  it('give the numbers of the raw answers, as the respondents path does', async () => {
    const result = await search('liking');
    expect(result.filtered).toBe(true);
    const bases = await expectRawNumbers(result, 'liking');
    expect(bases.some((n) => n > 0)).toBe(true);
    // A results-table condition on the social class needs the respondents: the same numbers.
    const classes = await query<{ social_class: string }>(
      'select distinct social_class from respondents where social_class is not null',
    );
    expect(classes.length).toBeGreaterThan(0);
    const total = result.results.map((row) => row.bases['liking.top_2_box']);
    const perClass = await Promise.all(
      classes.map((row) =>
        search('liking', {
          demographics_fragrances: [
            { field: 'social_class', filter: { type: 'equal', value: row.social_class } },
          ],
        } as Partial<MetricSearchRequest>),
      ),
    );
    const summed = total.map((_, index) =>
      perClass.reduce((sum, part) => sum + (part.results[index]?.bases['liking.top_2_box'] ?? 0), 0),
    );
    // Every respondent of the library has a social class, so the classes add up to the whole.
    const unclassed = await query<{ n: number }>(
      'select count(*)::int as n from respondents where social_class is null',
    );
    expect(Number(unclassed[0]!.n)).toBe(0);
    expect(summed).toEqual(total);
  });

  it('follow a mapping change: the answers move to the new metric and leave the old one', async () => {
    const questions = await query<{ id: number }>(
      `select id from questions where study_id = $1 and metric_id is null and question_type = 'numerical'
        order by sort_order limit 1`,
      [study],
    );
    const used = await query<{ metric_id: number }>(
      'select distinct metric_id from questions where study_id = $1 and metric_id is not null',
      [study],
    );
    const usedIds = new Set(used.map((row) => Number(row.metric_id)));
    const [first, second] = METRICS.filter((m) => m.kind === 'hedonic' && !usedIds.has(m.id));
    expect(questions.length).toBe(1);

    const before = await search(first!.name);
    expect(
      before.results.filter((row) => row.study_id === study).map((row) => row.bases[`${first!.name}.mean`]),
    ).toEqual([0, 0, 0]);

    expect((await put({ id: questions[0]!.id, metric: first!.name })).statusCode).toBe(200);
    const mapped = await expectRawNumbers(await search(first!.name), first!.name);
    expect(mapped.some((n) => n > 0)).toBe(true);

    expect((await put({ id: questions[0]!.id, metric: second!.name })).statusCode).toBe(200);
    const left = await search(first!.name);
    expect(
      left.results.filter((row) => row.study_id === study).map((row) => row.bases[`${first!.name}.mean`]),
    ).toEqual([0, 0, 0]);
    expect(await expectRawNumbers(await search(second!.name), second!.name)).toEqual(mapped);

    expect((await put({ id: questions[0]!.id, metric: null })).statusCode).toBe(200);
    const unmapped = await search(second!.name);
    expect(
      unmapped.results
        .filter((row) => row.study_id === study)
        .map((row) => row.bases[`${second!.name}.mean`]),
    ).toEqual([0, 0, 0]);
  });
});
