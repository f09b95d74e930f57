/**
 * The search exports as report workbooks (the house style of lib/report-workbook.ts), streamed from
 * a worker thread so a large export keeps memory flat and the request loop free: the rows come as
 * the delimited text the database wrote (SearchRepository.exportRows) and are sorted and read on the
 * thread.
 */
import type { Readable } from 'node:stream';
import type { ReportHeader, ReportTable } from '../../lib/report-workbook.ts';
import { reportJsonStreamOffThread, reportTextStreamOffThread } from '../../workers/pool.ts';
import type { ExportRows } from './search.repository.ts';
import type { ExportColumn } from './search.presenter.ts';

export { columnLetter } from '../../lib/report-workbook.ts';

/** The table of an export: its columns' headings and set widths, the columns naming a row first. */
function tableOf(columns: readonly ExportColumn[]): Omit<ReportTable, 'rows'> {
  const firstOther = columns.findIndex((column) => !column.identifies);
  return {
    // The widths fit the headings and the columns' set widths, as they always have.
    columns: columns.map((column) => ({
      header: column.header,
      kind: column.kind ?? 'text',
      width: column.width,
    })),
    keyColumns: firstOther === -1 ? columns.length : firstOther,
  };
}

/**
 * The workbook bytes as a stream: header block, then one row per record under the columns' headings.
 * `rows` holds the values of `columns` in order; as a JSON text, an array of rows (lists as arrays).
 */
export function xlsxStream(
  sheetName: string,
  header: ReportHeader,
  columns: readonly ExportColumn[],
  rows: ExportRows | string,
): Readable {
  if (typeof rows === 'string') return reportJsonStreamOffThread(sheetName, header, tableOf(columns), rows);
  return reportTextStreamOffThread(sheetName, header, tableOf(columns), rows.text, rows.json);
}
