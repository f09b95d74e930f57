// CSV reading for the statistics generator: comma separated, double quotes around fields that hold
// commas, quotes or line breaks (RFC 4180), UTF-8 with or without a byte order mark, parsed by
// csv-parse within the table limits of uploads (lib/csv-table.ts). Every problem is a CsvError whose
// message names the file, the row (1 = header) and, where it applies, the column.
import { CsvReadError, csvRecordsOf, TableLimitError } from '../../../lib/csv-table.ts';

/** A refused csv: the message is shown to the user as it is. */
export class CsvError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly row?: number,
    readonly column?: string,
  ) {
    super(message);
    this.name = 'CsvError';
  }
}

/** A parsed csv: the header and the data rows (every row has as many cells as the header). */
export interface CsvTable {
  file: string;
  headers: string[];
  rows: string[][];
  /** The file's row number of each data row (the header is row 1; blank lines count). */
  rowNumbers: number[];
}

const OTHER_DELIMITERS: [string, string][] = [
  [';', 'semicolons'],
  ['\t', 'tabs'],
  ['|', 'vertical bars'],
];

/**
 * Reads a csv file. Blank lines are skipped; cells are trimmed.
 * @throws CsvError for a file beyond the table limits of uploads, an unclosed quote, an empty file, a header separated by another delimiter, an empty or repeated
 * column name, or a row with a different number of cells than the header.
 */
export function parseCsv(content: string | Uint8Array, file: string): CsvTable {
  let records: string[][];
  try {
    records = csvRecordsOf(content, file);
  } catch (error) {
    if (error instanceof TableLimitError) throw new CsvError(error.message, file);
    if (error instanceof CsvReadError) throw new CsvError(error.message, file, error.row);
    throw error;
  }
  const numbered = records
    .map((cells, index) => ({ cells: cells.map((cell) => cell.trim()), row: index + 1 }))
    .filter(({ cells }) => cells.some((cell) => cell !== ''));
  const header = numbered[0];
  if (!header) throw new CsvError(`${file} is empty.`, file);
  if (header.cells.length === 1) {
    const found = OTHER_DELIMITERS.find(([delimiter]) => (header.cells[0] ?? '').includes(delimiter));
    if (found)
      throw new CsvError(
        `${file}, row ${header.row}: the columns are separated by ${found[1]}; save the file with commas (,) as the delimiter.`,
        file,
        header.row,
      );
  }
  // Each name's first column, so a repeated name is found in one pass over a header of any width.
  const firstColumn = new Map<string, number>();
  header.cells.forEach((name, index) => {
    if (!firstColumn.has(name)) firstColumn.set(name, index);
    if (name === '')
      throw new CsvError(
        `${file}, row ${header.row}, column ${index + 1}: the column has no name.`,
        file,
        header.row,
      );
    if (firstColumn.get(name) !== index)
      throw new CsvError(
        `${file}, row ${header.row}: the column "${name}" appears twice.`,
        file,
        header.row,
        name,
      );
  });
  const rows = numbered.slice(1);
  for (const { cells, row } of rows) {
    if (cells.length !== header.cells.length)
      throw new CsvError(
        `${file}, row ${row}: expected ${header.cells.length} cells as in the header, found ${cells.length}.`,
        file,
        row,
      );
  }
  if (rows.length === 0) throw new CsvError(`${file} has a header but no data rows.`, file, 2);
  return {
    file,
    headers: header.cells,
    rows: rows.map(({ cells }) => cells),
    rowNumbers: rows.map(({ row }) => row),
  };
}
