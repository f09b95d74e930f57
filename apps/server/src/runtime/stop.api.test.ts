// SIGTERM with requests in flight: the real server (src/main.ts, as `npm start` runs it) starts as a
// child process on a port and data folder of its own; requests that hold the database for a while
// are sent, then SIGTERM. Every request must be answered 2xx, no new connection accepted after the
// stop began, and the process must exit 0. On the embedded PGlite (one process); with DATABASE_URL
// also on PostgreSQL with two web processes (node:cluster), whose primary passes the signal on.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Ports of these tests (beside the 3000 of a development server and the journeys' 3100). */
const PORTS = { pglite: 3247, postgresql: 3248 };

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function startServer(port: number, env: Record<string, string>): Promise<Started> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'accord-stop-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      INIT_CWD: SERVER_DIR,
      ACCORD_DEMO_STUDIES: '0',
      ACCORD_WARM_UP: 'off',
      ACCORD_TEST_HOOKS: '1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });
  // Ready when the health check answers (the start migrates and seeds the users) and the server says
  // so: with several web processes one may answer while another still starts, and a signal then
  // would find that one without its stop.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server ended at start:\n${output}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up && /is ready on http/.test(output)) break;
    if (Date.now() > deadline) throw new Error(`The server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { child, output: () => output, exited };
}

/** Each request on a connection of its own, as separate clients would send them. */
function sleepRequest(port: number, seconds: number): Promise<{ status: number; body: string }> {
  return fetch(`http://127.0.0.1:${port}/api/test/sleep`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({ seconds }),
  }).then(async (response) => ({ status: response.status, body: await response.text() }));
}

/**
 * Sends one request of `seconds`, then, while it runs, `count - 1` more, then SIGTERM; `processes`
 * web processes must each stop accepting. On PGlite the first holds the process, so the others
 * wait unread at the socket when the signal comes: the case that loses requests when the socket is
 * closed at once (connections reset) or requests read after the stop began are refused (503).
 */
async function stopWithRequestsInFlight(
  server: Started,
  port: number,
  { count, seconds, processes = 1 }: { count: number; seconds: number; processes?: number },
) {
  let answered = 0;
  const send = () =>
    sleepRequest(port, seconds)
      .catch((error: Error) => ({
        status: 0,
        body: `${error.message} ${(error.cause as Error | undefined)?.message ?? ''}`,
      }))
      .finally(() => answered++);
  const requests = [send()];
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (let index = 1; index < count; index++) requests.push(send());
  // The requests reach the server before the signal.
  await new Promise((resolve) => setTimeout(resolve, 300));
  server.child.kill('SIGTERM');
  // Once the server has closed its listening socket, a new connection is refused.
  const closedSocket = /no longer accepting connections/g;
  for (let waited = 0; (server.output().match(closedSocket)?.length ?? 0) < processes; waited += 50) {
    if (waited > 60_000) throw new Error(`The server did not stop accepting:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const answeredBeforeClose = answered;
  const late = await fetch(`http://127.0.0.1:${port}/api/`).then(
    (response) => `answered ${response.status}`,
    (error: Error) => (error.cause as { code?: string } | undefined)?.code ?? error.message,
  );
  const answers = await Promise.all(requests);
  const exit = await server.exited;
  return { answers, exit, late, answeredBeforeClose };
}

describe('SIGTERM with requests in flight', () => {
  it('on the embedded database, answers every request, refuses new connections and exits 0', async () => {
    const port = PORTS.pglite;
    const server = await startServer(port, {});
    // PGlite answers one query at a time on the server's thread: four 1-second queries queue up.
    const { answers, exit, late } = await stopWithRequestsInFlight(server, port, {
      count: 4,
      seconds: 1.5,
    });
    expect(
      answers.map((answer) => answer.status),
      server.output(),
    ).toEqual([200, 200, 200, 200]);
    // PGlite holds the thread through the queued queries, so the socket closes once they are done;
    // from then on no new connection gets in.
    expect(late).toBe('ECONNREFUSED');
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    expect(server.output()).toMatch(/SIGTERM, stopping/);
  }, 240_000);

  it.runIf(process.env.DATABASE_URL)(
    'on PostgreSQL with two web processes, answers every request, refuses new connections and exits 0',
    async () => {
      const serverUrl = process.env.DATABASE_URL!;
      const name = `accord_stop_${Date.now()}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      cleanups.push(async () => {
        const client = new pg.Client({ connectionString: serverUrl });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      });
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      const port = PORTS.postgresql;
      const server = await startServer(port, { DATABASE_URL: url.toString(), WEB_CONCURRENCY: '2' });
      // Both processes serve the port: a wait long enough for each request to still run at the signal.
      const { answers, exit, late, answeredBeforeClose } = await stopWithRequestsInFlight(server, port, {
        count: 6,
        seconds: 2,
        processes: 2,
      });
      expect(answeredBeforeClose).toBeLessThan(6);
      expect(
        answers.map((answer) => answer.status),
        server.output(),
      ).toEqual([200, 200, 200, 200, 200, 200]);
      // The primary may still accept a new connection while its web processes close: it is reset, never served.
      expect(['ECONNREFUSED', 'ECONNRESET']).toContain(late);
      expect(exit, server.output()).toEqual({ code: 0, signal: null });
      // Each web process drained its own requests.
      expect(server.output().match(/web \d+: SIGTERM, stopping/g)?.length, server.output()).toBe(2);
    },
    240_000,
  );
});
