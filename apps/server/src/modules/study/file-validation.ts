/**
 * Content checks of an uploaded study file, run by the upload job before the file becomes a version.
 * Each problem is a StudyFileError (level error or warning, a short high_msg and a detailed msg that
 * names the file, sheet, row and column). Errors mean the file cannot be used as it is; warnings are
 * kept with the file for the user to read.
 *
 * - pdf: the %PDF- header in the first 1 KB (error); no %%EOF near the end (warning: truncated?).
 * - docx, xlsx, pptx: a readable zip (OOXML package) with [Content_Types].xml and the part folder of
 *   its kind (word/, xl/, ppt/) (error otherwise; a password-protected file is named as such).
 * - doc, xls, ppt: the OLE2 compound file signature (error otherwise).
 * - results files (RDF, folder results, csv or xlsx; layout of docs/data-formats in the design notes):
 *   the data file needs a respondent_id column (error) and should have product_code and the
 *   demographics gender, age, ethnicity, social_class, country (warning each), at least one question
 *   column and one data row (warning); a scale file (name *.scale.csv or *.scale.xlsx) needs
 *   question_id (error) and should have text, type, scale_min, scale_max, labels (warning). A file
 *   that cannot be read, a row with more cells than the header and duplicate column names are errors.
 */
import type { StudyFileError, StudyFolder } from '@accord/contracts';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { DEFAULT_TABLE_LIMITS, TableLimitError } from '../../lib/csv-table.ts';

export const VALIDATION_EVENT = 'validation';

/** Columns of a results data file (RDF) after the respondent id. */
export const RESULTS_EXPECTED_COLUMNS = [
  'product_code',
  'gender',
  'age',
  'ethnicity',
  'social_class',
  'country',
] as const;
export const RESULTS_ID_COLUMN = 'respondent_id';
export const SCALE_ID_COLUMN = 'question_id';
export const SCALE_EXPECTED_COLUMNS = ['text', 'type', 'scale_min', 'scale_max', 'labels'] as const;
const SCALE_OPTIONAL_COLUMNS = ['metric'];

/** At most this many rows are named in one message. */
const ROWS_NAMED = 5;

export interface FileToCheck {
  bytes: Buffer;
  /** Name of the uploaded file (its extension decides the checks). */
  fileName: string;
  /** Name of the file it replaces, when it replaces one (tells a scale file from a data file). */
  slotName?: string;
  folder: StudyFolder;
}

type Problem = Omit<StudyFileError, 'id' | 'event' | 'error_file'>;

const error = (high_msg: string, msg: string): Problem => ({ level: 'error', high_msg, msg });
const warning = (high_msg: string, msg: string): Problem => ({ level: 'warning', high_msg, msg });

export function hasBlockingErrors(errors: readonly StudyFileError[]): boolean {
  return errors.some((item) => item.level === 'error');
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

// ---------------------------------------------------------------- containers

const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const isOle = (bytes: Buffer) => bytes.subarray(0, 8).equals(OLE_SIGNATURE);

const KINDS: Record<string, { label: string; folder: string }> = {
  docx: { label: 'Word document', folder: 'word/' },
  xlsx: { label: 'Excel workbook', folder: 'xl/' },
  pptx: { label: 'PowerPoint presentation', folder: 'ppt/' },
};
const LEGACY: Record<string, string> = {
  doc: 'Word 97-2003 document',
  xls: 'Excel 97-2003 workbook',
  ppt: 'PowerPoint 97-2003 presentation',
};

export interface ZipListing {
  names: string[];
  encrypted: boolean;
}

/** The entry names of a zip from its central directory, or null when the bytes are not a whole zip. */
export function listZip(bytes: Buffer): ZipListing | null {
  if (bytes.length < 22 || bytes.readUInt32LE(0) !== 0x04034b50) return null;
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) return null;
  let count = bytes.readUInt16LE(eocd + 10);
  let size = bytes.readUInt32LE(eocd + 12);
  let offset = bytes.readUInt32LE(eocd + 16);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || bytes.readUInt32LE(locator) !== 0x07064b50) return null;
    const record = Number(bytes.readBigUInt64LE(locator + 8));
    if (record + 56 > bytes.length || bytes.readUInt32LE(record) !== 0x06064b50) return null;
    count = Number(bytes.readBigUInt64LE(record + 32));
    size = Number(bytes.readBigUInt64LE(record + 40));
    offset = Number(bytes.readBigUInt64LE(record + 48));
  }
  if (offset + size > bytes.length) return null;
  const names: string[] = [];
  let encrypted = false;
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) return null;
    const flags = bytes.readUInt16LE(at + 8);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const localOffset = bytes.readUInt32LE(at + 42);
    if (localOffset !== 0xffffffff && localOffset + 4 <= bytes.length) {
      if (bytes.readUInt32LE(localOffset) !== 0x04034b50) return null;
    }
    if (flags & 1) encrypted = true;
    names.push(bytes.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { names, encrypted };
}

