import { expect, test } from '@playwright/test';
import { DEMO_USERS } from '../support/env.ts';
import { signIn } from '../support/session.ts';

/**
 * The built web app as a browser receives it: every script and style sheet of the sign-in page
 * over 1 kB compressed (brotli), hashed assets cached a year as immutable, the page itself revalidated, no
 * source map answered.
 */
test('the browser receives the app compressed, its hashed assets immutable, the page revalidated, no source maps', async ({
  page,
  request,
}) => {
  const assets: { url: string; encoding?: string; cacheControl?: string; length: number }[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (!/\.(js|css)$/.test(pathname)) return;
    const headers = response.headers();
    assets.push({
      url: pathname,
      encoding: headers['content-encoding'],
      cacheControl: headers['cache-control'],
      length: Number(headers['content-length'] ?? Infinity),
    });
  });
  const document = await page.goto('/');
  expect(document?.headers()['cache-control']).toBe('no-cache');
  await signIn(page, DEMO_USERS.researcher);
  await expect(page.getByRole('banner').getByRole('button', { name: /Rita Researcher/ })).toBeVisible();

  expect(assets.length).toBeGreaterThan(0);
  for (const asset of assets) {
    expect(asset.url).toMatch(/^\/assets\//);
    expect(asset.cacheControl, asset.url).toBe('public, max-age=31536000, immutable');
    // Files under 1 kB are sent as they are: compressing them saves less than its header costs.
    if (asset.encoding === undefined) expect(asset.length, asset.url).toBeLessThan(1024);
    else expect(asset.encoding, asset.url).toBe('br');
  }
  expect(assets.filter((asset) => asset.encoding === 'br').length).toBeGreaterThan(assets.length / 2);

  // Without brotli, gzip (asked of a script sent compressed, not of one under 1 kB); a source map
  // named in a script is not answered.
  const script = assets.find((asset) => asset.url.endsWith('.js') && asset.encoding === 'br')!.url;
  const gzipped = await request.get(script, { headers: { 'accept-encoding': 'gzip' } });
  expect(gzipped.headers()['content-encoding']).toBe('gzip');
  const map = await request.get(`${script}.map`);
  expect(map.status()).toBe(404);
});
