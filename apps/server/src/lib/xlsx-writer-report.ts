/**
 * A one-sheet report in the house style of lib/report-workbook.ts written with the streaming xlsx
 * writer (lib/xlsx-writer.ts) rather than exceljs: the same header block, headings, cell looks,
 * widths, heights, merges, frozen pane, autofilter, print set-up and footer, read back cell for cell
 * as exceljs's writer has them (report-off-thread.test.ts compares the two), at a fraction of the
 * cost per file and per cell. The looks and the layout are those report-workbook.ts computes; only
 * the writing differs.
 */
import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import {
  FACE,
  LINE_FONTS,
  LOW_BASE_NOTE,
  TEXT_PER_WIDTH,
  columnLetter,
  fittedWidths,
  headerLines,
  headingRowOf,
  headingStyle,
  humanHeading,
  lineHeight,
  printLayout,
  rowOf,
  sheetOptions,
  styleOf,
  uniqueHeadings,
  widthsOf,
  wrappedLines,
  type CellKind,
  type ReportCell,
  type ReportColumn,
  type ReportHeader,
  type ReportRow,
  type ReportTable,
} from './report-workbook.ts';
import { XlsxWriter, type XlsxSheetSetup, type XlsxStyle } from './xlsx-writer.ts';

/** The sheet set-up of report-workbook.ts's sheetOptions, in the writer's terms. */
function setupOf(
  sheetName: string,
  headingRow: number,
  widths: readonly number[],
  title: string,
  keyColumns: number | undefined,
): XlsxSheetSetup {
  const options = sheetOptions(headingRow, widths, title, keyColumns);
  const view = options.views[0]!;
  const page = options.pageSetup as typeof options.pageSetup & {
    fitToWidth?: number;
    fitToHeight?: number;
    scale?: number;
  };
  return {
    name: sheetName,
    widths,
    frozen: {
      rows: view.ySplit,
      columns: 'xSplit' in view ? (view.xSplit ?? 0) : 0,
      topLeftCell: view.topLeftCell,
      activeCell: view.activeCell,
    },
    showGridLines: view.showGridLines,
    autoFilter: options.autoFilter,
    page: {
      orientation: page.orientation,
      paperSize: page.paperSize,
      ...(page.fitToPage
        ? { fit: { width: page.fitToWidth ?? 1, height: page.fitToHeight ?? 0 }, scale: 100 }
        : { scale: page.scale }),
      margins: page.margins,
      titleRows: page.printTitlesRow,
      ...('printTitlesColumn' in page ? { titleColumns: page.printTitlesColumn } : {}),
    },
    footer: options.headerFooter.oddFooter,
  };
}

/** Rows are deflated in pieces; between them the thread may serve its port. */
const ROWS_PER_PIECE = 500;

/**
 * Writes a one-sheet report into `output` with the streaming writer, then ends it. With `fitWidths` the columns fit
 * their values (the rows are read twice: give an array); without, their headings and set widths.
 */
