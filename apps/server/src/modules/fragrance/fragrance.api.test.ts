// One fragrance across its tests through the running app: the pooled estimate against a
// DerSimonian-Laird computation written here on study means recomputed from the raw answers, client
// scoping of a code tested for several clients, and the refusals.
import { FRAGRANCE_MESSAGES, FragranceResponse, FRAGRANCE_TEST_METRICS } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../seed/users.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};
const clientUserClients = DEMO_USERS.find((user) => user.roleId === 3)!.clients;

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-fragrance-',
    { studies: 24, seed: 11, respondents: 40, lastYear: 2025 },
    tokens,
  );
});

afterAll(() => t?.close());

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

const get = (code: string, role: DemoRole | null) =>
  t.request({
    method: 'GET',
    url: `/api/fragrance/${encodeURIComponent(code)}`,
    token: role ? tokens[role] : undefined,
  });

async function fragranceOf(code: string, role: DemoRole): Promise<FragranceResponse> {
  const response = await get(code, role);
  expect(response.statusCode, response.body).toBe(200);
  return FragranceResponse.parse(response.json());
}

/** Harmonised answers (METRICS.md section 1) of a metric per study for a code, from the raw answers. */
async function answersByStudy(
  code: string,
  metric: string,
  verifiedOnly: boolean,
): Promise<Map<number, number[]>> {
  const rows = await query<{ study_id: number; raw_value: number; scale_min: number; scale_max: number }>(
    `select p.study_id, a.raw_value, q.scale_min, q.scale_max
      from answers a join questions q on q.id = a.question_id join metrics m on m.id = a.metric_id
      join products p on p.id = a.product_id join fragrances f on f.id = p.fragrance_id
      join studies s on s.id = p.study_id
      where f.code = $1 and m.name = $2 and (s.verified or not $3)`,
    [code, metric, verifiedOnly],
  );
  const byStudy = new Map<number, number[]>();
  for (const row of rows) {
    const harmonised = 1 + (4 * (Number(row.raw_value) - row.scale_min)) / (row.scale_max - row.scale_min);
    const list = byStudy.get(Number(row.study_id)) ?? [];
    list.push(harmonised);
    byStudy.set(Number(row.study_id), list);
  }
  return byStudy;
}

/** DerSimonian-Laird random-effects pooling, written out from its definition. */
function dersimonianLaird(studies: { mean: number; variance: number }[]) {
  const k = studies.length;
  const w = studies.map((study) => 1 / study.variance);
  const sw = w.reduce((a, b) => a + b, 0);
  const fixed = studies.reduce((acc, study, i) => acc + w[i]! * study.mean, 0) / sw;
  const q = studies.reduce((acc, study, i) => acc + w[i]! * (study.mean - fixed) ** 2, 0);
  const c = sw - w.reduce((acc, wi) => acc + wi * wi, 0) / sw;
  const tau2 = Math.max(0, (q - (k - 1)) / c);
  const ws = studies.map((study) => 1 / (study.variance + tau2));
  const sws = ws.reduce((a, b) => a + b, 0);
  const estimate = studies.reduce((acc, study, i) => acc + ws[i]! * study.mean, 0) / sws;
  const se = Math.sqrt(1 / sws);
  return {
    estimate,
    se,
    tau2,
    q,
    i2: q > k - 1 ? (q - (k - 1)) / q : 0,
    low: estimate - 1.959963984540054 * se,
    high: estimate + 1.959963984540054 * se,
  };
}

function meanAndVariance(values: number[]) {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sampleVariance = values.reduce((acc, v) => acc + (v - mean) ** 2, 0) / (n - 1);
  return { mean, variance: sampleVariance / n, n };
}

/** The code tested in the most verified studies of the demo library. */
async function mostTestedCode(): Promise<{ code: string; studies: number }> {
  const [row] = await query<{ code: string; studies: number }>(
    `select f.code, count(distinct f.study_id)::int as studies from fragrances f
      join studies s on s.id = f.study_id where s.verified
      group by f.code order by 2 desc, 1 limit 1`,
  );
  return { code: row!.code, studies: Number(row!.studies) };
}

