/**
 * The house style of every workbook the app hands out (search exports, analytics downloads, the
 * statistics results), so that a file can go to a client as it is:
 * - a header block: what the file is, what it was drawn from (the study, or the search and its
 *   filters in words), who made it and when, and the harmonisation note;
 * - then the table: human headings (one per column, never a field key), widths that fit them, a
 *   frozen and filtered header row;
 * - typed numbers: shares as numbers with a % format, means with 2 decimals, counts as integers,
 *   p-values in scientific notation when small; low bases (n < 30) marked as the screens mark them;
 * - footnotes under the table; a landscape print set-up repeating the header row, one page wide when
 *   that stays readable, else over pages by column groups with the key columns repeated.
 * Both the in-memory workbook (statistics, analytics) and exceljs's streaming writer (search exports
 * of any size) are written by the same code.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LOW_BASE, MESSAGES } from '@accord/contracts';
import ExcelJS from 'exceljs';

/** How a column's (or a cell's) value reads. */
export type CellKind =
  /** Text as it is. */
  | 'text'
  /** An integer count or base n. */
  | 'count'
  /** A mean: 2 decimals. */
  | 'mean'
  /** A share in [0, 1] shown as a rounded percentage. */
  | 'share'
  /** A share in [0, 1] shown as a percentage with one decimal. */
  | 'share1'
  /** A coefficient or statistic: 3 decimals. */
  | 'decimal'
  /** A p-value: 4 decimals, scientific notation below 0.0001 (0 included). */
  | 'p'
  /** Significance letters or marks, right-aligned under or beside the numbers they qualify. */
  | 'letters';

/** One column of a report table. */
export interface ReportColumn {
  /** The heading as the screen shows it; a field key (snake_case) is turned into words. */
  header: string;
  /** How the column's numbers read (a row or a cell may say otherwise). */
  kind: CellKind;
  /** Width in characters; at least the heading's. */
  width?: number;
}

/** A cell with more to say than its value. */
export interface ReportCellObject {
  value: string | number | null;
  /** Overrides the row's and the column's kind. */
  kind?: CellKind;
  /** The value rests on a base below LOW_BASE: marked as the screens mark it. */
  lowBase?: boolean;
  /**
   * A significance mark's tone, as the screens colour it: green when good news, red when bad (a
   * higher bottom box is bad; METRICS.md section 2).
   */
  tone?: 'good' | 'bad';
}
export type ReportCell = string | number | null | ReportCellObject;

/** A row: its cells, and optionally the kind of all its numbers (tables whose rows are statistics). */
export interface ReportRow {
  cells: readonly ReportCell[];
  kind?: CellKind;
  /** A row that heads a group of rows (a question): bold. */
  emphasis?: boolean;
  /** A thin line above the row: the start of a new group. */
  groupStart?: boolean;
  /** The cell at this 0-based column spans to the table's last column, as wrapped text (a test's result). */
  spanFrom?: number;
}

/** What the header block says. */
export interface ReportHeader {
  /** What the file is, e.g. "Study search: studies". */
  title: string;
  /** What it was drawn from: "Study: ...", "Search: Category Fabric Care; ...". */
  source: readonly { label: string; value: string }[];
  /** Who made it (the signed-in user's e-mail). */
  author: string;
  /** When it was made. */
  date: Date;
  /** Whether the numbers are harmonised scores (adds the harmonisation note). */
  harmonised: boolean;
  /** More lines under the header (e.g. the test and its levels). */
  notes?: readonly string[];
}

/** A table under a header block. */
export interface ReportTable {
  columns: readonly ReportColumn[];
  rows: Iterable<ReportRow | readonly ReportCell[]>;
  /** Lines under the table (legends, what a mark means); the low-base line is added when needed. */
  footnotes?: readonly string[];
  /**
   * How many leading columns name a row (a fragrance's name and CMI #): when the table is too wide
   * for one readable page, it prints over pages by column groups with these repeated on each.
   */
  keyColumns?: number;
  /** Further tables under this one, each under its title and its own headings (e.g. strength rows). */
  more?: readonly {
    title: string;
    columns: readonly ReportColumn[];
    rows: readonly (ReportRow | readonly ReportCell[])[];
  }[];
}

/** The line every harmonised file carries. */
export const HARMONISATION_NOTE = `${MESSAGES.harmonisedFootnote}.`;
/** The footnote of files with low bases. */
export const LOW_BASE_NOTE = `* and (low base): a base below ${LOW_BASE} answers; read with care.`;

