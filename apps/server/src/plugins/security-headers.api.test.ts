// The security headers of every kind of answer: a page of the built SPA, an API answer, an API error
// (400 and 404) and a refused caller (401) carry the same set, Content-Security-Policy included, and
// none says what the server runs on.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';

const EXPECTED: Record<string, string> = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';" +
    "img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';" +
    "style-src 'self' 'unsafe-inline';connect-src 'self'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

let webDist: string;
let t: TestApp;

beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), 'accord-web-headers-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><html><body>Accord</body></html>');
  t = await createTestApp({ settings: { webDist } });
});

afterAll(async () => {
  await t?.close();
  await rm(webDist, { recursive: true, force: true });
});

/** The security headers of an answer: the expected names, with whatever value each has. */
const securityHeaders = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(EXPECTED).map((name) => [name, headers[name]]));

describe('security headers', () => {
  it.each([
    ['a page of the app', { method: 'GET', url: '/' }, 200],
    ['a history route of the app', { method: 'GET', url: '/analytics' }, 200],
    ['an API answer', { method: 'GET', url: '/api/' }, 200],
    ['a signed-in API answer', { method: 'GET', url: '/api/smartsearch/fields', signedIn: true }, 200],
    ['an API error', { method: 'POST', url: '/api/auth/login', payload: { email: 1 } }, 400],
    ['an unknown API path', { method: 'GET', url: '/api/no-such-thing/' }, 404],
    ['a refused caller', { method: 'GET', url: '/api/smartsearch/fields' }, 401],
  ] as const)('are the same on %s', async (_kind, call, status) => {
    const { signedIn, ...request } = call as typeof call & { signedIn?: boolean };
    const response = await t.request({
      ...(request as { method: 'GET' | 'POST'; url: string; payload?: unknown }),
      ...(signedIn ? { token: await t.login('admin') } : {}),
    });
    expect(response.statusCode).toBe(status);
    expect(securityHeaders(response.headers)).toEqual(EXPECTED);
    expect(response.headers['x-powered-by']).toBeUndefined();
  });
});
