/**
 * An anonymous caller is told to sign in (401) by every operation but the public ones, whatever it
 * sends: the session is checked before the body, query and path are read, so a request that is
 * also malformed still answers 401, never a 400 that describes what the operation expects.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';

const document = JSON.parse(
  readFileSync(new URL('../../../../docs/openapi.json', import.meta.url), 'utf8'),
) as { paths: Record<string, Record<string, unknown>> };

/** The operations open to everyone: the API's answer, its health, and signing in, out and resetting a password. */
const PUBLIC = new Set([
  'get /api/',
  'get /api/health',
  'post /api/auth/login',
  'get /api/auth/refresh',
  'post /api/auth/logout',
  'post /api/auth/request-change-password/',
  'post /api/auth/reset-password/',
]);

const operations = Object.entries(document.paths).flatMap(([route, methods]) =>
  Object.keys(methods)
    .filter((method) => ['get', 'post', 'put', 'delete'].includes(method))
    .map((method) => ({ method, route })),
);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('an anonymous caller', () => {
  it('gets 401 from every operation that needs a session, before its input is checked', async () => {
    const checked = operations.filter(({ method, route }) => !PUBLIC.has(`${method} ${route}`));
    expect(checked.length).toBeGreaterThan(80);
    const answers: string[] = [];
    for (const { method, route } of checked) {
      // Path parameters no operation accepts, a query that is not a number, a body of the wrong shape.
      const url = `${route.replace(/\{[^}]+\}/g, '%20x')}?page=not-a-number`;
      const response = await t.request({
        method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
        url,
        ...(method === 'get' ? {} : { payload: { unexpected: ['shape'] } }),
      });
      answers.push(`${method} ${route}: ${response.statusCode}`);
    }
    expect(answers.filter((answer) => !answer.endsWith(': 401'))).toEqual([]);
  });
});
