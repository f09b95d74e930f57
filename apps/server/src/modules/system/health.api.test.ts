// GET /api/health: the database's answer, the version and the uptime; 503 once the database no
// longer answers (its handle closed, as a lost server or a full disk would leave it).
import type { HealthResponse } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  // The last test closed the database already; the rest (app, queue, scratch database) closes here.
  if (t) t.database.close = async () => undefined;
  await t?.close();
});

describe('GET /api/health', () => {
  it('answers 200 without sign-in, with the database engine and its time, the version and the uptime', async () => {
    const response = await t.request({ method: 'GET', url: '/api/health' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<HealthResponse>();
    expect(body).toMatchObject({
      status: 'ok',
      name: 'Accord API',
      version: '0.0.0-test',
      database: { engine: process.env.DATABASE_URL ? 'postgresql' : 'pglite', ok: true },
    });
    expect(body.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(body.database.error).toBeUndefined();
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it('answers the same to a signed-in user', async () => {
    const token = await t.login('client');
    const response = await t.request({ method: 'GET', url: '/api/health', token });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<HealthResponse>().status).toBe('ok');
  });

  it('GET /api/ still answers the name and version alone', async () => {
    const response = await t.request({ method: 'GET', url: '/api/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ name: 'Accord API', version: '0.0.0-test' });
  });

  it('answers 503 when the database does not answer, naming no address or credential', async () => {
    await t.database.close();
    const response = await t.request({ method: 'GET', url: '/api/health' });
    expect(response.statusCode, response.body).toBe(503);
    const body = response.json<HealthResponse>();
    expect(body.status).toBe('unavailable');
    expect(body.database.ok).toBe(false);
    expect(body.database.error).toBe('The database did not answer.');
    expect(body.version).toBe('0.0.0-test');
  });
});
