// Category Profile top fragrances and Group Comparison through the running app on a generated
// library: sign-in, admin-only filters, bad input, unknown jobs, client scoping, and the numbers
// checked against the answers of the database (pooled boxes recomputed, tests from the stats package).
import {
  ANALYTICS_MESSAGES,
  GroupComparisonStatus,
  TopFamilyFragrancesStatus,
  type GroupComparisonRequest,
} from '@accord/contracts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { welchT } from '@accord/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DEMO_USERS } from '../../seed/users.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-comparisons-',
    { studies: 10, seed: 11, respondents: 60, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

const post = (url: string, payload: unknown, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'POST', url, payload, ...(role ? { token: tokens[role] } : {}) });
const get = (url: string, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'GET', url, ...(role ? { token: tokens[role] } : {}) });

/**
 * A status answer read through its contract schema, which must leave it as it is: the group
 * comparison's is sent as JSON text without the response serialiser, so a field missing, added or
 * of another type fails here.
 */
function throughContract<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.parse(body);
  expect(parsed).toEqual(body);
  return parsed;
}

async function finished<S extends z.ZodType<{ status: string }>>(
  schema: S,
  url: string,
  role: DemoRole = 'researcher',
): Promise<z.output<S>> {
  const response = await get(url, role);
  expect(response.statusCode, response.body).toBe(200);
  return throughContract(schema, response.json());
}

const CLIENT_CLIENTS = DEMO_USERS.find((user) => user.roleId === 3)!.clients;

