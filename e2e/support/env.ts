/** Where the journeys' server runs and keeps its data (a fresh folder per run, see playwright.config.ts). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// E2E_LANE (set by run-lanes.mjs) gives each lane of a run its own server data, port and results.
const LANE = process.env.E2E_LANE;
export const TMP_DIR = path.join(E2E_DIR, '.tmp', ...(LANE ? [`lane-${LANE}`] : []));
export const RESULTS_DIR = path.join(E2E_DIR, 'test-results', ...(LANE ? [`lane-${LANE}`] : []));
export const DATA_DIR = path.join(TMP_DIR, 'data');
export const OUTBOX_DIR = path.join(DATA_DIR, 'outbox');
// E2E_PORT lets two checkouts run their journeys side by side.
export const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;

export const DEMO_PASSWORD = 'accord-demo';
export const DEMO_USERS = {
  admin: 'admin@accord.test',
  researcher: 'researcher@accord.test',
  client: 'client@accord.test',
  sales: 'sales@accord.test',
} as const;

/**
 * The journeys' server seeds this many demo studies (ACCORD_DEMO_STUDIES in playwright.config.ts):
 * enough for two categories to hold a norm that may be shown (Hair Care: 9 studies of 4 clients;
 * Fabric Care: 6 studies of 4 clients, two of them in Europe), and for one fragrance (code 175) to
 * be tested in five studies.
 */
export const DEMO_STUDY_COUNT = 36;
