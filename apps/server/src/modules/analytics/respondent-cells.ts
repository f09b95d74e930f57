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

/** Room for `count` cells. */
export function emptyRespondentCells(count: number): RespondentCells {
  return {
    product: new Int32Array(count),
    respondent: new Int32Array(count),
    n: new Int32Array(count),
    sum: new Float64Array(count),
    sumSq: new Float64Array(count),
    nTopBox: new Int32Array(count),
    nTop2Box: new Int32Array(count),
    nJustRight: new Int32Array(count),
    nBottom2Box: new Int32Array(count),
    nBottomBox: new Int32Array(count),
  };
}

/** The buffers of the cells, to move them to a worker thread. */
export function respondentCellBuffers(cells: RespondentCells): ArrayBuffer[] {
  return Object.values(cells).map((column: Int32Array | Float64Array) => column.buffer as ArrayBuffer);
}
