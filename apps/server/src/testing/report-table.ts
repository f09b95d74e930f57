/**
 * Reads a report workbook's sheet back for tests: the header block's lines, the table's headings (the
 * frozen row), its rows up to the first empty row, and the footnotes under it.
 */
import ExcelJS from 'exceljs';

/** A sheet of a report as tests read it. */
export interface ReadReport {
  sheet: ExcelJS.Worksheet;
  /** The header block, title first. */
  lines: string[];
  /** The row number of the headings (the frozen row). */
  headingRow: number;
  headings: unknown[];
  /** The table's rows as cell values (empty cells undefined). */
  rows: unknown[][];
  /** The table's rows as exceljs rows, to read formats. */
  tableRows: ExcelJS.Row[];
  /** Lines under the table. */
  footnotes: string[];
}

/** The workbook of a download's bytes. */
export async function openWorkbook(bytes: unknown): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as ArrayBuffer);
  return workbook;
}

function values(row: ExcelJS.Row, count: number): unknown[] {
  return Array.from({ length: count }, (_, index) => {
    const cell = row.getCell(index + 1);
    // A cell covered by a merge reads as empty, as it shows (exceljs answers the master's value).
    if (cell.isMerged && cell.master !== cell) return undefined;
    return cell.value === null ? undefined : cell.value;
  });
}

/** Reads one report sheet (the first when no name is given). */
export function readReport(workbook: ExcelJS.Workbook, name?: string): ReadReport {
  const sheet = name ? workbook.getWorksheet(name) : workbook.worksheets[0];
  if (!sheet) throw new Error(`No sheet ${name ?? ''}`);
  const view = sheet.views[0] as { ySplit?: number } | undefined;
  const headingRow = view?.ySplit ?? 1;
  const lines: string[] = [];
  for (let row = 1; row < headingRow - 1; row += 1) lines.push(String(sheet.getRow(row).getCell(1).value));
  const heading = sheet.getRow(headingRow);
  const count = heading.cellCount;
  const headings = values(heading, count);
  const rows: unknown[][] = [];
  const tableRows: ExcelJS.Row[] = [];
  let number = headingRow + 1;
  for (; number <= sheet.rowCount; number += 1) {
    const row = sheet.getRow(number);
    if (!row.hasValues) break;
    rows.push(values(row, count));
    tableRows.push(row);
  }
  const footnotes: string[] = [];
  for (number += 1; number <= sheet.rowCount; number += 1) {
    const value = sheet.getRow(number).getCell(1).value;
    if (typeof value === 'string') footnotes.push(value);
  }
  return { sheet, lines, headingRow, headings, rows, tableRows, footnotes };
}

/** What a reader sees of a workbook: sheets, cells with their formats and fonts, widths, views, print set-up. */
export async function readLooks(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return {
    creator: workbook.creator,
    title: workbook.title,
    sheets: workbook.worksheets.map((sheet) => {
      const cells: unknown[] = [];
      sheet.eachRow({ includeEmpty: true }, (row, number) => {
        const written: unknown[] = [];
        row.eachCell({ includeEmpty: true }, (cell, column) => {
          written.push({
            column,
            value: cell.value,
            numFmt: cell.numFmt,
            font: cell.font ?? null,
            alignment: cell.alignment ?? null,
            border: cell.border ?? null,
            fill: cell.fill ?? null,
            merged: cell.isMerged ? cell.master.address : null,
          });
        });
        cells.push({ number, height: row.height, cells: written });
      });
      return {
        name: sheet.name,
        widths: sheet.columns.map((column) => column.width),
        views: sheet.views,
        autoFilter: sheet.autoFilter,
        pageSetup: {
          orientation: sheet.pageSetup.orientation,
          fitToPage: sheet.pageSetup.fitToPage,
          fitToWidth: sheet.pageSetup.fitToWidth,
          scale: sheet.pageSetup.scale,
          printTitlesRow: sheet.pageSetup.printTitlesRow,
          printTitlesColumn: sheet.pageSetup.printTitlesColumn,
        },
        footer: sheet.headerFooter.oddFooter,
        cells,
      };
    }),
  };
}
