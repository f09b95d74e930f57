/**
 * npm run bench [-- --studies N] [--embedded] [--database-url URL] [--requests N] [--seconds S]
 *   [--processes N] [--worker-process] [--replica URL ...] [--source]
 *
 * --processes N runs the server as N web processes (WEB_CONCURRENCY, PostgreSQL only);
 * --worker-process runs the job workers in a process of their own (`npm run worker`, the web
 * processes with ACCORD_JOB_WORKERS=off); --replica URL (repeatable) gives the server a streaming
 * replica of the database server for its reads (DATABASE_READ_URL; the database name is the scratch
 * one's, which reaches the replica by replication). Memory is that of every server process together.
 * The server is the built one `npm start` runs (scripts/start.mjs, built first when out of date);
 * --source runs the TypeScript sources under tsx instead, whose loader and transpiled modules cost
 * memory (in every worker thread too) that the built server does not hold.
 *
 * Builds a demo library at scale in a scratch database (accord_bench_<timestamp> on a PostgreSQL
 * server, or PGlite in a temp folder with --embedded), starts the Accord server on it as a child
 * process, and measures every endpoint of bench/endpoints.ts with concurrent clients on loopback:
 * latency percentiles, throughput and the server's peak memory. Prints a table and writes
 * bench/results.json. The scratch database and folder are removed at the end.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { seedDemoLibrary } from '../apps/server/src/seed/library.ts';
import { createProgressBar, formatDuration } from '../apps/server/src/seed/progress.ts';
import { seedReferenceData } from '../apps/server/src/seed/reference-data.ts';
import { DEMO_USERS, seedUsers } from '../apps/server/src/seed/users.ts';
import { createLocalFileStorage } from '../apps/server/src/storage/file-storage.ts';
import { ENDPOINTS, type BenchEndpoint, type BenchRole } from './endpoints.ts';
import { call } from './http-call.ts';
import { compareWithDuckdb, type DuckdbComparison, type ServerNumbers } from './duckdb-compare.ts';
import { measureMappingAccuracy } from './mapping-accuracy.ts';
import { MALLOC_TUNABLES } from '../scripts/server-env.mjs';
import { printStudiesUpload, runStudiesUploadBench, type StudiesUploadResult } from './studies-upload.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let PASSWORD = 'bench-password-1';

interface Options {
  studies: number;
  embedded: boolean;
  databaseUrl: string;
  seed: number;
  concurrency: number;
  /** Requests per endpoint (after warm-up), unless `seconds` runs out first. */
  requests: number;
  seconds: number;
  /** Warm-up calls of an endpoint before it is measured (made by as many clients as measure it). */
  warmup: number;
  /** The least time an endpoint is warmed up for, with as many clients as measure it. */
  warmupSeconds: number;
  /** A database already seeded with `npm run seed`: measured as it is, never dropped. */
  existing: string | undefined;
  /** Only the endpoints whose name contains one of these texts (all when empty). */
  only: string[];
  /** Skip the DuckDB comparison. */
  noDuckdb: boolean;
  /** Endpoints measured once more with a single client (name texts; the issue targets by default). */
  alone: string[];
  /** Skip the studies upload measurement (bench/studies-upload.ts). */
  noUpload: boolean;
  /** Web processes of the server (WEB_CONCURRENCY). */
  processes: number;
  /** Run the job workers in a process of their own. */
  workerProcess: boolean;
  /** Streaming replicas of the database server (any database name: the scratch one's is used). */
  replicas: string[];
  /** Run the TypeScript sources under tsx rather than the built server `npm start` runs. */
  source: boolean;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      studies: { type: 'string' },
      embedded: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      seed: { type: 'string', default: '42' },
      concurrency: { type: 'string', default: '8' },
      requests: { type: 'string', default: '400' },
      seconds: { type: 'string', default: '15' },
      warmup: { type: 'string', default: '10' },
      'warmup-seconds': { type: 'string', default: '2' },
      existing: { type: 'string' },
      password: { type: 'string' },
      only: { type: 'string', multiple: true },
      'no-duckdb': { type: 'boolean', default: false },
      alone: { type: 'string', multiple: true },
      'no-upload': { type: 'boolean', default: false },
      processes: { type: 'string', default: '1' },
      'worker-process': { type: 'boolean', default: false },
      replica: { type: 'string', multiple: true },
      source: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const int = (name: string, text: string | undefined, fallback: number) => {
    const value = text === undefined ? fallback : Number(text);
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
    return value;
  };
  const embedded = values.embedded ?? false;
  // Demo users of an existing library sign in with its seed password (npm run seed's default).
  if (values.existing) PASSWORD = values.password ?? process.env.ACCORD_DEMO_PASSWORD ?? 'accord-demo';
  return {
    studies: int('studies', values.studies, embedded ? 200 : 3000),
    embedded,
    databaseUrl:
      values['database-url'] ??
      process.env.DATABASE_URL ??
      'postgres://postgres:postgres@localhost:5432/postgres',
    seed: int('seed', values.seed, 42),
    concurrency: Math.max(1, int('concurrency', values.concurrency, 8)),
    requests: Math.max(1, int('requests', values.requests, 400)),
    seconds: Math.max(1, int('seconds', values.seconds, 15)),
    warmup: int('warmup', values.warmup, 10),
    warmupSeconds: int('warmup-seconds', values['warmup-seconds'], 2),
    existing: values.existing,
    only: values.only ?? [],
    noDuckdb: values['no-duckdb'] ?? false,
    alone: values.alone ?? ALONE_DEFAULT,
    noUpload: values['no-upload'] ?? false,
    processes: Math.max(1, int('processes', values.processes, 1)),
    workerProcess: values['worker-process'] ?? false,
    replicas: values.replica ?? [],
    source: values.source ?? false,
  };
}

