/**
 * How long a session lasts, and that no API answer is kept by a browser or proxy cache.
 */
import { SESSION_MAX_HOURS } from '@accord/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../testing/test-app.ts';
import { hashToken } from './tokens.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function signIn(remember: boolean) {
  const response = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'researcher@accord.test', password: TEST_PASSWORD, remember },
  });
  expect(response.statusCode).toBe(200);
  return {
    token: String(response.headers.authorization).replace(/^Bearer /, ''),
    refresh: response.cookies.find((cookie) => cookie.name === 'accord_refresh')?.value,
  };
}

/** Moves the sign-in of the token's session back by the given minutes. */
async function signedInMinutesAgo(token: string, minutes: number) {
  await t.database.db.execute(sql`update sessions set created_at = now() - make_interval(mins => ${minutes})
    where id = (select session_id from session_tokens where token_hash = ${hashToken(token)})`);
}

const status = async (token: string) =>
  (await t.request({ method: 'GET', url: '/api/help-url', token })).statusCode;

describe('session lifetime', () => {
  it(`ends a session without remember-me ${SESSION_MAX_HOURS} hours after sign-in, however often it was renewed`, async () => {
    const { token } = await signIn(false);
    await signedInMinutesAgo(token, SESSION_MAX_HOURS * 60 - 1);
    expect(await status(token)).toBe(200);
    const renewed = await t.request({ method: 'GET', url: '/api/auth/refresh', token });
    expect(renewed.statusCode).toBe(200);
    const next = String(renewed.headers.authorization).replace(/^Bearer /, '');

    await signedInMinutesAgo(token, SESSION_MAX_HOURS * 60 + 1);
    expect(await status(token)).toBe(401);
    expect(await status(next)).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/auth/refresh', token: next })).statusCode).toBe(401);
  });

  it('keeps a remember-me session beyond that', async () => {
    const { token, refresh } = await signIn(true);
    await signedInMinutesAgo(token, SESSION_MAX_HOURS * 60 + 1);
    expect(await status(token)).toBe(200);
    const renewed = await t.request({
      method: 'GET',
      url: '/api/auth/refresh',
      cookies: { accord_refresh: refresh! },
    });
    expect(renewed.statusCode).toBe(200);
  });

  it('ends a remember-me session at its refresh expiry, even when renewed by its access token', async () => {
    const { token } = await signIn(true);
    // Renewed every minute by an open tab, as the web app does: each renewal uses the access token.
    const renewed = await t.request({ method: 'GET', url: '/api/auth/refresh', token });
    expect(renewed.statusCode).toBe(200);
    const next = String(renewed.headers.authorization).replace(/^Bearer /, '');
    expect(await status(next)).toBe(200);

    // 30 days after sign-in the remember-me promise is over: neither token nor a renewal is accepted.
    await t.database.db.execute(sql`update sessions set refresh_expires_at = now() - interval '1 minute'
      where id = (select session_id from session_tokens where token_hash = ${hashToken(token)})`);
    expect(await status(next)).toBe(401);
    expect(await status(token)).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/auth/refresh', token: next })).statusCode).toBe(401);
  });
});

describe('the remember-me promise', () => {
  /** The end of the refresh cookie's session, as the server stored it. */
  async function refreshEnd(token: string): Promise<number> {
    const { rows } = await t.database.sql.executeSql(
      `select refresh_expires_at as "end" from sessions
        where id = (select session_id from session_tokens where token_hash = $1)`,
      [hashToken(token)],
    );
    return new Date(rows[0]!.end as string | Date).getTime();
  }

  it('lasts 30 days from sign-in, which no renewal (by token or by cookie) moves', async () => {
    const before = Date.now();
    const { token, refresh } = await signIn(true);
    const end = await refreshEnd(token);
    const day = 24 * 60 * 60_000;
    expect(end).toBeGreaterThanOrEqual(before + 30 * day - 1000);
    expect(end).toBeLessThanOrEqual(Date.now() + 30 * day + 1000);

    const byToken = await t.request({ method: 'GET', url: '/api/auth/refresh', token });
    expect(byToken.statusCode).toBe(200);
    const next = String(byToken.headers.authorization).replace(/^Bearer /, '');
    const byCookie = await t.request({
      method: 'GET',
      url: '/api/auth/refresh',
      cookies: { accord_refresh: refresh! },
    });
    expect(byCookie.statusCode).toBe(200);
    const last = String(byCookie.headers.authorization).replace(/^Bearer /, '');
    expect(await refreshEnd(next)).toBe(end);
    expect(await refreshEnd(last)).toBe(end);
  });
});

describe('Cache-Control', () => {
  it('is no-store on every API answer, errors included', async () => {
    const admin = await t.login('admin');
    const responses = [
      await t.request({ method: 'GET', url: '/api/' }),
      await t.request({ method: 'GET', url: '/api/help-url', token: admin }),
      await t.request({ method: 'GET', url: '/api/users/', token: admin }),
      await t.request({ method: 'GET', url: '/api/help-url' }),
      await t.request({ method: 'GET', url: '/api/no-such-call' }),
      await t.request({ method: 'POST', url: '/api/auth/login', payload: {} }),
      await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'admin@accord.test', password: TEST_PASSWORD },
      }),
    ];
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 401, 404, 400, 200]);
    for (const response of responses) expect(response.headers['cache-control']).toBe('no-store');
  });
});