describe('GET /api/fragrance/{code}', () => {
  it('needs a signed-in user, a 6-digit code and a test the user may see', async () => {
    const { code } = await mostTestedCode();
    expect((await get(code, null)).statusCode).toBe(401);
    for (const malformed of ['12345', '1234567', 'abcdef', '12 456']) {
      const response = await get(malformed, 'researcher');
      expect(response.statusCode, malformed).toBe(400);
      expect(errorBody(response).message).toContain(FRAGRANCE_MESSAGES.malformedCode);
    }
    // Demo codes start at 100000: this one exists nowhere.
    const unknown = await get('000001', 'researcher');
    expect(unknown.statusCode).toBe(404);
    expect(errorBody(unknown).message).toBe(FRAGRANCE_MESSAGES.notFound);
  });

  it('pools the study means of a re-tested fragrance as DerSimonian-Laird does, from the raw answers', async () => {
    const { code, studies } = await mostTestedCode();
    // The demo library re-tests fragrances under the same code.
    expect(studies).toBeGreaterThanOrEqual(3);
    const found = await fragranceOf(code, 'researcher');
    expect(new Set(found.tests.map((test) => test.study_id)).size).toBeGreaterThanOrEqual(studies);
    for (const metric of FRAGRANCE_TEST_METRICS) {
      const byStudy = await answersByStudy(code, metric, true);
      const summaries = [...byStudy.values()].filter((values) => values.length >= 2).map(meanAndVariance);
      const expected = dersimonianLaird(summaries);
      const pooled = found.pooled.find((entry) => entry.metric === metric)!;
      expect(pooled.k).toBe(summaries.length);
      expect(pooled.estimate).toBeCloseTo(expected.estimate, 10);
      expect(pooled.std_error).toBeCloseTo(expected.se, 10);
      expect(pooled.ci_low).toBeCloseTo(expected.low, 10);
      expect(pooled.ci_high).toBeCloseTo(expected.high, 10);
      expect(pooled.tau2).toBeCloseTo(expected.tau2, 10);
      expect(pooled.q).toBeCloseTo(expected.q, 8);
      expect(pooled.i2).toBeCloseTo(expected.i2, 10);
      // Each test's mean and base are those of its own answers.
      for (const test of found.tests) {
        const values =
          byStudy.get(test.study_id) ?? (await answersByStudy(code, metric, false)).get(test.study_id);
        if (!values) continue;
        expect(test.scores[metric]!.n).toBe(values.length);
        expect(test.scores[metric]!.mean).toBeCloseTo(meanAndVariance(values).mean, 10);
      }
    }
    // The by-market and by-year groups hold every pooled study once.
    const pooledStudies = new Set(found.tests.filter((test) => test.pooled).map((test) => test.study_id))
      .size;
    expect(found.by_year.reduce((acc, group) => acc + group.tests, 0)).toBe(pooledStudies);
    expect(found.by_market.reduce((acc, group) => acc + group.tests, 0)).toBe(pooledStudies);
    const years = found.by_year.map((group) => Number(group.key));
    expect(years).toEqual([...years].sort((a, b) => a - b));
  });

  it('shows a client user only the tests of their clients, never another client test of the same code', async () => {
    // A fragrance of a verified study of the client user, and the same code given to a fragrance of
    // another client's study and to one of an unverified study of the client user.
    const [own] = await query<{ code: string; study_id: number }>(
      `select f.code, f.study_id from fragrances f join studies s on s.id = f.study_id
        where s.verified and s.client = any($1::text[]) order by f.id limit 1`,
      [clientUserClients],
    );
    const [foreign] = await query<{ id: number; study_id: number; client: string; project_name: string }>(
      `select f.id, f.study_id, s.client, s.project_name from fragrances f join studies s on s.id = f.study_id
        where s.verified and not (s.client = any($1::text[])) order by f.id limit 1`,
      [clientUserClients],
    );
    const [unverified] = await query<{ id: number; study_id: number }>(
      `select f.id, f.study_id from fragrances f join studies s on s.id = f.study_id
        where s.client = any($1::text[]) and s.id <> $2 order by f.id desc limit 1`,
      [clientUserClients, own!.study_id],
    );
    await query(`update fragrances set code = $1 where id = any($2::int[])`, [
      own!.code,
      [foreign!.id, unverified!.id],
    ]);
    await query(`update studies set verified = false where id = $1`, [unverified!.study_id]);

    const seen = await fragranceOf(own!.code, 'client');
    expect(seen.tests.map((test) => test.study_id)).toEqual([own!.study_id]);
    expect(seen.tests.every((test) => clientUserClients.includes(test.client))).toBe(true);
    const text = JSON.stringify(seen);
    expect(text).not.toContain(foreign!.client);
    expect(text).not.toContain(foreign!.project_name);
    // One study: nothing to pool.
    for (const pooled of seen.pooled) {
      expect(pooled.k).toBeLessThanOrEqual(1);
      expect(pooled.estimate).toBeNull();
      expect(pooled.i2).toBeNull();
    }

    const all = await fragranceOf(own!.code, 'researcher');
    expect(new Set(all.tests.map((test) => test.study_id))).toEqual(
      new Set([own!.study_id, foreign!.study_id, unverified!.study_id]),
    );
    const hidden = all.tests.find((test) => test.study_id === unverified!.study_id)!;
    expect(hidden).toMatchObject({ verified: false, pooled: false });
    expect(all.pooled.find((entry) => entry.metric === 'liking')!.k).toBe(2);

    // A code tested only for other clients is not found for the client user.
    await query(`update fragrances set code = '999999' where id = $1`, [foreign!.id]);
    const elsewhere = await get('999999', 'client');
    expect(elsewhere.statusCode).toBe(404);
    expect(errorBody(elsewhere).message).toBe(FRAGRANCE_MESSAGES.notFound);
    expect((await get('999999', 'researcher')).statusCode).toBe(200);
  });
});
