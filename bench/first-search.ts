/**
 * npx tsx bench/first-search.ts [--data-dir DIR] [--studies N] [--port P] [--runs N] [--no-warm-up]
 *
 * The first search after a start against the same search warm, on the embedded default (`npm start`:
 * PGlite, 200 studies). Seeds DIR once (kept between runs, so later runs start at once), starts the
 * server, and as soon as it answers signs in and runs the bench's gender + age metric search
 * (liking top 2 box, women 25 to 45, no result cache) until its result is read; then the same search
 * `--runs` times more; then likewise a search of every fragrance with five metrics. Prints each first
 * time, its warm median and their ratio (target: at most 3x, first within 1 s), the server's own
 * time of each (Server-Timing summed over the POST and the polls), and the warm-up's
 * log lines. `--no-warm-up` starts the server with
 * ACCORD_WARM_UP=off, to compare. `--pause MS` waits that long after signing in before the first
 * search (a user choosing it), so that it meets the warm-up's background part under way.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { call } from './http-call.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: '/tmp/accord-first-search' },
    studies: { type: 'string', default: '200' },
    port: { type: 'string', default: '3290' },
    runs: { type: 'string', default: '7' },
    'no-warm-up': { type: 'boolean', default: false },
    pause: { type: 'string', default: '0' },
  },
});
const port = Number(values.port);
const origin = `http://127.0.0.1:${port}`;
const SEARCH = {
  q: {
    demographics: { gender: ['Female'], startAge: 25, endAge: 45 },
    metrics: {
      rdfType: 'all',
      metricsList: [
        { metricType: 'Performance', metric: 'liking', aggregation: 'top_2_box', confidence: true },
      ],
    },
  },
};

const startedAt = performance.now();
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: repoRoot,
  env: {
    ...process.env,
    PORT: String(port),
    DATA_DIR: values['data-dir'],
    ACCORD_DEMO_STUDIES: values.studies,
    DATABASE_URL: '',
    ACCORD_WARM_UP: values['no-warm-up'] ? 'off' : 'on',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const logLines: string[] = [];
let ready: () => void;
const isReady = new Promise<void>((resolve) => (ready = resolve));
server.stdout.setEncoding('utf8').on('data', (text: string) => {
  for (const line of text.split('\n')) {
    if (line.includes('is ready on')) ready();
    // The ready line too: the warm-up's part before it is what the start waits for.
    if (/warm-up|is ready on/i.test(line))
      logLines.push(`${((performance.now() - startedAt) / 1000).toFixed(1)} s  ${line}`);
  }
});

/** A search of every fragrance with five metrics (the browser's whole-library search). */
const FIVE_METRICS = {
  q: {
    metrics: {
      rdfType: 'all',
      metricsList: ['liking', 'purchase_intention', 'strength', 'clean', 'fresh'].map((metric) => ({
        metric,
        aggregation: 'top_2_box',
        confidence: true,
      })),
    },
  },
};

/** The server's time of the latest timed search: its Server-Timing summed over the POST and the polls. */
let lastServerMs = 0;

async function timedSearch(token: string, search: object = SEARCH): Promise<number> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const start = performance.now();
  const queued = await call(`${origin}/api/analytics/fragrances?no_cache=true`, {
    method: 'POST',
    headers,
    body: JSON.stringify(search),
  });
  let serverMs = queued.serverMs;
  const { jobid } = JSON.parse(queued.head) as { jobid: string };
  for (;;) {
    const polled = await call(`${origin}/api/analytics/fragrances/${jobid}`, { method: 'GET', headers });
    serverMs += polled.serverMs;
    if (polled.head.startsWith('{"status":"SUCCESS"') || polled.head.includes('"status":"SUCCESS"')) break;
    if (polled.head.includes('"status":"FAILURE"')) throw new Error(polled.head);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  lastServerMs = serverMs;
  return performance.now() - start;
}

try {
  await isReady;
  const readyAt = performance.now();
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'researcher@accord.test', password: 'accord-demo', remember: false }),
  });
  const token = login.headers.get('authorization')?.replace(/^Bearer /, '');
  if (!token) throw new Error(`sign-in failed: ${await login.text()}`);
  await new Promise((resolve) => setTimeout(resolve, Number(values.pause)));
  const first = await timedSearch(token);
  const firstServer = lastServerMs;
  const firstAfterReadyMs = performance.now() - readyAt;
  const firstFive = await timedSearch(token, FIVE_METRICS);
  const firstFiveServer = lastServerMs;
  const medianOf = async (search: object) => {
    const warm: number[] = [];
    const server: number[] = [];
    for (let run = 0; run < Number(values.runs); run++) {
      warm.push(await timedSearch(token, search));
      server.push(lastServerMs);
    }
    const middle = (list: number[]) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
    return [middle(warm), middle(server)] as const;
  };
  const [median, medianServer] = await medianOf(SEARCH);
  const [medianFive, medianFiveServer] = await medianOf(FIVE_METRICS);
  console.log(`\nwarm-up ${values['no-warm-up'] ? 'off' : 'on'}, ${values.studies} studies (embedded)`);
  console.log(
    `gender + age: first ${first.toFixed(0)} ms (${firstAfterReadyMs.toFixed(0)} ms after ready), warm median of ${values.runs} ${median.toFixed(0)} ms; first / warm = ${(first / median).toFixed(1)}x (server's time ${firstServer.toFixed(0)} / ${medianServer.toFixed(0)} ms)`,
  );
  console.log(
    `every fragrance, five metrics: first ${firstFive.toFixed(0)} ms, warm median ${medianFive.toFixed(0)} ms; first / warm = ${(firstFive / medianFive).toFixed(1)}x (server's time ${firstFiveServer.toFixed(0)} / ${medianFiveServer.toFixed(0)} ms)`,
  );
  for (const line of logLines) console.log(`  ${line}`);
} finally {
  server.kill('SIGTERM');
}