describe('POST /api/group-comparison', () => {
  const units = async () =>
    (
      await query<{ unit: string }>(
        `select distinct unnest(product_area) as unit from studies where verified order by 1`,
      )
    ).map((row) => row.unit);

  it('needs a signed-in user', async () => {
    expect((await post('/api/group-comparison', { group1: {}, group2: {} }, null)).statusCode).toBe(401);
    expect((await get('/api/group-comparison/00000000-0000-4000-8000-000000000000', null)).statusCode).toBe(
      401,
    );
  });

  it('refuses admin-only filters to other users (403)', async () => {
    const response = await post(
      '/api/group-comparison',
      { group1: { essentials: { verified: false } }, group2: {} },
      'researcher',
    );
    expect(response.statusCode).toBe(403);
    expect(errorBody(response).message).toBe('Only admins may search not verified studies.');
  });

  it('refuses bad input with a clear message (400)', async () => {
    const missing = await post('/api/group-comparison', { group1: {} });
    expect(missing.statusCode).toBe(400);
    expect(errorBody(missing).message).toContain('group2');
    const ages = await post('/api/group-comparison', {
      group1: { demographics: { startAge: 50, endAge: 20 } },
      group2: {},
    });
    expect(ages.statusCode).toBe(400);
    expect(errorBody(ages).message).toContain('startAge must not be after endAge');
    expect((await get('/api/group-comparison/not-a-job')).statusCode).toBe(400);
  });

  it('answers 404 for an unknown job and for a job of another user', async () => {
    expect((await get('/api/group-comparison/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const queued = await post('/api/group-comparison', { group1: {}, group2: {} }, 'admin');
    const { jobid } = queued.json<{ jobid: string }>();
    expect((await get(`/api/group-comparison/${jobid}`, 'researcher')).statusCode).toBe(404);
  });

  it('compares two business units, done at the first poll, with the significance of each difference', async () => {
    const [unit1, unit2] = await units();
    const body: GroupComparisonRequest = {
      group1: { essentials: { businessUnit: [unit1!] } },
      group2: { essentials: { businessUnit: [unit2!] }, demographics: { gender: ['Female'] } },
    };
    const queued = await post('/api/group-comparison', body);
    expect(queued.statusCode, queued.body).toBe(200);
    const status = await finished(
      GroupComparisonStatus,
      `/api/group-comparison/${queued.json<{ jobid: string }>().jobid}`,
    );
    expect(status.status, status.error ?? '').toBe('SUCCESS');
    const { group1, group2, differences } = status.result!.json;

    const [expectedIds1, expectedIds2] = await Promise.all(
      [unit1, unit2].map(async (unit) =>
        (
          await query<{ id: number }>(
            `select p.id from products p join studies s on s.id = p.study_id
              where s.verified and p.kind = 'fragrance' and $1 = any(s.product_area)
                and s.rdf_type = 'rdf'`,
            [unit],
          )
        ).map((row) => row.id),
      ),
    );
    expect(group1.results.map((row) => row.id).sort((a, b) => a - b)).toEqual(
      expectedIds1!.sort((a, b) => a - b),
    );
    expect(group2.results.map((row) => row.id).sort((a, b) => a - b)).toEqual(
      expectedIds2!.sort((a, b) => a - b),
    );
    expect(group2.filtered).toBe(true);

    // The product is the unit (METRICS.md 2b): each fragrance's liking top 2 box share from the
    // answers, and a Welch t-test between the two groups' shares with n = products.
    const shares = async (ids: number[], gender: string | null) =>
      query<{ product_id: number; n: number; top2: number; respondents: number }>(
        `select a.product_id, count(*)::int as n, count(*) filter (where a.value >= 3.5)::int as top2
           from answers a join respondents r on r.id = a.respondent_id
           join metrics m on m.id = a.metric_id
          where m.name = 'liking' and a.product_id = any($1::int[]) and
             ($2::text is null or r.gender = $2)
          group by a.product_id`,
        [ids, gender],
      );
    const respondentsOf = async (ids: number[], gender: string | null, metric: string | null) => {
      const [row] = await query<{ n: number }>(
        `select count(distinct a.respondent_id)::int as n
           from answers a join respondents r on r.id = a.respondent_id
           join metrics m on m.id = a.metric_id
          where m.name = any($3::text[]) and a.product_id = any($1::int[]) and
             ($2::text is null or r.gender = $2)`,
        [ids, gender, metric ? [metric] : ['liking', 'purchase_intention', 'strength']],
      );
      return row!.n;
    };
    const ids1 = group1.results.map((row) => row.id);
    const ids2 = group2.results.map((row) => row.id);
    const one = (await shares(ids1, null)).map((row) => row.top2 / row.n);
    const two = (await shares(ids2, 'Female')).map((row) => row.top2 / row.n);
    const t2b = differences.find((entry) => entry.key === 'liking.top_2_box')!;
    expect(t2b.test).toBe('welch-t');
    expect(t2b.n1).toBe(one.length);
    expect(t2b.n2).toBe(two.length);
    expect(t2b.n1).toBeLessThan(100);
    const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(t2b.group1).toBeCloseTo(average(one), 10);
    expect(t2b.group2).toBeCloseTo(average(two), 10);
    const expected = welchT(one, two);
    expect(t2b.p_value).toBeCloseTo(expected.pValue, 10);
    const level = [0.01, 0.05, 0.1].find((candidate) => expected.pValue < candidate) ?? null;
    expect(t2b.level).toBe(level);
    if (level !== null) expect(t2b.table).toBe(expected.estimate > 0 ? 'mt' : 'let');
    // Both bases: products (the test's n) and the respondents behind them.
    expect(t2b.respondents1).toBe(await respondentsOf(ids1, null, 'liking'));
    expect(t2b.respondents2).toBe(await respondentsOf(ids2, 'Female', 'liking'));
    expect(t2b.respondents1).toBeGreaterThan(t2b.n1);
    const answered = async (ids: number[], gender: string | null) =>
      (
        await query<{ n: number }>(
          `select count(distinct a.product_id)::int as n
             from answers a join respondents r on r.id = a.respondent_id join metrics m on m.id = a.metric_id
            where m.name = any($3::text[]) and a.product_id = any($1::int[]) and ($2::text is null or r.gender = $2)`,
          [ids, gender, ['liking', 'purchase_intention', 'strength']],
        )
      )[0]!.n;
    expect(status.result!.json.bases).toEqual({
      group1: { products: await answered(ids1, null), respondents: await respondentsOf(ids1, null, null) },
      group2: {
        products: await answered(ids2, 'Female'),
        respondents: await respondentsOf(ids2, 'Female', null),
      },
    });
    expect(status.result!.json.bases.group1.products).toBe(t2b.n1);
    expect(status.result!.json.bases.group2.products).toBe(t2b.n2);
    // Asked again once the respondents of the metrics are held in memory: the same bases.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const again = await finished(
      GroupComparisonStatus,
      `/api/group-comparison/${(await post('/api/group-comparison', body)).json<{ jobid: string }>().jobid}`,
    );
    expect(again.result!.json.bases).toEqual(status.result!.json.bases);
    expect(again.result!.json.differences.map((entry) => [entry.respondents1, entry.respondents2])).toEqual(
      differences.map((entry) => [entry.respondents1, entry.respondents2]),
    );
    for (const entry of differences) expect(entry.test).toBe('welch-t');
    expect(differences.map((entry) => entry.key)).toEqual([
      'liking.mean',
      'liking.top_2_box',
      'liking.bottom_2_box',
      'purchase_intention.mean',
      'purchase_intention.top_2_box',
      'purchase_intention.bottom_2_box',
      'strength.top_2_box',
      'strength.just_right',
      'strength.bottom_2_box',
    ]);
  });

  it("counts in a group's product base only the products with answers under its filter: the test's n", async () => {
    const [unit1, unit2] = await units();
    const ids = (
      await query<{ id: number }>(
        `select p.id from products p join studies s on s.id = p.study_id
          where s.verified and p.kind = 'fragrance' and $1 = any(s.product_area) and s.rdf_type = 'rdf'`,
        [unit2],
      )
    ).map((row) => row.id);
    // An age at which some of the group's products have answers and some have none.
    const ages = await query<{ age: number; products: number }>(
      `select r.age, count(distinct a.product_id)::int as products
         from answers a join respondents r on r.id = a.respondent_id join metrics m on m.id = a.metric_id
        where m.name = any($2::text[]) and a.product_id = any($1::int[]) and r.age is not null
        group by r.age order by 2 desc, 1`,
      [ids, ['liking', 'purchase_intention', 'strength']],
    );
    const narrow = ages.find((row) => row.products > 1 && row.products < ids.length);
    expect(narrow, 'an age answered for some products of the group only').toBeDefined();
    const queued = await post('/api/group-comparison', {
      group1: { essentials: { businessUnit: [unit1!] } },
      group2: {
        essentials: { businessUnit: [unit2!] },
        demographics: { startAge: narrow!.age, endAge: narrow!.age },
      },
    });
    expect(queued.statusCode, queued.body).toBe(200);
    const status = await finished(
      GroupComparisonStatus,
      `/api/group-comparison/${queued.json<{ jobid: string }>().jobid}`,
    );
    expect(status.status, status.error ?? '').toBe('SUCCESS');
    const { group2, bases, differences } = status.result!.json;
    // The search lists more products than were answered under the filter; the base is the tested n.
    expect(group2.results.length).toBeGreaterThan(narrow!.products);
    expect(bases.group2.products).toBe(narrow!.products);
    expect(bases.group2.products).toBe(Math.max(...differences.map((entry) => entry.n2)));
  });

  it('answers a finished comparison from its stored row in another process, which names the searches', async () => {
    const [unit1, unit2] = await units();
    const queued = await post('/api/group-comparison', {
      group1: { essentials: { businessUnit: [unit1!] } },
      group2: { essentials: { businessUnit: [unit2!] } },
    });
    const { jobid } = queued.json<{ jobid: string }>();
    const here = await finished(GroupComparisonStatus, `/api/group-comparison/${jobid}`);
    expect(here.status, here.error ?? '').toBe('SUCCESS');
    // The row keeps the ids of both metric searches and the differences, not copies of the answers.
    const [row] = await query<{ result: Record<string, unknown> | string }>(
      'select result from job_results where id = $1',
      [jobid],
    );
    const stored = (typeof row!.result === 'string' ? JSON.parse(row!.result) : row!.result) as Record<
      string,
      unknown
    >;
    expect(Object.keys(stored).sort()).toEqual(['bases', 'differences', 'group_searches']);
    expect(stored.group_searches).toHaveLength(2);

    const other = await t.secondProcess({ workers: false });
    try {
      const there = await other.request({
        method: 'GET',
        url: `/api/group-comparison/${jobid}`,
        token: tokens.researcher,
      });
      expect(there.statusCode, there.body).toBe(200);
      expect(throughContract(GroupComparisonStatus, there.json())).toEqual(here);
      // Its searches' rows gone (a day later), the comparison asks for a new run.
      await query('delete from job_results where id = any($1)', [stored.group_searches]);
      const expired = await other.request({
        method: 'GET',
        url: `/api/group-comparison/${jobid}`,
        token: tokens.researcher,
      });
      expect(throughContract(GroupComparisonStatus, expired.json())).toMatchObject({
        status: 'FAILURE',
        error: ANALYTICS_MESSAGES.jobExpired,
      });
    } finally {
      await other.close();
    }
  });

  it('compares only the chosen products when the selection is sent', async () => {
    const all = await post('/api/group-comparison', { group1: {}, group2: {} });
    const status = await finished(
      GroupComparisonStatus,
      `/api/group-comparison/${all.json<{ jobid: string }>().jobid}`,
    );
    const chosen = status.result!.json.group1.results.slice(0, 2).map((row) => ({ id: row.id }));
    const again = await post('/api/group-comparison', { group1: { products: chosen }, group2: {} });
    const narrowed = await finished(
      GroupComparisonStatus,
      `/api/group-comparison/${again.json<{ jobid: string }>().jobid}`,
    );
    expect(narrowed.result!.json.group1.results.map((row) => row.id)).toEqual(chosen.map((row) => row.id));
  });

  it('sends the status as the JSON text the status object writes, its groups as their own searches answer them', async () => {
    const [unit1, unit2] = await units();
    const body = {
      group1: { essentials: { businessUnit: [unit1!] } },
      group2: { essentials: { businessUnit: [unit2!] }, demographics: { gender: ['Female'] } },
    };
    const queued = await post('/api/group-comparison', body);
    const response = await get(`/api/group-comparison/${queued.json<{ jobid: string }>().jobid}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    // Written from the searches' texts, it is what JSON.stringify writes of the whole status.
    expect(JSON.stringify(JSON.parse(response.body))).toBe(response.body);
    const status = throughContract(GroupComparisonStatus, response.json());
    expect(status.status, status.error ?? '').toBe('SUCCESS');
    // Each group is the whole answer of the same metric search run on its own.
    const search = async (group: (typeof body)['group1' | 'group2']) => {
      const started = await post('/api/analytics/fragrances', {
        q: {
          ...group,
          metrics: {
            rdfType: 'rdf',
            metricsList: [
              { metricType: 'Performance', metric: 'liking', aggregation: 'mean' },
              { metricType: 'Performance', metric: 'liking', aggregation: 'top_2_box' },
              { metricType: 'Performance', metric: 'liking', aggregation: 'bottom_2_box' },
              { metricType: 'Performance', metric: 'purchase_intention', aggregation: 'mean' },
              { metricType: 'Performance', metric: 'purchase_intention', aggregation: 'top_2_box' },
              { metricType: 'Performance', metric: 'purchase_intention', aggregation: 'bottom_2_box' },
              { metricType: 'Performance', metric: 'strength', aggregation: 'top_2_box' },
              { metricType: 'Performance', metric: 'strength', aggregation: 'just_right' },
              { metricType: 'Performance', metric: 'strength', aggregation: 'bottom_2_box' },
            ],
          },
        },
        type: 'fragrances',
      });
      expect(started.statusCode, started.body).toBe(200);
      const polled = await get(`/api/analytics/fragrances/${started.json<{ jobid: string }>().jobid}`);
      return polled.json<{ result: { json: unknown } }>().result.json;
    };
    expect(status.result!.json.group1).toEqual(await search(body.group1));
    expect(status.result!.json.group2).toEqual(await search(body.group2));
  });

  it('sends the status compressed to a client that accepts it, the same answer as sent plain', async () => {
    const queued = await post('/api/group-comparison', {
      group1: {},
      group2: { demographics: { gender: ['Female'] } },
    });
    const url = `/api/group-comparison/${queued.json<{ jobid: string }>().jobid}`;
    const poll = (acceptEncoding: string) =>
      t.request({
        method: 'GET',
        url,
        token: tokens.researcher,
        headers: { 'accept-encoding': acceptEncoding },
      });
    const plain = await poll('identity');
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const status = throughContract(GroupComparisonStatus, plain.json());
    expect(status.status, status.error ?? '').toBe('SUCCESS');
    for (let twice = 0; twice < 2; twice++) {
      const br = await poll('gzip, deflate, br');
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    }
    const gz = await poll('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
  });

  it('waits in the queue for a group whose respondent filter the database answers, then compares', async () => {
    const [unit1, unit2] = await units();
    const [ethnicity] = await query<{ value: string }>(
      `select ethnicity as value from respondents where ethnicity is not null
        group by 1 order by count(*) desc, 1 limit 1`,
    );
    expect(ethnicity, 'an ethnicity among the respondents').toBeDefined();
    const queued = await post('/api/group-comparison', {
      group1: { essentials: { businessUnit: [unit1!] } },
      group2: { essentials: { businessUnit: [unit2!] }, demographics: { ethnicity: [ethnicity!.value] } },
    });
    expect(queued.statusCode, queued.body).toBe(200);
    const { jobid } = queued.json<{ jobid: string }>();
    let status = await finished(GroupComparisonStatus, `/api/group-comparison/${jobid}`);
    for (let attempt = 0; attempt < 100 && status.status !== 'SUCCESS'; attempt++) {
      expect(['PENDING', 'STARTED'], status.error ?? '').toContain(status.status);
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await finished(GroupComparisonStatus, `/api/group-comparison/${jobid}`);
    }
    expect(status.status, status.error ?? '').toBe('SUCCESS');
    const { group2, bases } = status.result!.json;
    expect(group2.filtered).toBe(true);
    const [expected] = await query<{ n: number }>(
      `select count(distinct a.respondent_id)::int as n
         from answers a join respondents r on r.id = a.respondent_id join metrics m on m.id = a.metric_id
        where m.name = any($3::text[]) and a.product_id = any($1::int[]) and r.ethnicity = $2`,
      [group2.results.map((row) => row.id), ethnicity!.value, ['liking', 'purchase_intention', 'strength']],
    );
    expect(bases.group2.respondents).toBe(expected!.n);
    expect(bases.group2.respondents).toBeGreaterThan(0);
  });

  it('follows a change of the library at the next comparison: its groups, bases and differences', async () => {
    const [unit1, unit2] = await units();
    const body = {
      group1: { essentials: { businessUnit: [unit1!] } },
      group2: { essentials: { businessUnit: [unit2!] }, demographics: { gender: ['Female'] } },
    };
    const compare = async () =>
      finished(
        GroupComparisonStatus,
        `/api/group-comparison/${(await post('/api/group-comparison', body)).json<{ jobid: string }>().jobid}`,
      );
    const first = await compare();
    expect(first.status, first.error ?? '').toBe('SUCCESS');
    // The same comparison again: the same answer.
    const repeated = await compare();
    expect(repeated.result!.json).toEqual(first.result!.json);
    const [study] = await query<{ id: number }>(
      `select s.id from studies s join products p on p.study_id = s.id
        where s.verified and $1 = any(s.product_area) and s.rdf_type = 'rdf' and p.kind = 'fragrance'
        group by s.id order by count(*) desc, s.id limit 1`,
      [unit1],
    );
    expect(study, 'a study of the first business unit').toBeDefined();
    await query('update studies set verified = false where id = $1', [study!.id]);
    try {
      const changed = await compare();
      expect(changed.status, changed.error ?? '').toBe('SUCCESS');
      const ids = changed.result!.json.group1.results.map((row) => row.id);
      expect(ids.length).toBeLessThan(first.result!.json.group1.results.length);
      const [respondents] = await query<{ n: number }>(
        `select count(distinct a.respondent_id)::int as n from answers a join metrics m on m.id = a.metric_id
          where m.name = any($2::text[]) and a.product_id = any($1::int[])`,
        [ids, ['liking', 'purchase_intention', 'strength']],
      );
      expect(changed.result!.json.bases.group1.respondents).toBe(respondents!.n);
      expect(changed.result!.json.bases.group1.respondents).toBeLessThan(
        first.result!.json.bases.group1.respondents,
      );
      const t2b = changed.result!.json.differences.find((entry) => entry.key === 'liking.top_2_box')!;
      expect(t2b.n1).toBe(changed.result!.json.bases.group1.products);
      expect(t2b.n1).toBeLessThan(first.result!.json.bases.group1.products);
    } finally {
      await query('update studies set verified = true where id = $1', [study!.id]);
    }
    expect((await compare()).result!.json).toEqual(first.result!.json);
  });

  it("counts a client user's bases over their clients' fragrances alone, after staff made the same comparison", async () => {
    const body = { group1: {}, group2: { demographics: { gender: ['Female'] } } };
    const staff = await finished(
      GroupComparisonStatus,
      `/api/group-comparison/${(await post('/api/group-comparison', body)).json<{ jobid: string }>().jobid}`,
    );
    const client = await finished(
      GroupComparisonStatus,
      `/api/group-comparison/${(await post('/api/group-comparison', body, 'client')).json<{ jobid: string }>().jobid}`,
      'client',
    );
    expect(client.status, client.error ?? '').toBe('SUCCESS');
    const ids = client.result!.json.group1.results.map((row) => row.id);
    expect(ids.length).toBeLessThan(staff.result!.json.group1.results.length);
    const [respondents] = await query<{ n: number }>(
      `select count(distinct a.respondent_id)::int as n
         from answers a join metrics m on m.id = a.metric_id
         join products p on p.id = a.product_id join studies s on s.id = p.study_id
        where m.name = any($2::text[]) and a.product_id = any($1::int[]) and s.client = any($3::text[])`,
      [ids, ['liking', 'purchase_intention', 'strength'], CLIENT_CLIENTS],
    );
    expect(client.result!.json.bases.group1.respondents).toBe(respondents!.n);
    expect(client.result!.json.bases.group1.respondents).toBeLessThan(
      staff.result!.json.bases.group1.respondents,
    );
  });

  it('shows a client user only the fragrances of their clients', async () => {
    const queued = await post('/api/group-comparison', { group1: {}, group2: {} }, 'client');
    expect(queued.statusCode, queued.body).toBe(200);
    const status = await finished(
      GroupComparisonStatus,
      `/api/group-comparison/${queued.json<{ jobid: string }>().jobid}`,
      'client',
    );
    const studies = await query<{ id: number }>(`select id from studies where client = any($1::text[])`, [
      CLIENT_CLIENTS,
    ]);
    const allowed = new Set(studies.map((row) => row.id));
    expect(status.result!.json.group1.results.length).toBeGreaterThan(0);
    for (const row of status.result!.json.group1.results) expect(allowed.has(row.study_id)).toBe(true);
  });
});

describe('POST /api/category-profile/top-fragrances', () => {
  const families = async (clients: string[] | null = null) =>
    (
      await query<{ family: string; n: number }>(
        `select f.family, count(*)::int as n from fragrances f join studies s on s.id = f.study_id
          where s.verified and f.family is not null and ($1::text[] is null or s.client = any($1::text[]))
          group by 1 order by 2 desc, 1`,
        [clients],
      )
    ).map((row) => row.family);

  it('needs a signed-in user', async () => {
    expect((await post('/api/category-profile/top-fragrances', { family: 'Floral' }, null)).statusCode).toBe(
      401,
    );
  });

  it('refuses admin-only filters (403) and bad input (400)', async () => {
    const forbidden = await post(
      '/api/category-profile/top-fragrances',
      { family: 'Floral', essentials: { verified: false } },
      'sales',
    );
    expect(forbidden.statusCode).toBe(403);
    const noTag = await post('/api/category-profile/top-fragrances', { family: 'No tag' });
    expect(noTag.statusCode).toBe(400);
    expect(errorBody(noTag).message).toContain('Fragrances without a family (No tag) have no top list');
    const empty = await post('/api/category-profile/top-fragrances', {});
    expect(empty.statusCode).toBe(400);
    expect(errorBody(empty).message).toContain('family');
    expect(
      (await get('/api/category-profile/top-fragrances/00000000-0000-4000-8000-000000000000')).statusCode,
    ).toBe(404);
  });

  it('answers the five best fragrances of the family by top 2 box liking, best first', async () => {
    const [family] = await families();
    const queued = await post('/api/category-profile/top-fragrances', { family });
    expect(queued.statusCode, queued.body).toBe(200);
    const status = await finished(
      TopFamilyFragrancesStatus,
      `/api/category-profile/top-fragrances/${queued.json<{ jobid: string }>().jobid}`,
    );
    expect(status.status, status.error ?? '').toBe('SUCCESS');
    const { fragrances } = status.result!.json;
    const expected = await query<{ id: number; t2b: number }>(
      `select p.id, count(*) filter (where a.value >= 3.5)::float / count(*) as t2b
         from products p join fragrances f on f.id = p.fragrance_id join studies s on s.id = p.study_id
         join answers a on a.product_id = p.id join metrics m on m.id = a.metric_id
        where s.verified and f.family = $1 and m.name = 'liking'
        group by p.id order by t2b desc, p.id limit 5`,
      [family],
    );
    expect(fragrances.map((row) => row.id)).toEqual(expected.map((row) => row.id));
    fragrances.forEach((row, index) => expect(row.top_2_box).toBeCloseTo(expected[index]!.t2b, 10));
  });

  it('keeps a client user to their clients', async () => {
    const [family] = await families(CLIENT_CLIENTS);
    const queued = await post('/api/category-profile/top-fragrances', { family }, 'client');
    const status = await finished(
      TopFamilyFragrancesStatus,
      `/api/category-profile/top-fragrances/${queued.json<{ jobid: string }>().jobid}`,
      'client',
    );
    const studies = await query<{ id: number }>(`select id from studies where client = any($1::text[])`, [
      CLIENT_CLIENTS,
    ]);
    const allowed = new Set(studies.map((row) => row.id));
    expect(status.result!.json.fragrances.length).toBeGreaterThan(0);
    for (const row of status.result!.json.fragrances) expect(allowed.has(row.study_id)).toBe(true);
  });
});
