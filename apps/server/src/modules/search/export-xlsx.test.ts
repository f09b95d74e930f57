import { afterAll, describe, expect, it } from 'vitest';
import { closeUploadWorkers } from '../../workers/pool.ts';
import { columnLetter, xlsxStream } from './export-xlsx.ts';
import { cellValue } from './search.presenter.ts';
import { openWorkbook, readReport } from '../../testing/report-table.ts';

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('columnLetter', () => {
  it('names spreadsheet columns', () => {
    expect([1, 2, 16, 26, 27, 52, 53, 702, 703].map(columnLetter)).toEqual([
      'A',
      'B',
      'P',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });
});

describe('cellValue', () => {
  it('joins lists, keeps numbers and leaves missing values empty', () => {
    expect(cellValue(['a', 'b'])).toBe('a, b');
    expect(cellValue([])).toBeNull();
    expect(cellValue(null)).toBeNull();
    expect(cellValue(undefined)).toBeNull();
    expect(cellValue(0.5)).toBe(0.5);
    expect(cellValue('text')).toBe('text');
  });
});

const header = {
  title: 'Study search: 2 fragrances',
  source: [{ label: 'Search', value: 'Category: Fabric Care; Verified studies' }],
  author: 'researcher@accord.test',
  date: new Date('2026-11-25T09:40:00Z'),
  harmonised: false,
};

describe('xlsxStream', () => {
  afterAll(async () => {
    await closeUploadWorkers();
  });

  it('writes the header block, the headings and one row per record, with an empty sheet still valid', async () => {
    const columns = [
      { key: 'id', header: 'ID', width: 8, kind: 'count' as const },
      { key: 'name', header: 'Name', width: 20 },
      { key: 'tags', header: 'Tags', width: 10 },
      { key: 'level', header: 'Level (%)', width: 8 },
    ];
    const bytes = await collect(
      xlsxStream(
        'Things',
        header,
        columns,
        // As the database writes the rows: each the columns' values in order, lists as arrays.
        JSON.stringify([
          [1, 'One', ['a', 'b'], 1.5],
          [2, 'Two', [], null],
        ]),
      ),
    );
    const report = readReport(await openWorkbook(bytes), 'Things');
    expect(report.lines).toEqual([
      'Study search: 2 fragrances',
      'Search: Category: Fabric Care; Verified studies',
      'Prepared by: researcher@accord.test',
      'Date: 25 November 2026 at 09:40 UTC',
    ]);
    expect(report.headings).toEqual(['ID', 'Name', 'Tags', 'Level (%)']);
    expect(report.rows).toEqual([
      [1, 'One', 'a, b', 1.5],
      [2, 'Two', undefined, undefined],
    ]);
    expect(report.tableRows[0]!.getCell(1).numFmt).toBe('#,##0');

    const empty = readReport(await openWorkbook(await collect(xlsxStream('Empty', header, columns, '[]'))));
    expect(empty.headings).toEqual(['ID', 'Name', 'Tags', 'Level (%)']);
    expect(empty.rows).toEqual([]);
    // Written in a worker thread, which loads the server's modules at its start: seconds on a busy machine.
  }, 60_000);
  it('sorts the rows of a delimited text by their keys, and reads them as JSON when the text cannot hold them', async () => {
    const columns = [
      { key: 'name', header: 'Name', width: 20 },
      { key: 'level', header: 'Level (%)', width: 8 },
    ];
    const line = (keys: number[], name: string, level: string) => [...keys, name, level].join('\u001f');
    let reread = 0;
    const rows = (text: string, count: number) => ({
      count,
      text: { text, count, order: ['desc', 'asc'] as const, numeric: [false, true] },
      json: () => {
        reread += 1;
        return Promise.resolve(
          JSON.stringify([
            ['Z\u001fone', 2],
            ['Two', null],
          ]),
        );
      },
    });
    const sorted = readReport(
      await openWorkbook(
        await collect(
          xlsxStream(
            'Things',
            header,
            columns,
            rows(
              [
                line([2019, 4], 'Four', '\u001d'),
                line([2021, 9], 'Nine', '0.5'),
                line([2019, 1], 'One', '1.25'),
              ].join('\u001e'),
              3,
            ),
          ),
        ),
      ),
    );
    expect(sorted.rows).toEqual([
      ['Nine', 0.5],
      ['One', 1.25],
      ['Four', undefined],
    ]);
    expect(reread).toBe(0);
    // A name holding the value separator: one value too many in its row.
    const broken = readReport(
      await openWorkbook(
        await collect(
          xlsxStream(
            'Things',
            header,
            columns,
            rows([line([1, 1], 'Z\u001fone', '2'), line([1, 2], 'Two', '\u001d')].join('\u001e'), 2),
          ),
        ),
      ),
    );
    expect(reread).toBe(1);
    expect(broken.rows).toEqual([
      ['Zone', 2],
      ['Two', undefined],
    ]);
  }, 60_000);
});