function checkOoxml(bytes: Buffer, name: string, extension: string): Problem[] {
  const kind = KINDS[extension]!;
  const notValid = `The file is not a valid ${kind.label}`;
  if (isOle(bytes))
    return [
      error(
        notValid,
        `${name} is not an Office Open XML (.${extension}) package: it is password protected or saved in the older 97-2003 format. Save it as .${extension} without a password and upload it again.`,
      ),
    ];
  const zip = listZip(bytes);
  if (!zip)
    return [
      error(
        notValid,
        `${name} is not a readable .${extension} file (its zip container is missing or cut short). Open it in Office, save it again and upload the saved copy.`,
      ),
    ];
  if (zip.encrypted)
    return [error(notValid, `${name} holds encrypted parts. Upload a copy without a password.`)];
  if (!zip.names.includes('[Content_Types].xml'))
    return [
      error(notValid, `${name} is a zip file but not an Office document: it has no [Content_Types].xml.`),
    ];
  if (!zip.names.some((entry) => entry.startsWith(kind.folder))) {
    const actual = Object.entries(KINDS).find(([, other]) =>
      zip.names.some((entry) => entry.startsWith(other.folder)),
    );
    return [
      error(
        notValid,
        actual
          ? `${name} is a ${actual[1].label} (.${actual[0]}) with a .${extension} name. Upload it with its own extension.`
          : `${name} has no ${kind.folder} part, so it is not a ${kind.label}.`,
      ),
    ];
  }
  return [];
}

function checkLegacy(bytes: Buffer, name: string, extension: string): Problem[] {
  if (isOle(bytes)) return [];
  const label = LEGACY[extension]!;
  const modern = listZip(bytes)
    ? ` It looks like a newer .${extension}x file; upload it with that extension.`
    : '';
  return [
    error(
      `The file is not a valid ${label}`,
      `${name} does not start with the signature of a .${extension} file.${modern}`,
    ),
  ];
}

function checkPdf(bytes: Buffer, name: string): Problem[] {
  const head = bytes.subarray(0, 1024).toString('latin1');
  if (!head.includes('%PDF-'))
    return [
      error(
        'The file is not a valid PDF',
        `${name} has no %PDF- header in its first 1024 bytes, so it is not a PDF.`,
      ),
    ];
  const tail = bytes.subarray(Math.max(0, bytes.length - 1024)).toString('latin1');
  if (!tail.includes('%%EOF'))
    return [
      warning(
        'The PDF may be incomplete',
        `${name} has no %%EOF end marker; the file may have been cut short. Check that it opens.`,
      ),
    ];
  return [];
}

// ---------------------------------------------------------------- results tables

/** Row numbers of one finding: the first few, and how many in all. */
interface Lines {
  first: number[];
  total: number;
}

const noteLine = (lines: Lines, line: number) => {
  if (lines.first.length < ROWS_NAMED) lines.first.push(line);
  lines.total++;
};

/** A results table as its rows go by: the header, then what the checks need of each data row. */
export interface Table {
  /** Where the table came from, for messages: "sheet Results of x.xlsx" or the csv name. */
  where: string;
  header: string[];
  rowCount: number;
  /** Rows with more cells than the header. */
  tooLong: Lines;
  /** Rows whose id cell (respondent_id or question_id) is empty. */
  blankIds: Lines;
}

const normalise = (column: string) =>
  column
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** Builds a Table from rows fed one at a time, so no file is held as a whole grid of cells. */
class TableCollector {
  private table: Table | null = null;
  private idIndex = -1;
  private cells = 0;

  constructor(
    private readonly idColumn: string,
    private readonly trimHeader: boolean,
    private readonly fileName: string,
  ) {}

  /** Counts a row against the table limits of uploads; throws TableLimitError beyond them. */
  private count(cells: string[]) {
    if (cells.length > DEFAULT_TABLE_LIMITS.columns)
      throw new TableLimitError(this.fileName, 'columns', DEFAULT_TABLE_LIMITS.columns);
    if ((this.table?.rowCount ?? 0) >= DEFAULT_TABLE_LIMITS.rows)
      throw new TableLimitError(this.fileName, 'rows', DEFAULT_TABLE_LIMITS.rows);
    this.cells += cells.length;
    if (this.cells > DEFAULT_TABLE_LIMITS.cells)
      throw new TableLimitError(this.fileName, 'cells', DEFAULT_TABLE_LIMITS.cells);
  }

