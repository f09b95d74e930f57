import { mkdirSync, rmSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { BASE_URL, DATA_DIR, DEMO_STUDY_COUNT, E2E_DIR, PORT, RESULTS_DIR, TMP_DIR } from './support/env.ts';

// Playwright loads this file in the runner and again in each worker; only the runner starts afresh.
if (process.env.TEST_WORKER_INDEX === undefined) {
  rmSync(TMP_DIR, { recursive: true, force: true });
  mkdirSync(DATA_DIR, { recursive: true });
}

/**
 * Browser journeys against the real server and the built web app (run `npm run test:e2e` from the
 * root, which builds apps/web first). Debian's Chromium is used; browsers are never downloaded.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: RESULTS_DIR,
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Two lanes share the machine (run-lanes.mjs): generous limits, never tight ones.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    locale: 'en-GB',
    reducedMotion: 'reduce',
    // A failed journey keeps its trace of actions and page snapshots; without the screencast, which
    // cost a fifth of the journeys' CPU on a 2-core machine (the failure's screenshot stays).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'npx tsx ../apps/server/src/main.ts',
    cwd: E2E_DIR,
    url: `${BASE_URL}/api/`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR,
      PUBLIC_URL: BASE_URL,
      ACCORD_DEMO_STUDIES: String(DEMO_STUDY_COUNT),
      ACCORD_TEST_HOOKS: '1',
      // The journeys sign in many times a minute; the limit itself is covered by the API tests.
      ACCORD_LOGIN_RATE_LIMIT: '1000',
    },
  },
});
