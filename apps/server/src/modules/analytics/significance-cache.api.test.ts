// Finished Calculates kept in memory (significance-cache.ts, significance-answers.ts) through the
// running app: the same Calculate asked again or at the same time is computed once (the other jobs'
// rows point to the row holding its marks), ?no_cache=true computes afresh, a mapping edit gives
// fresh marks, and a client user never reads the marks an admin's Calculate left for products
// outside the client's scope.
import {
  ANALYTICS_MESSAGES,
  permissionsForRole,
  SignificanceRequest,
  type SignificanceStatus,
} from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../plugins/auth.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';
import { createFieldsRepository } from '../fields/fields.repository.ts';
import { createAnalyticsService } from './analytics.service.ts';
import { createAnalyticsRepository } from './analytics.repository.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-significance-cache-',
    { studies: 8, seed: 29, respondents: 60, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

const call = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
  role: DemoRole | null = 'admin',
) => t.request({ method, url, payload, token: role ? tokens[role] : undefined });

/** Fragrance products with liking answers by verified study, with the study's client (three or more a study). */
async function studies(): Promise<{ study: number; client: string; products: number[] }[]> {
  const rows = await query<{ study_id: number; client: string; ids: number[] }>(
    `select p.study_id, s.client, array_agg(distinct p.id order by p.id) as ids
       from products p join studies s on s.id = p.study_id
       join metrics m on m.name = 'liking'
      where s.verified and p.kind = 'fragrance'
        and exists (select 1 from answers a where a.product_id = p.id and a.metric_id = m.id)
      group by p.study_id, s.client having count(distinct p.id) >= 3 order by p.study_id`,
  );
  return rows.map((row) => ({
    study: Number(row.study_id),
    client: row.client,
    products: row.ids.map(Number),
  }));
}

const bodyOf = (products: readonly number[]): SignificanceRequest => ({
  data: products.map((id) => ({ id })),
  calculation: 'rest',
  metrics: [
    { field: 'liking', aggregation: 'mean', confidence: true },
    { field: 'liking', aggregation: 'top_2_box', confidence: true },
  ],
});

async function queue(body: SignificanceRequest, path = '/api/analytics/significance'): Promise<string> {
  const queued = await call('POST', path, body);
  expect(queued.statusCode, queued.body).toBe(200);
  return queued.json<{ job_id: string }>().job_id;
}

async function marksOf(
  jobId: string,
): Promise<{ text: string; result: NonNullable<SignificanceStatus['result']> }> {
  const status = await call('GET', `/api/analytics/significance/${jobId}`);
  expect(status.statusCode).toBe(200);
  const parsed = status.json<SignificanceStatus>();
  expect(parsed.status, parsed.error ?? '').toBe('SUCCESS');
  return { text: JSON.stringify(parsed.result), result: parsed.result! };
}

/** What a job's row keeps: the marks themselves, or the job whose row holds them. */
async function rowOf(jobId: string): Promise<'marks' | { sameAs: string }> {
  const [row] = await query<{ result: string }>(`select result from job_results where id = $1`, [jobId]);
  const stored = JSON.parse(row!.result) as Record<string, unknown>;
  if (typeof stored.same_as_job === 'string') return { sameAs: stored.same_as_job };
  expect(stored.results).toBeInstanceOf(Array);
  return 'marks';
}

