#!/usr/bin/env node
/**
 * Runs the journeys in lanes side by side (E2E_LANES, 2 by default): each lane is a Playwright run of
 * its own with its own server, database, port and results folder (E2E_LANE, see support/env.ts), so
 * no lane sees another's edits. Files go to the lanes by their last measured duration
 * (durations.json; a new file counts as DEFAULT_SECONDS), longest first onto the least loaded lane,
 * and keep their alphabetical order within a lane. Arguments (files, -g ...) run one plain Playwright
 * run instead, as `npx playwright test` would.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_SECONDS = 20;
const lanes = Math.max(1, Number(process.env.E2E_LANES ?? 2));
const basePort = Number(process.env.E2E_PORT ?? 3100);
const args = process.argv.slice(2);

function run(files, lane) {
  const env = { ...process.env };
  if (lane !== undefined) {
    env.E2E_LANE = String(lane);
    env.E2E_PORT = String(basePort + lane - 1);
  }
  const child = spawn('npx', ['playwright', 'test', ...files], {
    cwd: E2E_DIR,
    env,
    stdio: lane === undefined ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  if (lane !== undefined) {
    // Each line of a lane's report is prefixed with the lane, so the interleaved output still reads.
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) process.stdout.write(`[lane ${lane}] ${line}\n`);
      });
      stream.on('end', () => rest && process.stdout.write(`[lane ${lane}] ${rest}\n`));
    }
  }
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

if (args.length > 0 || lanes === 1) {
  process.exit(await run(args));
}

const durations = JSON.parse(readFileSync(path.join(E2E_DIR, 'durations.json'), 'utf8'));
const files = readdirSync(path.join(E2E_DIR, 'tests')).filter((name) => name.endsWith('.spec.ts'));
const plan = Array.from({ length: lanes }, () => ({ seconds: 0, files: [] }));
for (const file of [...files].sort(
  (a, b) => (durations[b] ?? DEFAULT_SECONDS) - (durations[a] ?? DEFAULT_SECONDS),
)) {
  const lightest = plan.reduce((min, lane) => (lane.seconds < min.seconds ? lane : min));
  lightest.seconds += durations[file] ?? DEFAULT_SECONDS;
  lightest.files.push(file);
}
for (const [index, lane] of plan.entries())
  console.log(`lane ${index + 1}: ${lane.files.length} files, about ${Math.round(lane.seconds / 60)} min`);
const started = Date.now();
const codes = await Promise.all(
  plan.map((lane, index) =>
    run(
      lane.files.sort().map((file) => `tests/${file}`),
      index + 1,
    ),
  ),
);
console.log(
  `lanes ${codes.map((code, index) => `${index + 1}: ${code === 0 ? 'passed' : `failed (${code})`}`).join(', ')} in ${((Date.now() - started) / 60000).toFixed(1)} min`,
);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
