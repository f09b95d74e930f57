// The house style read back with exceljs: the header block, the frozen and filtered headings, typed
// numbers, low-base marks, footnotes and the print set-up, the same in memory and streamed.
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openWorkbook, readReport } from '../testing/report-table.ts';
import {
  HARMONISATION_NOTE,
  LOW_BASE_NOTE,
  PRINT_WIDTH,
  SPLIT_SCALE,
  printLayout,
  humanHeading,
  numberFormat,
  reportBytes,
  reportStream,
  uniqueHeadings,
  wrappedLines,
  type ReportHeader,
  type ReportTable,
} from './report-workbook.ts';

const header: ReportHeader = {
  title: 'Metric search: 2 fragrances',
  source: [{ label: 'Search', value: 'Category: Fabric Care' }],
  author: 'researcher@accord.test',
  date: new Date('2026-11-25T09:40:00Z'),
  harmonised: true,
};

const table = (): ReportTable => ({
  columns: [
    { header: 'metric_name', kind: 'text' },
    { header: 'Mean', kind: 'mean' },
    { header: 'T2B', kind: 'share' },
    { header: 'n', kind: 'count' },
    { header: 'n', kind: 'count' },
    { header: 'p-value', kind: 'p' },
  ],
  rows: [
    ['Overall liking', 3.456, 0.4, 120, 120, 0.00001234],
    [
      'Freshness',
      { value: 3.1, lowBase: true },
      { value: 0.25, lowBase: true },
      { value: 12, lowBase: true },
      12,
      0.0321,
    ],
  ],
  footnotes: ['A footnote.'],
});

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('headings', () => {
  it('turns field keys into words and keeps every heading unique', () => {
    expect(humanHeading('top_2_box')).toBe('Top 2 box');
    expect(humanHeading('CMI #')).toBe('CMI #');
    expect(uniqueHeadings(['n', 'Mean', 'n', 'n'])).toEqual(['n', 'Mean', 'n (2)', 'n (3)']);
  });

  it('formats p-values in scientific notation only when small, and marks low bases', () => {
    expect(numberFormat('p', 0.00001)).toBe('0.00E+00');
    expect(numberFormat('p', 0.03)).toBe('0.0000');
    expect(numberFormat('p', 0)).toBe('0.00E+00');
    expect(numberFormat('share', 0.4, true)).toBe('0%" *"');
    expect(numberFormat('count', 12, true)).toBe('#,##0" (low base)"');
  });
});

describe.each([
  ['in memory', () => reportBytes('Metrics', header, table())],
  ['streamed', () => collect(reportStream('Metrics', header, table()))],
])('a report workbook written %s', (_name, write) => {
  it('carries the header block, then the table under frozen, filtered, human headings', async () => {
    const report = readReport(await openWorkbook(await write()));
    expect(report.lines).toEqual([
      'Metric search: 2 fragrances',
      'Search: Category: Fabric Care',
      'Prepared by: researcher@accord.test',
      'Date: 25 November 2026 at 09:40 UTC',
      HARMONISATION_NOTE,
    ]);
    expect(report.headingRow).toBe(7);
    expect(report.headings).toEqual(['Metric name', 'Mean', 'T2B', 'n', 'n (2)', 'p-value']);
    expect(report.sheet.autoFilter).toBe('A7:F7');
    expect(report.sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 7 });
    expect(report.rows[0]).toEqual(['Overall liking', 3.456, 0.4, 120, 120, 0.00001234]);
    expect(report.footnotes).toEqual(['A footnote.', LOW_BASE_NOTE]);
    // Widths fit the headings at least.
    expect(report.sheet.getColumn(6).width).toBeGreaterThanOrEqual('p-value'.length);
  });

  it('types the numbers and marks the low bases', async () => {
    const report = readReport(await openWorkbook(await write()));
    const [first, second] = report.tableRows;
    expect([2, 3, 4, 6].map((column) => first!.getCell(column).numFmt)).toEqual([
      '0.00',
      '0%',
      '#,##0',
      '0.00E+00',
    ]);
    expect(second!.getCell(6).numFmt).toBe('0.0000');
    expect(second!.getCell(2).numFmt).toBe('0.00" *"');
    expect(second!.getCell(3).numFmt).toBe('0%" *"');
    expect(second!.getCell(4).numFmt).toBe('#,##0" (low base)"');
    expect(second!.getCell(5).numFmt).toBe('#,##0');
  });

  it('prints landscape, one page wide, repeating the headings', async () => {
    const report = readReport(await openWorkbook(await write()));
    expect(report.sheet.pageSetup).toMatchObject({
      orientation: 'landscape',
      fitToPage: true,
      fitToWidth: 1,
      fitToHeight: 0,
      printTitlesRow: '7:7',
    });
  });

  it('prints a table too wide for one readable page over pages by column groups, its key columns repeated', async () => {
    const wide: ReportTable = {
      columns: [
        { header: 'CMI #', kind: 'text', width: 14 },
        { header: 'Fragrance', kind: 'text', width: 28 },
        ...Array.from({ length: 18 }, (_, index) => ({
          header: `Dominant note ${index + 1}`,
          kind: 'text' as const,
          width: 16,
        })),
      ],
      rows: [['CMI-2026-00187', 'Amber Bloom', ...Array.from({ length: 18 }, () => 'Musk')]],
      keyColumns: 2,
    };
    const bytes =
      _name === 'streamed'
        ? await collect(reportStream('Wide', header, wide))
        : await reportBytes('Wide', header, wide);
    const report = readReport(await openWorkbook(bytes));
    expect(report.sheet.pageSetup).toMatchObject({
      orientation: 'landscape',
      fitToPage: false,
      scale: SPLIT_SCALE,
      printTitlesRow: '7:7',
      printTitlesColumn: 'A:B',
    });
    expect(report.sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 7, xSplit: 2 });
    expect(report.lines[0]).toBe('Metric search: 2 fragrances');
  });
});