export async function writeReportXlsx(
  output: Writable,
  sheetName: string,
  header: ReportHeader,
  table: ReportTable,
  fitWidths: boolean,
): Promise<void> {
  const headingRow = headingRowOf(header);
  const widths = fitWidths ? fittedWidths(table, [...table.rows].map(rowOf)) : widthsOf(table.columns, []);
  const writer = new XlsxWriter(output, {
    creator: header.author,
    title: header.title,
    created: header.date,
  });
  await writer.start(setupOf(sheetName, headingRow, widths, header.title, table.keyColumns));
  const span = printLayout(widths, table.keyColumns).headerSpan;
  const tableWidth = widths.slice(0, span).reduce((sum, width) => sum + width, 0);
  const lineLooks = new Map<Partial<ExcelJS.Font>, number>();
  const lineLook = (font: Partial<ExcelJS.Font>) => {
    let look = lineLooks.get(font);
    if (look === undefined) {
      look = writer.style({ font: { ...FACE, ...font }, alignment: { wrapText: true, vertical: 'top' } });
      lineLooks.set(font, look);
    }
    return look;
  };
  /** A line of the header block or the footnotes: spanning the table's first columns, wrapped there. */
  const writeLine = (rowNumber: number, line: string, font: Partial<ExcelJS.Font>) => {
    const look = lineLook(font);
    writer.row(rowNumber, lineHeight(line, font.size ?? 11, tableWidth));
    writer.cell(1, line, look);
    // The cells under a merge keep the first one's look, as exceljs writes them.
    for (let column = 2; column <= span; column += 1) writer.cell(column, null, look);
    if (span > 1) writer.merge(`A${rowNumber}:${columnLetter(span)}${rowNumber}`);
  };
  const lines = headerLines(header);
  lines.forEach((line, index) =>
    writeLine(index + 1, line, index === 0 ? LINE_FONTS.title : LINE_FONTS.line),
  );
  let rowNumber = headingRow - 1;
  let lowBases = false;

  const writeHeadings = (columns: readonly ReportColumn[]) => {
    rowNumber += 1;
    const headings = uniqueHeadings(columns.map((column) => humanHeading(column.header)));
    const heights = columns.map((column, index) =>
      wrappedLines(humanHeading(column.header), (widths[index] ?? 12) - 2),
    );
    writer.row(rowNumber, 15 * Math.max(1, ...heights));
    headings.forEach((text, index) =>
      writer.cell(index + 1, text, writer.style(headingStyle(columns[index]?.kind))),
    );
  };

  const writeRows = async (
    columns: readonly ReportColumn[],
    rows: Iterable<ReportRow | readonly ReportCell[]>,
  ): Promise<void> => {
    const columnKinds: CellKind[] = columns.map((column) => column.kind);
    const rooms = columns.map((_, index) => Math.floor((widths[index] ?? 12) * TEXT_PER_WIDTH));
    const spanLooks = new Map<XlsxStyle, number>();
    // The look of a plain cell (a bare value in a plain row) by column and value type: most cells.
    const plainLooks: number[] = [];
    // Each column's last wrapped text and its lines: the rows of a study repeat its project's name.
    const lastWrapped: (string | undefined)[] = [];
    const lastLines: number[] = [];
    let written = 0;
    for (const entry of rows) {
      const row = rowOf(entry);
      rowNumber += 1;
      // A wrapped text gets the lines it needs: readers do not all size such a row themselves.
      let lines = 1;
      const cells = row.cells;
      for (let index = 0; index < cells.length; index += 1) {
        const cell = cells[index];
        const value = cell !== null && typeof cell === 'object' ? cell.value : cell;
        if (typeof value === 'string' && value.length > rooms[index]!) {
          if (lastWrapped[index] !== value) {
            lastWrapped[index] = value;
            lastLines[index] = wrappedLines(value, rooms[index]!);
          }
          lines = Math.max(lines, lastLines[index]!);
        }
      }
      // A text from spanFrom to the table's end (a test's result): one merged cell, wrapped over it.
      const spanFrom = row.spanFrom !== undefined && row.spanFrom < columns.length - 1 ? row.spanFrom : -1;
      let height = lines > 1 ? 15 * lines : undefined;
      if (spanFrom >= 0) {
        const cell = cells[spanFrom];
        const value = cell !== null && typeof cell === 'object' ? cell?.value : cell;
        const shown = typeof value === 'number' && !Number.isFinite(value) ? null : value;
        const spanWidth = widths.slice(spanFrom).reduce((sum, width) => sum + width, 0);
        height = 15 * wrappedLines(String(shown ?? ''), Math.floor(spanWidth * TEXT_PER_WIDTH));
      }
      writer.row(rowNumber, height);
      const plain =
        spanFrom < 0 && row.kind === undefined && row.emphasis !== true && row.groupStart !== true;
      let spanLook = 0;
      for (let index = 0; index < cells.length; index += 1) {
        const bare = cells[index];
        // (A p-value's format follows its size: it takes the general way.)
        if (plain && (bare === null || typeof bare !== 'object') && columnKinds[index] !== 'p') {
          const variant =
            bare === null || bare === undefined
              ? 0
              : typeof bare === 'string'
                ? 1
                : Number.isInteger(bare)
                  ? 2
                  : Number.isFinite(bare)
                    ? 3
                    : 4;
          const slot = index * 5 + variant;
          let look = plainLooks[slot];
          if (look === undefined) {
            const kind = columnKinds[index] ?? 'text';
            look = writer.style(styleOf(kind, bare ?? null, false, false, kind, undefined, false));
            plainLooks[slot] = look;
          }
          writer.cell(index + 1, bare ?? null, look);
          continue;
        }
        // The cells under the merge keep the look its first cell had, as exceljs writes them.
        if (spanFrom >= 0 && index > spanFrom) {
          writer.cell(index + 1, null, spanLook);
          continue;
        }
        const cell = cells[index];
        const object = cell !== null && typeof cell === 'object' ? cell : null;
        const value = object ? object.value : ((cell ?? null) as string | number | null);
        const kind =
          object?.kind ?? (typeof value === 'number' ? row.kind : undefined) ?? columnKinds[index] ?? 'text';
        const lowBase = object?.lowBase === true && typeof value === 'number';
        if (lowBase) lowBases = true;
        const shown = typeof value === 'number' && !Number.isFinite(value) ? null : value;
        const style = styleOf(
          kind,
          value,
          lowBase,
          row.emphasis === true,
          columnKinds[index] ?? 'text',
          object?.tone,
          row.groupStart === true,
        );
        if (index === spanFrom) {
          spanLook = writer.style(style);
          let look = spanLooks.get(style);
          if (look === undefined) {
            look = writer.style({
              ...style,
              alignment: { horizontal: 'left', vertical: 'top', wrapText: true },
            });
            spanLooks.set(style, look);
          }
          writer.cell(index + 1, shown, look);
        } else writer.cell(index + 1, shown, writer.style(style));
      }
      if (spanFrom >= 0)
        writer.merge(`${columnLetter(spanFrom + 1)}${rowNumber}:${columnLetter(columns.length)}${rowNumber}`);
      written += 1;
      if (written % ROWS_PER_PIECE === 0) await writer.flush();
    }
  };

  writeHeadings(table.columns);
  await writeRows(table.columns, table.rows);
  for (const more of table.more ?? []) {
    rowNumber += 2;
    writer.row(rowNumber);
    writer.cell(1, more.title, writer.style({ font: LINE_FONTS.tableTitle }));
    writeHeadings(more.columns);
    await writeRows(more.columns, more.rows);
  }
  const footnotes = [...(table.footnotes ?? []), ...(lowBases ? [LOW_BASE_NOTE] : [])];
  if (footnotes.length > 0) {
    rowNumber += 1;
    for (const line of footnotes) {
      rowNumber += 1;
      writeLine(rowNumber, line, LINE_FONTS.footnote);
    }
  }
  await writer.finish();
}

