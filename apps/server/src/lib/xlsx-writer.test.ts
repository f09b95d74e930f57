import { PassThrough, Writable, type Readable } from 'node:stream';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { openWorkbook, readLooks, readReport } from '../testing/report-table.ts';
import {
  reportBytes,
  reportStream,
  type ReportHeader,
  type ReportRow,
  type ReportTable,
} from './report-workbook.ts';
import { writeReportXlsx } from './xlsx-writer-report.ts';
import { xmlText } from './xlsx-writer.ts';

/** A workbook as read, its column widths left out. */
const withoutWidths = (read: Awaited<ReturnType<typeof readLooks>>) => ({
  ...read,
  sheets: read.sheets.map((sheet) => ({ ...sheet, widths: null })),
});

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function written(
  sheetName: string,
  header: ReportHeader,
  table: ReportTable,
  fitWidths = false,
): Promise<Buffer> {
  const output = new PassThrough();
  const bytes = bytesOf(output);
  return writeReportXlsx(output, sheetName, header, table, fitWidths).then(() => bytes);
}

const header: ReportHeader = {
  title: 'Study search: 3 fragrances & more',
  source: [{ label: 'Search', value: 'Category: Fabric Care; Verified studies' }],
  author: 'researcher@accord.test',
  date: new Date('2026-11-25T09:40:00Z'),
  harmonised: false,
};

const LONG = `${'A long fragrance description that goes on '.repeat(40)}and ends here.`;
const SPECIAL = 'Crème brûlée & <Rose> "No. 5" — 香水 ✓';

const fragrances = (): ReportTable => ({
  columns: [
    { header: 'CMI #', kind: 'text', width: 14 },
    { header: 'Fragrance Name', kind: 'text', width: 24 },
    { header: 'Base n', kind: 'count' },
    { header: 'Liking', kind: 'mean' },
    { header: 'Notes', kind: 'text', width: 20 },
  ],
  rows: [
    ['CMI-2026-00001', SPECIAL, 1234, 6.4567, null],
    ['CMI-2026-00002', LONG, 0, null, ' leading and trailing spaces '],
    ['CMI-2026-00003', 'Bell\u0007 character dropped', Number.NaN, -0.5, ''],
  ],
  keyColumns: 2,
});

