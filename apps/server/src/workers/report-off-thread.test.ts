import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { reportBytes, type ReportHeader, type ReportTable } from '../lib/report-workbook.ts';
import { closeUploadWorkers, reportBytesOffThread } from './pool.ts';

afterAll(async () => {
  await closeUploadWorkers();
});

const header: ReportHeader = {
  title: 'Advanced analytics: metrics',
  source: [{ label: 'Search', value: 'every fragrance' }],
  author: 'researcher@accord.test',
  date: new Date('2026-01-02T03:04:05Z'),
  harmonised: true,
};

function* rows() {
  for (let index = 0; index < 500; index++)
    yield [
      `Fragrance ${index}`,
      { value: index / 7, lowBase: index % 50 === 0 },
      index % 3 === 0 ? null : index,
    ];
}
const table = (): ReportTable => ({
  columns: [
    { header: 'name', kind: 'text' },
    { header: 'liking.mean', kind: 'mean' },
    { header: 'n', kind: 'count' },
  ],
  rows: rows(),
  footnotes: ['A note under the table.'],
});

async function cells(bytes: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const found: unknown[][] = [];
  sheet.eachRow((row) => found.push([...(row.values as unknown[])]));
  return found;
}

describe('reportBytesOffThread', () => {
  it('writes in a worker thread the same workbook as on the request loop, rows given as a generator', async () => {
    const offThread = await reportBytesOffThread('Metrics', header, table());
    const here = await reportBytes('Metrics', header, table());
    expect(offThread.subarray(0, 2).toString()).toBe('PK');
    const read = await cells(offThread);
    expect(read.length).toBeGreaterThan(500);
    expect(read).toEqual(await cells(here));
    // A worker thread loads the server's modules at its start: seconds on a busy machine.
  }, 60_000);
});
