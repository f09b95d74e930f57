// The profile's time series through the running app: EEG studies of the demo library carry their
// respondents' test dates, and the series is recomputed here from the raw answers.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PROFILE_TIME_SERIES_METRICS, type ProfileResponse } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoLibrary } from '../../seed/library.ts';
import { createLocalFileStorage } from '../../storage/file-storage.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let storageDir: string;
let token: string;

interface ProductRow {
  id: number;
  study_id: number;
  code: string;
}

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'accord-time-series-'));
  t = await createTestApp({
    // Seed 14: the first two studies are EEG studies, the third is not.
    seed: async (database) => {
      await seedDemoLibrary(database, createLocalFileStorage(storageDir), {
        studies: 3,
        seed: 14,
        products: 4,
        respondents: 40,
        questions: 12,
        lastYear: 2024,
      });
    },
  });
  token = await t.login('researcher');
});

afterAll(async () => {
  await t?.close();
  await rm(storageDir, { recursive: true, force: true });
});

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

async function fragranceOf(rdfType: 'eeg' | 'rdf'): Promise<ProductRow> {
  const [row] = await query<ProductRow>(
    `select p.id, p.study_id, p.code from products p join studies s on s.id = p.study_id
      where p.kind = 'fragrance' and s.rdf_type = $1 order by p.id limit 1`,
    [rdfType],
  );
  if (!row) throw new Error(`no ${rdfType} fragrance`);
  return row;
}

/** Metric to test date to the mean raw EEG score, straight from the stored answers. */
async function expectedSeries(
  productId: number,
  where = 'true',
): Promise<Record<string, Record<string, number>>> {
  const rows = await query<{ metric: string; day: string; raw_value: number }>(
    `select m.name as metric, to_char(r.test_date, 'YYYY-MM-DD') as day, a.raw_value
      from answers a join metrics m on m.id = a.metric_id join respondents r on r.id = a.respondent_id
      where a.product_id = $1 and m.kind = 'eeg' and r.test_date is not null and (${where})`,
    [productId],
  );
  const sums: Record<string, Record<string, [number, number]>> = {};
  for (const row of rows) {
    if (!PROFILE_TIME_SERIES_METRICS.some((name) => name === row.metric || `${name}_eeg` === row.metric))
      continue;
    const day = ((sums[row.metric] ??= {})[row.day] ??= [0, 0]);
    day[0] += Number(row.raw_value);
    day[1] += 1;
  }
  return Object.fromEntries(
    Object.entries(sums).map(([metric, days]) => [
      metric,
      Object.fromEntries(Object.entries(days).map(([day, [sum, n]]) => [day, sum / n])),
    ]),
  );
}

const profile = (product: ProductRow, body: unknown) =>
  t.request({
    method: 'POST',
    url: `/api/study/${product.study_id}/fragrance/${encodeURIComponent(product.code)}`,
    payload: body,
    token,
  });

function expectSeriesClose(
  actual: ProfileResponse['time_series'],
  expected: Record<string, Record<string, number>>,
) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [metric, days] of Object.entries(expected)) {
    expect(Object.keys(actual[metric] ?? {}), metric).toEqual(Object.keys(days).sort());
    for (const [day, mean] of Object.entries(days)) expect(actual[metric]?.[day]).toBeCloseTo(mean, 9);
  }
}

describe('the time series of a fragrance profile', () => {
  it('gives every recognised EEG metric its mean score per test date, days in order', async () => {
    const product = await fragranceOf('eeg');
    const response = await profile(product, {});
    expect(response.statusCode).toBe(200);
    const series = response.json<ProfileResponse>().time_series;
    const expected = await expectedSeries(product.id);
    // The demo EEG study answers the mapped EEG metrics over several test days.
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(['hfd_hedonic', 'attention']));
    for (const days of Object.values(expected)) expect(Object.keys(days).length).toBeGreaterThanOrEqual(4);
    expectSeriesClose(series, expected);
    // The EEG Energizing, never the CATA attribute or the implicit score of the same name.
    if (expected.energizing_eeg) expect(series).not.toHaveProperty('energizing');
  });

  it('follows the demographic filter', async () => {
    const product = await fragranceOf('eeg');
    const [gender] = await query<{ gender: string }>(
      `select r.gender from respondents r join products p on p.study_id = r.study_id
        where p.id = $1 group by r.gender order by count(*) limit 1`,
      [product.id],
    );
    const response = await profile(product, {
      demographics: [{ field: 'gender', filter: { type: 'equal', value: gender!.gender } }],
    });
    expect(response.statusCode).toBe(200);
    const filtered = response.json<ProfileResponse>().time_series;
    const expected = await expectedSeries(product.id, `r.gender = '${gender!.gender.replaceAll("'", "''")}'`);
    expectSeriesClose(filtered, expected);
    expect(filtered).not.toEqual(await expectedSeries(product.id));
  });

  it('is empty for a study without test dates', async () => {
    const product = await fragranceOf('rdf');
    const response = await profile(product, {});
    expect(response.statusCode).toBe(200);
    expect(response.json<ProfileResponse>().time_series).toEqual({});
  });
});
