/**
 * Reading the csv files of uploads with csv-parse (RFC 4180: quoted cells, doubled quotes, line breaks
 * inside quotes; CRLF, LF or CR; a UTF-8 byte order mark is skipped), within the table limits of
 * uploads (UPLOAD_TABLE_LIMITS): a file beyond them is refused with a TableLimitError naming it as soon
 * as the limit is passed, so a small file declaring a huge table never costs more than the limit.
 * Rows are records: a blank line is a record of one empty cell, and callers skip blank records.
 */
import { Readable } from 'node:stream';
import { UPLOAD_TABLE_LIMITS, tableTooLarge } from '@accord/contracts';
import { CsvError as ParserError, parse as parseStream, type Options } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';

/** The rows, columns and cells one table may have. */
export interface TableLimits {
  rows: number;
  columns: number;
  cells: number;
}

export const DEFAULT_TABLE_LIMITS: TableLimits = {
  rows: UPLOAD_TABLE_LIMITS.rows,
  columns: UPLOAD_TABLE_LIMITS.columns,
  cells: UPLOAD_TABLE_LIMITS.cells,
};

/** Longest record (characters): a single line of more than this is refused before it is held. */
const MAX_RECORD_CHARACTERS = 16 * 1024 * 1024;

/** A table beyond the limits; the message names the file and the limit, for the user. */
export class TableLimitError extends Error {
  constructor(
    readonly file: string,
    readonly what: 'rows' | 'columns' | 'cells',
    readonly limit: number,
  ) {
    super(tableTooLarge(file, what, limit));
    this.name = 'TableLimitError';
  }
}

/** A csv the parser cannot read (an unclosed quote, an overlong line); the message names the file. */
export class CsvReadError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly row?: number,
  ) {
    super(message);
    this.name = 'CsvReadError';
  }
}

const OPTIONS: Options = {
  bom: true,
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: false,
  record_delimiter: ['\r\n', '\n', '\r'],
  max_record_size: MAX_RECORD_CHARACTERS,
};

/** Counts a record against the limits; throws the TableLimitError of the first limit passed. */
class LimitCounter {
  private rows = 0;
  private cells = 0;
  constructor(
    private readonly file: string,
    private readonly limits: TableLimits,
  ) {}

  count(record: readonly string[]): void {
    if (record.length > this.limits.columns)
      throw new TableLimitError(this.file, 'columns', this.limits.columns);
    this.rows++;
    // The header is not a data row.
    if (this.rows > this.limits.rows + 1) throw new TableLimitError(this.file, 'rows', this.limits.rows);
    this.cells += record.length;
    if (this.cells > this.limits.cells) throw new TableLimitError(this.file, 'cells', this.limits.cells);
  }
}

function readError(error: unknown, file: string): unknown {
  if (!(error instanceof ParserError)) return error;
  const line = (error as ParserError & { lines?: number }).lines;
  if (error.code === 'CSV_QUOTE_NOT_CLOSED')
    return new CsvReadError(`${file}, row ${line ?? '?'}: a quoted field is not closed.`, file, line);
  if (error.code === 'CSV_MAX_RECORD_SIZE')
    return new CsvReadError(
      `${file}, row ${line ?? '?'}: the row is longer than ${MAX_RECORD_CHARACTERS / 1024 / 1024} MB of text.`,
      file,
      line,
    );
  return new CsvReadError(`${file}, row ${line ?? '?'}: ${error.message}`, file, line);
}

/**
 * The records of a csv stream one at a time (constant memory), every one counted against the limits.
 * Stopping early (a `break`, an error) ends the read of the source.
 * @throws TableLimitError beyond the limits, CsvReadError for what the parser cannot read.
 */
export async function* csvRecords(
  input: Readable | Uint8Array | string,
  file: string,
  limits: TableLimits = DEFAULT_TABLE_LIMITS,
): AsyncGenerator<string[]> {
  const source = input instanceof Readable ? input : Readable.from([input]);
  const parser = parseStream(OPTIONS);
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  const counter = new LimitCounter(file, limits);
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      counter.count(record);
      yield record;
    }
  } catch (error) {
    throw readError(error, file);
  } finally {
    source.unpipe(parser);
    source.destroy();
    parser.destroy();
  }
}

/**
 * Every record of a csv held in memory (an upload of bounded size), counted against the limits while
 * it is parsed.
 * @throws TableLimitError beyond the limits, CsvReadError for what the parser cannot read.
 */
export function csvRecordsOf(
  content: Uint8Array | string,
  file: string,
  limits: TableLimits = DEFAULT_TABLE_LIMITS,
): string[][] {
  const counter = new LimitCounter(file, limits);
  try {
    return parseSync(typeof content === 'string' ? content : Buffer.from(content), {
      ...OPTIONS,
      on_record: (record: string[]) => {
        counter.count(record);
        return record;
      },
    }) as string[][];
  } catch (error) {
    throw readError(error, file);
  }
}
