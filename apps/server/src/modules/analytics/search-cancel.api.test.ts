// Cancelling a long search through the running app: a search that has not ended becomes REVOKED
// at once, its polls end with the cancel's message and its work records nothing after; a search
// already finished keeps its result (the screen's previous results stay as they were); only its
// owner may cancel it, and only users of the analytics.
import {
  ANALYTICS_MESSAGES,
  type CancelledJob,
  type MetricSearchPageStatus,
  type MetricSearchStatus,
  type TopAttributesStatus,
} from '@accord/contracts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';
import { JOB_KINDS } from './analytics-job-runner.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp('accord-search-cancel-', { studies: 4, seed: 5, respondents: 30 }, tokens);
});

afterAll(() => t?.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, role: DemoRole | null, payload?: unknown) =>
  t.request({ method, url, payload, ...(role ? { token: tokens[role] } : {}) });

const SEARCH = {
  q: { metrics: { metricsList: [{ metric: 'liking', aggregation: 'top_2_box' }] } },
  type: 'fragrances',
};

/**
 * A search still running, as the worker leaves it between two of its steps: its row STARTED, part
 * of the way (the library of the test answers any real search within the POST's wait).
 */
async function runningJob(role: DemoRole, kind: string = JOB_KINDS.search): Promise<string> {
  const id = randomUUID();
  await t.database.sql.executeSql(
    `insert into job_results (id, user_id, kind, status, progress, request)
       select $1, id, $2, 'STARTED', 30, $3 from users where email = $4`,
    [id, kind, JSON.stringify(SEARCH), `${role}@accord.test`],
  );
  return id;
}

async function progressOf(id: string): Promise<{ status: string; progress: number }> {
  const { rows } = await t.database.sql.executeSql(`select status, progress from job_results where id = $1`, [
    id,
  ]);
  const [row] = rows as { status: string; progress: number }[];
  return { status: row!.status, progress: Number(row!.progress) };
}

describe('DELETE /api/analytics/fragrances/{jobId}', () => {
  it('reports a running search’s progress, then cancels it: REVOKED at once, its polls end with the message', async () => {
    const id = await runningJob('researcher');
    const polled = (
      await call('GET', `/api/analytics/fragrances/${id}`, 'researcher')
    ).json<MetricSearchStatus>();
    expect(polled).toMatchObject({ status: 'STARTED', progress: 30, result: null });
    const page = (
      await call('GET', `/api/analytics/fragrances/${id}/page`, 'researcher')
    ).json<MetricSearchPageStatus>();
    expect(page).toMatchObject({ status: 'STARTED', progress: 30, result: null });

    const cancelled = await call('DELETE', `/api/analytics/fragrances/${id}`, 'researcher');
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<CancelledJob>()).toEqual({ status: 'REVOKED', progress: 30 });
    const after = (
      await call('GET', `/api/analytics/fragrances/${id}`, 'researcher')
    ).json<MetricSearchStatus>();
    expect(after).toMatchObject({ status: 'REVOKED', result: null, error: ANALYTICS_MESSAGES.jobCancelled });
    // Cancelling again changes nothing.
    expect(
      (await call('DELETE', `/api/analytics/fragrances/${id}`, 'researcher')).json<CancelledJob>(),
    ).toEqual({
      status: 'REVOKED',
      progress: 30,
    });
  });

  it('leaves a finished search and its result as they were', async () => {
    const queued = await call('POST', '/api/analytics/fragrances', 'researcher', SEARCH);
    expect(queued.statusCode, queued.body).toBe(200);
    const { jobid } = queued.json<{ jobid: string }>();
    const before = (
      await call('GET', `/api/analytics/fragrances/${jobid}`, 'researcher')
    ).json<MetricSearchStatus>();
    expect(before).toMatchObject({ status: 'SUCCESS', progress: 100 });
    expect(before.result!.json.results.length).toBeGreaterThan(0);
    const cancelled = await call('DELETE', `/api/analytics/fragrances/${jobid}`, 'researcher');
    expect(cancelled.json<CancelledJob>()).toEqual({ status: 'SUCCESS', progress: 100 });
    const after = (
      await call('GET', `/api/analytics/fragrances/${jobid}`, 'researcher')
    ).json<MetricSearchStatus>();
    expect(after).toEqual(before);
    expect((await progressOf(jobid)).status).toBe('SUCCESS');
  });

  it('refuses anonymous callers (401), users without the analytics (403), a bad id (400) and another user’s search (404)', async () => {
    const id = await runningJob('admin');
    expect((await call('DELETE', `/api/analytics/fragrances/${id}`, null)).statusCode).toBe(401);
    expect((await call('DELETE', `/api/analytics/fragrances/${id}`, 'client')).statusCode).toBe(403);
    expect((await call('DELETE', `/api/analytics/fragrances/${id}`, 'sales')).statusCode).toBe(403);
    const bad = await call('DELETE', '/api/analytics/fragrances/not-a-job', 'researcher');
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toContain('Not a job id');
    expect((await call('DELETE', `/api/analytics/fragrances/${id}`, 'researcher')).statusCode).toBe(404);
    expect(await progressOf(id)).toEqual({ status: 'STARTED', progress: 30 });
    // Nor is a top attributes job a search.
    const attributes = await runningJob('researcher', JOB_KINDS.attributes);
    expect((await call('DELETE', `/api/analytics/fragrances/${attributes}`, 'researcher')).statusCode).toBe(
      404,
    );
  });
});

describe('DELETE /api/analytics/top-attributes/{jobId}', () => {
  it('cancels a running top attributes job of the caller, and no other', async () => {
    const id = await runningJob('researcher', JOB_KINDS.attributes);
    expect((await call('DELETE', `/api/analytics/top-attributes/${id}`, 'admin')).statusCode).toBe(404);
    expect((await call('DELETE', `/api/analytics/top-attributes/${id}`, null)).statusCode).toBe(401);
    expect((await call('DELETE', `/api/analytics/top-attributes/${id}`, 'client')).statusCode).toBe(403);
    const cancelled = await call('DELETE', `/api/analytics/top-attributes/${id}`, 'researcher');
    expect(cancelled.json<CancelledJob>()).toEqual({ status: 'REVOKED', progress: 30 });
    const after = (
      await call('GET', `/api/analytics/top-attributes/${id}`, 'researcher')
    ).json<TopAttributesStatus>();
    expect(after).toMatchObject({ status: 'REVOKED', result: null, error: ANALYTICS_MESSAGES.jobCancelled });
  });
});
