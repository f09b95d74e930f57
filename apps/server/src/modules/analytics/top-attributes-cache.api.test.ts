// Top attributes keep their product lists, and the attributes pooled over them, in memory while the
// data is unchanged: a repeated call answers what the first did, and a change of the library (a study
// leaving the verified ones, or new statistics of a product written with it) shows in the very next
// call, as a call pooling the remaining fragrances by name computes it.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TopAttributesStatus } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoLibrary } from '../../seed/library.ts';
import { createLocalFileStorage } from '../../storage/file-storage.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let storageDir: string;
let researcher: string;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'accord-top-attributes-cache-'));
  t = await createTestApp({
    seed: async (database) => {
      await seedDemoLibrary(database, createLocalFileStorage(storageDir), {
        studies: 4,
        seed: 11,
        lastYear: 2024,
        products: 3,
        respondents: 30,
        questions: 14,
      });
    },
  });
  researcher = await t.login('researcher');
});

afterAll(async () => {
  await t?.close();
  await rm(storageDir, { recursive: true, force: true });
});

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

type Attributes = NonNullable<TopAttributesStatus['result']>['json'];

/** Runs a top attributes job to its end and answers its result, read through the contract. */
async function attributes(body: unknown): Promise<Attributes> {
  const queued = await t.request({
    method: 'POST',
    url: '/api/analytics/top-attributes',
    payload: body,
    token: researcher,
  });
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  for (let attempt = 0; attempt < 100; attempt++) {
    const polled = await t.request({
      method: 'GET',
      url: `/api/analytics/top-attributes/${jobid}`,
      token: researcher,
    });
    expect(polled.statusCode, polled.body).toBe(200);
    const status = TopAttributesStatus.parse(polled.json());
    if (status.status === 'SUCCESS') return status.result!.json;
    expect(['PENDING', 'STARTED'], status.error ?? '').toContain(status.status);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('The top attributes job did not end');
}

const everyAttribute = { q: {}, data: { order: 'best', count: 1000, aggregation: 'top_2_box' } };

/** The fragrances of verified studies a researcher's search pools, with their study. */
const verifiedFragrances = () =>
  query<{ id: number; study_id: number }>(
    `select p.id, p.study_id from products p join studies s on s.id = p.study_id
      where s.verified and p.kind = 'fragrance' order by p.id`,
  );

describe('top attributes product lists', () => {
  it('answer a repeated call as the first, and follow a change of the library at the next call', async () => {
    const first = await attributes(everyAttribute);
    expect(first.attributes.length).toBeGreaterThan(0);
    expect(first.fragrances).toBeGreaterThan(0);
    expect(await attributes(everyAttribute)).toEqual(first);

    // The same numbers as a call naming every fragrance of the verified studies (another list).
    const fragrances = await verifiedFragrances();
    const named = await attributes({ ...everyAttribute, frags: fragrances.map(({ id }) => ({ id })) });
    expect(named).toEqual(first);

    // A study leaves the verified ones: its fragrances leave the researcher's pool at once.
    const studies = [...new Set(fragrances.map((row) => Number(row.study_id)))];
    expect(studies.length).toBeGreaterThan(1);
    const leaving = studies[0]!;
    await query('update studies set verified = false where id = $1', [leaving]);
    const after = await attributes(everyAttribute);
    expect(after).not.toEqual(first);
    expect(after.fragrances).toBeLessThan(first.fragrances);
    const remaining = fragrances.filter((row) => Number(row.study_id) !== leaving);
    expect(await attributes({ ...everyAttribute, frags: remaining.map(({ id }) => ({ id })) })).toEqual(
      after,
    );

    // And back: the first answer again.
    await query('update studies set verified = true where id = $1', [leaving]);
    expect(await attributes(everyAttribute)).toEqual(first);
  });

  it('follow new statistics of a product at the next call, its list of products unchanged', async () => {
    const first = await attributes(everyAttribute);
    const [row] = await query<{ product_id: number; metric_id: number; name: string }>(
      `select st.product_id, st.metric_id, m.name
         from product_metric_stats st join metrics m on m.id = st.metric_id
         join products p on p.id = st.product_id join studies s on s.id = p.study_id
        where s.verified and p.kind = 'fragrance' and m.metric_type = 'Attribute' and m.kind = 'hedonic'
          and st.n > 0
          and not exists (select 1 from answers a where a.product_id = st.product_id
                           and a.metric_id = st.metric_id and (a.value < 1 or a.value > 5))
        order by st.product_id, st.metric_id limit 1`,
    );
    expect(row, 'a fragrance with in-scale answers to a scale attribute').toBeDefined();
    const before = first.attributes.find((entry) => entry.field === row!.name)!;
    expect(before).toBeDefined();
    // As an upload writes them: the product's statistics with the product (its change counter).
    const change = async (by: number) => {
      await query('update product_metric_stats set n = n + $3 where product_id = $1 and metric_id = $2', [
        row!.product_id,
        row!.metric_id,
        by,
      ]);
      await query('update products set code = code where id = $1', [row!.product_id]);
    };
    await change(7);
    try {
      const after = await attributes(everyAttribute);
      expect(after.attributes.find((entry) => entry.field === row!.name)!.n).toBe(before.n + 7);
      expect(after.fragrances).toBe(first.fragrances);
    } finally {
      await change(-7);
    }
    expect(await attributes(everyAttribute)).toEqual(first);
  });

  it('answer a call without respondent filters within its POST: its first poll is SUCCESS', async () => {
    const queued = await t.request({
      method: 'POST',
      url: '/api/analytics/top-attributes',
      payload: { ...everyAttribute, data: { ...everyAttribute.data, order: 'worst' } },
      token: researcher,
    });
    expect(queued.statusCode, queued.body).toBe(200);
    const polled = await t.request({
      method: 'GET',
      url: `/api/analytics/top-attributes/${queued.json<{ jobid: string }>().jobid}`,
      token: researcher,
    });
    expect(polled.statusCode, polled.body).toBe(200);
    const status = TopAttributesStatus.parse(polled.json());
    expect(status.status, status.error ?? '').toBe('SUCCESS');
    const best = await attributes(everyAttribute);
    // The same attributes, ranked the other way round, over the same fragrances.
    expect(status.result!.json.fragrances).toBe(best.fragrances);
    const byField = (rows: Attributes['attributes']) =>
      [...rows].sort((a, b) => a.field.localeCompare(b.field));
    expect(byField(status.result!.json.attributes)).toEqual(byField(best.attributes));
  });
});
