/**
 * Guessing limits: failed sign-ins and reset-mail requests are counted per account whatever address
 * they come from, and a separate, higher limit per address counts X-Forwarded-For only behind a
 * trusted proxy (TRUST_PROXY).
 */
import { ACCOUNT_ATTEMPT_LIMIT, MESSAGES } from '@accord/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, TEST_PASSWORD, type TestApp } from '../../testing/test-app.ts';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

function login(app: Pick<TestApp, 'request'>, email: string, password: string, forwardedFor?: string) {
  return app.request({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password, remember: false },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
}

describe('failed sign-ins per account', () => {
  it('forgets each successful sign-in, however many run at once', async () => {
    t = await createTestApp();
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => login(t!, 'researcher@accord.test', TEST_PASSWORD)),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    }
    const { rows } = await t.database.sql.executeSql(
      `select count(*)::int as n from auth_attempts where key = 'researcher@accord.test'`,
    );
    expect(rows).toEqual([{ n: 0 }]);
    expect((await login(t, 'researcher@accord.test', 'wrong-guess')).statusCode).toBe(401);
  });

  it('counts the failures of every API process of a deployment together', async () => {
    t = await createTestApp();
    const other = await t.secondProcess({ workers: false });
    try {
      // Half the guesses through each process: together they reach the limit.
      for (let i = 0; i < ACCOUNT_ATTEMPT_LIMIT; i++) {
        const app = i % 2 ? other : t;
        expect((await login(app, 'researcher@accord.test', 'wrong-guess')).statusCode).toBe(401);
      }
      expect((await login(t, 'researcher@accord.test', 'wrong-guess')).statusCode).toBe(429);
      expect((await login(other, 'researcher@accord.test', TEST_PASSWORD)).statusCode).toBe(429);
      // A successful sign-in through one process is not counted against the account in the other.
      expect((await login(other, 'admin@accord.test', TEST_PASSWORD)).statusCode).toBe(200);
      expect((await login(t, 'admin@accord.test', 'wrong-guess')).statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('answers 429 with Retry-After after 10 failures at one account, from any address and in any case', async () => {
    t = await createTestApp({ settings: { trustProxy: true } });
    const codes: number[] = [];
    for (let i = 0; i < ACCOUNT_ATTEMPT_LIMIT; i++) {
      const email = i % 2 ? 'Researcher@Accord.test' : 'researcher@accord.test';
      codes.push((await login(t, email, 'wrong-guess', `203.0.113.${i + 1}`)).statusCode);
    }
    expect(codes).toEqual(Array(ACCOUNT_ATTEMPT_LIMIT).fill(401));

    const limited = await login(t, 'RESEARCHER@accord.test', 'wrong-guess', '198.51.100.77');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect(errorBody(limited).message).toBe(MESSAGES.accountThrottled(15));
    // The right password does not get through either while the account is limited.
    expect((await login(t, 'researcher@accord.test', TEST_PASSWORD, '198.51.100.78')).statusCode).toBe(429);

    // Other accounts, from the same addresses, are not affected.
    expect((await login(t, 'admin@accord.test', TEST_PASSWORD, '203.0.113.1')).statusCode).toBe(200);
    expect((await login(t, 'client@accord.test', 'wrong-guess', '203.0.113.1')).statusCode).toBe(401);

    // Once the oldest failure is 15 minutes old the account may try again.
    t.clock.set(new Date(Date.now() + 15 * 60_000 + 1000));
    expect((await login(t, 'researcher@accord.test', TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('counts concurrent guesses too, and unknown e-mails like known ones', async () => {
    t = await createTestApp();
    const codes = (
      await Promise.all(Array.from({ length: 15 }, () => login(t!, 'sales@accord.test', 'wrong-guess')))
    ).map((response) => response.statusCode);
    expect(codes.filter((code) => code === 401)).toHaveLength(ACCOUNT_ATTEMPT_LIMIT);
    expect(codes.filter((code) => code === 429)).toHaveLength(15 - ACCOUNT_ATTEMPT_LIMIT);

    for (let i = 0; i < ACCOUNT_ATTEMPT_LIMIT; i++)
      expect((await login(t, 'nobody@accord.test', 'wrong-guess')).statusCode).toBe(401);
    expect((await login(t, 'nobody@accord.test', 'wrong-guess')).statusCode).toBe(429);
  });

  it('does not count successful sign-ins as failures', async () => {
    t = await createTestApp();
    for (let i = 0; i < ACCOUNT_ATTEMPT_LIMIT + 5; i++)
      expect((await login(t, 'admin@accord.test', TEST_PASSWORD)).statusCode).toBe(200);
    expect((await login(t, 'admin@accord.test', 'wrong-guess')).statusCode).toBe(401);
  });

  it('lets the others behind one office address sign in when one account is limited', async () => {
    t = await createTestApp({ settings: { loginRateLimit: undefined } });
    for (let i = 0; i < ACCOUNT_ATTEMPT_LIMIT + 2; i++) await login(t, 'client@accord.test', 'wrong-guess');
    expect((await login(t, 'client@accord.test', TEST_PASSWORD)).statusCode).toBe(429);
    for (const email of ['admin@accord.test', 'researcher@accord.test', 'sales@accord.test'])
      expect((await login(t, email, TEST_PASSWORD)).statusCode).toBe(200);
  });
});

describe('requests per address', () => {
  it('ignores X-Forwarded-For unless a proxy is trusted', async () => {
    t = await createTestApp({ settings: { loginRateLimit: 3 } });
    const codes: number[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await login(t, `user${i}@accord.test`, 'wrong-guess', `203.0.113.${i + 1}`)).statusCode);
    expect(codes).toEqual([401, 401, 401, 429, 429]);
    const limited = await login(t, 'admin@accord.test', TEST_PASSWORD, '203.0.113.99');
    expect(limited.statusCode).toBe(429);
    expect(errorBody(limited).message).toBe(MESSAGES.tooManyLogins);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts each forwarded client on its own behind a trusted proxy', async () => {
    t = await createTestApp({ settings: { loginRateLimit: 3, trustProxy: true } });
    const codes: number[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await login(t, `user${i}@accord.test`, 'wrong-guess', `203.0.113.${i + 1}`)).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401]);
  });
});

describe('reset-mail requests per account', () => {
  it('answers 429 with Retry-After after 10 requests for one account, and still mails other accounts', async () => {
    t = await createTestApp({ settings: { trustProxy: true } });
    const request = (email: string, forwardedFor: string) =>
      t!.request({
        method: 'POST',
        url: '/api/auth/request-change-password/',
        payload: { email },
        headers: { 'x-forwarded-for': forwardedFor },
      });
    for (let i = 0; i < ACCOUNT_ATTEMPT_LIMIT; i++)
      expect(
        (await request(i % 2 ? 'Client@accord.test' : 'client@accord.test', `203.0.113.${i}`)).statusCode,
      ).toBe(200);
    const limited = await request('CLIENT@ACCORD.TEST', '198.51.100.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(errorBody(limited).message).toBe(MESSAGES.accountThrottled(15));
    // An unknown address is limited the same way, so the answers reveal nothing.
    for (let i = 0; i < ACCOUNT_ATTEMPT_LIMIT; i++)
      expect((await request('ghost@accord.test', `203.0.113.${i}`)).statusCode).toBe(200);
    expect((await request('ghost@accord.test', '198.51.100.2')).statusCode).toBe(429);
    expect((await request('sales@accord.test', '198.51.100.3')).statusCode).toBe(200);
    expect(await t.lastMail()).toMatch(/To: sales@accord.test/);
  });
});

describe('reset link', () => {
  async function resetLinkFor(app: TestApp, clientAddress: string | undefined): Promise<string> {
    const response = await app.request({
      method: 'POST',
      url: '/api/auth/request-change-password/',
      payload: {
        email: 'researcher@accord.test',
        ...(clientAddress ? { client_address: clientAddress } : {}),
      },
    });
    expect(response.statusCode).toBe(200);
    const mail = (await app.lastMail()).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const match = /(\S+)\/login\/reset\/[A-Za-z0-9_-]+/.exec(
      mail.split('\n').find((line) => line.includes('/login/reset/'))!,
    );
    return match![1]!;
  }

  it('points at PUBLIC_URL whatever client address the request names', async () => {
    t = await createTestApp();
    expect(await resetLinkFor(t, 'https://evil.example.net')).toBe('http://localhost:3000');
    expect(await resetLinkFor(t, 'https://evil.example.net/login')).toBe('http://localhost:3000');
    expect(await resetLinkFor(t, 'http://localhost.evil.example.net:3000')).toBe('http://localhost:3000');
    expect(await resetLinkFor(t, undefined)).toBe('http://localhost:3000');
    expect(await resetLinkFor(t, 'http://localhost:3000/')).toBe('http://localhost:3000');
  });

  it('points at a client origin on the allow-list', async () => {
    t = await createTestApp({ settings: { resetLinkOrigins: ['https://accord.example.com'] } });
    expect(await resetLinkFor(t, 'https://accord.example.com/')).toBe('https://accord.example.com');
    expect(await resetLinkFor(t, 'https://accord.example.com.evil.net')).toBe('http://localhost:3000');
    expect(await resetLinkFor(t, 'http://accord.example.com')).toBe('http://localhost:3000');
  });
});
