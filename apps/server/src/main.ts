/**
 * `npm start`: migrates the database, seeds the demo library when the database is empty, starts the
 * job queue and serves the API and the built SPA on PORT (default 3000).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { systemClock } from './lib/clock.ts';
import { createMailer } from './lib/mailer.ts';
import { startJobQueue } from './jobs/queue.ts';
import { demoLoginsText, seedIfEmpty } from './seed/seed-if-empty.ts';
import { createLocalFileStorage } from './storage/file-storage.ts';
import { closeUploadWorkers } from './workers/pool.ts';

const config = loadConfig();
const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const startedAt = Date.now();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: path.join(config.dataDir, 'db'),
});
console.log(`Database: ${database.engine} (${database.location}), migrated.`);
const storage = createLocalFileStorage(path.join(config.dataDir, 'files'));
await seedIfEmpty(database, storage, config);

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
  storage,
  mailer,
  clock: systemClock,
  version,
  publicUrl: config.publicUrl,
  resetLinkOrigins: config.resetLinkOrigins,
  trustProxy: config.trustProxy,
  webDist: config.webDist,
  loginRateLimit: config.loginRateLimit,
  testHooks: process.env.ACCORD_TEST_HOOKS === '1',
  logger: process.env.ACCORD_LOG === '1',
});

await app.listen({ port: config.port, host: config.host });
console.log(
  `\nAccord ${version} is ready on http://localhost:${config.port} (started in ${((Date.now() - startedAt) / 1000).toFixed(1)} s)`,
);
console.log(`\n${demoLoginsText(config.demoPassword)}`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping Accord...`);
  await app.close();
  await jobs.stop();
  await closeUploadWorkers();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
