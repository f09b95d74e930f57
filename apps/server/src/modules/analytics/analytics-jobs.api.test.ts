// Analytics jobs run on the job queue (pg-boss on the app's database): a search that asks the
// database for its respondents is queued and done at its first poll when fast, and a job queued
// while no worker runs is finished by a worker that starts later in another app on the same
// database, as a separate worker process would. (A search summed in memory is answered within its
// POST, without the queue: result-store.api.test.ts.)
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ANALYTICS_MESSAGES, type MetricSearchRequest, type MetricSearchStatus } from '@accord/contracts';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobResults } from '../../db/schema.ts';
import { seedDemoLibrary } from '../../seed/library.ts';
import { createLocalFileStorage } from '../../storage/file-storage.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { createAnalyticsRepository, JOB_RESULT_TTL_MS } from './analytics.repository.ts';
import { ANALYTICS_QUEUE, JOB_KINDS } from './analytics.service.ts';

let t: TestApp;
let tempDir: string;
let researcher: string;

beforeAll(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'accord-analytics-jobs-'));
  t = await createTestApp({
    seed: async (database) => {
      await seedDemoLibrary(database, createLocalFileStorage(path.join(tempDir, 'seed')), {
        studies: 4,
        seed: 5,
        respondents: 40,
        lastYear: 2024,
      });
    },
  });
  researcher = await t.login('researcher');
});

afterAll(async () => {
  await t?.close();
  await rm(tempDir, { recursive: true, force: true });
});

const body = {
  q: {
    metrics: {
      rdfType: 'all',
      metricsList: [{ metricType: 'Performance', metric: 'liking', aggregation: 'mean', confidence: true }],
    },
  },
} as MetricSearchRequest;

/**
 * A search among respondents of some social classes over more metrics than the respondent indexes
 * keep (five): summed by the database, so queued.
 */
const queuedBody = {
  q: {
    demographics: { socialClass: ['B', 'C'] },
    metrics: {
      rdfType: 'all',
      metricsList: ['liking', 'purchase_intention', 'clean', 'fresh', 'relaxing', 'natural'].map(
        (metric) => ({ metric, aggregation: 'mean', confidence: true }),
      ),
    },
  },
} as MetricSearchRequest;

/** Posts the search of `payload` (at `url`, e.g. with no_cache) and answers its job id. */
const queueSearch = async (url = '/api/analytics/fragrances', payload = body) => {
  const queued = await t.request({ method: 'POST', url, token: researcher, payload });
  expect(queued.statusCode, queued.body).toBe(200);
  return queued.json<{ jobid: string }>().jobid;
};

const poll = async (jobId: string) => {
  const response = await t.request({
    method: 'GET',
    url: `/api/analytics/fragrances/${jobId}`,
    token: researcher,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<MetricSearchStatus>();
};

describe('finished jobs are kept a day', () => {
  const ago = (ms: number) => new Date(Date.now() - ms);

  it('removes the finished jobs of the given kinds written longer ago, and nothing else', async () => {
    const repository = createAnalyticsRepository(t.database.db);
    const old = ago(JOB_RESULT_TTL_MS + 60_000);
    const rows = [
      { id: 'old-finished', kind: JOB_KINDS.search, status: 'SUCCESS' as const, updatedAt: old },
      { id: 'old-failed', kind: JOB_KINDS.significance, status: 'FAILURE' as const, updatedAt: old },
      { id: 'old-running', kind: JOB_KINDS.search, status: 'STARTED' as const, updatedAt: old },
      { id: 'recent-finished', kind: JOB_KINDS.search, status: 'SUCCESS' as const, updatedAt: ago(60_000) },
      { id: 'old-upload', kind: 'fileprocess', status: 'SUCCESS' as const, updatedAt: old },
    ];
    await t.database.db.insert(jobResults).values(rows.map((row) => ({ ...row, result: { n: 1 } })));
    expect(
      await repository.removeFinishedJobs([JOB_KINDS.search, JOB_KINDS.significance], JOB_RESULT_TTL_MS),
    ).toBe(2);
    const left = await t.database.db
      .select({ id: jobResults.id })
      .from(jobResults)
      .where(
        inArray(
          jobResults.id,
          rows.map((row) => row.id),
        ),
      );
    expect(left.map((row) => row.id).sort()).toEqual(['old-running', 'old-upload', 'recent-finished']);
  });

  it('a search whose earlier twin’s row was removed is answered again from its own request', async () => {
    const first = await queueSearch();
    const before = await poll(first);
    expect(before.status).toBe('SUCCESS');
    const second = await queueSearch();
    expect((await poll(second)).status).toBe('SUCCESS');
    await t.database.db.delete(jobResults).where(eq(jobResults.id, first));
    // Another process (no answers in its memory) reads the rows alone.
    const other = await t.secondProcess({ workers: false });
    try {
      const response = await other.request({
        method: 'GET',
        url: `/api/analytics/fragrances/${second}`,
        token: researcher,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<MetricSearchStatus>()).toEqual(before);
    } finally {
      await other.close();
    }
  });

  it('a finished search row of an older version, without its request, tells the user to run the search again', async () => {
    const { rows } = await t.database.sql.executeSql(
      `select id from users where email = 'researcher@accord.test'`,
      [],
    );
    const id = '00000000-0000-4000-8000-0000000000a1';
    await t.database.db.insert(jobResults).values({
      id,
      userId: (rows[0] as { id: number }).id,
      kind: JOB_KINDS.search,
      status: 'SUCCESS',
      progress: 100,
      result: { results: [] },
    });
    expect(await poll(id)).toMatchObject({ status: 'FAILURE', error: ANALYTICS_MESSAGES.jobExpired });
  });
});

describe('analytics jobs on the queue', () => {
  let firstResult: unknown;

  it('runs a search as a queued job that is done at its first poll', async () => {
    const jobid = await queueSearch('/api/analytics/fragrances', queuedBody);
    const status = await poll(jobid);
    expect(status.status, status.error ?? '').toBe('SUCCESS');
    expect(status.result!.json.results.length).toBeGreaterThan(0);
    firstResult = status.result!.json;
    // The result is stored before the queue marks the job complete; the mark follows within moments.
    const job = () =>
      t.jobs.boss.getJobById<{ kind: string; user: { email: string } }>(ANALYTICS_QUEUE, jobid);
    await expect.poll(async () => (await job())?.state, { timeout: 5000 }).toBe('completed');
    expect((await job())?.data).toMatchObject({
      kind: JOB_KINDS.search,
      user: { email: 'researcher@accord.test' },
    });
  });

  it('keeps a job queued while no worker runs; a worker that starts later finishes it', async () => {
    await t.jobs.boss.offWork(ANALYTICS_QUEUE);
    const jobid = await queueSearch('/api/analytics/fragrances?no_cache=true', queuedBody);
    expect(await poll(jobid)).toMatchObject({ status: 'STARTED', result: null });
    expect((await t.jobs.boss.getJobById(ANALYTICS_QUEUE, jobid))?.state).toBe('created');

    // Another app on the same database, with its own queue and workers (a worker process).
    const worker = await t.secondProcess();
    try {
      let status = await poll(jobid);
      for (let attempt = 0; attempt < 100 && status.status === 'STARTED'; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = await poll(jobid);
      }
      expect(status.status, status.error ?? '').toBe('SUCCESS');
      expect(status.result!.json).toEqual(firstResult);
      await expect
        .poll(async () => (await t.jobs.boss.getJobById(ANALYTICS_QUEUE, jobid))?.state, { timeout: 5000 })
        .toBe('completed');
    } finally {
      await worker.close();
    }
  });
});
