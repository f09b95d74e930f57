import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('help url', () => {
  it('is empty at first, set by an admin and read by everyone signed in', async () => {
    const admin = await t.login('admin');
    const client = await t.login('client');
    expect((await t.request({ method: 'GET', url: '/api/help-url', token: client })).json()).toEqual({
      url: '',
    });
    const set = await t.request({
      method: 'POST',
      url: '/api/help-url',
      token: admin,
      payload: { url: 'help.accord.test/guide' },
    });
    expect(set.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/help-url', token: client })).json()).toEqual({
      url: 'help.accord.test/guide',
    });
  });

  it('answers 401, 403 and 400', async () => {
    const researcher = await t.login('researcher');
    const admin = await t.login('admin');
    expect((await t.request({ method: 'GET', url: '/api/help-url' })).statusCode).toBe(401);
    expect(
      (await t.request({ method: 'POST', url: '/api/help-url', payload: { url: 'x' } })).statusCode,
    ).toBe(401);
    expect(
      (await t.request({ method: 'POST', url: '/api/help-url', token: researcher, payload: { url: 'x' } }))
        .statusCode,
    ).toBe(403);
    const bad = await t.request({
      method: 'POST',
      url: '/api/help-url',
      token: admin,
      payload: { link: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/url/);
    expect((await t.request({ method: 'GET', url: '/api/help-url', token: admin })).json().url).toBe(
      'help.accord.test/guide',
    );
  });
});
