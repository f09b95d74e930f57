// The built SPA as the server sends it: a build's folder (index.html, a hashed asset with its
// brotli and gzip copies as the build writes them, its source map, an unhashed public file) served
// compressed to a browser that accepts it, hashed assets cached a year as immutable, index.html and
// history routes revalidated, source maps answered only when switched on, API answers never stored.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { IMMUTABLE, REVALIDATE } from './web-app.ts';

const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index-B4x9kQ2a.js"></script></head><body>${'<!-- the app -->'.repeat(100)}</body></html>`;
const SCRIPT = `export const answer = ${JSON.stringify('fragrance '.repeat(500))};\n//# sourceMappingURL=index-B4x9kQ2a.js.map\n`;

let webDist: string;
let t: TestApp;
let withMaps: TestApp;

async function writeWithCopies(file: string, content: string) {
  await writeFile(file, content);
  await writeFile(`${file}.br`, brotliCompressSync(content));
  await writeFile(`${file}.gz`, gzipSync(content));
}

beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), 'accord-web-dist-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeWithCopies(path.join(webDist, 'index.html'), INDEX);
  await writeWithCopies(path.join(webDist, 'assets/index-B4x9kQ2a.js'), SCRIPT);
  await writeFile(path.join(webDist, 'assets/index-B4x9kQ2a.js.map'), '{"version":3,"sources":["main.tsx"]}');
  await writeFile(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestApp({ settings: { webDist } });
  withMaps = await createTestApp({ settings: { webDist, sourceMaps: true } });
});

afterAll(async () => {
  await withMaps?.close();
  await t?.close();
  await rm(webDist, { recursive: true, force: true });
});

const get = (app: TestApp, url: string, headers: Record<string, string> = {}) =>
  app.request({ method: 'GET', url, headers });

describe('the web app as the server sends it', () => {
  it('sends a hashed asset brotli-compressed when accepted, cached a year as immutable', async () => {
    const response = await get(t, '/assets/index-B4x9kQ2a.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 5);
  });

  it('sends it gzip-compressed to a client without brotli, and plain to one that accepts neither', async () => {
    const gzipped = await get(t, '/assets/index-B4x9kQ2a.js', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(SCRIPT);
    expect(gzipped.headers['cache-control']).toBe(IMMUTABLE);

    const plain = await get(t, '/assets/index-B4x9kQ2a.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('has index.html, the history routes and unhashed files revalidated at each load', async () => {
    for (const url of ['/', '/index.html', '/search/results', '/analytics/fragrances?metric=1']) {
      const response = await get(t, url, { 'accept-encoding': 'br' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/text\/html/);
      expect(response.headers['cache-control'], url).toBe(REVALIDATE);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(INDEX);
    }
    const icon = await get(t, '/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('does not answer source maps, the compressed copies by name, nor a missing asset', async () => {
    const urls = [
      '/assets/index-B4x9kQ2a.js.map',
      '/assets/index-B4x9kQ2a.js.br',
      '/index.html.gz',
      '/assets/old-Zz1.js',
    ];
    for (const url of urls) {
      const response = await get(t, url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('sources');
      expect(response.body, url).not.toContain('<html');
    }
  });

  it('answers source maps when they are switched on (ACCORD_SOURCE_MAPS)', async () => {
    const response = await get(withMaps, '/assets/index-B4x9kQ2a.js.map');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ version: 3, sources: ['main.tsx'] });
  });

  it('keeps Cache-Control: no-store on API answers, and answers unknown API calls with JSON', async () => {
    const version = await get(t, '/api/', { 'accept-encoding': 'br' });
    expect(version.headers['cache-control']).toBe('no-store');
    const missing = await get(t, '/api/no-such-call');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.json()).toMatchObject({ error: 'not_found' });
  });
});
