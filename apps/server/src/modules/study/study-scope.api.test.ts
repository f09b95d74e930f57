/**
 * What client and sales users may read of a study by its id: only verified studies of their clients,
 * as their search shows, on every call that takes a study id; and the tag definitions name only their
 * own clients.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BRIGHTWELL,
  HALDEN,
  NORTHWIND,
  seedSearchFixtures,
  type FixtureIds,
} from '../search/search-fixtures.ts';
import { createTestApp, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let ids: FixtureIds;
const tokens = {} as Record<DemoRole, string>;

beforeAll(async () => {
  t = await createTestApp({
    seed: async (database) => {
      ids = await seedSearchFixtures(database);
    },
  });
  for (const role of ['admin', 'researcher', 'client', 'sales'] as const) tokens[role] = await t.login(role);
});
afterAll(async () => {
  await t.close();
});

/** Every GET that reads one study by its id (s1: Northwind, seen by the client and the sales user). */
async function byIdCalls(studyId: number): Promise<string[]> {
  const [file] = await t.database.rows<{ id: number; name: string }>(
    sql`select id, name from study_files where study_id = ${studyId} and file_type = 'report' limit 1`,
  );
  return [
    `/api/study/${studyId}`,
    `/api/study/study_edit_history/${studyId}`,
    `/api/study/${studyId}/study-files/`,
    `/api/study/${studyId}/study-files/${file!.id}`,
    `/api/study/${studyId}/related-study-files/`,
    `/api/study/${studyId}/study-files-path/${encodeURIComponent(file!.name)}`,
    `/api/study/metrics/${studyId}`,
    `/api/study/${studyId}/questions/`,
    `/api/statistics/${studyId}/products/`,
  ];
}

const statusOf = async (role: DemoRole, url: string) =>
  (await t.request({ method: 'GET', url, token: tokens[role] })).statusCode;

async function statuses(role: DemoRole, urls: string[]): Promise<Record<string, number>> {
  const answer: Record<string, number> = {};
  for (const url of urls) answer[url] = await statusOf(role, url);
  return answer;
}

describe('a study read by id', () => {
  it('answers 404 to client and sales users once the study is not verified; staff still read it', async () => {
    const urls = await byIdCalls(ids.s1);
    // The calls each role can make while the study is verified: all but the file reads for a
    // client (who may not download: 403) and the download itself (the fixtures store no bytes).
    const readable = {} as Record<'client' | 'sales', string[]>;
    for (const role of ['client', 'sales'] as const) {
      const verified = await statuses(role, urls);
      readable[role] = urls.filter((url) => verified[url]! < 400);
      expect(readable[role].length, role).toBeGreaterThanOrEqual(urls.length - 2);
    }

    await t.database.db.execute(sql`update studies set verified = false where id = ${ids.s1}`);
    try {
      for (const role of ['client', 'sales'] as const)
        for (const url of readable[role]) expect(await statusOf(role, url), `${role} ${url}`).toBe(404);
      for (const url of readable.sales) {
        expect(await statusOf('admin', url), url).toBeLessThan(400);
        expect(await statusOf('researcher', url), url).toBeLessThan(400);
      }
    } finally {
      await t.database.db.execute(sql`update studies set verified = true where id = ${ids.s1}`);
    }
  });
});

describe('GET /api/study/options', () => {
  async function clientOptions(role: DemoRole): Promise<string[]> {
    const response = await t.request({ method: 'GET', url: '/api/study/options', token: tokens[role] });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { metadata: { field: string; options: { value: string }[] }[] };
    return body.metadata.find((field) => field.field === 'client')!.options.map((option) => option.value);
  }

  it('names only their own clients to client and sales users, as the search fields do', async () => {
    const all = await clientOptions('admin');
    expect(all).toEqual(expect.arrayContaining([NORTHWIND, HALDEN, BRIGHTWELL]));
    expect(await clientOptions('researcher')).toEqual(all);
    for (const role of ['client', 'sales'] as const) {
      const fields = await t.request({ method: 'GET', url: '/api/smartsearch/fields', token: tokens[role] });
      const searchClients = (
        fields.json() as { metadata: { field: string; options: { value: string }[] }[] }
      ).metadata
        .find((field) => field.field === 'client')!
        .options.map((option) => option.value);
      const options = await clientOptions(role);
      expect(options.sort()).toEqual([...searchClients].sort());
      expect(options.length).toBeLessThan(all.length);
    }
  });
});
