// The top attributes and tendencies downloads through the running app: the spreadsheets hold what the
// tabs show (boxes as rounded percentages, means with 2 decimals, the tendencies headed by the counted
// field with percentages to one decimal), and the calls keep their roles, validation and client scoping.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TendenciesResponse, TopAttributesStatus } from '@accord/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoLibrary } from '../../seed/library.ts';
import { DEMO_USERS } from '../../seed/users.ts';
import { createLocalFileStorage } from '../../storage/file-storage.ts';
import { createTestApp, errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let storageDir: string;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(os.tmpdir(), 'accord-analytics-xlsx-'));
  t = await createTestApp({
    seed: async (database) => {
      await seedDemoLibrary(database, createLocalFileStorage(storageDir), {
        studies: 6,
        seed: 5,
        respondents: 40,
        lastYear: 2024,
      });
    },
  });
  for (const role of ['admin', 'researcher', 'client', 'sales'] as const) tokens[role] = await t.login(role);
});

afterAll(async () => {
  await t?.close();
  await rm(storageDir, { recursive: true, force: true });
});

const post = (url: string, payload: unknown, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'POST', url, payload, token: role ? tokens[role] : undefined });
const get = (url: string, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'GET', url, token: role ? tokens[role] : undefined });

async function sheetRows(payload: unknown): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(payload as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

const percent = (share: number | null) => (share === null ? null : Math.round(share * 100));

describe('GET /api/analytics/top-attributes/xlsx/{jobId}', () => {
  async function finishedJob(role: DemoRole = 'researcher') {
    const queued = await post(
      '/api/analytics/top-attributes',
      { q: {}, data: { order: 'best', count: 6, attribute_type: 'all', aggregation: 'top_2_box' } },
      role,
    );
    expect(queued.statusCode, queued.body).toBe(200);
    const { jobid } = queued.json<{ jobid: string }>();
    const status = (await get(`/api/analytics/top-attributes/${jobid}`, role)).json<TopAttributesStatus>();
    expect(status.status, status.error ?? '').toBe('SUCCESS');
    return { jobid, attributes: status.result!.json.attributes };
  }

  it('refuses anonymous callers, users without analytics access, bad ids and other users’ jobs', async () => {
    const { jobid } = await finishedJob();
    expect((await get(`/api/analytics/top-attributes/xlsx/${jobid}`, null)).statusCode).toBe(401);
    expect((await get(`/api/analytics/top-attributes/xlsx/${jobid}`, 'client')).statusCode).toBe(403);
    const bad = await get('/api/analytics/top-attributes/xlsx/not-a-job');
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toContain('Not a job id');
    expect((await get(`/api/analytics/top-attributes/xlsx/${jobid}`, 'admin')).statusCode).toBe(404);
  });

  it('holds the boxes as rounded percentages and the means with 2 decimals, as the tab shows them', async () => {
    const { jobid, attributes } = await finishedJob();
    expect(attributes.length).toBeGreaterThan(0);
    const response = await get(`/api/analytics/top-attributes/xlsx/${jobid}`);
    expect(response.statusCode).toBe(200);
    const rows = await sheetRows(response.rawPayload);
    expect(rows[0]).toEqual(['Attributes', 'Top 2 Box', 'Bottom 2 Box', 'Mean', 'Top Box', 'Bot. Box', 'n']);
    expect(rows.slice(1)).toEqual(
      attributes.map((row) => [
        row.attribute,
        percent(row.top_2_box),
        percent(row.bottom_2_box),
        Math.round(row.mean! * 100) / 100,
        percent(row.top_box),
        percent(row.bottom_box),
        row.n,
      ]),
    );
    // Shares of the job are in [0, 1]; the sheet shows percentages.
    expect(rows.slice(1).some((row) => Number(row[1]) > 1)).toBe(true);
  });
});

describe('POST /api/analytics/tendencies/xlsx', () => {
  const body = (groupby: string, extra: Record<string, unknown> = {}) => ({
    q: {},
    data: { return: 'count', groupby: `perfume_characteristics.${groupby}`, ...extra },
  });

  it('refuses anonymous callers, users who may not download and unknown fields', async () => {
    expect((await post('/api/analytics/tendencies/xlsx', body('family'), null)).statusCode).toBe(401);
    expect((await post('/api/analytics/tendencies/xlsx', body('family'), 'client')).statusCode).toBe(403);
    const bad = await post('/api/analytics/tendencies/xlsx', body('colour'));
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toContain('groupby must be perfume_characteristics.<family');
  });

  it('heads the table with the counted field and rounds the percentages to one decimal', async () => {
    for (const [field, heading] of [
      ['family', 'Family'],
      ['perfumer_name', 'Perfumer Name'],
      ['dominant_note', 'Dominant Note'],
    ] as const) {
      const found = (await post('/api/analytics/tendencies', body(field))).json<TendenciesResponse>();
      const response = await post('/api/analytics/tendencies/xlsx', body(field));
      expect(response.statusCode).toBe(200);
      const rows = await sheetRows(response.rawPayload);
      expect(rows[0]).toEqual([heading, 'Number of fragrances', 'Percentage of fragrances']);
      expect(rows.slice(1)).toEqual(
        found.table_data.map((row) => [row.name, row.count, Math.round(row.percentage * 10) / 10]),
      );
    }
  });

  it('counts only the sales user’s clients’ fragrances', async () => {
    const [expected] = (
      await t.database.sql.executeSql(
        `select count(*)::int as n from fragrances f join studies s on s.id = f.study_id
          where s.verified and s.client = any($1::text[])`,
        [DEMO_USERS.find((user) => user.roleId === 4)!.clients],
      )
    ).rows as { n: number }[];
    const [all] = (
      await t.database.sql.executeSql(
        `select count(*)::int as n from fragrances f join studies s on s.id = f.study_id where s.verified`,
      )
    ).rows as { n: number }[];
    expect(expected!.n).toBeLessThan(all!.n);
    const response = await post('/api/analytics/tendencies/xlsx', body('family'), 'sales');
    expect(response.statusCode).toBe(200);
    const rows = await sheetRows(response.rawPayload);
    const counted = rows.slice(1).reduce((sum, row) => sum + Number(row[1]), 0);
    expect(counted).toBe(expected!.n);
  });
});
