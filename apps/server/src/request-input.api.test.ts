/**
 * Input edge cases every route shares: a NUL character in any text is a 400 naming the field (the
 * database cannot store one), and no value is coerced into a number that changes what a request means.
 */
import { NUL_TEXT_MESSAGE } from '@accord/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSearchFixtures, type FixtureIds } from './modules/search/search-fixtures.ts';
import { createTestApp, errorBody, type TestApp } from './testing/test-app.ts';

/** Filters of a saved search. */
const FILTERS = JSON.stringify({ essentials: { client: ['Fabric Client'], verified: true } });

let t: TestApp;
let ids: FixtureIds;
let admin: string;
let adminId: number;
beforeAll(async () => {
  t = await createTestApp({
    seed: async (database) => {
      ids = await seedSearchFixtures(database);
    },
  });
  admin = await t.login('admin');
  adminId = (await t.request({ method: 'GET', url: '/api/auth/refresh', token: admin })).json().id;
});
afterAll(async () => {
  await t.close();
});

/** A multipart/form-data body as a browser sends it. */
async function multipart(fields: Record<string, string>, file: { name: string; bytes: Uint8Array }) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([file.bytes]), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

function expectNulRefused(response: { statusCode: number; body: string }, field: string) {
  expect(response.statusCode, response.body).toBe(400);
  const body = JSON.parse(response.body) as { error: string; message: string; details: { path: string }[] };
  // The message names the field in words (its label, e.g. "Search phrase"); the details keep its path.
  const [named, reason] = body.message.split(': ');
  expect(reason).toBe(NUL_TEXT_MESSAGE);
  expect(named!.length).toBeGreaterThan(0);
  expect(body.details[0]!.path).toBe(field);
}

describe('a NUL character in a text', () => {
  it('is refused with 400 naming the field, in bodies, queries and path parameters', async () => {
    expectNulRefused(
      await t.request({
        method: 'POST',
        url: '/api/smartsearch/',
        token: admin,
        payload: { query: {}, full_query: { file_type: '', search_phrase: 'a\u0000b' } },
      }),
      'full_query.search_phrase',
    );
    expectNulRefused(
      await t.request({
        method: 'POST',
        url: '/api/smartsearch/',
        token: admin,
        payload: { query: { metadata: { client: ['North\u0000wind'] } } },
      }),
      'query.metadata.client.0',
    );
    expectNulRefused(
      await t.request({ method: 'GET', url: '/api/users/?search_query=%00', token: admin }),
      'search_query',
    );
    expectNulRefused(
      await t.request({
        method: 'POST',
        url: `/api/users/${adminId}/searches/`,
        token: admin,
        payload: { slug: 'Mine\u0000', metadata_query: '{}', search_type: 'search' },
      }),
      'slug',
    );
    expectNulRefused(
      await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'admin@accord.test\u0000', password: 'x' },
      }),
      'email',
    );
    expectNulRefused(
      await t.request({
        method: 'GET',
        url: `/api/study/${ids.s1}/study-files-path/report%00.pdf`,
        token: admin,
      }),
      'file_name',
    );
    expectNulRefused(
      await t.request({
        method: 'POST',
        url: `/api/study/${ids.s1}/version-history/a%00b.pdf`,
        token: admin,
        payload: {},
      }),
      'filename',
    );
  });

  it('is refused in the form fields of a file upload', async () => {
    const body = await multipart(
      { filename: 'CMI-2015-001_Final\u0000_Report.pdf', filetype: 'report', foldertype: 'report' },
      { name: 'report.pdf', bytes: new TextEncoder().encode('%PDF-1.4\n%%EOF\n') },
    );
    const response = await t.request({
      method: 'POST',
      url: `/api/study/${ids.s1}/upload`,
      token: admin,
      ...body,
    });
    expectNulRefused(response, 'filename');
  });

  it('changes nothing', async () => {
    const [before] = await t.database.rows<{ n: number }>(sql`select count(*)::int as n from saved_searches`);
    await t.request({
      method: 'POST',
      url: `/api/users/${adminId}/searches/`,
      token: admin,
      payload: {
        slug: 'x',
        metadata_query: FILTERS.replace('Fabric', 'Fab\u0000ric'),
        search_type: 'search',
      },
    });
    const [after] = await t.database.rows<{ n: number }>(sql`select count(*)::int as n from saved_searches`);
    expect(after!.n).toBe(before!.n);
  });
});

describe('numbers', () => {
  it('refuses true as a role: it never creates an admin', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/users/',
      token: admin,
      payload: { email: 'coerced@accord.test', password: 'long-enough-1', role_id: true, clients: '[]' },
    });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).message).toMatch(/^role_id: /);
    const [row] = await t.database.rows<{ n: number }>(
      sql`select count(*)::int as n from users where email = 'coerced@accord.test'`,
    );
    expect(row!.n).toBe(0);
    for (const roleId of [null, [], '', [2], false])
      expect(
        (
          await t.request({
            method: 'POST',
            url: '/api/users/',
            token: admin,
            payload: { email: 'coerced@accord.test', password: 'long-enough-1', role_id: roleId },
          })
        ).statusCode,
        JSON.stringify(roleId),
      ).toBe(400);
  });

  it('refuses true as a saved search id: it never deletes search 1', async () => {
    const saved = await t.request({
      method: 'POST',
      url: `/api/users/${adminId}/searches/`,
      token: admin,
      payload: { slug: 'Keep me', metadata_query: FILTERS, search_type: 'search' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await t.database.db.execute(sql`update saved_searches set id = 1 where id = ${saved.json().id}`);
    for (const searchId of [true, '', null, [1]]) {
      const response = await t.request({
        method: 'DELETE',
        url: `/api/users/${adminId}/searches/`,
        token: admin,
        payload: { searchId },
      });
      expect(response.statusCode, JSON.stringify(searchId)).toBe(400);
    }
    const [row] = await t.database.rows<{ n: number }>(
      sql`select count(*)::int as n from saved_searches where id = 1`,
    );
    expect(row!.n).toBe(1);
  });

  it('still reads numbers sent as text in queries, paths and JSON', async () => {
    expect(
      (await t.request({ method: 'GET', url: '/api/users/?page=1&per_page=25', token: admin })).statusCode,
    ).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/users/?page=true', token: admin })).statusCode).toBe(
      400,
    );
    expect((await t.request({ method: 'GET', url: `/api/study/${ids.s1}`, token: admin })).statusCode).toBe(
      200,
    );
    const created = await t.request({
      method: 'POST',
      url: '/api/users/',
      token: admin,
      payload: { email: 'text-role@accord.test', password: 'long-enough-1', role_id: '2', clients: '[]' },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().role_id).toBe(2);
  });
});
