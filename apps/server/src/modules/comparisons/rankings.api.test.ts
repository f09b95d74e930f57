// Best/Worst Testers and Fragrance Attributes rankings through the running app on a generated library:
// sign-in, bad input, unknown jobs and other users' jobs, client scoping, ranking order and the
// threshold's count, with the ranked values checked against the answers of the database.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { WIZARD_MESSAGES, type RankingRequest, type RankingStatus } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../seed/users.ts';
import { seedDemoLibrary } from '../../seed/library.ts';
import { createLocalFileStorage } from '../../storage/file-storage.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { createTestApp, errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-rankings-',
    { studies: 10, seed: 11, respondents: 60, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

const post = (payload: unknown, role: DemoRole | null = 'client') =>
  t.request({ method: 'POST', url: '/api/rankings', payload, ...(role ? { token: tokens[role] } : {}) });
const get = (jobId: string, role: DemoRole | null = 'client') =>
  t.request({ method: 'GET', url: `/api/rankings/${jobId}`, ...(role ? { token: tokens[role] } : {}) });

const testers = (overrides: Partial<Extract<RankingRequest, { kind: 'testers' }>> = {}): RankingRequest => ({
  kind: 'testers',
  radioDesc: 'best',
  amount: 10,
  radioPercentType: 'percentage',
  type: 'fragrances',
  rdfType: 'rdf',
  ...overrides,
});

/** Queues a ranking and reads it at its first poll (a search this small is done by then). */
async function ranking(body: RankingRequest, role: DemoRole = 'client') {
  const queued = await post(body, role);
  expect(queued.statusCode, queued.body).toBe(200);
  const response = await get(queued.json<{ jobid: string }>().jobid, role);
  expect(response.statusCode, response.body).toBe(200);
  const status = response.json<RankingStatus>();
  expect(status.status, status.error ?? '').toBe('SUCCESS');
  return status.result!.json;
}

const CLIENT_CLIENTS = DEMO_USERS.find((user) => user.roleId === 3)!.clients;
const UNKNOWN_JOB = '00000000-0000-4000-8000-000000000000';

/** Liking top 2 box per fragrance of verified classic studies (of the given clients), from the answers. */
async function likingTop2(clients: readonly string[] | null) {
  const rows = await query<{ id: number; t2b: number; n: number }>(
    `select p.id, count(*) filter (where a.value >= 3.5)::float / count(*) as t2b, count(*)::int as n
       from products p join studies s on s.id = p.study_id
       join answers a on a.product_id = p.id join metrics m on m.id = a.metric_id
      where s.verified and s.rdf_type = 'rdf' and p.kind = 'fragrance' and m.name = 'liking'
        and ($1::text[] is null or s.client = any($1::text[]))
      group by p.id`,
    [clients],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

describe('POST /api/rankings', () => {
  it('needs a signed-in user', async () => {
    expect((await post(testers(), null)).statusCode).toBe(401);
    expect((await get(UNKNOWN_JOB, null)).statusCode).toBe(401);
  });

  it('refuses a top amount that is not a positive whole number with the wizard message (400)', async () => {
    for (const amount of [0, -3, 2.5, 'ten']) {
      const response = await post({ ...testers({ radioPercentType: 'number' }), amount });
      expect(response.statusCode, String(amount)).toBe(400);
      expect(errorBody(response).message).toContain(WIZARD_MESSAGES.topAmount);
    }
    const above = await post(testers({ amount: 150 }));
    expect(above.statusCode).toBe(400);
    expect(errorBody(above).message).toContain(WIZARD_MESSAGES.percentageAbove100);
  });

  it('refuses an unknown attribute, an unknown source and unknown keys (400)', async () => {
    const unknown = await post({
      kind: 'attributes',
      radioDesc: 'best',
      amount: 5,
      radioPercentType: 'number',
      attributeType: 'moods',
      attribute: 'sparkly',
    });
    expect(unknown.statusCode).toBe(400);
    expect(errorBody(unknown).message).toContain('Unknown moods attribute: sparkly.');
    const source = await post({ ...testers(), rdfType: 'irt' });
    expect(source.statusCode).toBe(400);
    const extra = await post({ ...testers(), metricsList: [] });
    expect(extra.statusCode).toBe(400);
    expect((await get('not-a-job')).statusCode).toBe(400);
  });

  it('answers 404 for an unknown job and for a job of another user', async () => {
    expect((await get(UNKNOWN_JOB)).statusCode).toBe(404);
    const queued = await post(testers(), 'sales');
    expect(queued.statusCode, queued.body).toBe(200);
    const { jobid } = queued.json<{ jobid: string }>();
    expect((await get(jobid, 'sales')).statusCode).toBe(200);
    expect((await get(jobid, 'client')).statusCode).toBe(404);
  });

  it("ranks a client user's best 10 % fragrances by liking: only their clients', best first, done at the first poll", async () => {
    const mine = await likingTop2(CLIENT_CLIENTS);
    const everyone = await likingTop2(null);
    expect(everyone.size).toBeGreaterThan(mine.size);

    const all = await ranking(testers({ amount: 100 }));
    expect(all.rows.map((row) => row.id).sort((a, b) => a - b)).toEqual(
      [...mine.keys()].sort((a, b) => a - b),
    );

    const best = await ranking(testers());
    expect(best.type).toBe('fragrances');
    expect(best.columns.map((column) => column.key)).toEqual(['liking.top_2_box']);
    expect(best.rows).toHaveLength(Math.ceil(mine.size / 10));
    expect(best.rows.map((row) => row.rank)).toEqual(best.rows.map((_, index) => index + 1));
    const expected = [...mine.values()].sort((a, b) => b.t2b - a.t2b || a.id - b.id);
    best.rows.forEach((row, index) => {
      expect(row.id).toBe(expected[index]!.id);
      expect(row.values['liking.top_2_box']).toBeCloseTo(expected[index]!.t2b, 10);
      expect(row.bases['liking.top_2_box']).toBe(expected[index]!.n);
    });
    const studies = await query<{ id: number }>(`select id from studies where client = any($1::text[])`, [
      CLIENT_CLIENTS,
    ]);
    const allowed = new Set(studies.map((row) => row.id));
    for (const row of all.rows) expect(allowed.has(row.study_id)).toBe(true);
  });

  it('keeps the number asked for, worst first for worst', async () => {
    const worst = await ranking(
      testers({ radioDesc: 'worst', amount: 3, radioPercentType: 'number' }),
      'admin',
    );
    expect(worst.rows).toHaveLength(3);
    const values = worst.rows.map((row) => row.values['liking.top_2_box']!);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    const lowest = [...(await likingTop2(null)).values()].sort((a, b) => a.t2b - b.t2b || a.id - b.id);
    expect(values[0]).toBeCloseTo(lowest[0]!.t2b, 10);
  });

  it('narrows by the wizard filters', async () => {
    const [client] = CLIENT_CLIENTS;
    const narrowed = await ranking(testers({ amount: 100, narrowing: { client: [client!] } }), 'admin');
    const studies = await query<{ id: number }>(`select id from studies where client = $1`, [client]);
    const allowed = new Set(studies.map((row) => row.id));
    expect(narrowed.rows.length).toBeGreaterThan(0);
    for (const row of narrowed.rows) expect(allowed.has(row.study_id)).toBe(true);
  });

  it('answers an empty ranking when nothing matches', async () => {
    const empty = await ranking(testers({ narrowing: { client: ['No such client'] } }));
    expect(empty.rows).toEqual([]);
  });

  it('ranks fragrances by the top 2 box of an attribute for a sales user', async () => {
    const result = await ranking(
      {
        kind: 'attributes',
        radioDesc: 'best',
        amount: 5,
        radioPercentType: 'number',
        attributeType: 'moods',
        attribute: 'relaxing',
      },
      'sales',
    );
    expect(result.columns).toEqual([
      expect.objectContaining({ key: 'relaxing.top_2_box', label: 'Relaxing', aggregation: 'top_2_box' }),
    ]);
    expect(result.rows.length).toBeGreaterThan(0);
    expect(result.rows.length).toBeLessThanOrEqual(5);
    const values = result.rows.map((row) => row.values['relaxing.top_2_box']!);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    const sales = DEMO_USERS.find((user) => user.roleId === 4)!.clients;
    const studies = await query<{ id: number }>(`select id from studies where client = any($1::text[])`, [
      sales,
    ]);
    const allowed = new Set(studies.map((row) => row.id));
    for (const row of result.rows) expect(allowed.has(row.study_id)).toBe(true);
  });
});

describe('OpenAPI document', () => {
  it('documents the ranking calls with their summaries', async () => {
    const response = await t.request({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json<{ paths: Record<string, Record<string, { summary?: string }>> }>().paths;
    expect(paths['/api/rankings']?.post?.summary).toContain('Best/Worst Testers');
    expect(paths['/api/rankings/{jobId}']?.get?.summary).toContain('Status of a ranking job');
  });
});

// A library with EEG studies (the one above has none): source All ranks their fragrances on both metrics.
describe('POST /api/rankings, source All', () => {
  let eegApp: TestApp;
  let eegStorage: string;
  beforeAll(async () => {
    eegStorage = await mkdtemp(path.join(os.tmpdir(), 'accord-rankings-eeg-'));
    eegApp = await createTestApp({
      seed: async (database) => {
        await seedDemoLibrary(database, createLocalFileStorage(eegStorage), {
          studies: 12,
          seed: 42,
          respondents: 40,
          lastYear: 2024,
        });
      },
    });
  });
  afterAll(async () => {
    await eegApp?.close();
    await rm(eegStorage, { recursive: true, force: true });
  });

  async function rankingOn(app: TestApp, body: RankingRequest) {
    const token = await app.login('admin');
    const queued = await app.request({ method: 'POST', url: '/api/rankings', payload: body, token });
    expect(queued.statusCode, queued.body).toBe(200);
    const response = await app.request({
      method: 'GET',
      url: `/api/rankings/${queued.json<{ jobid: string }>().jobid}`,
      token,
    });
    expect(response.statusCode, response.body).toBe(200);
    const status = response.json<RankingStatus>();
    expect(status.status, status.error ?? '').toBe('SUCCESS');
    return status.result!.json;
  }

  it('ranks source All on both metrics: top 2 box liking and mean EEG hedonic, each product by its mean place', async () => {
    const every = await rankingOn(eegApp, testers({ rdfType: 'all', amount: 100 }));
    expect(every.columns.map((column) => column.key)).toEqual(['liking.top_2_box', 'hfd_hedonic.mean']);
    const eeg = every.rows.filter((row) => row.values['hfd_hedonic.mean'] != null);
    expect(eeg.length).toBeGreaterThan(1);
    expect(every.rows.length).toBeGreaterThan(eeg.length);
    // Each metric ranks the products with a value for it, best first (ties by id); a product's place
    // is its rank scaled to 0..1 and its score the mean of its places.
    const places = new Map<number, number[]>();
    for (const key of ['liking.top_2_box', 'hfd_hedonic.mean']) {
      const ranked = every.rows
        .filter((row) => row.values[key] != null)
        .sort((a, b) => b.values[key]! - a.values[key]! || a.id - b.id);
      ranked.forEach((row, position) =>
        places.set(row.id, [...(places.get(row.id) ?? []), position / (ranked.length - 1)]),
      );
    }
    const score = (id: number) => {
      const list = places.get(id)!;
      return list.reduce((sum, place) => sum + place, 0) / list.length;
    };
    const expected = [...places.keys()].sort((a, b) => score(a) - score(b) || a - b);
    expect(every.rows.map((row) => row.id)).toEqual(expected);
    // Not the liking order alone: the EEG hedonic moves products.
    const byLiking = [...every.rows]
      .sort((a, b) => b.values['liking.top_2_box']! - a.values['liking.top_2_box']! || a.id - b.id)
      .map((row) => row.id);
    expect(expected).not.toEqual(byLiking);

    const best3 = await rankingOn(eegApp, testers({ rdfType: 'all', amount: 3, radioPercentType: 'number' }));
    expect(best3.rows.map((row) => row.id)).toEqual(expected.slice(0, 3));
  });
});
