/**
 * `npm run worker`: the job workers (analytics, comparisons, uploads) in a process of their own, for
 * web processes started with ACCORD_JOB_WORKERS=off. Serves no web app; with WORKER_PORT set it
 * answers GET /api/health on that port for a supervisor's health check.
 */
import { loadConfig } from './config.ts';
import { prepareDatabase } from './runtime/prepare.ts';
import { runServer } from './runtime/serve.ts';

const config = loadConfig();
if (!config.databaseUrl)
  console.log("Note: the embedded database is one process's file; a worker process needs DATABASE_URL.");
const { database } = await prepareDatabase(config);
const workerPort = process.env.WORKER_PORT ? Number(process.env.WORKER_PORT) : null;
const { app } = await runServer(
  { ...config, ...(workerPort !== null ? { port: workerPort } : {}) },
  { database, listen: workerPort !== null, workers: true, name: 'worker' },
);
console.log(
  `Accord job worker is running${workerPort !== null ? ` (health: http://localhost:${workerPort}/api/health)` : ''}.`,
);
void app;