const HEADING_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE7ECF2' } };
const LOW_BASE_COLOUR = 'FFB35900';
const TONE_COLOURS = { good: 'FF1B5E20', bad: 'FF8E1B1B' } as const;
/**
 * Every font names the workbook's face: a font without a name falls back to the reader's default
 * (a serif in LibreOffice), so bold headings and marks would not match the table's text.
 */
export const FACE = { name: 'Calibri', family: 2 } as const;
const MAX_WIDTH = 48;
/** Characters of running text a column holds per unit of its width (a unit is a digit's width). */
export const TEXT_PER_WIDTH = 1.2;
/** A heading longer than this wraps onto more lines rather than widening its column of text. */
const HEADING_WIDTH = 26;
/**
 * Over a column of numbers a long heading ("Base n (T2B Overall Liking)") wraps at this width: the
 * numbers need far less, and a table fitted one page wide stays legible.
 */
const NUMBER_HEADING_WIDTH = 18;
const ROWS_PER_TURN = 2000;

/** Column letters of a 1-based column number (1 -> A, 27 -> AA). */
export function columnLetter(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A field key (top_2_box, metric_name) in words (Top 2 box, Metric name); anything else as it is. */
export function humanHeading(header: string): string {
  if (!/^[a-z0-9]+(_[a-z0-9]+)+$/.test(header)) return header;
  const words = header.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Headings made unique: a repeated heading gets " (2)", " (3)" ... so every column says what it is. */
export function uniqueHeadings(headers: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return headers.map((header) => {
    const count = (seen.get(header) ?? 0) + 1;
    seen.set(header, count);
    return count === 1 ? header : `${header} (${count})`;
  });
}

/** en-GB date and time in UTC, e.g. "25 November 2026, 09:40 UTC". */
export function reportDate(date: Date): string {
  const text = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  }).format(date);
  return `${text} UTC`;
}

/** The header block's lines, title first. */
export function headerLines(header: ReportHeader): string[] {
  return [
    header.title,
    ...header.source.map((line) => `${line.label}: ${line.value}`),
    `Prepared by: ${header.author}`,
    `Date: ${reportDate(header.date)}`,
    ...(header.notes ?? []),
    ...(header.harmonised ? [HARMONISATION_NOTE] : []),
  ];
}

/** The Excel number format of a value of the kind ('' for text). */
export function numberFormat(kind: CellKind, value: number, lowBase = false): string {
  let format: string;
  switch (kind) {
    case 'count':
      return lowBase ? '#,##0" (low base)"' : '#,##0';
    case 'mean':
      format = '0.00';
      break;
    case 'share':
      format = '0%';
      break;
    case 'share1':
      format = '0.0%';
      break;
    case 'p':
      // A p-value of 0 (a perfect fit) reads 0.00E+00 too: "0.0000" would look like a rounded p.
      format = Math.abs(value) < 0.0001 ? '0.00E+00' : '0.0000';
      break;
    case 'decimal':
      format = '0.000';
      break;
    default:
      format = Number.isInteger(value) ? '0' : '0.00';
  }
  return lowBase ? `${format}" *"` : format;
}

const KINDS: readonly CellKind[] = ['text', 'count', 'mean', 'share', 'share1', 'decimal', 'p', 'letters'];
const KIND_CODES = new Map(KINDS.map((kind, index) => [kind, index]));
const GROUP_BORDER: Partial<ExcelJS.Borders> = { top: { style: 'thin', color: { argb: 'FFB0BCC8' } } };

const headingLook = (horizontal: 'left' | 'right'): Partial<ExcelJS.Style> => ({
  font: { ...FACE, bold: true },
  fill: HEADING_FILL,
  alignment: { wrapText: true, vertical: 'bottom', horizontal },
  border: { bottom: { style: 'thin', color: { argb: 'FF8096AD' } } },
});
const HEADING_LOOKS = { left: headingLook('left'), right: headingLook('right') };

/** The look of a table heading: bold on the heading fill, over numbers on the right as they are. */
export function headingStyle(kind: CellKind | undefined): Partial<ExcelJS.Style> {
  return kind === 'text' ? HEADING_LOOKS.left : HEADING_LOOKS.right;
}