describe('Calculate answers kept in memory', () => {
  it('needs analytics access and a readable no_cache flag', async () => {
    const [first] = await studies();
    const body = bodyOf(first!.products);
    expect((await call('POST', '/api/analytics/significance?no_cache=true', body, null)).statusCode).toBe(
      401,
    );
    expect((await call('POST', '/api/analytics/significance?no_cache=true', body, 'client')).statusCode).toBe(
      403,
    );
    const unreadable = await call('POST', '/api/analytics/significance?no_cache=maybe', body);
    expect(unreadable.statusCode).toBe(400);
    expect(errorBody(unreadable).message).toContain('no_cache');
  });

  it('computes the same Calculate asked twice at once or again once, and afresh with no_cache', async () => {
    const [first, second] = await studies();
    const body = bodyOf([...first!.products, ...second!.products]);
    const [one, two] = await Promise.all([queue(body), queue(body)]);
    const rows = [await rowOf(one), await rowOf(two)];
    // One computation: one row holds the marks, the other points to it.
    const computed = rows.indexOf('marks');
    expect(computed).toBeGreaterThanOrEqual(0);
    expect(rows[1 - computed]).toEqual({ sameAs: [one, two][computed] });
    const marks = await marksOf(one);
    expect((await marksOf(two)).text).toBe(marks.text);
    expect(marks.result.results.length).toBe(first!.products.length + second!.products.length);

    const again = await queue(body);
    expect(await rowOf(again)).toEqual({ sameAs: [one, two][computed] });
    expect((await marksOf(again)).text).toBe(marks.text);

    const fresh = await queue(body, '/api/analytics/significance?no_cache=true');
    expect(await rowOf(fresh)).toBe('marks');
    expect((await marksOf(fresh)).text).toBe(marks.text);

    // Another correction is another Calculate.
    const uncorrected = await queue({ ...body, correction: 'none' });
    expect(await rowOf(uncorrected)).toBe('marks');
    expect((await marksOf(uncorrected)).result.correction).toBe('none');
  });

  it('answers the marks of a kept Calculate to another server process from the rows', async () => {
    const [, second, third] = await studies();
    const body = bodyOf([...second!.products, ...third!.products]);
    const first = await queue(body);
    const again = await queue(body);
    expect(await rowOf(again)).toEqual({ sameAs: first });
    const marks = await marksOf(first);
    const other = await t.secondProcess({ workers: false });
    try {
      for (const jobId of [first, again]) {
        const elsewhere = await other.request({
          method: 'GET',
          url: `/api/analytics/significance/${jobId}`,
          token: tokens.admin,
        });
        expect(elsewhere.statusCode).toBe(200);
        const status = elsewhere.json<SignificanceStatus>();
        expect(status.status).toBe('SUCCESS');
        expect(JSON.stringify(status.result)).toBe(marks.text);
      }
      // Not the caller's job: not found there either.
      const foreign = await other.request({
        method: 'GET',
        url: `/api/analytics/significance/${again}`,
        token: tokens.researcher,
      });
      expect(foreign.statusCode).toBe(404);
    } finally {
      await other.close();
    }
    // Nor here, where the marks are held in memory for their owner only.
    expect(
      (await call('GET', `/api/analytics/significance/${again}`, undefined, 'researcher')).statusCode,
    ).toBe(404);
  });

  it('gives fresh marks after a mapping edit moves answers out of the metric', async () => {
    const [, , third, fourth] = await studies();
    const body = bodyOf([...third!.products, ...fourth!.products]);
    const before = await marksOf(await queue(body));
    const ofThird = (result: typeof before.result) =>
      result.results.filter((row) => third!.products.includes(row.id));
    for (const row of ofThird(before.result))
      expect((row['liking.mean.confidence'] as { n: number }).n).toBeGreaterThan(0);
    expect(await rowOf(await queue(body))).toMatchObject({ sameAs: expect.any(String) });

    // The third study's liking questions leave the metric (validated ones are un-validated first).
    const questions = await query<{ id: number; metric_validated: boolean }>(
      `select q.id, q.metric_validated from questions q join metrics m on m.id = q.metric_id
        where q.study_id = $1 and m.name = 'liking'`,
      [third!.study],
    );
    expect(questions.length).toBeGreaterThan(0);
    for (const question of questions) {
      if (question.metric_validated) {
        const listed = (await call('GET', `/api/study/${third!.study}/questions/`)).json<{
          files: { questions: { id: number }[] }[];
        }>();
        const full = listed.files.flatMap((file) => file.questions).find((entry) => entry.id === question.id);
        const unvalidated = await call('PUT', `/api/study/${third!.study}/question/`, {
          q_upd: { ...full, metric_validated: false },
        });
        expect(unvalidated.statusCode, unvalidated.body).toBe(200);
      }
      const moved = await call('PUT', `/api/study/${third!.study}/question/`, {
        q_upd: { id: question.id, metric: null },
      });
      expect(moved.statusCode, moved.body).toBe(200);
    }

    const afterJob = await queue(body);
    expect(await rowOf(afterJob)).toBe('marks');
    const after = await marksOf(afterJob);
    for (const row of ofThird(after.result))
      expect(row['liking.mean.confidence']).toMatchObject({ n: 0, p_value: null, level: null });
  });

  it('keeps a client user apart from the marks an admin left for products outside the client scope', async () => {
    const analytics = createAnalyticsRepository(t.database.db);
    const service = createAnalyticsService({
      analytics,
      fields: createFieldsRepository(t.database.db),
      jobs: t.jobs,
    });
    const ids = await query<{ id: number; email: string }>(
      `select id, email from users where email in ('admin@accord.test', 'client@accord.test')`,
    );
    const userOf = (email: string, roleId: number, clients: string[]): AuthUser => ({
      id: Number(ids.find((row) => row.email === email)!.id),
      email,
      roleId,
      clients,
      sessionId: 'test',
      permissions: permissionsForRole(roleId),
    });
    const all = await studies();
    const mine = all[0]!;
    const other = all.find((entry) => entry.client !== mine.client)!;
    expect(other).toBeDefined();
    const admin = userOf('admin@accord.test', 1, []);
    const client = userOf('client@accord.test', 3, [mine.client]);

    // The admin's Calculate over both clients' products is kept; the client asks the same.
    const both = SignificanceRequest.parse(bodyOf([...mine.products, ...other.products]));
    const adminJob = (await service.queueSignificance(admin, both)).job_id;
    expect((await service.significanceStatus(admin, adminJob)).status).toBe('SUCCESS');
    const clientJob = (await service.queueSignificance(client, both)).job_id;
    const refused = await service.significanceStatus(client, clientJob);
    expect(refused).toMatchObject({
      status: 'FAILURE',
      result: null,
      error: ANALYTICS_MESSAGES.missingProducts(other.products),
    });

    // Within the client's scope, the client's Calculate is the client's own computation.
    const inScope = SignificanceRequest.parse(bodyOf(mine.products));
    const adminInScope = (await service.queueSignificance(admin, inScope)).job_id;
    const clientInScope = (await service.queueSignificance(client, inScope)).job_id;
    expect(await rowOf(clientInScope)).toBe('marks');
    const clientMarks = await service.significanceStatus(client, clientInScope);
    expect(clientMarks.status).toBe('SUCCESS');
    expect(clientMarks.result).toEqual((await service.significanceStatus(admin, adminInScope)).result);
    // And asked again, the client reads its own.
    const clientAgain = (await service.queueSignificance(client, inScope)).job_id;
    expect(await rowOf(clientAgain)).toEqual({ sameAs: clientInScope });
  });
});
