/**
 * Password and e-mail changes: one's own change needs the current password, every password change
 * ends the user's other sessions, and a reset follows the same password rule as user creation.
 */
import { ACCOUNT_ATTEMPT_LIMIT } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, TEST_PASSWORD, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
});
afterAll(async () => {
  await t.close();
});

let counter = 0;
/** A new researcher of its own, so the tests do not share sessions or attempt counts. */
async function newUser(): Promise<{ id: number; email: string }> {
  const email = `person${++counter}@accord.test`;
  const response = await t.request({
    method: 'POST',
    url: '/api/users/',
    token: admin,
    payload: { email, password: TEST_PASSWORD, role_id: 2, clients: '[]' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { id: response.json().id, email };
}

async function signIn(email: string, password = TEST_PASSWORD, remember = false) {
  const response = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password, remember },
  });
  expect(response.statusCode, response.body).toBe(200);
  return {
    token: String(response.headers.authorization).replace(/^Bearer /, ''),
    refresh: response.cookies.find((cookie) => cookie.name === 'accord_refresh')?.value,
  };
}

const update = (token: string, id: number, payload: Record<string, unknown>) =>
  t.request({ method: 'PUT', url: `/api/users/${id}/`, token, payload });

const signedIn = async (token: string) =>
  (await t.request({ method: 'GET', url: '/api/help-url', token })).statusCode === 200;

describe('changing one’s own password or e-mail', () => {
  it('needs the current password, named as the field, and refuses a wrong one', async () => {
    const user = await newUser();
    const { token } = await signIn(user.email);
    for (const payload of [{ password: 'new-password-1' }, { email: 'moved@accord.test' }]) {
      const missing = await update(token, user.id, payload);
      expect(missing.statusCode).toBe(400);
      expect(errorBody(missing).message).toMatch(/current password/i);
      expect(missing.json().details).toEqual([{ path: 'current_password', message: expect.any(String) }]);
      const wrong = await update(token, user.id, { ...payload, current_password: 'not-my-password' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().details[0].path).toBe('current_password');
    }
    // Nothing changed.
    expect((await signIn(user.email)).token).toBeTruthy();

    const changed = await update(token, user.id, {
      password: 'new-password-1',
      email: `renamed-${user.email}`,
      current_password: TEST_PASSWORD,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().email).toBe(`renamed-${user.email}`);
    expect((await signIn(`renamed-${user.email}`, 'new-password-1')).token).toBeTruthy();
  });

  it('changes names without the current password', async () => {
    const user = await newUser();
    const { token } = await signIn(user.email);
    const response = await update(token, user.id, { firstname: 'Renamed', email: user.email.toUpperCase() });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().firstname).toBe('Renamed');
  });

  it('counts wrong current passwords as failed sign-ins of the account', async () => {
    const user = await newUser();
    const { token } = await signIn(user.email);
    for (let i = 0; i < ACCOUNT_ATTEMPT_LIMIT; i++)
      expect(
        (await update(token, user.id, { password: 'new-password-1', current_password: `guess-${i}` }))
          .statusCode,
      ).toBe(400);
    const limited = await update(token, user.id, {
      password: 'new-password-1',
      current_password: TEST_PASSWORD,
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('also binds an admin on their own record', async () => {
    const user = await newUser();
    await update(admin, user.id, { role_id: 1 });
    const { token } = await signIn(user.email);
    expect((await update(token, user.id, { password: 'new-password-1' })).statusCode).toBe(400);
    expect(
      (await update(token, user.id, { password: 'new-password-1', current_password: TEST_PASSWORD }))
        .statusCode,
    ).toBe(200);
  });
});

describe('a password change ends the other sessions', () => {
  it('keeps the session the user changed it from and ends the others, remember-me included', async () => {
    const user = await newUser();
    const here = await signIn(user.email);
    const elsewhere = await signIn(user.email, TEST_PASSWORD, true);
    expect(elsewhere.refresh).toBeTruthy();
    const response = await update(here.token, user.id, {
      password: 'new-password-1',
      current_password: TEST_PASSWORD,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await signedIn(here.token)).toBe(true);
    expect(await signedIn(elsewhere.token)).toBe(false);
    const refresh = await t.request({
      method: 'GET',
      url: '/api/auth/refresh',
      cookies: { accord_refresh: elsewhere.refresh! },
    });
    expect(refresh.statusCode).toBe(401);
  });

  it('ends every session of a user whose password an admin sets', async () => {
    const user = await newUser();
    const first = await signIn(user.email);
    const second = await signIn(user.email);
    expect((await update(admin, user.id, { password: 'set-by-admin-1' })).statusCode).toBe(200);
    expect(await signedIn(first.token)).toBe(false);
    expect(await signedIn(second.token)).toBe(false);
    expect(await signedIn(admin)).toBe(true);
    // A change of names alone ends nothing.
    const third = await signIn(user.email, 'set-by-admin-1');
    expect((await update(admin, user.id, { firstname: 'Kept' })).statusCode).toBe(200);
    expect(await signedIn(third.token)).toBe(true);
  });
});

describe('password reset', () => {
  it('refuses a password shorter than user creation allows, and the link still works after', async () => {
    const user = await newUser();
    await t.request({
      method: 'POST',
      url: '/api/auth/request-change-password/',
      payload: { email: user.email },
    });
    const mail = (await t.lastMail()).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = /\/login\/reset\/([A-Za-z0-9_-]+)/.exec(mail)![1]!;
    for (const newPassword of ['x', '1234567']) {
      const short = await t.request({
        method: 'POST',
        url: '/api/auth/reset-password/',
        payload: { token, new_password: newPassword },
      });
      expect(short.statusCode).toBe(400);
      expect(errorBody(short).message).toBe('new_password: Password must have at least 8 characters');
    }
    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password/',
      payload: { token, new_password: '12345678' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await signIn(user.email, '12345678')).token).toBeTruthy();
  });
});
