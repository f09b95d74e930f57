import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { columnLetter, xlsxStream } from './export-xlsx.ts';
import { cellValue } from './search.presenter.ts';

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

describe('xlsxStream', () => {
  it('writes a header row and one row per record, with an empty sheet still valid', async () => {
    const columns = [
      { key: 'name', header: 'Name', width: 20 },
      { key: 'tags', header: 'Tags', width: 10 },
      { key: 'level', header: 'Level (%)', width: 8 },
    ];
    const bytes = await collect(
      xlsxStream('Things', columns, [
        { name: 'One', tags: ['a', 'b'], level: 1.5 },
        { name: 'Two', tags: [], level: null },
      ]),
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Things')!;
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(1).values).toEqual([undefined, 'Name', 'Tags', 'Level (%)']);
    expect(sheet.getRow(2).values).toEqual([undefined, 'One', 'a, b', 1.5]);
    expect(sheet.getRow(3).getCell(1).value).toBe('Two');
    expect(sheet.getRow(3).getCell(2).value).toBeNull();

    const empty = new ExcelJS.Workbook();
    await empty.xlsx.load((await collect(xlsxStream('Empty', columns, []))) as unknown as ArrayBuffer);
    expect(empty.getWorksheet('Empty')!.rowCount).toBe(1);
  });
});