describe('writeReportXlsx', () => {
  it('writes the header block, headings, values and looks that exceljs reads back', async () => {
    const bytes = await written('Fragrances', header, fragrances());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const workbook = await openWorkbook(bytes);
    expect(workbook.creator).toBe('researcher@accord.test');
    expect(workbook.title).toBe('Study search: 3 fragrances & more');
    const report = readReport(workbook, 'Fragrances');
    expect(report.lines).toEqual([
      'Study search: 3 fragrances & more',
      'Search: Category: Fabric Care; Verified studies',
      'Prepared by: researcher@accord.test',
      'Date: 25 November 2026 at 09:40 UTC',
    ]);
    expect(report.headingRow).toBe(6);
    expect(report.headings).toEqual(['CMI #', 'Fragrance Name', 'Base n', 'Liking', 'Notes']);
    expect(report.rows).toEqual([
      ['CMI-2026-00001', SPECIAL, 1234, 6.4567, undefined],
      ['CMI-2026-00002', LONG, 0, undefined, ' leading and trailing spaces '],
      // An empty text reads as an empty cell, as exceljs's streaming writer had it.
      ['CMI-2026-00003', 'Bell character dropped', undefined, -0.5, undefined],
    ]);
    const [first, second] = report.tableRows;
    // Counts with thousands, means with two decimals, text wrapped at the top of its cell.
    expect(first!.getCell(3).numFmt).toBe('#,##0');
    expect(first!.getCell(4).numFmt).toBe('0.00');
    expect(first!.getCell(2).alignment).toEqual({ vertical: 'top', wrapText: true });
    // The long name wraps over the lines it needs.
    expect(second!.height).toBeGreaterThan(100);
    const sheet = report.sheet;
    // The title bold and larger, the headings bold on their fill, over numbers on the right.
    expect(sheet.getCell('A1').font).toMatchObject({ bold: true, size: 14, name: 'Calibri' });
    expect(sheet.getCell('A1').isMerged).toBe(true);
    expect(sheet.getCell('A6').font).toMatchObject({ bold: true, name: 'Calibri' });
    expect(sheet.getCell('A6').fill).toMatchObject({ pattern: 'solid', fgColor: { argb: 'FFE7ECF2' } });
    expect(sheet.getCell('A6').alignment).toMatchObject({ horizontal: 'left', wrapText: true });
    expect(sheet.getCell('C6').alignment).toMatchObject({ horizontal: 'right' });
    expect(sheet.getCell('A6').border).toEqual({ bottom: { style: 'thin', color: { argb: 'FF8096AD' } } });
    expect(sheet.columns.map((column) => column.width)).toEqual([14, 24, 9, 9, 20]);
    expect(sheet.views[0]).toMatchObject({
      state: 'frozen',
      ySplit: 6,
      topLeftCell: 'A7',
      showGridLines: false,
    });
    expect(sheet.autoFilter).toBe('A6:E6');
    expect(sheet.pageSetup).toMatchObject({ orientation: 'landscape', fitToPage: true, fitToWidth: 1 });
    expect(sheet.pageSetup.printTitlesRow).toBe('6:6');
    expect(sheet.headerFooter.oddFooter).toBe('&LStudy search: 3 fragrances && more&RPage &P of &N');
  });

  it('reads cell for cell as exceljs writes the same report, with every look a report cell can take', async () => {
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
      rows: [...looks()],
      keyColumns: 1,
      footnotes: ['A note under the table.'],
      more: [
        {
          title: 'Strength',
          columns: [
            { header: 'name', kind: 'text' },
            { header: 'Too weak', kind: 'share1' },
          ],
          rows: [['A strength row', 0.125]],
        },
      ],
    });
    for (const fitWidths of [false, true]) {
      const ours = await readLooks(await written('Metrics', header, table(), fitWidths));
      const theirs = fitWidths
        ? await readLooks(await reportBytes('Metrics', header, table()))
        : await readLooks(await bytesOf(reportStream('Metrics', header, table())));
      expect(ours.sheets[0]!.cells.length).toBeGreaterThan(60);
      if (!fitWidths) expect(ours).toEqual(theirs);
      else {
        // exceljs's in-memory writer drops the widths of a run of equal widths after the first
        // column (they read as the default); ours keeps every fitted width.
        expect(ours.sheets[0]!.widths).toEqual([48, 18, 18, 14, 9, 9, 9]);
        expect(theirs.sheets[0]!.widths).toEqual([48, 18, 18, 14, undefined, undefined, undefined]);
        expect(withoutWidths(ours)).toEqual(withoutWidths(theirs));
      }
    }
  });

  it('writes a wide table over pages by column groups with its key columns repeated, as exceljs does', async () => {
    const columns = Array.from({ length: 16 }, (_, index) => ({
      header: `Column ${index + 1}`,
      kind: index < 2 ? ('text' as const) : ('count' as const),
      width: 20,
    }));
    const table = (): ReportTable => ({
      columns,
      rows: [columns.map((_, index) => (index < 2 ? `Name ${index}` : index))],
      keyColumns: 2,
    });
    const ours = await readLooks(await written('Wide', header, table()));
    expect(ours).toEqual(await readLooks(await bytesOf(reportStream('Wide', header, table()))));
    expect(ours.sheets[0]!.pageSetup).toMatchObject({
      scale: 70,
      printTitlesColumn: 'A:B',
      printTitlesRow: '6:6',
    });
    expect(ours.sheets[0]!.views[0]).toMatchObject({ xSplit: 2, ySplit: 6 });
  });

  it('writes an empty table as a valid workbook with its headings', async () => {
    const report = readReport(
      await openWorkbook(await written('Empty', header, { ...fragrances(), rows: [] })),
      'Empty',
    );
    expect(report.headings).toEqual(['CMI #', 'Fragrance Name', 'Base n', 'Liking', 'Notes']);
    expect(report.rows).toEqual([]);
  });

  it('writes many rows in pieces and waits for a slow reader', async () => {
    let delivered = 0;
    let calls = 0;
    const chunks: Buffer[] = [];
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        calls += 1;
        delivered += chunk.length;
        chunks.push(chunk);
        setImmediate(done);
      },
    });
    function* rows(): Generator<readonly (string | number)[]> {
      for (let index = 0; index < 20_000; index++)
        yield [`CMI-${index}`, `Fragrance ${index} ${SPECIAL}`, index, index / 3, 'x'];
    }
    const finished = new Promise((resolve) => slow.on('finish', resolve));
    await writeReportXlsx(slow, 'Many', header, { ...fragrances(), rows: rows() }, false);
    await finished;
    expect(calls).toBeGreaterThan(10);
    const report = readReport(await openWorkbook(Buffer.concat(chunks)), 'Many');
    expect(delivered).toBe(Buffer.concat(chunks).length);
    expect(report.rows).toHaveLength(20_000);
    expect(report.rows[19_999]).toEqual(['CMI-19999', `Fragrance 19999 ${SPECIAL}`, 19_999, 19_999 / 3, 'x']);
  }, 60_000);

  it("writes each number as JavaScript writes it, whole numbers digit by digit, a reference in a row's first cell only, and many texts of one column", async () => {
    const numbers = [
      0,
      -0,
      7,
      -12,
      10,
      99,
      100,
      123_456_789_012_345,
      -999_999_999_999_999,
      1e15,
      2 ** 53,
      1e21,
    ];
    const fractions = [0.1, -3.5, 1 / 3, 1.5e-7, 6.02e23];
    const table: ReportTable = {
      columns: [
        { header: 'Whole', kind: 'count' },
        { header: 'Fraction', kind: 'mean' },
        { header: 'Name', kind: 'text' },
      ],
      // Past the few texts a column keeps apart: the later ones are looked up in the whole table.
      rows: Array.from({ length: 1500 }, (_, index) => [
        numbers[index % numbers.length]!,
        fractions[index % fractions.length]!,
        `Name ${index % 700}`,
      ]),
    };
    const bytes = await written('Numbers', header, table);
    const zip = await JSZip.loadAsync(bytes);
    const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
    const values = [...xml.matchAll(/<c(?: r="[AB]\d+")?(?: s="\d+")?><v>([^<]*)<\/v><\/c>/g)].map(
      (match) => match[1],
    );
    expect(values.slice(0, 24)).toEqual(
      Array.from({ length: 12 }, (_, index) => [
        String(numbers[index % numbers.length]),
        String(fractions[index % fractions.length]),
      ]).flat(),
    );
    // A row's first cell names its place; the cells after it follow it without.
    expect(xml).toContain('<row r="7"><c r="A7"');
    expect(xml).not.toMatch(/<c r="[BC]\d+"/);
    const report = readReport(await openWorkbook(bytes), 'Numbers');
    expect(report.rows).toHaveLength(1500);
    report.rows.forEach((row, index) => {
      expect(row[0]).toBe(numbers[index % numbers.length] === 0 ? 0 : numbers[index % numbers.length]);
      expect(row[1]).toBe(fractions[index % fractions.length]);
      expect(row[2]).toBe(`Name ${index % 700}`);
    });
    const strings = await zip.file('xl/sharedStrings.xml')!.async('string');
    // Each text once: the header block's and the headings' texts, and 700 names.
    expect(strings.match(/<si>/g)).toHaveLength(Number(/uniqueCount="(\d+)"/.exec(strings)![1]));
    expect(strings.match(/<t>Name \d+<\/t>/g)).toHaveLength(700);
  });

  it('stops when its reader goes away', async () => {
    const output = new PassThrough();
    output.destroy();
    await expect(writeReportXlsx(output, 'Gone', header, fragrances(), false)).rejects.toThrow(
      /reader went away/,
    );
  });
});

