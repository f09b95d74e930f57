// Two server processes on one database (WEB_CONCURRENCY > 1, or servers on several hosts): each keeps
// its own caches in memory, so a write made through one must show in the other's next cached read:
// the study search's option counts and tab counts, the analytics options, and metric searches
// (result cache, product lists, stored statistics, demographic tables) computed by the other's
// workers. Run on PostgreSQL too (DATABASE_URL), and against a read replica (scripts/replica-test.sh).
import type { MetricSearchResult, MetricSearchStatus } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_QUEUE } from '../modules/analytics/analytics.service.ts';
import { METRICS } from '../seed/catalogue.ts';
import { seedDemoLibrary } from '../seed/library.ts';
import { createLocalFileStorage } from '../storage/file-storage.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type RequestOptions, type SecondProcess, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
let other: SecondProcess;
let storageDir: string;
let admin: string;
let researcher: string;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'accord-two-processes-'));
  t = await createTestApp({
    seed: async (database) => {
      await seedDemoLibrary(database, createLocalFileStorage(storageDir), {
        studies: 4,
        seed: 11,
        lastYear: 2024,
        products: 3,
        respondents: 30,
        questions: 14,
      });
    },
  });
  admin = await t.login('admin');
  researcher = await t.login('researcher');
  // The first process writes and serves no analytics job: the second computes every search, as a
  // web process beside a worker process would see it.
  await t.jobs.boss.offWork(ANALYTICS_QUEUE);
  other = await t.secondProcess();
});

afterAll(async () => {
  await other?.close();
  await t?.close();
  await rm(storageDir, { recursive: true, force: true });
});

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

const onOther = (options: RequestOptions) => other.request(options);

/** A metric search of every fragrance through the second process (cached unless noCache). */
async function searchOnOther(
  metric: string,
  options: { noCache?: boolean; demographics?: Record<string, unknown> } = {},
): Promise<MetricSearchResult> {
  const queued = await onOther({
    method: 'POST',
    url: `/api/analytics/fragrances${options.noCache ? '?no_cache=true' : ''}`,
    token: researcher,
    payload: {
      q: {
        demographics: options.demographics ?? {},
        metrics: { rdfType: 'all', metricsList: [{ metric, aggregation: 'mean', confidence: false }] },
      },
    },
  });
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  for (let attempt = 0; attempt < 150; attempt++) {
    const polled = await onOther({
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

/** Fragrances of the study with an answer to the metric in the result (base above 0). */
const answeredIn = (result: MetricSearchResult, studyId: number, metric: string) =>
  result.results.filter((row) => row.study_id === studyId && (row.bases[`${metric}.mean`] ?? 0) > 0).length;

describe('two processes on one database', () => {
  it('the other process counts a study edited through the first in its cached option and tab counts', async () => {
    const [study] = await query<{ id: number; category: string | null }>(
      `select id, category from studies where category is distinct from 'Air Care' order by id limit 1`,
    );
    const categoryCount = async () => {
      const response = await onOther({
        method: 'POST',
        url: '/api/smartsearch/dropdown_options',
        token: admin,
        payload: { query: {} },
      });
      expect(response.statusCode, response.body).toBe(200);
      const category = response
        .json()
        .data.fields.metadata.find((field: { field: string }) => field.field === 'category');
      return (category.options.find((option: { value: string }) => option.value === 'Air Care')?.count ??
        0) as number;
    };
    const tabCount = async () => {
      const response = await onOther({
        method: 'POST',
        url: '/api/smartsearch/',
        token: admin,
        payload: { query: { essentials: { category: ['Air Care'] } } },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ summaries: number }>().summaries;
    };
    const [optionsBefore, tabBefore] = [await categoryCount(), await tabCount()];
    // Read twice: the second answer comes from the other process's caches.
    expect(await categoryCount()).toBe(optionsBefore);

    const edited = await t.request({
      method: 'PUT',
      url: '/api/smartsearch/update',
      token: admin,
      payload: { studies: [study!.id], data: [{ key: 'category', value: ['Air Care'] }] },
    });
    expect(edited.statusCode, edited.body).toBe(200);

    expect(await categoryCount()).toBe(optionsBefore + 1);
    expect(await tabCount()).toBe(tabBefore + 1);
  });

  it("the other process's metric searches, cached, uncached and by gender and age, follow a mapping made through the first", async () => {
    const [found] = await query<{ id: number }>(
      `select s.id from studies s where s.verified
        and exists (select 1 from products p where p.study_id = s.id and p.kind = 'fragrance')
        and exists (select 1 from questions q where q.study_id = s.id and q.metric_id is null and q.question_type = 'numerical')
        order by s.id limit 1`,
    );
    const study = Number(found!.id);
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
    const adults = { gender: ['Female', 'Male'], startAge: 16, endAge: 80 };
    const variants = [{}, { noCache: true }, { noCache: true, demographics: adults }];

    // The other process computes each search once before the change, keeping what it read.
    for (const variant of variants)
      expect(answeredIn(await searchOnOther(metric, variant), study, metric)).toBe(0);

    const mapped = await t.request({
      method: 'PUT',
      url: `/api/study/${study}/question/`,
      token: researcher,
      payload: { q_upd: { id: question!.id, metric } },
    });
    expect(mapped.statusCode, mapped.body).toBe(200);

    for (const variant of variants)
      expect(answeredIn(await searchOnOther(metric, variant), study, metric)).toBeGreaterThan(0);
  });
});
