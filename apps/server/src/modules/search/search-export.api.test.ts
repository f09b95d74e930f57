import { openWorkbook, readReport } from '../../testing/report-table.ts';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';
import { BRIGHTWELL, HALDEN, NORTHWIND, seedSearchFixtures } from './search-fixtures.ts';
import { CONCEPT_COLUMNS, FRAGRANCE_COLUMNS, STUDY_COLUMNS, cellValue } from './search.presenter.ts';

let t: TestApp;
const tokens = {} as Record<DemoRole, string>;

beforeAll(async () => {
  t = await createTestApp({ seed: async (database) => void (await seedSearchFixtures(database)) });
  for (const role of ['admin', 'researcher', 'client', 'sales'] as const) tokens[role] = await t.login(role);
});
afterAll(async () => {
  await t.close();
});

const download = (role: DemoRole | null, kind: 'study_summarises' | 'fragrances', payload: unknown) =>
  t.request({
    method: 'POST',
    url: `/api/smartsearch/download_${kind}`,
    payload,
    ...(role ? { token: tokens[role] } : {}),
  });

/** The first sheet's table as rows of cell values (headings first), under its header block. */
async function readSheet(response: LightMyRequestResponse) {
  const report = readReport(await openWorkbook(response.rawPayload));
  const rows: unknown[][] = [report.headings, ...report.rows];
  return { ...report, rows };
}

