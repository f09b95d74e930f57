// The job rows read and written together (db/batched-read.ts): the rows of searches ended at once
// go in one insert, a bad row failing only its own caller; the state and selection reads asked for
// at once are one query, each caller answered for its own user and kind only.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { statementsDuring } from '../../testing/statements.ts';
import { createAnalyticsRepository, type AnalyticsRepository } from './analytics.repository.ts';
import { JOB_KINDS } from './analytics.service.ts';

let t: TestApp;
let repository: AnalyticsRepository;
let userIds: number[];

beforeAll(async () => {
  t = await createTestApp();
  repository = createAnalyticsRepository(t.database.db);
  userIds = (await t.database.db.select({ id: users.id }).from(users).orderBy(users.id)).map((row) => row.id);
  expect(userIds.length).toBeGreaterThanOrEqual(3);
});
afterAll(async () => {
  await t.close();
});

const stored = async (id: string) => {
  const result = (await t.database.db.execute(
    sql`select user_id, kind, status, progress, request, result, error from job_results where id = ${id}`,
  )) as unknown as { rows: Record<string, unknown>[] };
  return result.rows[0] ?? null;
};

describe('job rows of searches ended at once', () => {
  it('writes them in one insert, each committed before its caller is answered', async () => {
    const ids = ['ended-a', 'ended-b', 'ended-c'];
    const { count } = await statementsDuring(
      t.database.db,
      /\(id, user_id, kind, status, progress, request, result, error\)/,
      () =>
        Promise.all(
          ids.map(async (id, index) => {
            await repository.createEndedJob(
              id,
              userIds[index]!,
              JOB_KINDS.search,
              `{"n":${index}}`,
              index === 2 ? { error: 'refused' } : { text: `{"r":${index}}` },
            );
            // Answered only once its own row is there.
            expect(await stored(id)).not.toBeNull();
          }),
        ),
    );
    expect(count).toBe(1);
    expect(await stored('ended-a')).toMatchObject({
      user_id: userIds[0],
      kind: JOB_KINDS.search,
      status: 'SUCCESS',
      progress: 100,
      request: '{"n":0}',
      result: '{"r":0}',
      error: null,
    });
    expect(await stored('ended-c')).toMatchObject({ status: 'FAILURE', result: null, error: 'refused' });
  });

  it('fails only the caller of a bad row: the others of its insert are written alone', async () => {
    const answers = await Promise.allSettled([
      repository.createEndedJob('alone-a', userIds[0]!, JOB_KINDS.search, '{}', { text: '{}' }),
      // No such user: the foreign key refuses this row.
      repository.createEndedJob('alone-bad', 2_000_000_000, JOB_KINDS.search, '{}', { text: '{}' }),
      repository.createEndedJob('alone-b', userIds[1]!, JOB_KINDS.search, '{}', { text: '{}' }),
      // The same id twice: the second of them fails, the first is written.
      repository.createEndedJob('alone-a', userIds[0]!, JOB_KINDS.search, '{}', { text: '{}' }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
    ]);
    expect(await stored('alone-a')).toMatchObject({ user_id: userIds[0] });
    expect(await stored('alone-b')).toMatchObject({ user_id: userIds[1] });
    expect(await stored('alone-bad')).toBeNull();
  });
});

describe('job rows read at once', () => {
  it("answers each caller its own job's state and selection from one query, and null for another's", async () => {
    const [first, second] = userIds as [number, number];
    await repository.createEndedJob('read-1', first, JOB_KINDS.search, '{}', { text: '{}' });
    await repository.createEndedJob('read-2', second, JOB_KINDS.search, '{}', { error: 'no products' });
    await repository.createJob('read-3', second, JOB_KINDS.significance);
    expect(await repository.changeJobSelection('read-1', first, JOB_KINDS.search, { add: [7, 3] })).toBe(2);

    const { result, count } = await statementsDuring(t.database.db, /from job_results where id = any/, () =>
      Promise.all([
        repository.jobState('read-1', first, JOB_KINDS.search),
        repository.jobSelection('read-1', first, JOB_KINDS.search),
        repository.jobState('read-2', second, JOB_KINDS.search),
        repository.jobState('read-3', second, JOB_KINDS.significance),
        repository.jobSelection('read-2', second, JOB_KINDS.search),
        // Another user's job, another kind, no such job: not the caller's.
        repository.jobState('read-1', second, JOB_KINDS.search),
        repository.jobSelection('read-1', second, JOB_KINDS.search),
        repository.jobState('read-3', second, JOB_KINDS.search),
        repository.jobState('read-none', first, JOB_KINDS.search),
      ]),
    );
    expect(result).toEqual([
      { status: 'SUCCESS', progress: 100, error: null },
      [3, 7],
      { status: 'FAILURE', progress: 100, error: 'no products' },
      { status: 'STARTED', progress: 0, error: null },
      [],
      null,
      null,
      null,
      null,
    ]);
    expect(count).toBe(1);
  });

  it('sees a selection changed just before it, whatever is read with it', async () => {
    const [first] = userIds as [number];
    const state = repository.jobState('read-1', first, JOB_KINDS.search);
    await repository.changeJobSelection('read-1', first, JOB_KINDS.search, { clear: true });
    const [selection, again] = await Promise.all([
      repository.jobSelection('read-1', first, JOB_KINDS.search),
      repository.jobState('read-1', first, JOB_KINDS.search),
      state,
    ]);
    expect(selection).toEqual([]);
    expect(again).toEqual({ status: 'SUCCESS', progress: 100, error: null });
  });

  it('reads the result text of jobs asked for at once, each for its own caller', async () => {
    const [first, second] = userIds as [number, number];
    const [mine, theirs, failed] = await Promise.all([
      repository.findJobText('read-1', first, JOB_KINDS.search),
      repository.findJobText('read-1', second, JOB_KINDS.search),
      repository.findJobText('read-2', second, JOB_KINDS.search),
    ]);
    expect(mine).toEqual({ status: 'SUCCESS', progress: 100, text: '{}', error: null });
    expect(theirs).toBeNull();
    expect(failed).toEqual({ status: 'FAILURE', progress: 100, text: null, error: 'no products' });
  });
});
