import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  reportBytes,
  reportStream,
  type ReportHeader,
  type ReportRow,
  type ReportTable,
} from '../lib/report-workbook.ts';
import { closeUploadWorkers, reportStreamOffThread } from './pool.ts';

afterAll(async () => {
  await closeUploadWorkers();
});

const header: ReportHeader = {
  title: 'Advanced analytics: metrics',
  source: [{ label: 'Search', value: 'every fragrance' }],
  author: 'researcher@accord.test',
  date: new Date('2026-01-02T03:04:05Z'),
  harmonised: true,
  notes: ['Significance: Selection vs Average'],
};

/** Rows with every look a cell can take: text, shares, means, p-values, low bases, marks, groups. */
function* rows(): Generator<ReportRow> {
  for (let index = 0; index < 500; index++)
    yield {
      cells: [
        `Fragrance ${index} with a name long enough to wrap in its column of text`,
        { value: (index % 100) / 100, lowBase: index % 50 === 0 },
        index % 3 === 0
          ? null
          : {
              value: index % 2 === 0 ? '▲ 99%' : '▼ 90%',
              tone: index % 2 === 0 ? ('good' as const) : ('bad' as const),
            },
        { value: index / 7, lowBase: index % 50 === 0 },
        index % 3 === 0 ? null : index,
        index % 5 === 0 ? 0 : 1 / (index + 1),
        index % 9 === 0 ? 'N/A' : index * 1.5,
      ],
      emphasis: index % 100 === 0,
      groupStart: index % 20 === 0,
    };
}
const table = (): ReportTable => ({
  columns: [
    { header: 'name', kind: 'text' },
    { header: 'liking.top_2_box', kind: 'share' },
    { header: 'Significance (T2B Overall Liking)', kind: 'letters' },
    { header: 'liking.mean', kind: 'mean' },
    { header: 'n', kind: 'count' },
    { header: 'p', kind: 'p' },
    { header: 'Score', kind: 'decimal' },
  ],
  rows: rows(),
  keyColumns: 1,
  footnotes: ['A note under the table.'],
  more: [
    {
      title: 'Strength',
      columns: [
        { header: 'name', kind: 'text' },
        { header: 'Too weak', kind: 'share1' },
      ],
      rows: [['A strength row named at some length, wider than the fragrances', 0.125]],
    },
  ],
});

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What a reader sees of a workbook: sheets, cells with their formats and fonts, widths, views, print set-up. */
async function asRead(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return {
    creator: workbook.creator,
    title: workbook.title,
    sheets: workbook.worksheets.map((sheet) => {
      const cells: unknown[] = [];
      sheet.eachRow({ includeEmpty: true }, (row, number) => {
        const written: unknown[] = [];
        row.eachCell({ includeEmpty: true }, (cell, column) => {
          written.push({
            column,
            value: cell.value,
            numFmt: cell.numFmt,
            font: cell.font ?? null,
            alignment: cell.alignment ?? null,
            border: cell.border ?? null,
            fill: cell.fill ?? null,
            merged: cell.isMerged ? cell.master.address : null,
          });
        });
        cells.push({ number, height: row.height, cells: written });
      });
      return {
        name: sheet.name,
        widths: sheet.columns.map((column) => column.width),
        views: sheet.views,
        autoFilter: sheet.autoFilter,
        pageSetup: {
          orientation: sheet.pageSetup.orientation,
          fitToPage: sheet.pageSetup.fitToPage,
          fitToWidth: sheet.pageSetup.fitToWidth,
          scale: sheet.pageSetup.scale,
          printTitlesRow: sheet.pageSetup.printTitlesRow,
          printTitlesColumn: sheet.pageSetup.printTitlesColumn,
        },
        footer: sheet.headerFooter.oddFooter,
        cells,
      };
    }),
  };
}

describe('reportStreamOffThread', () => {
  it('streams from a worker thread a workbook that reads as the in-memory one, rows given as a generator', async () => {
    const offThread = await bytesOf(reportStreamOffThread('Metrics', header, table(), true));
    const inMemory = await reportBytes('Metrics', header, table());
    expect(offThread.subarray(0, 2).toString()).toBe('PK');
    const read = await asRead(offThread);
    expect(read.sheets[0]!.cells.length).toBeGreaterThan(500);
    expect(read).toEqual(await asRead(inMemory));
    // A worker thread loads the server's modules at its start: seconds on a busy machine.
  }, 60_000);

  it('keeps the widths of the headings when not fitted to the values, as the search exports have them', async () => {
    const offThread = await asRead(
      await bytesOf(reportStreamOffThread('Fragrances', header, table(), false)),
    );
    const here = await asRead(await bytesOf(reportStream('Fragrances', header, table())));
    expect(offThread).toEqual(here);
    expect(offThread.sheets[0]!.widths).not.toEqual(
      (await asRead(await reportBytes('F', header, table()))).sheets[0]!.widths,
    );
  }, 60_000);
});
