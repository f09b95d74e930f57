import type { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  reportBytes,
  reportStream,
  type ReportHeader,
  type ReportRow,
  type ReportTable,
} from '../lib/report-workbook.ts';
import { closeUploadWorkers, reportJsonStreamOffThread, reportStreamOffThread } from './pool.ts';
import { openWorkbook, readLooks as asRead, readReport } from '../testing/report-table.ts';

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

/** Two columns of texts, and 30,000 rows of them as JSON: a report long enough to hold its thread. */
const NAMES = {
  columns: [
    { header: 'CMI #', kind: 'text' as const, width: 14 },
    { header: 'Fragrance Name', kind: 'text' as const, width: 24 },
  ],
};
const LONG_ROWS = JSON.stringify(
  Array.from({ length: 30_000 }, (_, index) => [`CMI-${index}`, `Fragrance ${index} of a long list`]),
);

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('reportStreamOffThread', () => {
  it('streams from a worker thread a workbook that reads as the in-memory one, rows given as a generator', async () => {
    const offThread = await bytesOf(reportStreamOffThread('Metrics', header, table(), true));
    const inMemory = await reportBytes('Metrics', header, table());
    expect(offThread.subarray(0, 2).toString()).toBe('PK');
    const read = await asRead(offThread);
    expect(read.sheets[0]!.cells.length).toBeGreaterThan(500);
    const expected = await asRead(inMemory);
    // exceljs drops the widths of a run of equal widths after its first column; the thread's writer
    // keeps each fitted width.
    expect(read.sheets[0]!.widths).toEqual([48, 18, 18, 14, 9, 9, 9]);
    expect(expected.sheets[0]!.widths).toEqual([48, 18, 18, 14, undefined, undefined, undefined]);
    const withoutWidths = (workbook: typeof read) => ({
      ...workbook,
      sheets: workbook.sheets.map((sheet) => ({ ...sheet, widths: null })),
    });
    expect(withoutWidths(read)).toEqual(withoutWidths(expected));
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

describe('reportJsonStreamOffThread', () => {
  it('reads the rows from a JSON text and stays a few pieces ahead of a reader that waits', async () => {
    const rows = Array.from({ length: 30_000 }, (_, index) => [
      `CMI-${index}`,
      `Fragrance ${index} ${'with a longer name '.repeat(index % 4)}`,
      ['Europe', 'North Asia'].slice(0, index % 3),
      index % 7 === 0 ? null : index / 3,
    ]);
    const stream = reportJsonStreamOffThread(
      'Fragrances',
      header,
      {
        columns: [
          { header: 'CMI #', kind: 'text', width: 14 },
          { header: 'Fragrance Name', kind: 'text', width: 24 },
          { header: 'Region', kind: 'text', width: 18 },
          { header: 'Level (%)', kind: 'text', width: 10 },
        ],
        keyColumns: 2,
      },
      JSON.stringify(rows),
    );
    // Nobody reads: what waits here stops growing at a few pieces, however long the file.
    const held = () => (stream as PassThrough).readableLength + (stream as PassThrough).writableLength;
    let waiting = -1;
    for (let turn = 0; turn < 100; turn += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (held() > 0 && held() === waiting) break;
      waiting = held();
    }
    expect(waiting).toBeGreaterThan(0);
    expect(waiting).toBeLessThan(300_000);
    const bytes = await bytesOf(stream);
    expect(bytes.length).toBeGreaterThan(3 * waiting);
    const report = readReport(await openWorkbook(bytes), 'Fragrances');
    expect(report.rows).toHaveLength(30_000);
    expect(report.rows[5]).toEqual([
      'CMI-5',
      `Fragrance 5 ${'with a longer name '}`,
      'Europe, North Asia',
      5 / 3,
    ]);
    expect(report.rows[7]).toEqual([
      'CMI-7',
      `Fragrance 7 ${'with a longer name '.repeat(3)}`,
      'Europe',
      undefined,
    ]);
  }, 120_000);

  it('frees its thread when the download breaks off, so later reports are written', async () => {
    // More broken downloads than threads: each takes its first piece and goes.
    for (let index = 0; index < 3; index += 1) {
      const broken = reportJsonStreamOffThread('Fragrances', header, NAMES, LONG_ROWS);
      await new Promise<void>((resolve) => broken.once('data', () => resolve()));
      broken.destroy();
    }
    const report = readReport(
      await openWorkbook(await bytesOf(reportJsonStreamOffThread('Fragrances', header, NAMES, LONG_ROWS))),
      'Fragrances',
    );
    expect(report.rows).toHaveLength(30_000);
  }, 120_000);
});

describe('the worker threads', () => {
  it('write the reports queued behind busy threads in the order they were asked for', async () => {
    // Both threads busy: each writes a long report that nobody reads yet, a few pieces ahead of it.
    const held = [0, 1].map(() => reportJsonStreamOffThread('Held', header, NAMES, LONG_ROWS));
    await Promise.all(held.map((stream) => new Promise((resolve) => stream.once('readable', resolve))));
    const finished: number[] = [];
    const queued = [0, 1, 2, 3].map((index) =>
      bytesOf(
        reportJsonStreamOffThread(
          `Queued ${index}`,
          header,
          NAMES,
          JSON.stringify([[`CMI-${index}`, 'One']]),
        ),
      ).then(() => finished.push(index)),
    );
    // One thread is freed and serves the queue; the other stays busy until the queue is done.
    const first = bytesOf(held[0]!);
    await Promise.all(queued);
    expect(finished).toEqual([0, 1, 2, 3]);
    await first;
    await bytesOf(held[1]!);
  }, 120_000);
});
