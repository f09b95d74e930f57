// The allocator settings reach the server's node process through `npm start` and `npm run worker`
// (package.json's scripts, run by a shell as npm runs them), unless the caller set its own.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MALLOC_TUNABLES, serverEnv } from './server-env.mjs';

const scripts = JSON.parse(readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8')).scripts;
const printTunables = `node -e "process.stdout.write(process.env.GLIBC_TUNABLES ?? 'unset')"`;

/** What the node process a script starts finds in GLIBC_TUNABLES. */
function tunablesOf(script, env) {
  expect(script).toContain('node scripts/start.mjs');
  return execFileSync('sh', ['-c', script.replace(/node scripts\/start\.mjs( worker)?/, printTunables)], {
    env,
    encoding: 'utf8',
  });
}

describe('the allocator settings', () => {
  const { GLIBC_TUNABLES: _, ...without } = process.env;
  it.each(['start', 'worker'])('reach the process of npm run %s', (name) => {
    expect(tunablesOf(scripts[name], without)).toBe(MALLOC_TUNABLES);
    expect(tunablesOf(scripts[name], { ...without, GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' })).toBe(
      'glibc.malloc.arena_max=4',
    );
  });

  it('are added to an environment without its own', () => {
    expect(serverEnv({ PORT: '1' })).toEqual({ PORT: '1', GLIBC_TUNABLES: MALLOC_TUNABLES });
    expect(serverEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' }).GLIBC_TUNABLES).toBe(
      'glibc.malloc.arena_max=4',
    );
  });
});
