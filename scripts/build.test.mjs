// What `npm start` rebuilds (scripts/build.mjs, build({ onlyStale: true })): nothing after a build
// whose sources have not changed, and only the output whose sources changed. Run on a folder laid out
// as the repository, with builds that only record that they ran and write their output folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build, isStale, sourceHash } from './build.mjs';

let root = '';
let runs = [];

const write = (file, text) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};

const builders = {
  server: async () => {
    runs.push('server');
    mkdirSync(path.join(root, 'apps/server/dist/server'), { recursive: true });
    writeFileSync(path.join(root, 'apps/server/dist/server/main.js'), 'export {};\n');
  },
  web: async () => {
    runs.push('web');
    mkdirSync(path.join(root, 'apps/web/dist'), { recursive: true });
    writeFileSync(path.join(root, 'apps/web/dist/index.html'), '<!doctype html>\n');
  },
};

const start = () => build({ onlyStale: true, root, builders, log: () => undefined });

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'accord-build-'));
  runs = [];
  write('apps/server/src/main.ts', 'export const server = 1;\n');
  write('apps/server/src/main.test.ts', 'it("runs");\n');
  write('apps/server/package.json', '{}\n');
  write('apps/web/src/main.tsx', 'export const web = 1;\n');
  write('apps/web/index.html', '<div id="root"></div>\n');
  write('packages/contracts/src/index.ts', 'export const shared = 1;\n');
  write('package-lock.json', '{}\n');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('build({ onlyStale })', () => {
  it('builds both outputs when they are missing, then nothing on the next start', async () => {
    expect(await start()).toEqual(['server', 'web']);
    expect(isStale('server', sourceHash('server', root), root)).toBe(false);
    expect(isStale('web', sourceHash('web', root), root)).toBe(false);
    runs = [];
    expect(await start()).toEqual([]);
    expect(runs).toEqual([]);
  });

  it('rebuilds only the output whose sources changed', async () => {
    await start();
    write('apps/server/src/main.ts', 'export const server = 2;\n');
    expect(await start()).toEqual(['server']);
    write('apps/web/src/main.tsx', 'export const web = 2;\n');
    expect(await start()).toEqual(['web']);
    // A file both read (the contracts) rebuilds both; a new file counts as a change.
    write('packages/contracts/src/more.ts', 'export const more = 1;\n');
    expect(await start()).toEqual(['server', 'web']);
  });

  it('rebuilds nothing for an edited test, and an output whose stamp is gone', async () => {
    await start();
    write('apps/server/src/main.test.ts', 'it("runs again");\n');
    expect(await start()).toEqual([]);
    rmSync(path.join(root, 'apps/web/dist'), { recursive: true });
    expect(await start()).toEqual(['web']);
  });

  it('builds both when asked for a full build', async () => {
    await start();
    expect(await build({ root, builders, log: () => undefined })).toEqual(['server', 'web']);
  });
});
