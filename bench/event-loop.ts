/**
 * npx tsx bench/event-loop.ts [--data-dir DIR] [--studies N] [--port P] [--rounds N]
 *
 * How long CPU-heavy calls hold the server's request loop: while one client runs a call again and
 * again, a probe asks for the cheapest answer (GET /api/) every 5 ms; the probe's slowest answers
 * are the time other users wait behind the call. Measured with nothing else running (baseline),
 * during the metrics spreadsheet of a search of every fragrance with five metrics, during the study
 * search's export of every fragrance (fragrances.xlsx), during the significance of every fragrance against the rest, and during that search itself computed afresh
 * (?no_cache=true: products and statistics come from memory, the rows are assembled each time). Uses
 * the embedded library of DIR (seeded on its first use, as bench/first-search.ts does).
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
    port: { type: 'string', default: '3291' },
    rounds: { type: 'string', default: '5' },
  },
});
const origin = `http://127.0.0.1:${values.port}`;
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: repoRoot,
  env: {
    ...process.env,
    PORT: String(values.port),
    DATA_DIR: values['data-dir'],
    ACCORD_DEMO_STUDIES: values.studies,
    DATABASE_URL: '',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let warm: () => void;
const warmedUp = new Promise<void>((resolve) => (warm = resolve));
server.stdout.setEncoding('utf8').on('data', (text: string) => {
  if (process.env.BENCH_VERBOSE) process.stdout.write(text);
  if (text.includes('Warm-up done')) warm();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` while probing GET /api/ every 5 ms; answers the probe's p50, p99 and max in ms. */
async function probeDuring(
  work: () => Promise<void>,
): Promise<{ p50: number; p99: number; max: number; n: number }> {
  const times: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await call(`${origin}/api/`, { method: 'GET', headers: {} });
      times.push(performance.now() - started);
      await sleep(5);
    }
  })();
  await work();
  running = false;
  await probe;
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.min(times.length - 1, Math.floor(times.length * share))]!;
  return { p50: at(0.5), p99: at(0.99), max: times[times.length - 1]!, n: times.length };
}

try {
  await warmedUp;
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'researcher@accord.test', password: 'accord-demo', remember: false }),
  });
  const token = login.headers.get('authorization')!.replace(/^Bearer /, '');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const json = async (url: string, body?: unknown) =>
    (await fetch(`${origin}${url}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((response) => response.json())) as Record<string, unknown>;
  const untilDone = async (statusUrl: string) => {
    for (;;) {
      const status = await json(statusUrl);
      if (status.status === 'SUCCESS') return status;
      if (status.status !== 'STARTED') throw new Error(JSON.stringify(status).slice(0, 300));
      await sleep(50);
    }
  };
  const metrics = ['liking', 'purchase_intention', 'strength', 'clean', 'fresh'];
  const searchBody = {
    q: {
      metrics: {
        rdfType: 'all',
        metricsList: metrics.map((metric) => ({ metric, aggregation: 'top_2_box', confidence: true })),
      },
    },
  };
  const queuedSearch = await json('/api/analytics/fragrances', searchBody);
  const jobid = String(queuedSearch.jobid ?? '');
  if (!jobid) throw new Error(JSON.stringify(queuedSearch).slice(0, 300));
  const search = (await untilDone(`/api/analytics/fragrances/${jobid}`)) as {
    result: { json: { results: { id: number }[] } };
  };
  const ids = search.result.json.results.map((row) => ({ id: row.id }));
  const rounds = Number(values.rounds);

  const baseline = await probeDuring(async () => {
    await sleep(2000);
  });
  const xlsx = await probeDuring(async () => {
    for (let round = 0; round < rounds; round++)
      await call(`${origin}/api/analytics/fragrances/xlsx/${jobid}`, { method: 'GET', headers });
  });
  const searchExport = await probeDuring(async () => {
    for (let round = 0; round < rounds; round++)
      await call(`${origin}/api/smartsearch/download_fragrances`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ q: {} }),
      });
  });
  const significance = await probeDuring(async () => {
    for (let round = 0; round < rounds; round++) {
      const queued = (await json('/api/analytics/significance', {
        data: ids,
        calculation: 'rest',
        metrics: metrics.map((field) => ({ field, aggregation: 'top_2_box', confidence: true })),
      })) as { job_id?: string };
      if (!queued.job_id) throw new Error(JSON.stringify(queued).slice(0, 300));
      await untilDone(`/api/analytics/significance/${queued.job_id}`);
    }
  });
  const freshSearch = await probeDuring(async () => {
    for (let round = 0; round < rounds; round++) {
      const queued = await json('/api/analytics/fragrances?no_cache=true', searchBody);
      if (!queued.jobid) throw new Error(JSON.stringify(queued).slice(0, 300));
      await untilDone(`/api/analytics/fragrances/${String(queued.jobid)}`);
    }
  });
  const line = (name: string, r: { p50: number; p99: number; max: number; n: number }) =>
    console.log(
      `${name.padEnd(44)} probe p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms (${r.n} probes)`,
    );
  console.log(`\n${values.studies} studies (embedded), ${ids.length} fragrances, ${metrics.length} metrics`);
  line('nothing else running', baseline);
  line(`metrics spreadsheet x${rounds}`, xlsx);
  line(`study search export of every fragrance x${rounds}`, searchExport);
  line(`significance rest, ${ids.length} fragrances x${rounds}`, significance);
  line(`metric search, no cache, ${ids.length} rows x${rounds}`, freshSearch);
} finally {
  server.kill('SIGTERM');
}
