/**
 * npx tsx bench/first-search-browser.ts [--data-dir DIR] [--studies N] [--port P] [--runs N] [--no-warm-up]
 *
 * The first metric search after a start as a user sees it, on the embedded default (`npm start`:
 * PGlite, 200 studies; build apps/web first). Seeds DIR once (as bench/first-search.ts, whose folder
 * it can share), opens Chromium (/usr/bin/chromium) before the server starts, and as soon as the
 * server answers signs in through the login screen, opens Advanced Analytics, chooses liking top 2
 * box of every fragrance and presses Search: the time from the click until the table of fragrances found
 * is shown is the first search (target: within 1 s, at most 3x warm). Then the same, on the screen
 * opened again, `--runs` times more: the warm median. Searches ask for no cached result (no_cache),
 * as the first one has none. Prints the times, their ratio and the warm-up's log lines.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Page, type Request } from 'playwright';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: '/tmp/accord-first-search' },
    studies: { type: 'string', default: '200' },
    port: { type: 'string', default: '3290' },
    runs: { type: 'string', default: '5' },
    'no-warm-up': { type: 'boolean', default: false },
  },
});
const origin = `http://127.0.0.1:${values.port}`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const startedAt = performance.now();
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: repoRoot,
  env: {
    ...process.env,
    PORT: values.port,
    DATA_DIR: values['data-dir'],
    ACCORD_DEMO_STUDIES: values.studies,
    DATABASE_URL: '',
    ACCORD_WARM_UP: values['no-warm-up'] ? 'off' : 'on',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const logLines: string[] = [];
const at = () => `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;
let ready: () => void;
const isReady = new Promise<void>((resolve) => (ready = resolve));
server.stdout.setEncoding('utf8').on('data', (text: string) => {
  for (const line of text.split('\n')) {
    if (line.includes('is ready on')) {
      ready();
      logLines.push(`${at()}  ${line.trim()}`);
    }
    if (/warm-up/i.test(line)) logLines.push(`${at()}  ${line}`);
  }
});

async function choose(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

/** Opens the screen, fills the search, and times from pressing Search until the table is shown. */
async function timedSearch(page: Page): Promise<number> {
  await page.goto('/analytics');
  await page.getByRole('heading', { level: 1, name: 'Advanced Analytics' }).waitFor({ timeout: 30_000 });
  await choose(page, 'Metric 1', 'Overall Liking');
  await choose(page, 'Aggregation 1', /^T2B/);
  const table = page.getByRole('table', { name: 'fragrances found' });
  const search = page.getByRole('button', { name: 'Search', exact: true });
  await search.waitFor();
  const calls: string[] = [];
  const pressed = performance.now();
  const record = (request: Request) => {
    const since = performance.now() - pressed;
    void request
      .response()
      .then(async (response) => {
        const server = (await response?.headerValue('server-timing')) ?? '';
        const url = request.url().replace(origin, '');
        calls.push(
          `    ${since.toFixed(0)} ms +${(performance.now() - pressed - since).toFixed(0)} ms ${request.method()} ${url.slice(0, 70)} ${server}`,
        );
      })
      // A request the next navigation cut short has no answer to tell.
      .catch(() => undefined);
  };
  page.on('request', record);
  await search.click();
  await table.waitFor({ state: 'visible', timeout: 120_000 });
  const shown = performance.now() - pressed;
  page.off('request', record);
  lastCalls = calls;
  return shown;
}
/** The requests of the latest timed search: when each was sent after the click, its time, the server's. */
let lastCalls: string[] = [];

try {
  const context = await browser.newContext({ baseURL: origin, locale: 'en-GB' });
  const page = await context.newPage();
  // Every search computed afresh, as the first one is (the screen's own no_cache option).
  await page.route('**/api/analytics/fragrances', (route) =>
    route.request().method() === 'POST'
      ? route.continue({ url: `${route.request().url()}?no_cache=true` })
      : route.continue(),
  );
  await isReady;
  const readyAt = performance.now();
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill('researcher@accord.test');
  await page.getByLabel('Password', { exact: true }).fill('accord-demo');
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/home\/$/);
  const first = await timedSearch(page);
  const firstCalls = lastCalls;
  const firstAfterReadyMs = performance.now() - readyAt;
  const warm: number[] = [];
  for (let run = 0; run < Number(values.runs); run++) warm.push(await timedSearch(page));
  warm.sort((x, y) => x - y);
  const median = warm[Math.floor(warm.length / 2)]!;
  console.log(
    `\nwarm-up ${values['no-warm-up'] ? 'off' : 'on'}, ${values.studies} studies (embedded), in Chromium`,
  );
  console.log(
    `liking T2B, every fragrance: first shown ${first.toFixed(0)} ms after pressing Search (${firstAfterReadyMs.toFixed(0)} ms after ready, with sign-in and the screen), warm median of ${values.runs} ${median.toFixed(0)} ms; first / warm = ${(first / median).toFixed(1)}x`,
  );
  console.log('  requests of the first search (sent after the click, time, server time):');
  for (const line of firstCalls) console.log(line);
  console.log('  requests of the last warm search:');
  for (const line of lastCalls) console.log(line);
  for (const line of logLines) console.log(`  ${line}`);
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
