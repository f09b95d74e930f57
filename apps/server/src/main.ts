/**
 * `npm start`: migrates the database, seeds the demo library when the database is empty and serves
 * the API and the built SPA on PORT (default 3000), with the job workers unless ACCORD_JOB_WORKERS=off
 * (then `npm run worker` runs them). On PostgreSQL, WEB_CONCURRENCY processes (default: one per core)
 * serve PORT together (node:cluster); the embedded PGlite is served by this one process.
 */
import cluster from 'node:cluster';
import { loadConfig } from './config.ts';
import { superviseWebProcesses } from './runtime/cluster.ts';
import { openConfiguredDatabase, prepareDatabase, version } from './runtime/prepare.ts';
import { demoLoginsText } from './seed/seed-if-empty.ts';

const config = loadConfig();
const startedAt = Date.now();
let seeded = false;
const ready = (processes: string) => {
  console.log(
    `\nAccord ${version} is ready on http://localhost:${config.port} (${processes}; started in ${((Date.now() - startedAt) / 1000).toFixed(1)} s)`,
  );
  // The demo logins are printed when they are created, not at every start.
  if (seeded) console.log(`\n${demoLoginsText(config.demoPassword)}`);
};
const workersNote = config.jobWorkers ? 'with job workers' : 'jobs run by `npm run worker`';

if (cluster.isPrimary) {
  if (!config.databaseUrl && process.env.WEB_CONCURRENCY && process.env.WEB_CONCURRENCY !== '1')
    console.log('WEB_CONCURRENCY applies to PostgreSQL: the embedded database is served by one process.');
  const prepared = await prepareDatabase(config);
  const { database } = prepared;
  seeded = prepared.seeded;
  if (config.webConcurrency === 1) {
    const { runServer } = await import('./runtime/serve.ts');
    await runServer(config, { database, listen: true, workers: config.jobWorkers, name: 'web' });
    ready(`one process, ${workersNote}`);
  } else {
    // The processes open their own connections; the primary only prepared the database.
    await database.close();
    superviseWebProcesses(config.webConcurrency, {
      onAllListening: () => ready(`${config.webConcurrency} web processes, ${workersNote}`),
    });
  }
} else {
  const database = await openConfiguredDatabase(config, { migrate: false });
  const { runServer } = await import('./runtime/serve.ts');
  await runServer(config, {
    database,
    listen: true,
    workers: config.jobWorkers,
    name: `web ${cluster.worker?.id ?? ''}`.trim(),
  });
}