/** A value as a cell: lists become "a, b", missing values and empty lists an empty cell. */
export function cellOf(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.length === 0 ? null : value.join(', ');
  if (typeof value === 'number') return value;
  return String(value);
}

/** The rows of a JSON text (an array of rows, each an array of values) as cells. */
export function* jsonRows(text: string): Generator<(string | number | null)[]> {
  const rows = JSON.parse(text) as unknown[][];
  for (const row of rows) {
    for (let index = 0; index < row.length; index += 1) row[index] = cellOf(row[index]);
    yield row as (string | number | null)[];
  }
}

/** Between two rows of a delimited text (see DelimitedRows). */
export const ROW_SEPARATOR = '\u001e';
/** Between two values of a row. */
export const FIELD_SEPARATOR = '\u001f';
/** A missing value, alone in its place (an empty text is the empty place). */
export const MISSING_VALUE = '\u001d';

/**
 * Rows as one delimited text, as the database writes a search's export (SearchRepository.exportRows):
 * it concatenates plain texts at a third of the cost of writing them as JSON, which escapes each
 * character, and leaves the rows unsorted (sorting 21,000 rows that wide spilled to disk there).
 * Rows are separated by ROW_SEPARATOR, values by FIELD_SEPARATOR; each row starts with the integer
 * keys it sorts by, then the values of the columns; lists arrive joined as "a, b".
 */
export interface DelimitedRows {
  text: string;
  /** How many rows the text holds. */
  count: number;
  /** Each key's direction, the first key first. */
  order: readonly ('asc' | 'desc')[];
  /** Each column's values are numbers (written as text), or texts. */
  numeric: readonly boolean[];
}

/** A number's text as its number; a text that is no finite number (NaN) stays a text, as in JSON. */
function numberOf(text: string): number | string {
  const value = Number(text);
  return Number.isFinite(value) && text !== '' ? value : text;
}

/**
 * The rows of a delimited text in their keys' order, each the columns' values (null when missing);
 * or null when the text is not `count` rows of as many values as it should hold, which only a value
 * holding a separator makes (read such rows another way, e.g. as JSON). The text is checked whole
 * before the first row is given; each row is split when it is read.
 */
export function delimitedRows(source: DelimitedRows): Iterable<(string | number | null)[]> | null {
  const { text, count, order, numeric } = source;
  if (count === 0) return text === '' ? [] : null;
  const lines = text.split(ROW_SEPARATOR);
  if (lines.length !== count) return null;
  const keyCount = order.length;
  const separators = keyCount + numeric.length - 1;
  const keys = new Float64Array(count * keyCount);
  for (let row = 0; row < count; row += 1) {
    const line = lines[row]!;
    let start = 0;
    let found = 0;
    for (let at = line.indexOf(FIELD_SEPARATOR); at !== -1; at = line.indexOf(FIELD_SEPARATOR, at + 1)) {
      if (found < keyCount) {
        const key = Number(line.slice(start, at));
        if (!Number.isInteger(key)) return null;
        keys[row * keyCount + found] = key;
        start = at + 1;
      }
      found += 1;
    }
    if (found !== separators) return null;
  }
  const signs = order.map((direction) => (direction === 'desc' ? -1 : 1));
  const sorted = Array.from({ length: count }, (_, index) => index).sort((a, b) => {
    for (let key = 0; key < keyCount; key += 1) {
      const difference = keys[a * keyCount + key]! - keys[b * keyCount + key]!;
      if (difference !== 0) return difference * signs[key]!;
    }
    return 0;
  });
  return (function* () {
    const width = numeric.length;
    for (const index of sorted) {
      const values = lines[index]!.split(FIELD_SEPARATOR);
      const cells = new Array<string | number | null>(width);
      for (let column = 0; column < width; column += 1) {
        const value = values[keyCount + column]!;
        cells[column] = value === MISSING_VALUE ? null : numeric[column] ? numberOf(value) : value;
      }
      yield cells;
    }
  })();
}
