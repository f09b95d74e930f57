/**
 * The search exports as report workbooks (the house style of lib/report-workbook.ts), streamed from
 * a worker thread so a large export keeps memory flat and the request loop free: the rows come as
 * the JSON text the database wrote (SearchRepository.exportRows) and are read on the thread.
 */
import type { Readable } from 'node:stream';
import type { ReportHeader } from '../../lib/report-workbook.ts';
import { reportJsonStreamOffThread } from '../../workers/pool.ts';
import type { ExportColumn } from './search.presenter.ts';

export { columnLetter } from '../../lib/report-workbook.ts';

/**
 * The workbook bytes as a stream: header block, then one row per record under the columns' headings.
 * `rowsJson` is an array of rows, each the values of `columns` in order (lists as arrays).
 */
export function xlsxStream(
  sheetName: string,
  header: ReportHeader,
  columns: readonly ExportColumn[],
  rowsJson: string,
): Readable {
  const firstOther = columns.findIndex((column) => !column.identifies);
  return reportJsonStreamOffThread(
    sheetName,
    header,
    {
      // The widths fit the headings and the columns' set widths, as they always have.
      columns: columns.map((column) => ({
        header: column.header,
        kind: column.kind ?? 'text',
        width: column.width,
      })),
      keyColumns: firstOther === -1 ? columns.length : firstOther,
    },
    rowsJson,
  );
}
