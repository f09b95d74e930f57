import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP_URL_INVALID } from '@accord/contracts';
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

describe('help url addresses', () => {
  it('refuses anything but an http(s) address and keeps the stored one', async () => {
    const admin = await t.login('admin');
    const post = (url: string) =>
      t.request({ method: 'POST', url: '/api/help-url', token: admin, payload: { url } });
    expect((await post('https://help.accord.test/start')).statusCode).toBe(200);
    for (const url of [
      'javascript:alert(1)',
      ' JavaScript:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'https://help.accord.test/a b',
      'https://',
    ]) {
      const refused = await post(url);
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().message).toBe(`url: ${HELP_URL_INVALID}`);
    }
    expect((await t.request({ method: 'GET', url: '/api/help-url', token: admin })).json()).toEqual({
      url: 'https://help.accord.test/start',
    });
    for (const url of ['help.accord.test', 'localhost:8080/help', 'HTTP://help.accord.test', ''])
      expect((await post(url)).statusCode, url).toBe(200);
  });
});