describe('xmlText', () => {
  it('escapes markup and drops characters XML cannot hold', () => {
    expect(xmlText('a & b < c > "d"')).toBe('a &amp; b &lt; c &gt; &quot;d&quot;');
    expect(xmlText('tab\tand\nline stay, bell\u0007 goes')).toBe('tab\tand\nline stay, bell goes');
    expect(xmlText('plain é 香')).toBe('plain é 香');
  });
});

/** Rows with every look a cell can take: text, shares, means, p-values, low bases, marks, groups, spans. */
function* looks(): Generator<ReportRow> {
  for (let index = 0; index < 60; index++)
    yield {
      cells: [
        `Fragrance ${index} with a name long enough to wrap in its column of text`,
        { value: (index % 100) / 100, lowBase: index % 50 === 0 },
        index % 3 === 0
          ? null
          : { value: index % 2 === 0 ? '▲ 99%' : '▼ 90%', tone: index % 2 === 0 ? 'good' : 'bad' },
        { value: index / 7, lowBase: index % 50 === 0 },
        index % 3 === 0 ? null : index,
        index % 5 === 0 ? 0 : 1 / (index + 1),
        index % 9 === 0 ? 'N/A' : index * 1.5,
      ],
      emphasis: index % 10 === 0,
      groupStart: index % 20 === 0,
      ...(index % 25 === 7 ? { spanFrom: 2, kind: 'p' as const } : {}),
    };
}
