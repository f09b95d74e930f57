import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { EMPTY_FILTERS_MESSAGE } from './saved-searches.routes.ts';

let t: TestApp;
let researcher: string;
let researcherId: number;
let clientId: number;
beforeAll(async () => {
  t = await createTestApp();
  researcher = await t.login('researcher');
  const refreshed = await t.request({ method: 'GET', url: '/api/auth/refresh', token: researcher });
  researcherId = refreshed.json().id;
  researcher = String(refreshed.headers.authorization).slice('Bearer '.length);
  const client = await t.login('client');
  clientId = (await t.request({ method: 'GET', url: '/api/auth/refresh', token: client })).json().id;
});
afterAll(async () => {
  await t.close();
});

const filters = JSON.stringify({ essentials: { client: ['Client A'], verified: true } });

describe('saved searches', () => {
  it('saves, lists by type and deletes a search of your own', async () => {
    const save = await t.request({
      method: 'POST',
      url: `/api/users/${researcherId}/searches/`,
      token: researcher,
      payload: { slug: 'Fabric care', metadata_query: filters, search_type: 'search' },
    });
    expect(save.statusCode).toBe(200);
    const saved = save.json();
    expect(saved).toMatchObject({ slug: 'Fabric care', metadata_query: filters, search_type: 'search' });

    const list = await t.request({
      method: 'GET',
      url: `/api/users/${researcherId}/searches/?search_type=search`,
      token: researcher,
    });
    expect(list.json().map((s: { slug: string }) => s.slug)).toEqual(['Fabric care']);
    const cics = await t.request({
      method: 'GET',
      url: `/api/users/${researcherId}/searches/?search_type=cics`,
      token: researcher,
    });
    expect(cics.json()).toEqual([]);

    const remove = await t.request({
      method: 'DELETE',
      url: `/api/users/${researcherId}/searches/`,
      token: researcher,
      payload: { searchId: saved.id },
    });
    expect(remove.statusCode).toBe(200);
    const after = await t.request({
      method: 'GET',
      url: `/api/users/${researcherId}/searches/`,
      token: researcher,
    });
    expect(after.json()).toEqual([]);
  });

  it('refuses empty filters with the catalogue message, and malformed input with 400', async () => {
    const empty = await t.request({
      method: 'POST',
      url: `/api/users/${researcherId}/searches/`,
      token: researcher,
      payload: {
        slug: 'Nothing',
        metadata_query: JSON.stringify({ essentials: { client: [], verified: true } }),
        search_type: 'search',
      },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(EMPTY_FILTERS_MESSAGE);
    const notJson = await t.request({
      method: 'POST',
      url: `/api/users/${researcherId}/searches/`,
      token: researcher,
      payload: { slug: 'Broken', metadata_query: '{oops', search_type: 'search' },
    });
    expect(notJson.statusCode).toBe(400);
    const badType = await t.request({
      method: 'GET',
      url: `/api/users/${researcherId}/searches/?search_type=other`,
      token: researcher,
    });
    expect(badType.statusCode).toBe(400);
  });

  it("keeps other users' searches private: 401 and 403", async () => {
    expect((await t.request({ method: 'GET', url: `/api/users/${researcherId}/searches/` })).statusCode).toBe(
      401,
    );
    for (const [method, payload] of [
      ['GET', undefined],
      ['POST', { slug: 'x', metadata_query: filters, search_type: 'search' }],
      ['DELETE', { searchId: 1 }],
    ] as const) {
      const response = await t.request({
        method,
        url: `/api/users/${clientId}/searches/`,
        token: researcher,
        payload,
      });
      expect(response.statusCode, method).toBe(403);
    }
  });

  it('answers 404 when deleting a search that is not yours', async () => {
    const response = await t.request({
      method: 'DELETE',
      url: `/api/users/${researcherId}/searches/`,
      token: researcher,
      payload: { searchId: 999999 },
    });
    expect(response.statusCode).toBe(404);
  });

  it('lets an admin manage any user', async () => {
    const admin = await t.login('admin');
    const response = await t.request({
      method: 'GET',
      url: `/api/users/${researcherId}/searches/`,
      token: admin,
    });
    expect(response.statusCode).toBe(200);
  });
});
