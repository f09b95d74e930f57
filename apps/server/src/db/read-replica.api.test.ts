// Reads on a PostgreSQL streaming replica (DATABASE_READ_URL): runs when the replica test script
// (scripts/replica-test.sh) gives a primary and a standby, and is skipped otherwise. Searches and
// option counts are answered by the replica once it has replayed the library's writes, and a write
// is seen by the very next read of its writer, however far the replica lags.
import type { MetricSearchStatus } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { seedDemoLibrary } from '../seed/library.ts';
import { createLocalFileStorage } from '../storage/file-storage.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const withReplica = Boolean(process.env.DATABASE_URL && process.env.DATABASE_READ_URL);

describe.skipIf(!withReplica)('reads on a streaming replica', () => {
  let t: TestApp;
  let storageDir: string;
  let admin: string;

  beforeAll(async () => {
    storageDir = await mkdtemp(path.join(os.tmpdir(), 'accord-replica-'));
    t = await createTestApp({
      seed: async (database) => {
        await seedDemoLibrary(database, createLocalFileStorage(storageDir), {
          studies: 3,
          seed: 3,
          lastYear: 2024,
          products: 3,
          respondents: 20,
          questions: 10,
        });
      },
    });
    admin = await t.login('admin');
  });

  afterAll(async () => {
    await t?.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  const airCareCount = async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/smartsearch/',
      token: admin,
      payload: { query: { essentials: { category: ['Air Care'] } } },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ summaries: number }>().summaries;
  };

  it('answers searches from the replica once it has replayed the library', async () => {
    expect(t.database.readReplicas).toBe(1);
    // Replication is asynchronous: wait until the replica is current, then search.
    await expect
      .poll(
        async () => {
          const before = t.database.replicaReads();
          await airCareCount();
          return t.database.replicaReads() - before;
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBeGreaterThan(0);

    const before = t.database.replicaReads();
    const queued = await t.request({
      method: 'POST',
      url: '/api/analytics/fragrances?no_cache=true',
      token: admin,
      payload: {
        q: { metrics: { rdfType: 'all', metricsList: [{ metric: 'liking', aggregation: 'mean' }] } },
      },
    });
    expect(queued.statusCode, queued.body).toBe(200);
    const { jobid } = queued.json<{ jobid: string }>();
    await expect
      .poll(
        async () =>
          (
            await t.request({ method: 'GET', url: `/api/analytics/fragrances/${jobid}`, token: admin })
          ).json<MetricSearchStatus>().status,
        { timeout: 10_000, interval: 100 },
      )
      .toBe('SUCCESS');
    expect(t.database.replicaReads()).toBeGreaterThan(before);
  });

  it('shows a writer its own edit at once, while the replica may still lag', async () => {
    const studies = await t.database.sql.executeSql(
      `select id from studies where category is distinct from 'Air Care' order by id limit 3`,
    );
    let expected = await airCareCount();
    // Each edit is read back at once, many times over: a read of a lagging replica would miss one.
    for (const row of studies.rows) {
      const edited = await t.request({
        method: 'PUT',
        url: '/api/smartsearch/update',
        token: admin,
        payload: { studies: [row.id], data: [{ key: 'category', value: ['Air Care'] }] },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expected += 1;
      expect(await airCareCount()).toBe(expected);
    }
  });
});