  add(line: number, cells: string[]) {
    this.count(cells);
    if (!this.table) {
      const header = [...cells];
      // Trailing empty heading cells of a workbook are only formatting.
      if (this.trimHeader) while (header.length > 0 && header[header.length - 1]!.trim() === '') header.pop();
      this.table = {
        where: '',
        header,
        rowCount: 0,
        tooLong: { first: [], total: 0 },
        blankIds: { first: [], total: 0 },
      };
      this.idIndex = header.findIndex((column) => normalise(column) === this.idColumn);
      return;
    }
    this.table.rowCount++;
    if (cells.length > this.table.header.length) noteLine(this.table.tooLong, line);
    if (this.idIndex >= 0 && (cells[this.idIndex] ?? '').trim() === '') noteLine(this.table.blankIds, line);
  }

  result(where: string): Table | null {
    return this.table ? { ...this.table, where } : null;
  }
}

const isBlankRow = (cells: string[]) => cells.every((value) => value.trim() === '');

/**
 * RFC 4180 csv, fed row by row to `onRow` (blank rows skipped): quoted cells with doubled quotes and
 * line breaks, CRLF or LF; `;` separates when the header row has no comma but a semicolon.
 */
export function scanCsv(
  text: string,
  onRow: (line: number, cells: string[]) => void,
): { unclosedQuoteAt?: number } {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstLine = source.slice(0, source.search(/\r?\n|$/));
  const delimiter = (!firstLine.includes(',') && firstLine.includes(';') ? ';' : ',').charCodeAt(0);
  const QUOTE = 34;
  const LF = 10;
  const CR = 13;
  const length = source.length;
  const endOfCell = (code: number) => code === delimiter || code === LF || code === CR;
  let at = 0;
  let line = 1;
  while (at < length) {
    const rowLine = line;
    const cells: string[] = [];
    for (;;) {
      if (source.charCodeAt(at) === QUOTE) {
        const quoteLine = line;
        let value = '';
        let from = at + 1;
        for (;;) {
          const close = source.indexOf('"', from);
          if (close < 0) return { unclosedQuoteAt: quoteLine };
          const chunk = source.slice(from, close);
          for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', nl + 1)) line++;
          value += chunk;
          if (source.charCodeAt(close + 1) === QUOTE) {
            value += '"';
            from = close + 2;
            continue;
          }
          at = close + 1;
          break;
        }
        // Text after the closing quote (not RFC 4180, but spreadsheet programs read it) is kept.
        let stop = at;
        while (stop < length && !endOfCell(source.charCodeAt(stop))) stop++;
        cells.push(value + source.slice(at, stop));
        at = stop;
      } else {
        let stop = at;
        while (stop < length && !endOfCell(source.charCodeAt(stop))) stop++;
        cells.push(source.slice(at, stop));
        at = stop;
      }
      if (at >= length) break;
      const code = source.charCodeAt(at);
      if (code === delimiter) {
        at++;
        if (at >= length) {
          cells.push('');
          break;
        }
        continue;
      }
      at += code === CR && source.charCodeAt(at + 1) === LF ? 2 : 1;
      line++;
      break;
    }
    if (!isBlankRow(cells)) onRow(rowLine, cells);
  }
  return {};
}

/** The non-blank rows of a csv text (see scanCsv). */
export function parseCsv(text: string): {
  rows: { line: number; cells: string[] }[];
  unclosedQuoteAt?: number;
} {
  const rows: { line: number; cells: string[] }[] = [];
  const { unclosedQuoteAt } = scanCsv(text, (line, cells) => rows.push({ line, cells }));
  return unclosedQuoteAt === undefined ? { rows } : { rows, unclosedQuoteAt };
}

const UNREADABLE = 'The results file cannot be read';
const TOO_LARGE = 'The results file is too large';