describe('printLayout', () => {
  it('fits a table of readable width to one page wide', () => {
    expect(printLayout([20, 40, 30, 10], 2)).toEqual({ split: false, titleColumns: 0, headerSpan: 4 });
  });

  it('splits a wider one, repeating the key columns, and writes the header within them so every page reads it whole', () => {
    const widths = [14, 24, ...Array.from({ length: 20 }, () => 16)];
    expect(printLayout(widths, 2)).toEqual({ split: true, titleColumns: 2, headerSpan: 2 });
  });

  it('spans the header over the first page of a split table without key columns', () => {
    const widths = [24, ...Array.from({ length: 20 }, () => 16)];
    const layout = printLayout(widths, 0);
    expect(layout).toMatchObject({ split: true, titleColumns: 0 });
    const spanned = widths.slice(0, layout.headerSpan).reduce((sum, width) => sum + width, 0);
    expect(spanned).toBeLessThanOrEqual(PRINT_WIDTH);
    expect(spanned + widths[layout.headerSpan]!).toBeGreaterThan(PRINT_WIDTH);
  });

  it('repeats no key column so wide it would leave no room for the others', () => {
    expect(printLayout([120, 60, 60], 2).titleColumns).toBe(0);
  });
});

describe('wrappedLines', () => {
  it('counts the lines of a heading wrapped between words', () => {
    expect(wrappedLines('Base n', 12)).toBe(1);
    expect(wrappedLines('Base n (T2B Overall Liking)', 12)).toBe(3);
    expect(wrappedLines('Significance (T2B Overall Liking)', 12)).toBe(3);
    expect(wrappedLines('Supercalifragilistic', 8)).toBe(3);
  });
});

describe('text that does not fit its column', () => {
  it('wraps within its column on a row tall enough for its lines, in the workbook’s face', async () => {
    const long = 'Q20: How likely are you to recommend a product with this fragrance to a friend?';
    const bytes = await reportBytes('Sheet', header, {
      columns: [
        { header: 'Question', kind: 'text', width: 30 },
        { header: 'Base n (T2B Overall Liking)', kind: 'count' },
      ],
      rows: [
        ['Short', 120],
        [long, 120],
      ],
    });
    const report = readReport(await openWorkbook(bytes));
    const [short, wrapped] = report.tableRows;
    expect(wrapped!.getCell(1).alignment).toMatchObject({ wrapText: true });
    expect(wrapped!.height).toBe(15 * wrappedLines(long, Math.floor(report.sheet.getColumn(1).width! * 1.2)));
    expect(wrapped!.height).toBeGreaterThanOrEqual(30);
    expect(short!.height).toBeUndefined();
    // Over numbers a long heading wraps rather than widening the column.
    expect(report.sheet.getColumn(2).width).toBeLessThanOrEqual(18);
    expect(report.sheet.getRow(report.headingRow).getCell(2).font).toMatchObject({
      name: 'Calibri',
      bold: true,
    });
  });
});
