/**
 * The search exports as report workbooks (the house style of lib/report-workbook.ts), streamed from
 * a worker thread so a large export keeps memory flat and the request loop free.
 */
import type { Readable } from 'node:stream';
import type { ReportHeader } from '../../lib/report-workbook.ts';
import { reportStreamOffThread } from '../../workers/pool.ts';
import { cellValue, type ExportColumn } from './search.presenter.ts';

export { columnLetter } from '../../lib/report-workbook.ts';

/** The workbook bytes as a stream: header block, then one row per record under the columns' headings. */
export function xlsxStream(
  sheetName: string,
  header: ReportHeader,
  columns: readonly ExportColumn[],
  rows: Iterable<Record<string, unknown>>,
): Readable {
  function* cells() {
    for (const row of rows) yield columns.map((column) => cellValue(row[column.key]));
  }
  return reportStreamOffThread(
    sheetName,
    header,
    {
      columns: columns.map((column) => ({
        header: column.header,
        kind: column.kind ?? 'text',
        width: column.width,
      })),
      rows: cells(),
      keyColumns:
        columns.findIndex((column) => !column.identifies) === -1
          ? columns.length
          : columns.findIndex((column) => !column.identifies),
    },
    // The widths fit the headings and the columns' set widths, as they always have.
    false,
  );
}