function readCsv(bytes: Buffer, name: string, idColumn: string): { table?: Table; problems: Problem[] } {
  if (bytes.subarray(0, 8192).includes(0))
    return {
      problems: [error(UNREADABLE, `${name} is not a text (csv) file: it holds binary data.`)],
    };
  const problems: Problem[] = [];
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = bytes.toString('latin1');
    problems.push(
      warning(
        'The results file is not UTF-8',
        `${name} is not UTF-8 text; it was read as Latin-1. Save it as CSV UTF-8 so accented labels stay right.`,
      ),
    );
  }
  const collector = new TableCollector(idColumn, false, name);
  let scanned: { unclosedQuoteAt?: number };
  try {
    scanned = scanCsv(text, (line, cells) => collector.add(line, cells));
  } catch (cause) {
    if (cause instanceof TableLimitError) return { problems: [...problems, error(TOO_LARGE, cause.message)] };
    throw cause;
  }
  if (scanned.unclosedQuoteAt !== undefined)
    return {
      problems: [
        ...problems,
        error(
          UNREADABLE,
          `${name}: the quoted cell that starts on row ${scanned.unclosedQuoteAt} is never closed.`,
        ),
      ],
    };
  const table = collector.result(name);
  if (!table)
    return { problems: [...problems, error(UNREADABLE, `${name} is empty: it has no header row.`)] };
  return { table, problems };
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value)
      return value.result === undefined ? '' : cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return String(value.error);
    return '';
  }
  return String(value);
}

/**
 * The first sheet with data, read as a stream (a 50 MB workbook never sits in memory as a whole
 * model): its header row, then the data rows through the checks.
 */
async function readXlsx(
  bytes: Buffer,
  name: string,
  idColumn: string,
): Promise<{ table?: Table; problems: Problem[] }> {
  let collector = new TableCollector(idColumn, true, name);
  let sheetName = '';
  /** Feeds a sheet's rows to the collector; true when it had data (the sheet then is the one read). */
  const readSheet = async (rows: AsyncIterable<ExcelJS.Row> | Iterable<ExcelJS.Row>) => {
    let hasRows = false;
    for await (const row of rows) {
      const values = row.values as ExcelJS.CellValue[];
      const cells: string[] = [];
      for (let column = 1; column < values.length; column++) cells.push(cellText(values[column]));
      if (isBlankRow(cells)) continue;
      hasRows = true;
      collector.add(row.number, cells);
    }
    return hasRows;
  };
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
      sharedStrings: 'cache',
      worksheets: 'emit',
      styles: 'ignore',
      hyperlinks: 'ignore',
    });
    for await (const worksheet of reader) {
      if (await readSheet(worksheet)) {
        sheetName = (worksheet as unknown as { name?: string }).name ?? '';
        break;
      }
    }
  } catch (cause) {
    if (cause instanceof TableLimitError) return { problems: [error(TOO_LARGE, cause.message)] };
    // The stream reader needs xl/workbook.xml before the sheets in the zip; some writers store it
    // after them. The bytes are in memory already: read the workbook whole instead.
    collector = new TableCollector(idColumn, true, name);
    sheetName = '';
    try {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      for (const worksheet of workbook.worksheets) {
        const rows: ExcelJS.Row[] = [];
        worksheet.eachRow((row) => rows.push(row));
        if (await readSheet(rows)) {
          sheetName = worksheet.name;
          break;
        }
      }
    } catch (cause) {
      if (cause instanceof TableLimitError) return { problems: [error(TOO_LARGE, cause.message)] };
      return {
        problems: [
          error(UNREADABLE, `${name} could not be opened as a workbook (${(cause as Error).message}).`),
        ],
      };
    }
  }
  const table = collector.result(sheetName ? `sheet ${sheetName} of ${name}` : name);
  if (!table) return { problems: [error(UNREADABLE, `${name} has no sheet with data.`)] };
  return { table, problems: [] };
}

