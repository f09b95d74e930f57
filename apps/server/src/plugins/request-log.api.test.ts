// One JSON line per request at LOG_LEVEL info: method, route pattern, status, time, request id and
// user id; never a password, a token, a cookie or the Authorization header. At warn, only failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
let quiet: TestApp;
const lines: string[] = [];
const quietLines: string[] = [];

beforeAll(async () => {
  t = await createTestApp({
    settings: { logLevel: 'info', logStream: { write: (line) => lines.push(line) } },
  });
  quiet = await createTestApp({
    settings: { logLevel: 'warn', logStream: { write: (line) => quietLines.push(line) } },
  });
});

afterAll(async () => {
  await quiet?.close();
  await t?.close();
});

const requestLines = (from: string[]) =>
  from.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');

describe('request logs', () => {
  it('writes one JSON line per request with method, route, status, time, request id and user id', async () => {
    lines.length = 0;
    const token = await t.login('researcher');
    const study = await t.request({ method: 'GET', url: '/api/study/999999?tab=files', token });
    const anonymous = await t.request({ method: 'GET', url: '/api/study/1' });
    const { rows } = await t.database.sql.executeSql('select id from users where email = $1', [
      'researcher@accord.test',
    ]);
    const logged = requestLines(lines);
    expect(logged).toHaveLength(3);
    const [login, read, refused] = logged;
    expect(login).toMatchObject({ method: 'POST', route: '/api/auth/login', status: 200, userId: null });
    expect(read).toMatchObject({
      method: 'GET',
      route: '/api/study/:id',
      status: study.statusCode,
      requestId: study.headers['x-request-id'],
      userId: Number(rows[0]!.id),
      level: 30,
    });
    expect(typeof read!.ms).toBe('number');
    expect(refused).toMatchObject({ route: '/api/study/:id', status: 401, userId: null });
    expect(refused!.requestId).toBe(anonymous.headers['x-request-id']);
  });

  it('never logs a password, a token, a cookie or a query string', async () => {
    lines.length = 0;
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@accord.test', password: TEST_PASSWORD, remember: true },
    });
    const token = String(login.headers.authorization).replace(/^Bearer /, '');
    const cookie = String(login.headers['set-cookie'] ?? '');
    await t.request({ method: 'GET', url: '/api/users/?secret=s3cr3t-query', token });
    await t.request({
      method: 'GET',
      url: '/api/study/1',
      headers: { authorization: 'Bearer not-a-real-token' },
    });
    const text = lines.join('');
    expect(requestLines(lines).length).toBe(3);
    expect(text).not.toContain(TEST_PASSWORD);
    expect(text).not.toContain(token);
    expect(text).not.toContain('not-a-real-token');
    expect(text).not.toMatch(/authorization/i);
    expect(text).not.toContain('s3cr3t-query');
    if (cookie) expect(text).not.toContain(cookie.split(';')[0]!.split('=')[1]!);
  });

  it('at LOG_LEVEL warn keeps quiet about requests that succeed', async () => {
    quietLines.length = 0;
    const response = await quiet.request({ method: 'GET', url: '/api/' });
    expect(response.statusCode).toBe(200);
    expect(requestLines(quietLines)).toHaveLength(0);
  });
});