/** The fonts of the header block's title and lines, the footnotes and the titles of further tables. */
export const LINE_FONTS = {
  title: { bold: true, size: 14 },
  line: { color: { argb: 'FF404040' } },
  footnote: { italic: true, color: { argb: 'FF404040' } },
  tableTitle: { ...FACE, bold: true, size: 12 },
} satisfies Record<string, Partial<ExcelJS.Font>>;

/** The height of a header block or footnote line wrapped over a table `tableWidth` characters wide. */
export function lineHeight(line: string, size: number, tableWidth: number): number {
  const lineCount = Math.ceil((line.length * size) / 11 / Math.max(tableWidth * TEXT_PER_WIDTH, 1));
  return size * 1.4 * Math.max(1, lineCount);
}

/**
 * The looks a cell can take, each one shared style object, found by a number: no text or object is
 * made per cell, and exceljs turns each shared object into its style entry once. A number reads the
 * same format whatever its value, except a p-value near 0 and a whole number in a column of text.
 */
const styles = new Map<number, Partial<ExcelJS.Style>>();

/** The shared style of a cell (see styles). */
export function styleOf(
  kind: CellKind,
  value: string | number | null,
  lowBase: boolean,
  bold: boolean,
  columnKind: CellKind,
  tone: 'good' | 'bad' | undefined,
  groupStart: boolean,
): Partial<ExcelJS.Style> {
  let variant: number;
  if (value === null) variant = 0;
  else if (typeof value === 'string') variant = 1;
  else if (kind === 'p') variant = Math.abs(value) < 0.0001 ? 2 : 3;
  else variant = Number.isInteger(value) ? 2 : 3;
  const code =
    (((((KIND_CODES.get(kind)! * 4 + variant) * 2 + Number(lowBase)) * 2 + Number(bold)) * 3 +
      (tone === 'good' ? 1 : tone === 'bad' ? 2 : 0)) *
      2 +
      Number(columnKind === 'text')) *
      2 +
    Number(groupStart);
  let style = styles.get(code);
  if (!style) {
    style = lookOf(kind, value, lowBase, bold, columnKind, tone);
    if (groupStart) style = { ...style, border: GROUP_BORDER };
    styles.set(code, style);
  }
  return style;
}

/** The style of a look: its number format, alignment and font. */
function lookOf(
  kind: CellKind,
  value: string | number | null,
  lowBase: boolean,
  bold: boolean,
  columnKind: CellKind,
  tone?: 'good' | 'bad',
): Partial<ExcelJS.Style> {
  const format = typeof value === 'number' ? numberFormat(kind, value, lowBase) : '';
  // Letters, and words standing in a column of numbers ("N/A", why a value is missing), line up with it.
  const letters = kind === 'letters' || (typeof value === 'string' && columnKind !== 'text');
  return {
    ...(format ? { numFmt: format, alignment: { vertical: 'top' } } : {}),
    ...(letters ? { alignment: { horizontal: 'right', vertical: 'top' } } : {}),
    // Text longer than its column wraps within it rather than being cut by the next cell.
    ...(typeof value === 'string' && !letters ? { alignment: { vertical: 'top', wrapText: true } } : {}),
    ...(lowBase || bold || tone
      ? {
          font: {
            ...FACE,
            bold: bold || tone !== undefined,
            ...(lowBase ? { color: { argb: LOW_BASE_COLOUR } } : {}),
            ...(tone ? { color: { argb: TONE_COLOURS[tone] } } : {}),
          },
        }
      : {}),
  };
}

export function rowOf(row: ReportRow | readonly ReportCell[]): ReportRow {
  return Array.isArray(row) ? { cells: row as readonly ReportCell[] } : (row as ReportRow);
}

/** The widths: the heading's (long headings wrap), its longest word, the column's, the values'. */
export function widthsOf(columns: readonly ReportColumn[], sample: readonly ReportRow[]): number[] {
  return columns.map((column, index) => {
    const longestWord = Math.max(...column.header.split(/\s+/).map((word) => word.length));
    const headingWidth = column.kind === 'text' ? HEADING_WIDTH : NUMBER_HEADING_WIDTH;
    let width = Math.max(
      column.width ?? 8,
      Math.min(headingWidth, column.header.length + 3),
      Math.min(MAX_WIDTH, longestWord + 2),
    );
    for (const row of sample) {
      // A text spanning to the table's end (a test's result) wraps over the columns: it sets no width.
      if (row.spanFrom !== undefined && index >= row.spanFrom) continue;
      const cell = row.cells[index];
      const value = cell !== null && typeof cell === 'object' ? cell.value : cell;
      const length = typeof value === 'number' ? 9 : String(value ?? '').length + 2;
      width = Math.max(width, Math.min(MAX_WIDTH, length));
    }
    return width;
  });
}

