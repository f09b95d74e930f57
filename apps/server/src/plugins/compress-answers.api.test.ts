// API answers of 1 kB or more are sent compressed to a client that accepts it (brotli, else gzip),
// small ones and clients that accept neither get them plain; the answer is the same JSON.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { chooseEncoding } from './compress-answers.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('researcher');
});

afterAll(async () => {
  await t?.close();
});

const fields = (acceptEncoding?: string) =>
  t.request({
    method: 'GET',
    url: '/api/smartsearch/fields',
    token,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

describe('compressed API answers', () => {
  it('sends a large JSON answer brotli-compressed, and gzip to a client without brotli', async () => {
    const plain = await fields('identity');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await fields('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('no-store');
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await fields('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('sends small answers and answers to clients that accept no compression as they are', async () => {
    const small = await t.request({ method: 'GET', url: '/api/', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ name: 'Accord API', version: '0.0.0-test' });
    const none = await fields();
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(Array.isArray(none.json()) || typeof none.json() === 'object').toBe(true);
  });

  it('reads Accept-Encoding with its weights', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});
