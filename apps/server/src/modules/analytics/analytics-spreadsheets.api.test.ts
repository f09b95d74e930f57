// The top attributes and tendencies downloads through the running app: the spreadsheets hold what the
// API answers, typed (shares under a % format, means under 2 decimals, the tendencies headed by the
// counted field), and the calls keep their roles, validation and client scoping.
import { CATA_FOOTNOTE } from './analytics-exports.ts';
import type { TendenciesResponse, TopAttributesStatus } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../seed/users.ts';
import { openWorkbook, readReport } from '../../testing/report-table.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-analytics-xlsx-',
    { studies: 6, seed: 5, respondents: 40, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

const post = (url: string, payload: unknown, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'POST', url, payload, token: role ? tokens[role] : undefined });
const get = (url: string, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'GET', url, token: role ? tokens[role] : undefined });

/** The table of the first sheet, headings first (empty cells undefined). */
async function sheetRows(payload: unknown): Promise<unknown[][]> {
  const report = readReport(await openWorkbook(payload));
  return [report.headings, ...report.rows];
}

const cell = (value: number | null) => value ?? undefined;

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
    return { jobid, attributes: status.result!.json.attributes, status };
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

  it('holds the API’s shares under a % format and means under 2 decimals, CATA attributes marked *', async () => {
    const { jobid, attributes, status } = await finishedJob();
    expect(attributes.length).toBeGreaterThan(0);
    const response = await get(`/api/analytics/top-attributes/xlsx/${jobid}`);
    expect(response.statusCode).toBe(200);
    const report = readReport(await openWorkbook(response.rawPayload));
    expect(report.lines[0]).toBe(`Top attributes: ${attributes.length} attributes`);
    expect(report.lines.slice(1, 5)).toEqual([
      'Filters: No filters',
      'Ranking: Best 6 by Top 2 Box, all attributes',
      `Pooled over: ${status.result!.json.fragrances} fragrances`,
      'Prepared by: researcher@accord.test',
    ]);
    // A list with a yes/no attribute gets its "% selected" column (METRICS.md 3: shares, no mean or boxes).
    const cata = attributes.some((row) => row.is_binary_scale);
    expect(report.headings).toEqual([
      'Attribute',
      ...(cata ? ['% selected'] : []),
      'Top 2 Box',
      'Bottom 2 Box',
      'Mean',
      'Top Box',
      'Bottom Box',
      'Base n',
    ]);
    expect(report.rows).toEqual(
      attributes.map((row) => [
        row.is_binary_scale ? `${row.attribute}*` : row.attribute,
        ...(cata ? [cell(row.selected ?? null)] : []),
        cell(row.top_2_box),
        cell(row.bottom_2_box),
        cell(row.mean),
        cell(row.top_box),
        cell(row.bottom_box),
        row.n,
      ]),
    );
    attributes.forEach((row, index) => {
      const low = row.n < 30;
      const cells = report.tableRows[index]!;
      const shift = cata ? 1 : 0;
      // A yes/no row's share is its "% selected" cell; a scale row's first share is its top 2 box.
      expect(cells.getCell(row.is_binary_scale ? 2 : 2 + shift).numFmt).toBe(low ? '0%" *"' : '0%');
      if (row.mean !== null) expect(cells.getCell(4 + shift).numFmt).toBe(low ? '0.00" *"' : '0.00');
      expect(cells.getCell(7 + shift).numFmt).toBe(low ? '#,##0" (low base)"' : '#,##0');
    });
    if (attributes.some((row) => row.is_binary_scale)) expect(report.footnotes).toContain(CATA_FOOTNOTE);
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

  it('heads the table with the counted field, the shares under a one-decimal % format', async () => {
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
        found.table_data.map((row) => [row.name, row.count, row.percentage / 100]),
      );
      const report = readReport(await openWorkbook(response.rawPayload));
      expect(report.tableRows[0]!.getCell(3).numFmt).toBe('0.0%');
      expect(report.lines[1]).toBe('Filters: No filters');
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