/** How many lines a text takes wrapped between words at `width` characters (bold headings run wide). */
export function wrappedLines(text: string, width: number): number {
  const room = Math.max(width, 1);
  let lines = 1;
  let used = 0;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const length = word.length;
    if (used > 0 && used + 1 + length > room) {
      lines += 1;
      used = 0;
    }
    // A word longer than the line breaks within itself.
    lines += Math.max(0, Math.ceil(length / room) - 1);
    used = used === 0 ? length % room || room : used + 1 + length;
  }
  return lines;
}

/**
 * The widest table (in column-width characters) that prints readably on one A4 or Letter landscape
 * page: fitted to the width it shrinks to about 70 % at most. Wider tables print at that scale over
 * pages by column groups.
 */
export const PRINT_WIDTH = 200;
/** The print scale of a table split over pages by column groups. */
export const SPLIT_SCALE = 70;

/** How a table of these widths prints: fitted to one page wide, or split by column groups. */
export function printLayout(
  widths: readonly number[],
  keyColumns = 0,
): { split: boolean; titleColumns: number; headerSpan: number } {
  const total = widths.reduce((sum, width) => sum + width, 0);
  if (total <= PRINT_WIDTH) return { split: false, titleColumns: 0, headerSpan: widths.length };
  // The key columns repeat on every page; they must leave room for the others.
  let titleColumns = 0;
  let keyWidth = 0;
  while (titleColumns < Math.min(keyColumns, widths.length - 1)) {
    const next = keyWidth + widths[titleColumns]!;
    if (next > PRINT_WIDTH / 2) break;
    keyWidth = next;
    titleColumns += 1;
  }
  // The key columns print on every page: the header block is written within them, so every page
  // of columns reads it whole (wider, its lines would show cut at the key columns' edge on the later
  // pages, and run past the first page's own edge).
  if (titleColumns > 0) return { split: true, titleColumns, headerSpan: titleColumns };
  // Without key columns the header block spans the columns of the first page, so it is read whole there.
  let headerSpan = 0;
  let used = 0;
  while (headerSpan < widths.length && used + widths[headerSpan]! <= PRINT_WIDTH) {
    used += widths[headerSpan]!;
    headerSpan += 1;
  }
  return { split: true, titleColumns, headerSpan: Math.max(headerSpan, 1) };
}

/** The sheet options of a report whose table heading sits on `headingRow`. */
export function sheetOptions(
  headingRow: number,
  widths: readonly number[],
  title: string,
  keyColumns?: number,
) {
  const columnCount = widths.length;
  const layout = printLayout(widths, keyColumns);
  return {
    views: [
      {
        state: 'frozen' as const,
        ySplit: headingRow,
        ...(layout.titleColumns > 0 ? { xSplit: layout.titleColumns } : {}),
        topLeftCell: `${columnLetter(layout.titleColumns + 1)}${headingRow + 1}`,
        activeCell: `A${headingRow + 1}`,
        showGridLines: false,
      },
    ],
    pageSetup: {
      orientation: 'landscape' as const,
      paperSize: 9,
      ...(layout.split
        ? { fitToPage: false, scale: SPLIT_SCALE }
        : { fitToPage: true, fitToWidth: 1, fitToHeight: 0 }),
      printTitlesRow: `${headingRow}:${headingRow}`,
      ...(layout.titleColumns > 0 ? { printTitlesColumn: `A:${columnLetter(layout.titleColumns)}` } : {}),
      horizontalCentered: false,
      margins: { left: 0.5, right: 0.5, top: 0.6, bottom: 0.6, header: 0.3, footer: 0.3 },
    },
    headerFooter: {
      oddFooter: `&L${title.replace(/&/g, '&&')}&RPage &P of &N`,
    },
    autoFilter: `A${headingRow}:${columnLetter(Math.max(columnCount, 1))}${headingRow}`,
  };
}

type AnySheet = ExcelJS.Worksheet;

