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
 * Runs one process on a prepared database: the API and SPA on PORT when `listen`, the job workers
 * when `workers`. The process stops gracefully on SIGINT and SIGTERM (requests end, active jobs
 * finish for at most 5 s).
 */
export async function runServer(
  config: Config,
  options: { database: Database; listen: boolean; workers: boolean; name: string },
): Promise<RunningServer> {
  const { database } = options;
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
    logger: process.env.ACCORD_LOG === '1',
    warmUp: config.warmUp ? { log: (line) => console.log(`${options.name}: ${line}`) } : undefined,
  });
  if (options.listen) await app.listen({ port: config.port, host: config.host });
  else await app.ready();

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await app.close();
      await jobs.stop();
      await closeUploadWorkers();
      await database.close();
    })());
  const onSignal = (signal: string) => {
    console.log(`${options.name}: ${signal}, stopping...`);
    void stop().then(
      () => process.exit(0),
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
