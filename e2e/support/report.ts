/**
 * Reads a downloaded report workbook: the header block above, the table under its frozen headings
 * (as the app writes every spreadsheet), as records keyed by heading.
 */
import ExcelJS from 'exceljs';

export interface DownloadedReport {
  /** The header block, title first. */
  lines: string[];
  headings: string[];
  /** One record per table row, keyed by heading. */
  rows: Record<string, unknown>[];
}

export async function readReportFile(path: string): Promise<DownloadedReport> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('The workbook has no sheet');
  const headingRow = (sheet.views[0] as { ySplit?: number } | undefined)?.ySplit ?? 1;
  const lines: string[] = [];
  for (let row = 1; row < headingRow - 1; row += 1) lines.push(String(sheet.getRow(row).getCell(1).value));
  const heading = sheet.getRow(headingRow);
  const headings = Array.from({ length: heading.cellCount }, (_, index) =>
    String(heading.getCell(index + 1).value ?? ''),
  );
  const rows: Record<string, unknown>[] = [];
  for (let number = headingRow + 1; number <= sheet.rowCount; number += 1) {
    const row = sheet.getRow(number);
    if (!row.hasValues) break;
    rows.push(Object.fromEntries(headings.map((name, index) => [name, row.getCell(index + 1).value])));
  }
  return { lines, headings, rows };
}
