/**
 * Each respondent's sums per product for one metric: the data of the respondent-clustered
 * significance tests (METRICS.md section 2). Columns of typed arrays, one entry per (product,
 * respondent), so a long list crosses to a worker thread as a handful of buffers.
 */
export interface RespondentCells {
  product: Int32Array;
  respondent: Int32Array;
  n: Int32Array;
  sum: Float64Array;
  sumSq: Float64Array;
  nTopBox: Int32Array;
  nTop2Box: Int32Array;
  nJustRight: Int32Array;
  nBottom2Box: Int32Array;
  nBottomBox: Int32Array;
}

/**
 * Room for `count` cells. `shared`: each column on a SharedArrayBuffer, so that a worker thread reads
 * the cells where they are instead of a copy (a list of 1,000 products is 143,000 cells, 6 MB, which
 * a copy would cost the request loop milliseconds to write and the thread as many to read).
 */
export function emptyRespondentCells(count: number, shared = false): RespondentCells {
  const int32 = () => (shared ? new Int32Array(new SharedArrayBuffer(count * 4)) : new Int32Array(count));
  const float64 = () =>
    shared ? new Float64Array(new SharedArrayBuffer(count * 8)) : new Float64Array(count);
  return {
    product: int32(),
    respondent: int32(),
    n: int32(),
    sum: float64(),
    sumSq: float64(),
    nTopBox: int32(),
    nTop2Box: int32(),
    nJustRight: int32(),
    nBottom2Box: int32(),
    nBottomBox: int32(),
  };
}

/** The buffers of the cells, to move them to a worker thread. */
export function respondentCellBuffers(cells: RespondentCells): ArrayBuffer[] {
  return Object.values(cells).map((column: Int32Array | Float64Array) => column.buffer as ArrayBuffer);
}
