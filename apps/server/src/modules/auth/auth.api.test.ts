import { MESSAGES } from '@accord/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, TEST_PASSWORD, type TestApp } from '../../testing/test-app.ts';
import { hashToken } from './tokens.ts';

let t: TestApp;
beforeAll(async () => {
  // The dev server of the web client, allowed as a reset-link origin beside PUBLIC_URL.
  t = await createTestApp({ settings: { resetLinkOrigins: ['http://localhost:5173'] } });
});
afterAll(async () => {
  await t.close();
});

/** The reset link of the newest mail, decoded from quoted-printable. */
async function resetTokenFromMail(): Promise<string> {
  const mail = (await t.lastMail()).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /\/login\/reset\/([A-Za-z0-9_-]+)/.exec(mail);
  if (!match?.[1]) throw new Error('no reset link in the mail');
  return match[1];
}

async function createUser(email: string, roleId = 2) {
  const admin = await t.login('admin');
  const response = await t.request({
    method: 'POST',
    url: '/api/users/',
    token: admin,
    payload: {
      email,
      firstname: 'Test',
      lastname: 'User',
      password: TEST_PASSWORD,
      role_id: roleId,
      status: 'enabled',
      clients: '[]',
    },
  });
  expect(response.statusCode).toBe(200);
  return response.json() as { id: number };
}

describe('GET /api/', () => {
  it('answers the API version without sign-in', async () => {
    const response = await t.request({ method: 'GET', url: '/api/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ name: 'Accord API', version: '0.0.0-test' });
  });
});

describe('POST /api/auth/login', () => {
  it('signs in and answers the user with an Authorization header', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'ADMIN@accord.test', password: TEST_PASSWORD, remember: true },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers.authorization).toMatch(/^Bearer \S{20,}$/);
    const body = response.json();
    expect(body).toMatchObject({ email: 'admin@accord.test', role_id: 1, password_reset_flag: false });
    expect(typeof body.screenname).toBe('string');
    expect(JSON.stringify(body)).not.toMatch(/argon|hash/i);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/accord_refresh=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
  });

  it('answers 401 with the catalogue message for a wrong password or unknown user', async () => {
    for (const payload of [
      { email: 'admin@accord.test', password: 'wrong' },
      { email: 'nobody@accord.test', password: 'wrong' },
    ]) {
      const response = await t.request({ method: 'POST', url: '/api/auth/login', payload });
      expect(response.statusCode).toBe(401);
      expect(errorBody(response).message).toBe(MESSAGES.loginUnauthorized);
      expect(response.headers.authorization).toBeUndefined();
    }
  });

  it('answers 400 with a clear message when a field is missing', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@accord.test' },
    });
    expect(response.statusCode).toBe(400);
    const body = errorBody(response);
    expect(body.error).toBe('validation_failed');
    expect(body.message).toMatch(/password/i);
    expect(body.requestId).toBeTruthy();
  });

  it('flags a user inactive for over 30 days and gives no session', async () => {
    await createUser('stale@accord.test');
    await t.request({
      method: 'POST',
      url: '/api/test/age-user',
      payload: { email: 'stale@accord.test', days: 31 },
    });
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'stale@accord.test', password: TEST_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().password_reset_flag).toBe(true);
    expect(response.headers.authorization).toBeUndefined();
  });

  it('refuses a disabled user', async () => {
    const user = await createUser('disabled@accord.test');
    const admin = await t.login('admin');
    await t.request({
      method: 'PUT',
      url: `/api/users/${user.id}/`,
      token: admin,
      payload: { status: 'disabled' },
    });
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'disabled@accord.test', password: TEST_PASSWORD },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/auth/refresh', () => {
  it('renews the token; the earlier one keeps working until it expires, as another tab still holds it', async () => {
    const token = await t.login('researcher');
    const response = await t.request({ method: 'GET', url: '/api/auth/refresh', token });
    expect(response.statusCode).toBe(200);
    const renewed = String(response.headers.authorization).replace('Bearer ', '');
    expect(renewed).not.toBe(token);
    expect((await t.request({ method: 'GET', url: '/api/help-url', token: renewed })).statusCode).toBe(200);
    // A second tab renewing from the first tab's token leaves both tabs signed in.
    const second = await t.request({ method: 'GET', url: '/api/auth/refresh', token });
    expect(second.statusCode).toBe(200);
    for (const held of [token, renewed, String(second.headers.authorization).replace('Bearer ', '')])
      expect((await t.request({ method: 'GET', url: '/api/help-url', token: held })).statusCode).toBe(200);
  });

  it('ends every token of the session at sign-out', async () => {
    const token = await t.login('researcher');
    const renewed = String(
      (await t.request({ method: 'GET', url: '/api/auth/refresh', token })).headers.authorization,
    ).replace('Bearer ', '');
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', token: renewed })).statusCode).toBe(
      200,
    );
    for (const held of [token, renewed])
      expect((await t.request({ method: 'GET', url: '/api/help-url', token: held })).statusCode).toBe(401);
  });

  it('refuses a token past its expiry', async () => {
    const token = await t.login('researcher');
    await t.database.db.execute(
      sql`update session_tokens set expires_at = now() - interval '1 second' where token_hash = ${hashToken(token)}`,
    );
    expect((await t.request({ method: 'GET', url: '/api/help-url', token })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/auth/refresh', token })).statusCode).toBe(401);
  });

  it('renews from the remember-me cookie alone', async () => {
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'researcher@accord.test', password: TEST_PASSWORD, remember: true },
    });
    const cookie = login.cookies.find((c) => c.name === 'accord_refresh');
    expect(cookie).toBeDefined();
    const response = await t.request({
      method: 'GET',
      url: '/api/auth/refresh',
      cookies: { accord_refresh: cookie!.value },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().email).toBe('researcher@accord.test');
  });

  it('answers 401 without a session', async () => {
    expect((await t.request({ method: 'GET', url: '/api/auth/refresh' })).statusCode).toBe(401);
    expect(
      (await t.request({ method: 'GET', url: '/api/auth/refresh', token: 'made-up-token' })).statusCode,
    ).toBe(401);
  });
});