/** Writes header block, table and footnotes; `commit` is the streaming writer's row commit. */
async function writeReport(
  sheet: AnySheet,
  header: ReportHeader,
  table: ReportTable,
  widths: readonly number[],
  streaming: boolean,
): Promise<{ headingRow: number; lastRow: number }> {
  const commit = (row: ExcelJS.Row) => {
    if (streaming) row.commit();
  };
  // The streaming writer writes the column widths with the first row: they come first.
  sheet.columns = table.columns.map((_, index) => ({ width: widths[index] ?? 12 }));
  const lines = headerLines(header);
  // Each line spans the table's width (the first page's columns of a table printed over several)
  // and wraps there, so a long list of filters stays on the page.
  const span = printLayout(widths, table.keyColumns).headerSpan;
  const tableWidth = widths.slice(0, span).reduce((sum, width) => sum + width, 0);
  const writeLine = (rowNumber: number, line: string, font: Partial<ExcelJS.Font>) => {
    const row = sheet.getRow(rowNumber);
    const cell = row.getCell(1);
    cell.value = line;
    cell.font = { ...FACE, ...font };
    cell.alignment = { wrapText: true, vertical: 'top' };
    if (span > 1) sheet.mergeCells(rowNumber, 1, rowNumber, span);
    row.height = lineHeight(line, font.size ?? 11, tableWidth);
    commit(row);
  };
  lines.forEach((line, index) =>
    writeLine(index + 1, line, index === 0 ? LINE_FONTS.title : LINE_FONTS.line),
  );
  const headingRow = lines.length + 2;
  commit(sheet.getRow(lines.length + 1));
  let rowNumber = headingRow - 1;
  let lowBases = false;
  const writeHeadings = (columns: readonly ReportColumn[]) => {
    rowNumber += 1;
    const heading = sheet.getRow(rowNumber);
    uniqueHeadings(columns.map((column) => humanHeading(column.header))).forEach((text, index) => {
      const cell = heading.getCell(index + 1);
      cell.value = text;
      cell.style = headingStyle(columns[index]?.kind);
    });
    // Wrapped headings get the lines they need (Excel does not always size such a row itself).
    const lines = columns.map((column, index) =>
      wrappedLines(humanHeading(column.header), (widths[index] ?? 12) - 2),
    );
    heading.height = 15 * Math.max(1, ...lines);
    commit(heading);
  };
  const writeRows = async (
    columns: readonly ReportColumn[],
    rows: Iterable<ReportRow | readonly ReportCell[]>,
  ): Promise<void> => {
    for (const entry of rows) {
      const row = rowOf(entry);
      rowNumber += 1;
      const written = sheet.getRow(rowNumber);
      row.cells.forEach((cell, index) => {
        const object = cell !== null && typeof cell === 'object' ? cell : null;
        const value = object ? object.value : (cell as string | number | null);
        const kind =
          object?.kind ??
          (typeof value === 'number' ? row.kind : undefined) ??
          columns[index]?.kind ??
          'text';
        const lowBase = object?.lowBase === true && typeof value === 'number';
        if (lowBase) lowBases = true;
        const target = written.getCell(index + 1);
        target.value =
          value === null || (typeof value === 'number' && !Number.isFinite(value)) ? null : value;
        target.style = styleOf(
          kind,
          value,
          lowBase,
          row.emphasis === true,
          columns[index]?.kind ?? 'text',
          object?.tone,
          row.groupStart === true,
        );
      });
      // A wrapped text gets the lines it needs: readers do not all size such a row themselves.
      let lines = 1;
      row.cells.forEach((cell, index) => {
        const value = cell !== null && typeof cell === 'object' ? cell.value : cell;
        // A width unit is a digit's width: words of text run about a fifth narrower.
        const room = Math.floor((widths[index] ?? 12) * TEXT_PER_WIDTH);
        if (typeof value === 'string' && value.length > room)
          lines = Math.max(lines, wrappedLines(value, room));
      });
      if (lines > 1) written.height = 15 * lines;
      if (row.spanFrom !== undefined && row.spanFrom < columns.length - 1) {
        const from = row.spanFrom + 1;
        sheet.mergeCells(rowNumber, from, rowNumber, columns.length);
        const cell = written.getCell(from);
        cell.style = { ...cell.style, alignment: { horizontal: 'left', vertical: 'top', wrapText: true } };
        const spanWidth = widths.slice(row.spanFrom).reduce((sum, width) => sum + width, 0);
        const text = String(cell.value ?? '');
        written.height = 15 * wrappedLines(text, Math.floor(spanWidth * TEXT_PER_WIDTH));
      }
      commit(written);
      if (streaming && rowNumber % ROWS_PER_TURN === 0) await nextTurn();
    }
  };
  writeHeadings(table.columns);
  await writeRows(table.columns, table.rows);
  const lastRow = rowNumber;
  for (const more of table.more ?? []) {
    rowNumber += 2;
    const title = sheet.getRow(rowNumber);
    title.getCell(1).value = more.title;
    title.getCell(1).font = LINE_FONTS.tableTitle;
    commit(title);
    writeHeadings(more.columns);
    await writeRows(more.columns, more.rows);
  }
  const footnotes = [...(table.footnotes ?? []), ...(lowBases ? [LOW_BASE_NOTE] : [])];
  if (footnotes.length > 0) {
    rowNumber += 1;
    commit(sheet.getRow(rowNumber));
    for (const line of footnotes) {
      rowNumber += 1;
      writeLine(rowNumber, line, LINE_FONTS.footnote);
    }
  }
  return { headingRow, lastRow };
}

