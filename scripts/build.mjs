/**
 * Builds what production runs, with plain Node:
 * - the server: apps/server/src (with packages/contracts and packages/stats) bundled by esbuild into
 *   apps/server/dist/server/ (main.js, worker.js and entry.js, the upload threads' entry), which
 *   plain `node` runs; the npm packages stay in node_modules;
 * - the web app: `vite build` into apps/web/dist, every text asset compressed beside itself
 *   (name.br and name.gz, by apps/web/vite.config.ts).
 *
 * Each output carries a stamp (.build-stamp) holding a hash of its sources; `build({ onlyStale })`
 * rebuilds only an output whose stamp is missing or differs, which is what `npm start` asks for.
 *
 *   node scripts/build.mjs            # both, always (npm run build)
 *   node scripts/build.mjs --stale    # only what is missing or out of date
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_OUT = path.join(ROOT, 'apps/server/dist/server');
export const WEB_OUT = path.join(ROOT, 'apps/web/dist');
const STAMP = '.build-stamp';

/** Files whose content decides each output (folders are read recursively). */
const SOURCES = {
  server: [
    'apps/server/src',
    'apps/server/package.json',
    'packages/contracts/src',
    'packages/stats/src',
    'package-lock.json',
    'scripts/build.mjs',
  ],
  web: [
    'apps/web/src',
    'apps/web/public',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/package.json',
    'packages/contracts/src',
    'package-lock.json',
    'scripts/build.mjs',
  ],
};

/** Tests are no part of a build: editing one rebuilds nothing. */
const isTest = (file) => /\.test\.tsx?$/.test(file);

function listFiles(root, entry) {
  const absolute = path.join(root, entry);
  if (!existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return [entry];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((item) => item.isFile())
    .map((item) => path.relative(root, path.join(item.parentPath, item.name)))
    .filter((file) => !isTest(file));
}

/** A hash of the output's sources (under `root`, the repository by default): paths and contents. */
export function sourceHash(kind, root = ROOT) {
  const hash = createHash('sha256');
  for (const file of SOURCES[kind].flatMap((entry) => listFiles(root, entry)).sort()) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** Where each output's stamp lives, relative to the repository. */
const OUTPUTS = {
  server: path.relative(ROOT, SERVER_OUT),
  web: path.relative(ROOT, WEB_OUT),
};
const stampPath = (kind, root) => path.join(root, OUTPUTS[kind], STAMP);

export function isStale(kind, hash = sourceHash(kind), root = ROOT) {
  const stamp = stampPath(kind, root);
  return !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== hash;
}

/** Bundles the server; only @accord packages are bundled, the others load from node_modules. */
async function buildServer() {
  const esbuild = await import('esbuild');
  rmSync(SERVER_OUT, { recursive: true, force: true });
  try {
    await bundleServer(esbuild);
  } finally {
    // Its service process would otherwise live as long as the server this script goes on to run.
    await esbuild.stop();
  }
}

function bundleServer(esbuild) {
  return esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: {
      main: 'apps/server/src/main.ts',
      worker: 'apps/server/src/worker.ts',
      entry: 'apps/server/src/workers/entry.compiled.ts',
    },
    outdir: SERVER_OUT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
    plugins: [
      {
        name: 'node-modules-external',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@accord/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
}

async function buildWeb() {
  const vite = await import('vite');
  await vite.build({
    configFile: path.join(ROOT, 'apps/web/vite.config.ts'),
    root: path.join(ROOT, 'apps/web'),
    logLevel: 'warn',
  });
}

const BUILDERS = { server: buildServer, web: buildWeb };

/**
 * Builds the server and the web app; with `onlyStale`, only those whose sources changed since their
 * last build. Answers what was built. `root` and `builders` are the repository and the two builds
 * (scripts/build.test.mjs runs the choice of what to build on a folder of its own).
 */
export async function build({
  onlyStale = false,
  log = (line) => console.log(line),
  root = ROOT,
  builders = BUILDERS,
} = {}) {
  const built = [];
  for (const kind of ['server', 'web']) {
    const hash = sourceHash(kind, root);
    if (onlyStale && !isStale(kind, hash, root)) continue;
    const started = Date.now();
    log(`Building the ${kind}...`);
    await builders[kind]();
    writeFileSync(stampPath(kind, root), `${hash}\n`);
    log(`Built the ${kind} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    built.push(kind);
  }
  return built;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await build({ onlyStale: process.argv.includes('--stale') });
}