describe('POST /api/auth/logout', () => {
  it('ends the session at once', async () => {
    const token = await t.login('researcher');
    const response = await t.request({ method: 'POST', url: '/api/auth/logout', token });
    expect(response.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/help-url', token })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/auth/refresh', token })).statusCode).toBe(401);
  });
});

describe('password reset', () => {
  it('mails a link whose token sets a new password once', async () => {
    await createUser('forgetful@accord.test');
    const request = await t.request({
      method: 'POST',
      url: '/api/auth/request-change-password/',
      payload: { email: 'forgetful@accord.test', client_address: 'http://localhost:5173' },
    });
    expect(request.statusCode).toBe(200);
    expect(request.json().message).toBe(MESSAGES.resetRequested);
    const mail = (await t.lastMail()).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(mail).toMatch(/To: forgetful@accord.test/);
    expect(mail).toContain('http://localhost:5173/login/reset/');
    const token = await resetTokenFromMail();

    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password/',
      payload: { token, new_password: 'brand-new-pass' },
    });
    expect(reset.statusCode).toBe(200);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'forgetful@accord.test', password: 'brand-new-pass' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().password_reset_flag).toBe(false);

    const again = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password/',
      payload: { token, new_password: 'another-pass' },
    });
    expect(again.statusCode).toBe(400);
    expect(errorBody(again).message).toBe(MESSAGES.resetTokenInvalid);
  });

  it('clears the 30-day flag after a reset', async () => {
    await t.request({
      method: 'POST',
      url: '/api/auth/request-change-password/',
      payload: { email: 'stale@accord.test' },
    });
    const token = await resetTokenFromMail();
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/auth/reset-password/',
          payload: { token, new_password: 'fresh-password' },
        })
      ).statusCode,
    ).toBe(200);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'stale@accord.test', password: 'fresh-password' },
    });
    expect(login.json().password_reset_flag).toBe(false);
    expect(login.headers.authorization).toMatch(/^Bearer /);
  });

  it('answers the same for an unknown address, and 400 for a malformed one', async () => {
    const unknown = await t.request({
      method: 'POST',
      url: '/api/auth/request-change-password/',
      payload: { email: 'ghost@accord.test' },
    });
    expect(unknown.statusCode).toBe(200);
    const bad = await t.request({
      method: 'POST',
      url: '/api/auth/request-change-password/',
      payload: { email: 'not-an-address' },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toMatch(/valid e-mail/);
  });

  it('answers 400 for an unknown token', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password/',
      payload: { token: 'x'.repeat(40), new_password: 'whatever1' },
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('security', () => {
  it('sends security headers', async () => {
    const response = await t.request({ method: 'GET', url: '/api/' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBeDefined();
    expect(response.headers['x-request-id']).toBeDefined();
  });

  it("tells the server's time of a request in Server-Timing", async () => {
    const response = await t.request({ method: 'GET', url: '/api/' });
    expect(response.headers['server-timing']).toMatch(/^app;dur=\d+\.\d$/);
  });

  it('rate-limits sign-in attempts per address', async () => {
    const limited = await createTestAppWithLimit(3);
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await limited.request({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'admin@accord.test', password: 'wrong' },
        });
        codes.push(response.statusCode);
      }
      expect(codes).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});

async function createTestAppWithLimit(limit: number): Promise<TestApp> {
  process.env.ACCORD_TEST_LOGIN_LIMIT = String(limit);
  try {
    return await createTestApp();
  } finally {
    delete process.env.ACCORD_TEST_LOGIN_LIMIT;
  }
}