function columnLetter(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

const listRows = (lines: Lines) =>
  lines.first.join(', ') +
  (lines.total > lines.first.length ? ` and ${lines.total - lines.first.length} more` : '');

/** The column and row checks of a results table (data file or scale file). */
export function checkResultsTable(table: Table, scale: boolean): Problem[] {
  const problems: Problem[] = [];
  const header = table.header.map(normalise);
  const idColumn = scale ? SCALE_ID_COLUMN : RESULTS_ID_COLUMN;
  const expected: readonly string[] = scale ? SCALE_EXPECTED_COLUMNS : RESULTS_EXPECTED_COLUMNS;
  const what = scale ? 'scale file' : 'results file';

  const seen = new Map<string, number>();
  const duplicates: string[] = [];
  header.forEach((column, index) => {
    if (column === '') {
      problems.push(
        warning(
          'A column has no name',
          `${table.where}: column ${columnLetter(index)} has no heading; its values are ignored.`,
        ),
      );
      return;
    }
    if (seen.has(column))
      duplicates.push(
        `${table.header[index]!.trim()} (columns ${columnLetter(seen.get(column)!)} and ${columnLetter(index)})`,
      );
    else seen.set(column, index);
  });
  if (duplicates.length > 0)
    problems.push(
      error(
        'Column names repeat',
        `${table.where}: ${duplicates.join('; ')}. Each column needs its own name.`,
      ),
    );

  const idIndex = seen.get(idColumn);
  if (idIndex === undefined) {
    problems.push(
      error(
        `The ${what} has no ${idColumn} column`,
        `${table.where}: row 1 must name a ${idColumn} column (found ${
          table.header
            .filter((c) => c.trim())
            .slice(0, 8)
            .join(', ') || 'no headings'
        }${table.header.length > 8 ? ', …' : ''}).`,
      ),
    );
  }
  const missing = expected.filter((column) => !seen.has(column));
  if (missing.length > 0)
    problems.push(
      warning(
        `The ${what} lacks expected columns`,
        `${table.where}: no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''}; ${scale ? 'those question details' : 'those breakdowns'} will be missing.`,
      ),
    );
  if (!scale) {
    const known = new Set<string>([RESULTS_ID_COLUMN, ...RESULTS_EXPECTED_COLUMNS, '']);
    if (!header.some((column) => !known.has(column)))
      problems.push(
        warning(
          'The results file has no question columns',
          `${table.where}: no column after the demographics holds answers.`,
        ),
      );
  } else {
    const known = new Set<string>([
      SCALE_ID_COLUMN,
      ...SCALE_EXPECTED_COLUMNS,
      ...SCALE_OPTIONAL_COLUMNS,
      '',
    ]);
    const extra = header.filter((column) => !known.has(column));
    if (extra.length > 0)
      problems.push(
        warning(
          'The scale file has unknown columns',
          `${table.where}: ${extra.join(', ')} are not scale file columns and are ignored.`,
        ),
      );
  }

  if (table.rowCount === 0) {
    problems.push(warning(`The ${what} has no data rows`, `${table.where}: only the header row was found.`));
    return problems;
  }
  const { tooLong, blankIds } = table;
  const plural = (lines: Lines) => lines.total > 1;
  if (tooLong.total > 0)
    problems.push(
      error(
        'Rows do not match the header',
        `${table.where}: row${plural(tooLong) ? 's' : ''} ${listRows(tooLong)} ${plural(tooLong) ? 'have' : 'has'} more cells than the ${table.header.length} columns of the header.`,
      ),
    );
  if (idIndex !== undefined && blankIds.total > 0)
    problems.push(
      warning(
        `Rows without a ${idColumn}`,
        `${table.where}: row${plural(blankIds) ? 's' : ''} ${listRows(blankIds)} ${plural(blankIds) ? 'have' : 'has'} an empty ${idColumn} (column ${columnLetter(idIndex)}) and will be skipped.`,
      ),
    );
  return problems;
}

const isScaleFile = (file: FileToCheck) =>
  [file.fileName, file.slotName ?? ''].some((name) => /\.scale\.(csv|xlsx)$/i.test(name.trim()));

async function checkResults(file: FileToCheck, extension: string): Promise<Problem[]> {
  if (extension === 'xlsx') {
    const container = checkOoxml(file.bytes, file.fileName, 'xlsx');
    if (container.length > 0) return container;
  }
  const scale = isScaleFile(file);
  const idColumn = scale ? SCALE_ID_COLUMN : RESULTS_ID_COLUMN;
  const read =
    extension === 'csv'
      ? readCsv(file.bytes, file.fileName, idColumn)
      : await readXlsx(file.bytes, file.fileName, idColumn);
  if (!read.table) return read.problems;
  return [...read.problems, ...checkResultsTable(read.table, scale)];
}

/** The problems of an uploaded file, errors first; an empty list when it passes every check. */
export async function validateStudyFile(file: FileToCheck): Promise<StudyFileError[]> {
  const extension = extensionOf(file.fileName);
  let problems: Problem[];
  if (file.folder === 'results') problems = await checkResults(file, extension);
  else if (extension === 'pdf') problems = checkPdf(file.bytes, file.fileName);
  else if (extension in KINDS) problems = checkOoxml(file.bytes, file.fileName, extension);
  else if (extension in LEGACY) problems = checkLegacy(file.bytes, file.fileName, extension);
  else problems = [];
  return [...problems]
    .sort((a, b) => (a.level === b.level ? 0 : a.level === 'error' ? -1 : 1))
    .map((problem, index) => ({
      id: index + 1,
      ...problem,
      event: VALIDATION_EVENT,
      error_file: file.fileName,
    }));
}