describe('POST /api/smartsearch/download_study_summarises', () => {
  it('answers an xlsx file with a frozen, filtered header row and one row per study', async () => {
    const response = await download('researcher', 'study_summarises', {
      q: { essentials: { category: ['Fabric Care'] } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toBe('attachment; filename="search-studies-result.xlsx"');
    const { sheet, rows, lines, headingRow } = await readSheet(response);
    expect(lines[0]).toBe('Study search: 3 studies');
    expect(lines[1]).toBe('Search: Category: Fabric Care');
    expect(lines[2]).toBe('Prepared by: researcher@accord.test');
    // The columns that name a study come first (a wide print repeats them); no internal id.
    expect(rows[0]).toEqual([
      'CMI #',
      'Project Name',
      'Category',
      'Product',
      'Client',
      'CX/Pace #',
      'Methodology',
      'Design Method',
      'Country',
      'Region',
      'Lead Country',
      'Business Unit',
      'Research Type',
      'CMI Tool Type',
      'Evaluation',
    ]);
    expect(rows.slice(1).map((row) => row[0])).toEqual(['XYZ-2021-006', 'CMI-2018-002', 'CMI-2015-001']);
    const s2 = rows[2]!;
    expect(s2.slice(0, 6)).toEqual([
      'CMI-2018-002',
      'Calmwave Conditioner Screening',
      'Fabric Care',
      'Fabric Conditioner',
      NORTHWIND,
      'PX-200',
    ]);
    expect(s2[8]).toBe('China, France');
    expect(s2[9]).toBe('North Asia, Europe');
    expect(sheet.getRow(headingRow).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: headingRow });
    expect(sheet.autoFilter).toBe(`A${headingRow}:O${headingRow}`);
    expect(sheet.getColumn(2).width).toBe(32);
    // 15 columns are too wide for one readable page: landscape over pages by column groups, the
    // CMI # and project name repeated on each, the headings on every page.
    expect(sheet.pageSetup).toMatchObject({
      orientation: 'landscape',
      fitToPage: false,
      scale: 70,
      printTitlesRow: `${headingRow}:${headingRow}`,
      printTitlesColumn: 'A:B',
    });
  });

  it('exports only the chosen columns, in their order', async () => {
    const response = await download('admin', 'study_summarises', {
      q: { essentials: { cmiNumber: 'CMI-2015' } },
      columns: ['c_mi_number', 'client', 'region'],
    });
    const { rows } = await readSheet(response);
    expect(rows).toEqual([
      ['CMI #', 'Client', 'Region'],
      ['CMI-2015-001', NORTHWIND, 'South Asia'],
    ]);
  });

  it('exports a sales user only the studies of their clients', async () => {
    const { rows } = await readSheet(
      await download('sales', 'study_summarises', {
        q: { essentials: { client: [NORTHWIND, HALDEN, BRIGHTWELL] } },
      }),
    );
    expect(
      rows
        .slice(1)
        .map((row) => row[4])
        .sort(),
    ).toEqual([BRIGHTWELL, NORTHWIND, NORTHWIND]);
  });

  it('answers 401, 403 for a client user (no download) and 400 for bad filters or columns', async () => {
    expect((await download(null, 'study_summarises', { q: {} })).statusCode).toBe(401);
    expect((await download('client', 'study_summarises', { q: {} })).statusCode).toBe(403);
    expect(
      (await download('researcher', 'study_summarises', { q: { conceptDetails: { theme: ['Care'] } } }))
        .statusCode,
    ).toBe(403);
    const bad = await download('admin', 'study_summarises', { q: { essentials: { region: 'Europe' } } });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toBe('Region must be a list.');
    const column = await download('admin', 'study_summarises', { q: {}, columns: ['salary'] });
    expect(column.statusCode).toBe(400);
    expect(errorBody(column).message).toBe('Unknown column "salary".');
  });
});

describe('POST /api/smartsearch/download_fragrances', () => {
  it('answers the fragrance rows as search-fragrances-result.xlsx', async () => {
    const response = await download('sales', 'fragrances', {
      q: { fragranceDetails: { family: ['Floral'] } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="search-fragrances-result.xlsx"',
    );
    const { rows } = await readSheet(response);
    expect(rows[0]).toHaveLength(23);
    expect(rows[0]!.slice(0, 9)).toEqual([
      'CMI #',
      'Fragrance Name',
      'Category',
      'Product',
      'Client',
      'Project Name',
      'Developer #',
      '6 Digit Code (SAP)',
      'Fragrance Code',
    ]);
    expect(rows.slice(1).map((row) => row[1])).toEqual(['Rose Mist', 'Rose Dawn', 'Rose Garden']);
    const roseDawn = rows[2]!;
    expect(roseDawn.slice(6, 9)).toEqual(['DEV-1', '123456', '101']);
    expect(roseDawn[16]).toBe(0.8);
  });

  it('exports the concepts tab under the same file name with type concept', async () => {
    const response = await download('admin', 'fragrances', {
      q: { conceptDetails: { theme: ['Care'] } },
      type: 'concept',
    });
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="search-fragrances-result.xlsx"',
    );
    const { rows, sheet, lines } = await readSheet(response);
    expect(sheet.name).toBe('Concepts');
    expect(lines.slice(0, 2)).toEqual(['Study search: 2 concepts', 'Search: Concept theme: Care']);
    expect(rows[0]).toEqual([
      'Concept Name',
      'Concept Code',
      'Region',
      'Country',
      'CMI #',
      'Project Name',
      'Client',
    ]);
    expect(rows.slice(1).map((row) => row[0])).toEqual(['Calm Evening', 'Calm Morning']);
  });

  it('exports a value holding the characters that separate the rows the database writes', async () => {
    // The rows come as one text whose rows and values these characters separate; such a value
    // cannot be read from it, so the rows are read again as JSON (XML holds no such character).
    await t.database.db.execute(
      sql`update fragrances set name = ${'Rose\u001fDawn\u001e'}, supplemental_info = ${'\u001d'} where name = 'Rose Dawn'`,
    );
    try {
      const { rows } = await readSheet(
        await download('sales', 'fragrances', { q: { fragranceDetails: { family: ['Floral'] } } }),
      );
      expect(rows.slice(1).map((row) => row[1])).toEqual(['Rose Mist', 'RoseDawn', 'Rose Garden']);
      expect(rows[2]!.slice(6, 9)).toEqual(['DEV-1', '123456', '101']);
      expect(rows[2]![16]).toBe(0.8);
    } finally {
      await t.database.db.execute(
        sql`update fragrances set name = 'Rose Dawn', supplemental_info = null where name = ${'Rose\u001fDawn\u001e'}`,
      );
    }
  });

  it('answers 401, 403 and 400', async () => {
    expect((await download(null, 'fragrances', { q: {} })).statusCode).toBe(401);
    expect((await download('client', 'fragrances', { q: {} })).statusCode).toBe(403);
    expect((await download('admin', 'fragrances', { q: {}, type: 'perfume' })).statusCode).toBe(400);
    expect((await download('admin', 'fragrances', { query: {} })).statusCode).toBe(400);
  });
});

describe('the exports and the result tabs', () => {
  const tabs = [
    { list: 'study_summarises', kind: 'study_summarises', extra: {}, columns: STUDY_COLUMNS },
    { list: 'fragrances', kind: 'fragrances', extra: {}, columns: FRAGRANCE_COLUMNS },
    { list: 'concepts', kind: 'fragrances', extra: { type: 'concept' }, columns: CONCEPT_COLUMNS },
  ] as const;

  it('export every row of a tab, cell for cell as the tab shows it, within the caller’s clients', async () => {
    for (const role of ['admin', 'sales'] as const)
      for (const tab of tabs) {
        const listed = await t.request({
          method: 'POST',
          url: `/api/smartsearch/${tab.list}?per_page=100`,
          payload: { query: {} },
          token: tokens[role],
        });
        expect(listed.statusCode).toBe(200);
        const shown = listed.json<Record<string, unknown>[]>();
        expect(Number(listed.headers.total)).toBe(shown.length);
        const { rows } = readReport(
          await openWorkbook((await download(role, tab.kind, { q: {}, ...tab.extra })).rawPayload),
        );
        // Empty texts and lists read as empty cells.
        const expected = shown.map((row) =>
          tab.columns.map((column) => {
            const value = cellValue(row[column.key]);
            return value === null || value === '' ? undefined : value;
          }),
        );
        expect(rows, `${role} ${tab.list}`).toEqual(expected);
        expect(rows.length).toBeGreaterThan(0);
      }
  });
});
