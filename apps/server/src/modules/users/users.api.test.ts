import { MESSAGES } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, TEST_PASSWORD, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let admin: string;
let researcher: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  researcher = await t.login('researcher');
});
afterAll(async () => {
  await t.close();
});

const newUser = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  firstname: 'Ada',
  lastname: 'Lovelace',
  password: 'secret-password',
  role_id: 3,
  status: 'enabled',
  deleted: false,
  clients: JSON.stringify(['Client A', 'Client B']),
  ...extra,
});

describe('GET /api/users/', () => {
  it('lists users with pagination headers and never a password hash', async () => {
    const response = await t.request({ method: 'GET', url: '/api/users/?page=1&per_page=2', token: admin });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toHaveLength(2);
    expect(response.headers.per_page).toBe('2');
    expect(Number(response.headers.total)).toBeGreaterThanOrEqual(4);
    expect(response.headers.page).toBe('1');
    expect(response.headers.has_prev).toBe('false');
    expect(response.headers.has_next).toBe('true');
    expect(Number(response.headers.pages)).toBe(Math.ceil(Number(response.headers.total) / 2));
    expect(body[0]).toHaveProperty('role.slug');
    expect(response.body).not.toMatch(/password|argon/i);
  });

  it('searches e-mail and names', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/api/users/?search_query=researcher',
      token: admin,
    });
    expect(response.json().map((u: { email: string }) => u.email)).toEqual(['researcher@accord.test']);
  });

  it('answers 401 without sign-in, 403 for a non-admin and 400 for a bad page size', async () => {
    expect((await t.request({ method: 'GET', url: '/api/users/' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/users/', token: researcher })).statusCode).toBe(403);
    const bad = await t.request({ method: 'GET', url: '/api/users/?per_page=1000', token: admin });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toMatch(/per_page/);
  });
});

describe('GET /api/users/roles/', () => {
  it('lists the four roles for an admin', async () => {
    const response = await t.request({ method: 'GET', url: '/api/users/roles/', token: admin });
    expect(response.statusCode).toBe(200);
    expect(response.json().map((r: { id: number; slug: string }) => [r.id, r.slug])).toEqual([
      [1, 'admin'],
      [2, 'researcher'],
      [3, 'client'],
      [4, 'sales'],
    ]);
  });

  it('answers 401 and 403', async () => {
    expect((await t.request({ method: 'GET', url: '/api/users/roles/' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/users/roles/', token: researcher })).statusCode).toBe(
      403,
    );
  });
});

describe('POST /api/users/', () => {
  it('creates a client user with two clients who can then sign in', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/users/',
      token: admin,
      payload: newUser('ada@accord.test'),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      email: 'ada@accord.test',
      role_id: 3,
      role: { slug: 'client' },
      clients: ['Client A', 'Client B'],
    });
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'ada@accord.test', password: 'secret-password' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().clients).toEqual(['Client A', 'Client B']);
  });

  it('answers 400 for a bad e-mail, a short password, a sales user without clients, bad clients text', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [newUser('not-an-email'), /valid e-mail/],
      [newUser('short@accord.test', { password: 'x' }), /at least 8/],
      [newUser('sales2@accord.test', { role_id: 4, clients: '[]' }), /sales user needs at least one client/],
      [newUser('clients@accord.test', { clients: '{oops' }), /JSON list/],
      [newUser('role@accord.test', { role_id: 9 }), /role_id/],
    ];
    for (const [payload, message] of cases) {
      const response = await t.request({ method: 'POST', url: '/api/users/', token: admin, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorBody(response).message).toMatch(message);
    }
    const list = await t.request({ method: 'GET', url: '/api/users/?search_query=sales2', token: admin });
    expect(list.json()).toEqual([]);
  });

  it('answers 409 for an e-mail already taken, 401 and 403', async () => {
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/users/',
          token: admin,
          payload: newUser('ADA@accord.test'),
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await t.request({ method: 'POST', url: '/api/users/', payload: newUser('x@accord.test') })).statusCode,
    ).toBe(401);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/users/',
          token: researcher,
          payload: newUser('x@accord.test'),
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('GET and PUT /api/users/{id}/', () => {
  async function idOf(email: string): Promise<number> {
    const list = await t.request({
      method: 'GET',
      url: `/api/users/?search_query=${encodeURIComponent(email)}`,
      token: admin,
    });
    return list.json()[0].id;
  }

  it('lets a user read and edit their own names and password, but not their role', async () => {
    const me = await idOf('researcher@accord.test');
    expect((await t.request({ method: 'GET', url: `/api/users/${me}/`, token: researcher })).statusCode).toBe(
      200,
    );
    const rename = await t.request({
      method: 'PUT',
      url: `/api/users/${me}/`,
      token: researcher,
      payload: { firstname: 'Rita', role_id: 2 },
    });
    expect(rename.statusCode).toBe(200);
    expect(rename.json().firstname).toBe('Rita');
    const promote = await t.request({
      method: 'PUT',
      url: `/api/users/${me}/`,
      token: researcher,
      payload: { role_id: 1 },
    });
    expect(promote.statusCode).toBe(403);
    const check = await t.request({ method: 'GET', url: `/api/users/${me}/`, token: admin });
    expect(check.json().role_id).toBe(2);
  });

  it("refuses another user's record to a non-admin", async () => {
    const adminId = await idOf('admin@accord.test');
    expect(
      (await t.request({ method: 'GET', url: `/api/users/${adminId}/`, token: researcher })).statusCode,
    ).toBe(403);
    expect(
      (
        await t.request({
          method: 'PUT',
          url: `/api/users/${adminId}/`,
          token: researcher,
          payload: { firstname: 'x' },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('answers 401, 400 and 404', async () => {
    expect((await t.request({ method: 'GET', url: '/api/users/1/' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/users/abc/', token: admin })).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/api/users/99999/', token: admin })).statusCode).toBe(404);
    const id = await idOf('ada@accord.test');
    const bad = await t.request({
      method: 'PUT',
      url: `/api/users/${id}/`,
      token: admin,
      payload: { status: 'sleeping' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('deletes by update: the user disappears from the list and their sessions end', async () => {
    const id = await idOf('ada@accord.test');
    const token = (
      await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'ada@accord.test', password: 'secret-password' },
      })
    ).headers.authorization as string;
    const response = await t.request({
      method: 'PUT',
      url: `/api/users/${id}/`,
      token: admin,
      payload: { deleted: true },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().deleted).toBe(true);
    expect(
      (await t.request({ method: 'GET', url: '/api/help-url', headers: { authorization: token } }))
        .statusCode,
    ).toBe(401);
    const list = await t.request({
      method: 'GET',
      url: '/api/users/?search_query=ada%40accord',
      token: admin,
    });
    expect(list.json()).toEqual([]);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'ada@accord.test', password: 'secret-password' },
    });
    expect(login.statusCode).toBe(401);
    expect(errorBody(login).message).toBe(MESSAGES.loginUnauthorized);
  });

  it('stops an admin from removing themself', async () => {
    const me = await idOf('admin@accord.test');
    const response = await t.request({
      method: 'PUT',
      url: `/api/users/${me}/`,
      token: admin,
      payload: { deleted: true },
    });
    expect(response.statusCode).toBe(400);
  });

  it('changes a password so the old one no longer works', async () => {
    const id = await idOf('sales@accord.test');
    const response = await t.request({
      method: 'PUT',
      url: `/api/users/${id}/`,
      token: admin,
      payload: { password: 'changed-password' },
    });
    expect(response.statusCode).toBe(200);
    const old = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'sales@accord.test', password: TEST_PASSWORD },
    });
    expect(old.statusCode).toBe(401);
  });
});
