// Long product lists are read per metric and narrowed in memory: the same statistics as the id list.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoLibrary } from '../../seed/library.ts';
import { createLocalFileStorage } from '../../storage/file-storage.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { createAnalyticsRepository, respondentConditions } from './analytics.repository.ts';

let t: TestApp;
let storageDir: string;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'accord-analytics-repo-'));
  t = await createTestApp({
    seed: (database) =>
      seedDemoLibrary(database, createLocalFileStorage(storageDir), {
        studies: 4,
        seed: 5,
        respondents: 40,
      }).then(() => undefined),
  });
});

afterAll(async () => {
  await t?.close();
  await rm(storageDir, { recursive: true, force: true });
});

describe('statistics of a long product list', () => {
  it('are the same read through the id list or per metric and narrowed', async () => {
    const { rows } = await t.database.sql.executeSql('select id from products order by id');
    const ids = (rows as { id: number }[]).map((row) => Number(row.id)).filter((_, index) => index % 3 !== 0);
    const byList = createAnalyticsRepository(t.database.db);
    const narrowed = createAnalyticsRepository(t.database.db, { productListLimit: 1 });
    const sort = <T extends { productId: number; metricId: number }>(list: T[]) =>
      [...list].sort((a, b) => a.productId - b.productId || a.metricId - b.metricId);
    const stored = sort(await byList.storedSums(ids, [1, 3]));
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((row) => ids.includes(row.productId))).toBe(true);
    expect(sort(await narrowed.storedSums(ids, [1, 3]))).toEqual(stored);
    const female = respondentConditions({ gender: ['Female'] }, []);
    const filtered = sort(await byList.answerSums(ids, [1], [], female));
    expect(filtered.length).toBeGreaterThan(0);
    expect(sort(await narrowed.answerSums(ids, [1], [], female))).toEqual(filtered);
  });
});
