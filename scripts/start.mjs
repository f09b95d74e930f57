/**
 * `npm start` (and `npm run worker`, both with the allocator settings of server-env.mjs): builds what
 * is missing or out of date (scripts/build.mjs), then runs the built server in this very process with
 * plain Node. No process stands between the service manager and the server, so SIGTERM and SIGINT
 * reach the server, which drains and exits.
 *
 *   node scripts/start.mjs           # the server (apps/server/dist/server/main.js)
 *   node scripts/start.mjs worker    # the job workers alone (worker.js)
 */
import cluster from 'node:cluster';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, SERVER_OUT } from './build.mjs';
import { serverEnv } from './server-env.mjs';

const entry = path.join(SERVER_OUT, process.argv[2] === 'worker' ? 'worker.js' : 'main.js');

// Stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
await build({ onlyStale: true });
// Web processes (node:cluster, PostgreSQL) run the built entry itself, not this script again, with
// the allocator settings (npm start gives them to this process; `node scripts/start.mjs` does not).
process.env.GLIBC_TUNABLES = serverEnv(process.env).GLIBC_TUNABLES;
cluster.setupPrimary({ exec: entry, execArgv: [...process.execArgv, '--enable-source-maps'] });
await import(pathToFileURL(entry).href);
