/**
 * The session lookups of requests arriving together share one query (db/batched-read.ts): each
 * request still gets its own user, and a session ended or a user disabled is refused on the very
 * next request, whatever else is in the same batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../testing/test-app.ts';
import { statementsDuring } from '../../testing/statements.ts';

let t: TestApp;
let admin: string;
const users: { id: number; email: string; token: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  for (let index = 0; index < 6; index++) {
    const email = `batch-${index}@accord.test`;
    const created = await t.request({
      method: 'POST',
      url: '/api/users/',
      token: admin,
      payload: {
        email,
        firstname: 'Batch',
        lastname: `User ${index}`,
        password: TEST_PASSWORD,
        role_id: 2,
        status: 'enabled',
        clients: '[]',
      },
    });
    expect(created.statusCode).toBe(200);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const token = String(login.headers.authorization).replace(/^Bearer /, '');
    users.push({ id: (created.json() as { id: number }).id, email, token });
  }
});
afterAll(async () => {
  await t.close();
});

const ownRecord = (user: { id: number; token: string }) =>
  t.request({ method: 'GET', url: `/api/users/${user.id}/`, token: user.token });

describe('session lookups of requests arriving together', () => {
  it('answers each of many users at once as themself, from one lookup', async () => {
    const { result, count } = await statementsDuring(t.database.db, /from session_tokens t/, () =>
      Promise.all(users.flatMap((user) => [ownRecord(user), ownRecord(user)])),
    );
    expect(result.map((response) => response.statusCode)).toEqual(users.flatMap(() => [200, 200]));
    expect(result.map((response) => (response.json() as { email: string }).email)).toEqual(
      users.flatMap((user) => [user.email, user.email]),
    );
    // Twelve requests, their lookups sent together (fewer queries than requests).
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(result.length);
  });

  it("refuses each user another's record when they ask at once (no user lent to another request)", async () => {
    const answers = await Promise.all(
      users.map((user, index) =>
        t.request({
          method: 'GET',
          url: `/api/users/${users[(index + 1) % users.length]!.id}/`,
          token: user.token,
        }),
      ),
    );
    expect(answers.map((response) => response.statusCode)).toEqual(users.map(() => 403));
  });

  it('refuses a signed-out session on the very next request, the others of its batch still answered', async () => {
    const [gone, ...others] = users.slice(0, 4);
    const logout = await t.request({ method: 'POST', url: '/api/auth/logout', token: gone!.token });
    expect(logout.statusCode).toBeLessThan(300);
    const answers = await Promise.all([ownRecord(gone!), ...others.map(ownRecord), ownRecord(gone!)]);
    expect(answers.map((response) => response.statusCode)).toEqual([401, 200, 200, 200, 401]);
  });

  it('refuses a disabled user at once, with a token that is not live and the others of the batch', async () => {
    const disabled = users[4]!;
    const still = users[5]!;
    const change = await t.request({
      method: 'PUT',
      url: `/api/users/${disabled.id}/`,
      token: admin,
      payload: { status: 'disabled' },
    });
    expect(change.statusCode).toBe(200);
    const answers = await Promise.all([
      ownRecord(disabled),
      ownRecord(still),
      t.request({ method: 'GET', url: '/api/help-url', token: 'not-a-token-of-anyone' }),
      ownRecord(still),
    ]);
    expect(answers.map((response) => response.statusCode)).toEqual([401, 200, 401, 200]);
  });
});
