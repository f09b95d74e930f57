import { defineConfig } from 'vitest/config';

// Two projects: pure functions (unit) and the API through the running app on a real database (api).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'scripts/*.test.mjs'],
          exclude: ['**/*.api.test.ts', '**/node_modules/**'],
          environment: 'node',
          // Pure functions: one module graph per process for all files (103 s to 43 s on 2 cores);
          // the few tests that fake timers or globals restore them after each test.
          isolate: false,
        },
      },
      {
        test: {
          name: 'api',
          sequence: { groupOrder: 1 },
          include: ['apps/server/src/**/*.api.test.ts'],
          // One migrated, seeded template database per run, copied by each test file.
          globalSetup: ['apps/server/src/testing/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
          // Each file builds its own app on its own database (test-app.ts), so the two processes
          // run file after file without a fresh module graph each: loading the server and its
          // packages anew for each of 73 files took 167 of the run's 512 s on a 2-core machine, and
          // the code ran cold each time. What the server keeps at module level is read-only data or
          // keyed by objects of one app (WeakMaps), and a test that sets an environment variable
          // restores it.
          isolate: false,
        },
      },
    ],
  },
});
