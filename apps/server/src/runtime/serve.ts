/**
 * One server process: serves the API and the SPA and/or runs the job workers, on a database that
 * prepare.ts has made ready. `main.ts` runs one or several web processes (WEB_CONCURRENCY);
 * `worker.ts` runs the jobs alone.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { startJobQueue } from '../jobs/queue.ts';
import { systemClock } from '../lib/clock.ts';
import { createMailer } from '../lib/mailer.ts';
import { createLocalFileStorage } from '../storage/file-storage.ts';
import { closeUploadWorkers } from '../workers/pool.ts';
import { version } from './prepare.ts';

export interface RunningServer {
  app: FastifyInstance;
  stop(): Promise<void>;
}

/**
 * Time given to connections already queued at the listening socket when a stop begins: on a busy
 * process (PGlite runs queries on this thread) a request sent just before the signal may still
 * wait there, and closing the socket at once would reset its connection.
 */
const ACCEPT_QUEUED_MS = 250;
/** A drain not done by then (a request that never ends) exits with 1 rather than hang. */
const DRAIN_LIMIT_MS = 30_000;

/**
 * Runs one process on a prepared database: the API and SPA on PORT when `listen`, the job workers
 * when `workers`. On SIGINT and SIGTERM the process drains: it stops accepting connections, answers
 * every request already received (a request arriving on an open connection meanwhile is answered
 * too, with `Connection: close`), ends status streams, lets active jobs finish (at most 5 s),
 * closes the database and exits 0.
 */
export async function runServer(
  config: Config,
  options: { database: Database; listen: boolean; workers: boolean; name: string },
): Promise<RunningServer> {
  const { database } = options;
  const startedAt = Date.now() - Math.round(process.uptime() * 1000);
  const storage = createLocalFileStorage(path.join(config.dataDir, 'files'));
  const jobs = await startJobQueue(database);
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, 'outbox'),
    from: 'Accord <no-reply@accord.test>',
    log: (line) => console.log(line),
  });
  const app = await buildApp({
    database,
    jobs,
    workers: options.workers,
    storage,
    mailer,
    clock: systemClock,
    version,
    publicUrl: config.publicUrl,
    resetLinkOrigins: config.resetLinkOrigins,
    trustProxy: config.trustProxy,
    webDist: options.listen ? config.webDist : undefined,
    loginRateLimit: config.loginRateLimit,
    testHooks: process.env.ACCORD_TEST_HOOKS === '1',
    logLevel: config.logLevel,
    sourceMaps: config.sourceMaps,
    startedAt,
    warmUp: config.warmUp ? { log: (line) => console.log(`${options.name}: ${line}`) } : undefined,
  });
  // Said once the stop has closed the listening socket (the stop tests wait for it, then expect a new
  // connection to be refused): Fastify closes it after its preClose hooks, so watch for it from there.
  app.addHook('preClose', async () => {
    if (!options.listen) return;
    const watch = setInterval(() => {
      if (app.server.listening) return;
      clearInterval(watch);
      console.log(`${options.name}: no longer accepting connections.`);
    }, 10).unref();
  });
  if (options.listen) await app.listen({ port: config.port, host: config.host });
  else await app.ready();

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      if (options.listen) await new Promise((resolve) => setTimeout(resolve, ACCEPT_QUEUED_MS));
      await app.close();
      await jobs.stop();
      await closeUploadWorkers();
      await database.close();
    })());
  const onSignal = (signal: string) => {
    if (stopping) return;
    console.log(`${options.name}: ${signal}, stopping: answering the requests in flight...`);
    const started = Date.now();
    setTimeout(() => {
      console.error(`${options.name}: still stopping after ${DRAIN_LIMIT_MS / 1000} s; exiting.`);
      process.exit(1);
    }, DRAIN_LIMIT_MS).unref();
    void stop().then(
      () => {
        console.log(`${options.name}: stopped in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
        process.exit(0);
      },
      (error: unknown) => {
        console.error(`${options.name}: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  return { app, stop };
}
