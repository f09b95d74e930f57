/**
 * Before each Lighthouse run of scripts/lighthouse.sh: makes the Chromium it measures in (reached on
 * its DevTools port) a browser that has signed in with "Remember me", as a returning user's is: the
 * remember-me cookie of a sign-in through the API and the page's sign-in mark in localStorage
 * (`accord.signedIn`, apps/web/src/lib/session.ts; without it the web app asks the server nothing
 * and shows the sign-in page). Then it empties the HTTP cache, so each run measures a first load.
 *
 *   node scripts/lighthouse-session.mjs DEVTOOLS_PORT BASE_URL EMAIL PASSWORD
 */
/* global fetch, window */
import { chromium } from 'playwright';

const [port, base, email, password] = process.argv.slice(2);
if (!port || !base || !email || !password) {
  console.error('Usage: node scripts/lighthouse-session.mjs DEVTOOLS_PORT BASE_URL EMAIL PASSWORD');
  process.exit(2);
}

const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
try {
  const context = browser.contexts()[0];
  const signedIn = (await context.cookies(`${base}/api/auth/refresh`)).some(
    (cookie) => cookie.name === 'accord_refresh',
  );
  if (!signedIn) {
    const answer = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, remember: true }),
    });
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('accord_refresh='));
    if (!answer.ok || !cookie)
      throw new Error(`Sign-in as ${email} answered ${answer.status} without a cookie.`);
    const [pair, ...attributes] = cookie.split(';').map((part) => part.trim());
    const maxAge = Number(attributes.find((part) => /^max-age=/i.test(part))?.split('=')[1] ?? 86_400);
    await context.addCookies([
      {
        name: 'accord_refresh',
        value: pair.slice(pair.indexOf('=') + 1),
        url: `${base}/api/auth`,
        httpOnly: true,
        sameSite: 'Strict',
        expires: Math.floor(Date.now() / 1000) + maxAge,
      },
    ]);
  }
  const page = await context.newPage();
  // A small file of the origin, so that the page can write the origin's localStorage.
  await page.goto(`${base}/favicon.svg`);
  await page.evaluate(() => window.localStorage.setItem('accord.signedIn', '1'));
  const devtools = await context.newCDPSession(page);
  await devtools.send('Network.clearBrowserCache');
  await page.close();
} finally {
  // Leaves the browser running: Lighthouse measures in it next.
  await browser.close().catch(() => undefined);
}