/** The row of the table's headings once `header` is written above it. */
export function headingRowOf(header: ReportHeader): number {
  return headerLines(header).length + 2;
}

/** The column widths of a table fitted to its rows and to those of the tables under it. */
export function fittedWidths(table: ReportTable, rows: readonly ReportRow[]): number[] {
  const widths = widthsOf(table.columns, rows);
  for (const more of table.more ?? [])
    widthsOf(more.columns, more.rows.map(rowOf)).forEach((width, index) => {
      widths[index] = Math.max(widths[index] ?? 0, width);
    });
  return widths;
}

/**
 * Adds a report sheet (header block, table, footnotes) to an in-memory workbook. Rows are materialised
 * to fit the widths to the values too.
 */
export async function addReportSheet(
  workbook: ExcelJS.Workbook,
  name: string,
  header: ReportHeader,
  table: ReportTable,
): Promise<{ sheet: ExcelJS.Worksheet; headingRow: number; lastRow: number }> {
  const rows = [...table.rows].map(rowOf);
  const headingRow = headingRowOf(header);
  const widths = fittedWidths(table, rows);
  const sheet = workbook.addWorksheet(name, sheetOptions(headingRow, widths, header.title, table.keyColumns));
  const written = await writeReport(sheet, header, { ...table, rows }, widths, false);
  return { sheet, ...written };
}

/** A new in-memory workbook with the document properties every report carries. */
export function reportWorkbook(header: ReportHeader): ExcelJS.Workbook {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = header.author;
  workbook.title = header.title;
  workbook.created = header.date;
  workbook.modified = header.date;
  return workbook;
}

/** An in-memory workbook's bytes. */
export async function workbookBytes(workbook: ExcelJS.Workbook): Promise<Buffer> {
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A one-sheet report written in one go. */
export async function reportBytes(
  sheetName: string,
  header: ReportHeader,
  table: ReportTable,
): Promise<Buffer> {
  const workbook = reportWorkbook(header);
  await addReportSheet(workbook, sheetName, header, table);
  return workbookBytes(workbook);
}

/**
 * Writes a one-sheet report with exceljs's streaming writer into `output`: each row is committed as
 * it goes, so memory stays flat however many rows, and the writer yields to the event loop every few
 * thousand rows. With `fitWidths` the columns fit their values as in the in-memory workbook (the rows
 * are read twice, so they must be an array); without, they fit their headings and set widths. The
 * workbook reads as reportBytes writes it: same sheet, values, formats, widths and frozen heading.
 */
export async function writeReportStream(
  output: Writable,
  sheetName: string,
  header: ReportHeader,
  table: ReportTable,
  fitWidths: boolean,
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = header.author;
  (workbook as unknown as { title: string }).title = header.title;
  workbook.created = header.date;
  workbook.modified = header.date;
  const headingRow = headingRowOf(header);
  const widths = fitWidths ? fittedWidths(table, [...table.rows].map(rowOf)) : widthsOf(table.columns, []);
  const sheet = workbook.addWorksheet(
    sheetName,
    sheetOptions(headingRow, widths, header.title, table.keyColumns),
  ) as unknown as AnySheet;
  await writeReport(sheet, header, table, widths, true);
  (sheet as unknown as { commit(): void }).commit();
  await workbook.commit();
}

/**
 * A one-sheet report as a stream written on this thread (writeReportStream, widths from the
 * headings). A failure while writing destroys the stream.
 */
export function reportStream(sheetName: string, header: ReportHeader, table: ReportTable): Readable {
  const output = new PassThrough();
  writeReportStream(output, sheetName, header, table, false).catch((error: unknown) =>
    output.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return output;
}
