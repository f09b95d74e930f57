import { describe, expect, it } from 'vitest';
import {
  FIELD_SEPARATOR as F,
  MISSING_VALUE as M,
  ROW_SEPARATOR as R,
  delimitedRows,
  type DelimitedRows,
} from './xlsx-writer-report.ts';

/** A delimited text of rows, each its keys then its values, as the database writes them. */
const text = (rows: (string | number)[][]) => rows.map((row) => row.join(F)).join(R);

describe('delimitedRows', () => {
  it('sorts the rows by their keys and reads missing values, texts and numbers', () => {
    const source: DelimitedRows = {
      text: text([
        [2019, 5, 12, 'Rose Dawn', '0.8', 'Floral'],
        [2021, 7, 3, 'Calm', M, ''],
        [2019, 5, 9, 'Rose Mist', '1e-7', M],
        [2019, 11, 1, 'Amber Night', 'NaN', 'Amber, Woody'],
        [2021, 7, 2, 'Cedar', '-12', 'Woody'],
      ]),
      count: 5,
      order: ['desc', 'desc', 'asc'],
      numeric: [false, true, false],
    };
    expect([...delimitedRows(source)!]).toEqual([
      ['Cedar', -12, 'Woody'],
      ['Calm', null, ''],
      ['Amber Night', 'NaN', 'Amber, Woody'],
      ['Rose Mist', 1e-7, null],
      ['Rose Dawn', 0.8, 'Floral'],
    ]);
  });

  it('reads no rows from an empty text', () => {
    expect([...delimitedRows({ text: '', count: 0, order: ['asc'], numeric: [false] })!]).toEqual([]);
  });

  it('answers null for a text that does not hold its rows: a value with a separator in it', () => {
    const rows = [
      [1, 'One', 'a'],
      [2, 'Two', 'b'],
    ];
    const base = { order: ['asc'] as const, numeric: [false, false] };
    expect(delimitedRows({ ...base, text: text(rows), count: 2 })).not.toBeNull();
    // A value holding the field separator: its row has a value too many.
    expect(delimitedRows({ ...base, text: text([[1, `O${F}ne`, 'a'], rows[1]!]), count: 2 })).toBeNull();
    // A value holding the row separator: one row too many.
    expect(delimitedRows({ ...base, text: text([[1, `O${R}ne`, 'a'], rows[1]!]), count: 2 })).toBeNull();
    expect(delimitedRows({ ...base, text: text(rows), count: 3 })).toBeNull();
    expect(delimitedRows({ ...base, text: '', count: 1 })).toBeNull();
    // A key that is no integer.
    expect(delimitedRows({ ...base, text: text([['x', 'One', 'a']]), count: 1 })).toBeNull();
  });
});