// ---------------------------------------------------------------- scratch database

interface Scratch {
  engine: 'pglite' | 'postgresql';
  /** Server URL of the scratch database (postgresql only). */
  databaseUrl?: string;
  dataDir: string;
  drop(): Promise<void>;
}

async function createScratch(options: Options): Promise<Scratch> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'accord-bench-'));
  if (options.existing) {
    return {
      engine: 'postgresql',
      databaseUrl: options.existing,
      dataDir,
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  if (options.embedded) {
    return { engine: 'pglite', dataDir, drop: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const name = `accord_bench_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  const admin = new pg.Client({ connectionString: options.databaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(options.databaseUrl);
  url.pathname = `/${name}`;
  return {
    engine: 'postgresql',
    databaseUrl: url.toString(),
    dataDir,
    async drop() {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

interface SeedOutcome {
  studies: number;
  answers: number;
  milliseconds: number;
  databaseBytes: number;
}

async function seed(scratch: Scratch, options: Options): Promise<SeedOutcome> {
  const database = await openDatabase(
    scratch.databaseUrl
      ? { databaseUrl: scratch.databaseUrl }
      : { dataDir: path.join(scratch.dataDir, 'db') },
  );
  try {
    if (options.existing) {
      const { rows } = await database.sql.executeSql(
        `SELECT (SELECT count(*) FROM studies) AS studies, (SELECT count(*) FROM answers) AS answers,
                pg_database_size(current_database()) AS bytes`,
      );
      const row = rows[0] ?? {};
      return {
        studies: Number(row.studies),
        answers: Number(row.answers),
        milliseconds: 0,
        databaseBytes: Number(row.bytes),
      };
    }
    await seedReferenceData(database);
    await seedUsers(database, { password: PASSWORD });
    const summary = await seedDemoLibrary(
      database,
      createLocalFileStorage(path.join(scratch.dataDir, 'files')),
      {
        studies: options.studies,
        seed: options.seed,
        onProgress: createProgressBar(process.stdout, 'Seeding'),
      },
    );
    const { rows } = await database.sql.executeSql('SELECT pg_database_size(current_database()) AS bytes');
    return {
      studies: summary.studies,
      answers: summary.answers,
      milliseconds: summary.milliseconds,
      databaseBytes: Number(rows[0]?.bytes ?? 0),
    };
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------- server process

interface RunningServer {
  child: ChildProcess;
  /** The web server's process and, with --worker-process, the worker's. */
  pids: number[];
  origin: string;
  startupMs: number;
  /** How long the bench waited for the processes' warm-up after the server answered. */
  warmUpMs: number;
  log(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The URL of the scratch database on a replica of its server: the replica's address, its name. */
function onReplica(replica: string, databaseUrl: string): string {
  const url = new URL(replica);
  url.pathname = new URL(databaseUrl).pathname;
  return url.toString();
}

/** Resident memory of a process and all its descendants (web processes, worker threads' owner). */
function treeMemory(pid: number): { rss: number; hwm: number } | undefined {
  const own = memoryOf(pid);
  if (!own) return undefined;
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // no children listed
  }
  return children.reduce((total, child) => {
    const memory = treeMemory(child);
    return memory ? { rss: total.rss + memory.rss, hwm: total.hwm + memory.hwm } : total;
  }, own);
}

async function startServer(scratch: Scratch, options: Options): Promise<RunningServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: scratch.dataDir,
    ACCORD_DEMO_STUDIES: '0',
    ACCORD_DEMO_PASSWORD: PASSWORD,
    // The sign-in endpoint is measured under load; the limit is covered by the API tests.
    ACCORD_LOGIN_RATE_LIMIT: '1000000',
    // The allocator settings `npm start` gives the server (scripts/server-env.mjs).
    GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? MALLOC_TUNABLES,
  };
  if (scratch.databaseUrl) env.DATABASE_URL = scratch.databaseUrl;
  else delete env.DATABASE_URL;
  env.WEB_CONCURRENCY = String(options.processes);
  if (options.workerProcess) env.ACCORD_JOB_WORKERS = 'off';
  if (scratch.databaseUrl && options.replicas.length > 0)
    env.DATABASE_READ_URL = options.replicas
      .map((replica) => onReplica(replica, scratch.databaseUrl!))
      .join(',');
  else delete env.DATABASE_READ_URL;
  // node --import tsx (rather than npx tsx, which forks) so the child's pid is the server's, for memory.
  // BENCH_SERVER_NODE_ARGS adds node options to the server only (e.g. --cpu-prof for a profile).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // What `npm start` runs: the built server in the process of scripts/start.mjs, built here first
  // when out of date so that the server's process does not load the bundlers.
  if (!options.source) {
    const built = spawnSync(process.execPath, ['scripts/build.mjs', '--stale'], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
    if (built.status !== 0)
      throw new Error('The server could not be built (node scripts/build.mjs --stale).');
  }
  const entry = (name: 'main' | 'worker') =>
    options.source
      ? ['--import', 'tsx', `apps/server/src/${name}.ts`]
      : ['scripts/start.mjs', ...(name === 'worker' ? ['worker'] : [])];
  const child = spawn(process.execPath, [...nodeArgs, ...entry('main')], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let warmUpsEnded = 0;
  // BENCH_SERVER_LOG=FILE: the server's whole output there (its warm-up says what it loaded).
  const logFile = process.env.BENCH_SERVER_LOG;
  const keep = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (logFile) appendFileSync(logFile, text);
    warmUpsEnded += text.match(/Warm-up (done|stopped)/g)?.length ?? 0;
    lines.push(...text.split('\n'));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // The job workers' own process, a child of the web server's so that its memory is counted with it.
  const worker = options.workerProcess
    ? spawn(process.execPath, [...nodeArgs, ...entry('worker')], {
        cwd: repoRoot,
        env: { ...env, ACCORD_JOB_WORKERS: 'on', PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : undefined;
  worker?.stdout?.on('data', keep);
  worker?.stderr?.on('data', keep);
  const workerExit = worker ? new Promise<void>((resolve) => worker.once('exit', () => resolve())) : null;
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );

  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const stop = async () => {
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await workerExit;
    }
    if (exited !== undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exit;
    clearTimeout(timer);
  };
  for (;;) {
    if (exited !== undefined) {
      throw new Error(`The server exited (code ${exited}) before answering:\n${lines.join('\n')}`);
    }
    if (performance.now() - started > 180_000) {
      await stop();
      throw new Error(`The server did not answer GET /api/ within 180 s:\n${lines.join('\n')}`);
    }
    try {
      const response = await fetch(`${origin}/api/`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // Measured is a server in its steady state: each process running jobs warms its caches up at
  // start (in the background), which would otherwise weigh on the first endpoints measured. The
  // first search after a start is measured by bench/first-search.ts.
  const startupMs = performance.now() - started;
  const warmingUp = env.ACCORD_WARM_UP === 'off' ? 0 : options.workerProcess ? 1 : options.processes;
  const warmUpStarted = performance.now();
  while (warmUpsEnded < warmingUp && exited === undefined && performance.now() - warmUpStarted < 600_000)
    await new Promise((resolve) => setTimeout(resolve, 250));
  const warmUpMs = performance.now() - warmUpStarted;
  return {
    child,
    warmUpMs,
    pids: [child.pid!, ...(worker?.pid ? [worker.pid] : [])],
    origin,
    startupMs,
    log: () => lines.join('\n'),
    stop,
  };
}

/** Resident memory of a process in bytes: current (VmRSS) and peak (VmHWM), from /proc. */
function memoryOf(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- measuring

interface EndpointResult {
  name: string;
  method: string;
  path: string;
  role: BenchRole | null;
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  meanMs: number;
  /** The server's own time (Server-Timing, summed over a job's calls), without the client's. */
  serverP50Ms: number;
  serverP95Ms: number;
  throughputPerSecond: number;
  /** When the endpoint's measurement began and ended (ms since the epoch), to place memory samples. */
  startedAt?: number;
  endedAt?: number;
  /** The server's highest RSS (all its processes) sampled while the endpoint was measured. */
  peakRssBytes?: number;
}

async function login(origin: string, role: BenchRole): Promise<string> {
  const user = DEMO_USERS.find((u) => u.role === role);
  if (!user) throw new Error(`No demo user for role ${role}`);
  const response = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: PASSWORD, remember: false }),
  });
  const header = response.headers.get('authorization');
  const body = await response.text();
  if (!response.ok || !header) throw new Error(`Login as ${role} failed (${response.status}): ${body}`);
  return header.replace(/^Bearer /, '');
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

/** One measured call: the caller's time, the HTTP status (0: failed) and the server's time. */
type Timed = [wallMs: number, status: number, serverMs: number];

/**
 * Polls a queued job's status until it ends, as the page does: the last HTTP status (0 when the job
 * failed) and the server's time over the polls.
 */
async function fetchResult(
  origin: string,
  path: string,
  jobId: string | undefined,
  token: string | undefined,
): Promise<[status: number, serverMs: number]> {
  if (!jobId) return [0, 0];
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let serverMs = 0;
  for (;;) {
    const answer = await call(`${origin}${path.replace('{job}', jobId)}`, { method: 'GET', headers });
    serverMs += answer.serverMs;
    if (answer.status !== 200) return [answer.status, serverMs];
    // Job states are written first: the head of the answer tells it without parsing megabytes.
    const status =
      /^\{"status":"([A-Z]+)"/.exec(answer.head)?.[1] ??
      (answer.whole ? (JSON.parse(answer.head) as { status: string }).status : 'UNKNOWN');
    if (status === 'SUCCESS') return [answer.status, serverMs];
    if (status !== 'PENDING' && status !== 'STARTED') return [0, serverMs];
    await new Promise((resolve) => setTimeout(resolve, RESULT_POLL_MS));
  }
}

/**
 * Calls an endpoint before it is measured, with as many clients as measure it, until `warmup` calls
 * have been made and `warmupSeconds` have passed. Warmed up one call at a time, a server met its
 * first hundreds of concurrent calls slower than the rest, which weighed on the p95 of a 400-call
 * run but is not its steady state; neither calls one at a time nor a burst that opened the pool's
 * connections removed that slow start, only concurrent calls did (README, "The warm-up").
 */
async function warmUp(once: () => Promise<Timed>, options: Options): Promise<void> {
  let made = 0;
  const until = performance.now() + options.warmupSeconds * 1000;
  const client = async () => {
    while (made < options.warmup || performance.now() < until) {
      made++;
      await once();
    }
  };
  if (options.warmup > 0 || options.warmupSeconds > 0)
    await Promise.all(Array.from({ length: options.concurrency }, client));
}

async function measure(
  origin: string,
  endpoint: BenchEndpoint,
  token: string | undefined,
  options: Options,
): Promise<EndpointResult> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (endpoint.body !== undefined) headers['content-type'] = 'application/json';
  // The sign-in entry carries a placeholder: the password is only known at run time.
  const body =
    endpoint.body === undefined ? undefined : JSON.stringify(endpoint.body).replaceAll('$PASSWORD', PASSWORD);
  const once = async (): Promise<Timed> => {
    const started = performance.now();
    try {
      const answer = await call(`${origin}${endpoint.path}`, { method: endpoint.method, headers, body });
      if (!endpoint.result || answer.status >= 400 || !answer.whole)
        return [performance.now() - started, answer.status, answer.serverMs];
      const queued = JSON.parse(answer.head) as { jobid?: string; job_id?: string };
      const [status, pollMs] = await fetchResult(
        origin,
        endpoint.result,
        queued.jobid ?? queued.job_id,
        token,
      );
      return [performance.now() - started, status, answer.serverMs + pollMs];
    } catch {
      return [performance.now() - started, 0, Number.NaN];
    }
  };

  await warmUp(once, options);

  const latencies: number[] = [];
  const serverTimes: number[] = [];
  const statuses: Record<string, number> = {};
  let issued = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const worker = async () => {
    while (issued < options.requests && performance.now() < deadline) {
      issued++;
      const [ms, status, serverMs] = await once();
      latencies.push(ms);
      if (!Number.isNaN(serverMs)) serverTimes.push(serverMs);
      statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const wall = (performance.now() - started) / 1000;
  const sorted = latencies.slice().sort((a, b) => a - b);
  const server = serverTimes.slice().sort((a, b) => a - b);
  const errors = Object.entries(statuses)
    .filter(([status]) => Number(status) === 0 || Number(status) >= 400)
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    name: endpoint.name,
    method: endpoint.method,
    path: endpoint.path,
    role: endpoint.role,
    requests: latencies.length,
    errors,
    statuses,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
    meanMs: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
    serverP50Ms: percentile(server, 50),
    serverP95Ms: percentile(server, 95),
    throughputPerSecond: latencies.length / wall,
  };
}

// ---------------------------------------------------------------- one client alone

/**
 * The endpoints of the analytics performance targets: besides the run with `--concurrency` clients,
 * each is measured with one client alone (what a single user sees on a quiet server). `--alone TEXT`
 * (repeatable) chooses others by name part; `--alone none` skips the step.
 */
/** Time between two polls of a job that was not done at its first one. */
const RESULT_POLL_MS = 100;

const ALONE_DEFAULT = [
  'analytics metric search all fragrances (no cache)',
  'analytics metric search gender+age (no cache)',
  'analytics metric search all fragrances, first page (no cache)',
  'analytics metric search gender+age, first page (no cache)',
  'analytics significance rest, 1000 products',
  'fragrance profile',
  'best/worst search 10 % explicit one region',
  'group comparison two business units',
];

/** Measures the selected endpoints matching `--alone` once more with a single client. */
async function measureAlone(
  origin: string,
  selected: BenchEndpoint[],
  tokens: Map<BenchRole, string>,
  options: Options,
): Promise<EndpointResult[]> {
  if (options.concurrency === 1 || options.alone.includes('none')) return [];
  const alone = selected.filter((endpoint) => options.alone.some((text) => endpoint.name.includes(text)));
  const results: EndpointResult[] = [];
  for (const endpoint of alone) {
    const token = endpoint.role ? tokens.get(endpoint.role) : undefined;
    results.push(await measure(origin, endpoint, token, { ...options, concurrency: 1 }));
  }
  return results;
}

function printAlone(results: EndpointResult[]): void {
  if (results.length === 0) return;
  console.log('');
  console.log('One client alone (concurrency 1):');
  printTable(results);
}

// ---------------------------------------------------------------- DuckDB comparison

const UNFILTERED_SEARCH = 'analytics metric search all fragrances (no cache)';
const FILTERED_SEARCH = 'analytics metric search gender+age (no cache)';
/** The same searches as the metrics tab makes them: the POST, then the first page. */
const UNFILTERED_PAGE = 'analytics metric search all fragrances, first page (no cache)';
const FILTERED_PAGE = 'analytics metric search gender+age, first page (no cache)';

interface SearchBody {
  q: {
    demographics?: { gender?: string[]; startAge?: number; endAge?: number };
    metrics: { metricsList: { metric: string; aggregation: string }[] };
  };
}

/** Runs a metric search of the bench on the server and answers its base and top 2 box per product. */
async function serverNumbers(origin: string, token: string, endpoint: BenchEndpoint): Promise<ServerNumbers> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const queued = await fetch(`${origin}${endpoint.path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(endpoint.body),
  });
  const { jobid } = (await queued.json()) as { jobid: string };
  for (;;) {
    const response = await fetch(`${origin}/api/analytics/fragrances/${jobid}`, { headers });
    const status = (await response.json()) as {
      status: string;
      error: string | null;
      result: {
        json: {
          results: { id: number; values: Record<string, number | null>; bases: Record<string, number> }[];
        };
      } | null;
    };
    if (status.status === 'FAILURE') throw new Error(`${endpoint.name} failed: ${status.error}`);
    if (status.status === 'SUCCESS' && status.result) {
      const metric = (endpoint.body as SearchBody).q.metrics.metricsList[0]!;
      const key = `${metric.metric}.${metric.aggregation}`;
      return new Map(
        status.result.json.results.map((row) => [
          row.id,
          { n: row.bases[key] ?? 0, top2: row.values[key] ?? null },
        ]),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function duckdbComparison(
  scratch: Scratch,
  origin: string,
  tokens: Map<BenchRole, string>,
): Promise<DuckdbComparison> {
  const unfiltered = ENDPOINTS.find((endpoint) => endpoint.name === UNFILTERED_SEARCH)!;
  const filtered = ENDPOINTS.find((endpoint) => endpoint.name === FILTERED_SEARCH)!;
  const token = tokens.get('researcher')!;
  const body = filtered.body as SearchBody;
  const metric = body.q.metrics.metricsList[0]!;
  if (metric.aggregation !== 'top_2_box') throw new Error('The DuckDB comparison checks top 2 box searches');
  return compareWithDuckdb({
    databaseUrl: scratch.databaseUrl!,
    metric: metric.metric,
    filter: {
      gender: body.q.demographics?.gender ?? [],
      startAge: body.q.demographics?.startAge ?? 0,
      endAge: body.q.demographics?.endAge ?? 200,
    },
    unfilteredServer: await serverNumbers(origin, token, unfiltered),
    filteredServer: await serverNumbers(origin, token, filtered),
    runs: 5,
  });
}

/**
 * DuckDB runs each query alone: our figures beside it are those of one client alone (when measured)
 * and those of the concurrent run, each marked with its number of clients.
 */
function printDuckdb(
  comparison: DuckdbComparison,
  results: EndpointResult[],
  alone: EndpointResult[],
  concurrency: number,
): void {
  console.log('');
  console.log(
    `DuckDB ${comparison.metric}: ${comparison.answers.toLocaleString('en-US')} answers, ` +
      `${comparison.respondents.toLocaleString('en-US')} respondents, ${comparison.products.toLocaleString('en-US')} products ` +
      `(export ${formatDuration(comparison.exportMs)}, load ${formatDuration(comparison.loadMs)}, in memory)`,
  );
  const header = [
    'aggregation',
    'clients',
    'ours p50',
    'ours p95',
    'DuckDB ms',
    'ours/DuckDB p50',
    'p95',
    'same numbers',
  ];
  const rows = (
    [
      ['unfiltered', UNFILTERED_SEARCH, comparison.unfiltered],
      ['unfiltered, first page', UNFILTERED_PAGE, comparison.unfiltered],
      ['gender + age', FILTERED_SEARCH, comparison.filtered],
      ['gender + age, first page', FILTERED_PAGE, comparison.filtered],
    ] as const
  ).flatMap(([label, name, duck]) => {
    // One client alone (the target: p95 within 2x DuckDB's one query) and the concurrent clients.
    const measured = [
      ['1', alone.find((result) => result.name === name)],
      [String(concurrency), results.find((result) => result.name === name)],
    ] as const;
    const ratio = (value: number | undefined) =>
      value === undefined || !Number.isFinite(value) ? '-' : (value / duck.medianMs).toFixed(1);
    return measured
      .filter(([, ours]) => ours !== undefined)
      .map(([clients, ours]) => [
        label,
        clients,
        ms(ours!.p50Ms),
        ms(ours!.p95Ms),
        ms(duck.medianMs),
        ratio(ours!.p50Ms),
        ratio(ours!.p95Ms),
        duck.mismatches === 0 ? `yes (${duck.products})` : `NO: ${duck.mismatches} products differ`,
      ]);
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('target: p95 of one client alone within 2x DuckDB');
}

// ---------------------------------------------------------------- report

function describeServer(options: Options): string {
  return [
    `${options.processes} web process${options.processes === 1 ? '' : 'es'}`,
    options.workerProcess ? 'a worker process' : 'jobs in the web processes',
    options.replicas.length > 0 ? `${options.replicas.length} read replica(s)` : 'no read replica',
    options.source ? 'TypeScript sources under tsx' : 'built server',
  ].join(', ');
}

/** The analytics performance targets: p95 ms, caller's time, with 8 clients (and one alone where set). */
const ISSUE_ROWS: { label: string; endpoint: string; target: number }[] = [
  { label: 'metric search all fragrances, no cache', endpoint: UNFILTERED_SEARCH, target: 300 },
  { label: 'metric search gender + age, no cache', endpoint: FILTERED_SEARCH, target: 500 },
  {
    label: 'metric search, cached',
    endpoint: 'analytics metric search all fragrances (cached)',
    target: 100,
  },
  {
    label: 'group comparison two business units',
    endpoint: 'group comparison two business units',
    target: 500,
  },
  {
    label: 'top attributes all fragrances',
    endpoint: 'analytics top attributes all fragrances',
    target: 500,
  },
  {
    label: 'significance rest, 1,000 products',
    endpoint: 'analytics significance rest, 1000 products',
    target: 100,
  },
  { label: 'export all fragrances xlsx', endpoint: 'search export all fragrances xlsx', target: 3000 },
  // The searches as the metrics tab makes them since it pages: the POST and the first page.
  { label: 'first page: all fragrances, no cache', endpoint: UNFILTERED_PAGE, target: 300 },
  { label: 'first page: gender + age, no cache', endpoint: FILTERED_PAGE, target: 500 },
  {
    label: 'first page: cached',
    endpoint: 'analytics metric search all fragrances, first page (cached)',
    target: 100,
  },
];

/** The table of the analytics targets: p95 with the concurrent clients, its target, and one client alone. */
function printIssueTable(results: EndpointResult[], alone: EndpointResult[], concurrency: number): void {
  const header = ['endpoint (p95 ms)', `${concurrency} clients`, `target (8 clients)`, 'met', 'alone'];
  const rows = ISSUE_ROWS.flatMap((row) => {
    const loaded = results.find((result) => result.name === row.endpoint);
    if (!loaded) return [];
    const single = alone.find((result) => result.name === row.endpoint);
    return [
      [
        row.label,
        ms(loaded.p95Ms),
        String(row.target),
        loaded.errors > 0 ? 'errors' : loaded.p95Ms <= row.target ? 'yes' : 'no',
        single ? ms(single.p95Ms) : '-',
      ],
    ];
  });
  if (rows.length === 0) return;
  console.log('');
  console.log('Analytics targets:');
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '-');

function printTable(results: EndpointResult[]): void {
  const header = [
    'endpoint',
    'role',
    'n',
    'errors',
    'p50 ms',
    'p95 ms',
    'max ms',
    'server p50',
    'server p95',
    'req/s',
    'peak RSS',
  ];
  const rows = results.map((r) => [
    `${r.method} ${r.name}`,
    r.role ?? '-',
    String(r.requests),
    String(r.errors),
    ms(r.p50Ms),
    ms(r.p95Ms),
    ms(r.maxMs),
    ms(r.serverP50Ms),
    ms(r.serverP95Ms),
    r.throughputPerSecond.toFixed(0),
    r.peakRssBytes === undefined ? '-' : mb(r.peakRssBytes),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < 2 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
      .join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  const options = readOptions();
  const scratch = await createScratch(options);
  let server: RunningServer | undefined;
  let sampler: NodeJS.Timeout | undefined;
  const cleanup = async () => {
    if (sampler) clearInterval(sampler);
    await server?.stop().catch(() => undefined);
    await scratch
      .drop()
      .catch((error: unknown) => console.error(`Could not drop the scratch database: ${String(error)}`));
  };
  const onSignal = () => {
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    console.log(
      `Bench: ${options.existing ? 'an existing library' : `${options.studies} studies`} on ${scratch.engine}${scratch.databaseUrl ? ` (${new URL(scratch.databaseUrl).pathname.slice(1)})` : ''}, ` +
        `${options.concurrency} clients, up to ${options.requests} requests or ${options.seconds} s per endpoint`,
    );
    const seeded = await seed(scratch, options);
    // An existing library is read as it is, not seeded: say what it holds.
    console.log(
      `${options.existing ? 'Library of' : 'Seeded'} ${seeded.studies} studies, ${seeded.answers.toLocaleString('en-US')} answers` +
        `${options.existing ? '' : ` in ${formatDuration(seeded.milliseconds)}`} (database ${mb(seeded.databaseBytes)})`,
    );
    const mappingAccuracy = await measureMappingAccuracy(scratch);

    server = await startServer(scratch, options);
    const { pids } = server;
    console.log(
      `Server ready on ${server.origin} in ${formatDuration(server.startupMs)}, warmed up ${formatDuration(server.warmUpMs)} later (${describeServer(options)}; pids ${pids.join(', ')})`,
    );
    // Every process of the server together: web processes (cluster children) and the worker.
    const memoryNow = () =>
      pids.reduce(
        (total, pid) => {
          const memory = treeMemory(pid);
          return memory ? { rss: total.rss + memory.rss, hwm: total.hwm + memory.hwm } : total;
        },
        { rss: 0, hwm: 0 },
      );
    const idle = memoryNow();
    let sampledPeak = idle.rss;
    // The highest RSS sampled while each endpoint was measured: which calls drive the peak.
    let endpointPeak = 0;
    sampler = setInterval(() => {
      const rss = memoryNow().rss;
      sampledPeak = Math.max(sampledPeak, rss);
      endpointPeak = Math.max(endpointPeak, rss);
    }, 100);

    const tokens = new Map<BenchRole, string>();
    const selected = ENDPOINTS.filter(
      (endpoint) => options.only.length === 0 || options.only.some((text) => endpoint.name.includes(text)),
    );
    for (const role of new Set(selected.map((e) => e.role))) {
      if (role) tokens.set(role, await login(server.origin, role));
    }
    const results: EndpointResult[] = [];
    for (const endpoint of selected) {
      const token = endpoint.role ? tokens.get(endpoint.role) : undefined;
      endpointPeak = memoryNow().rss;
      const startedAt = Date.now();
      const result = await measure(server.origin, endpoint, token, options);
      results.push({
        ...result,
        peakRssBytes: Math.max(endpointPeak, memoryNow().rss),
        startedAt,
        endedAt: Date.now(),
      });
    }
    const alone = await measureAlone(server.origin, selected, tokens, options);
    clearInterval(sampler);
    sampler = undefined;
    // The sum of the processes' own peaks bounds the peak of their sum from above; the sampled sum
    // is what they held together at one moment.
    const peakRss =
      options.processes === 1 && !options.workerProcess
        ? Math.max(sampledPeak, memoryNow().hwm)
        : sampledPeak;

    let duckdb: DuckdbComparison | undefined;
    if (options.noDuckdb || !scratch.databaseUrl) {
      console.log(options.noDuckdb ? '' : 'DuckDB comparison: PostgreSQL only, skipped on PGlite.');
    } else {
      console.log('DuckDB comparison: exporting the answers of the measured metric...');
      duckdb = await duckdbComparison(scratch, server.origin, tokens);
    }

    let studiesUpload: StudiesUploadResult | undefined;
    if (!options.noUpload && scratch.databaseUrl) {
      console.log('Studies upload: a zip of 20 studies through upload, unpack, validate and inject...');
      studiesUpload = await runStudiesUploadBench(scratch.databaseUrl);
    }

    console.log('');
    printTable(results);
    printAlone(alone);
    printIssueTable(results, alone, options.concurrency);
    if (duckdb) printDuckdb(duckdb, results, alone, options.concurrency);
    if (studiesUpload) printStudiesUpload(studiesUpload);
    console.log('');
    console.log(`engine      ${scratch.engine}`);
    console.log(
      `scale       ${seeded.studies} studies, ${seeded.answers.toLocaleString('en-US')} answers, ${mb(seeded.databaseBytes)}`,
    );
    console.log(
      `seeding     ${options.existing ? 'none (an existing library)' : formatDuration(seeded.milliseconds)}`,
    );
    console.log(`processes   ${describeServer(options)}`);
    console.log(
      `server      start ${formatDuration(server.startupMs)}, RSS idle ${mb(idle.rss)}, peak ${mb(peakRss)} (target under 1 GB)`,
    );

    const report = {
      date: new Date().toISOString(),
      engine: scratch.engine,
      node: process.version,
      cpus: os.cpus().length,
      studies: seeded.studies,
      answers: seeded.answers,
      databaseBytes: seeded.databaseBytes,
      seedingMs: seeded.milliseconds,
      server: {
        processes: options.processes,
        workerProcess: options.workerProcess,
        readReplicas: options.replicas.length,
        startupMs: Math.round(server.startupMs),
        warmUpMs: Math.round(server.warmUpMs),
        idleRssBytes: idle.rss,
        peakRssBytes: peakRss,
      },
      load: {
        concurrency: options.concurrency,
        requests: options.requests,
        seconds: options.seconds,
        warmup: options.warmup,
      },
      endpoints: results,
      alone,
      mappingAccuracy,
      ...(duckdb ? { duckdb } : {}),
      ...(studiesUpload ? { studiesUpload } : {}),
    };
    await writeFile(path.join(repoRoot, 'bench', 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log('Results written to bench/results.json');
    const failing = [...results, ...alone].filter((r) => r.errors > 0);
    if (failing.length > 0) {
      console.error(
        `Endpoints with errors: ${failing.map((r) => `${r.name} ${JSON.stringify(r.statuses)}`).join(', ')}`,
      );
      process.exitCode = 1;
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

await main();
