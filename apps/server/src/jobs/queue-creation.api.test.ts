// Processes starting together create the same job queues at once; pg-boss creates a queue's
// tables and partitions, and two such creations deadlock. They take turns on an advisory lock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { startJobQueue, type JobQueue } from './queue.ts';

let t: TestApp;
const others: JobQueue[] = [];

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  for (const jobs of others) await jobs.stop();
  await t?.close();
});

describe('queue creation by processes starting together', () => {
  it('runs the locked sections one at a time', async () => {
    const spans: [number, number][] = [];
    const section = () =>
      t.database.withLock(7_311_099, async () => {
        const start = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 150));
        spans.push([start, performance.now()]);
      });
    await Promise.all([section(), section(), section()]);
    spans.sort((a, b) => a[0] - b[0]);
    for (let index = 1; index < spans.length; index++)
      expect(spans[index]![0]).toBeGreaterThanOrEqual(spans[index - 1]![1]);
  });

  it('four queues creating the same eight queues at once all succeed, each queue made once', async () => {
    const queues = await Promise.all(Array.from({ length: 4 }, () => startJobQueue(t.database)));
    others.push(...queues);
    const names = Array.from({ length: 8 }, (_, index) => `together-${index}`);
    const results = await Promise.allSettled(
      queues.flatMap((jobs) => names.map((name) => jobs.register(name, async () => undefined))),
    );
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const { rows } = await t.database.sql.executeSql(
      `select name from pgboss.queue where name like 'together-%' order by name`,
    );
    expect(rows.map((row) => row.name)).toEqual(names);
  });
});
