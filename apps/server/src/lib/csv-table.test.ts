import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CsvReadError, csvRecords, csvRecordsOf, TableLimitError } from './csv-table.ts';

const all = async (input: Readable | string, limits?: { rows: number; columns: number; cells: number }) => {
  const out: string[][] = [];
  for await (const row of csvRecords(input, 'x.csv', limits)) out.push(row);
  return out;
};

describe('csvRecords', () => {
  it('reads quoted cells, doubled quotes and CRLF, across chunk boundaries', async () => {
    const chunks = ['\ufeffa,"b, c",d\r\n1,"say ""', 'hi""",3\n'].map((c) => Buffer.from(c));
    expect(await all(Readable.from(chunks))).toEqual([
      ['a', 'b, c', 'd'],
      ['1', 'say "hi"', '3'],
    ]);
    expect(await all(Readable.from([Buffer.from('x,y\n1,'), Buffer.from('2')]))).toEqual([
      ['x', 'y'],
      ['1', '2'],
    ]);
  });

  it('refuses a table beyond its limits, naming the file', async () => {
    const limits = { rows: 2, columns: 3, cells: 100 };
    await expect(all('a,b,c,d\n1,2,3,4\n', limits)).rejects.toThrow(TableLimitError);
    await expect(all('a,b,c,d\n1,2,3,4\n', limits)).rejects.toThrow(/x\.csv has more than 3 columns/);
    await expect(all('a\n1\n2\n3\n', limits)).rejects.toThrow(/x\.csv has more than 2 rows/);
    await expect(all('a,b\n1,2\n', { rows: 10, columns: 10, cells: 3 })).rejects.toThrow(/more than 3 cells/);
    expect(await all('a\n1\n2\n', limits)).toHaveLength(3);
  });

  it('stops reading the source at the first limit passed', async () => {
    let pulled = 0;
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < 1_000_000; i++) {
          pulled++;
          yield Buffer.from(`${i}\n`);
        }
      })(),
    );
    await expect(all(source, { rows: 10, columns: 5, cells: 1000 })).rejects.toThrow(TableLimitError);
    expect(pulled).toBeLessThan(10_000);
  });

  it('names the row of an unclosed quote', async () => {
    await expect(all('a,b\n1,"2\n')).rejects.toThrow(CsvReadError);
    expect(() => csvRecordsOf('a,b\n1,"2\n', 'x.csv')).toThrow(
      /x\.csv, row \d+: a quoted field is not closed/,
    );
  });

  it('reads a header of 100,000 columns in linear time and refuses it by its columns', () => {
    const header = Array.from({ length: 100_000 }, (_, i) => `c${i}`).join(',');
    const started = Date.now();
    expect(() => csvRecordsOf(`${header}\n`, 'wide.csv')).toThrow(/wide\.csv has more than 2,000 columns/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
