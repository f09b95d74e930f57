// Respondent-clustered tests of a product list (METRICS.md section 2): each product against the pooled
// answers of the rest of the list (`cluster_two_sample`) or against the unweighted average of the
// product scores (`cluster_contrast_avg`). Both are the statsmodels OLS fits with a cluster-robust
// covariance by respondent (CR1: G/(G − 1)·(N − 1)/(N − k), t with G − 1 df), written in closed form
// over each respondent's sums per product, so a list of thousands of products costs one pass over the
// (product, respondent) cells instead of one regression per product.
import { studentTPValue } from './distributions.ts';

/**
 * One respondent's answers to one product: how many (`n`), their sum and sum of squares. Boxes pass
 * their 0/1 indicators (sum = sum of squares = answers in the box).
 */
export interface ClusterCell {
  /** Index of the product in the list, 0 ... products − 1. */
  product: number;
  /** The respondent (cluster); only equality matters. */
  cluster: number | string;
  n: number;
  sum: number;
  sumSq: number;
}

/** One product's clustered test. Low-level numbers: NaN where undefined for the data. */
export interface ClusterTestResult {
  /** The product's mean (share) minus the rest's (rest) or the average of the product scores (avg). */
  difference: number;
  stdError: number;
  t: number;
  /** Clusters of the whole fit − 1. */
  df: number;
  /** Two-sided. */
  pValue: number;
  /** The product's answers. */
  n: number;
  /** Respondents with an answer to the product. */
  clustersSelection: number;
  /** Respondents with an answer on the other side (rest: to another product; avg: to any product). */
  clustersOther: number;
  /**
   * False when the rule forbids a test (METRICS.md section 2): no answers, fewer than 2 clusters on a
   * side, zero variance on both sides, or a zero or undefined standard error. Such a product is not
   * significant, never NaN.
   */
  testable: boolean;
}

/**
 * The same cells as columns (one entry per cell): what a long list passes, without an object per
 * cell. `cluster` holds respondent ids as integers.
 */
export interface ClusterColumns {
  product: ArrayLike<number>;
  cluster: ArrayLike<number>;
  n: ArrayLike<number>;
  sum: ArrayLike<number>;
  sumSq: ArrayLike<number>;
}

/**
 * How the cells of a list fall into products and clusters: what every test on the same cells shares
 * (a Calculate tests a metric's mean and its boxes on the same respondents), made once.
 */
export interface ClusterLayout {
  products: number;
  /** Per product: answers. */
  n: Float64Array;
  /** The cells of product p are order[start[p]] ... order[start[p + 1] − 1]. */
  start: Int32Array;
  order: Int32Array;
  /** Per cell: its product, its cluster index and its answers. */
  product: Int32Array;
  clusterOf: Int32Array;
  cellN: Float64Array;
  /** Per cluster: answers over the whole list. */
  clusterN: Float64Array;
  clusters: number;
  /**
   * Whether no cluster has two cells of one product (a respondent answers a product once, as the
   * respondent sums give them): the tests then read each cell as its cluster's own, unmerged.
   */
  distinct: boolean;
}

/** A layout with the values of one test: per product and per cluster sums, per cell sums. */
interface Prepared extends ClusterLayout {
  /** Per product: sum, sum of squares. */
  sum: Float64Array;
  sumSq: Float64Array;
  /** Per cell: sum. */
  cellSum: Float64Array;
  /** Per cluster: sum over the whole list. */
  clusterSum: Float64Array;
}

function columnsOf(cells: readonly ClusterCell[]): ClusterColumns & { clusterKeys: (number | string)[] } {
  return {
    product: cells.map((cell) => cell.product),
    cluster: cells.map((_, index) => index),
    clusterKeys: cells.map((cell) => cell.cluster),
    n: cells.map((cell) => cell.n),
    sum: cells.map((cell) => cell.sum),
    sumSq: cells.map((cell) => cell.sumSq),
  };
}

function layoutOf(
  columns: Pick<ClusterColumns, 'product' | 'cluster' | 'n'>,
  keys: readonly (number | string)[] | null,
  products: number,
): ClusterLayout {
  const count = columns.product.length;
  const dense = keys ? null : denseClusterIndex(columns.cluster, count);
  const n = new Float64Array(products);
  const index = new Map<number | string, number>();
  const product = new Int32Array(count);
  const clusterOf = new Int32Array(count);
  const cellN = new Float64Array(count);
  // At most one cluster a cell: room for them all, cut to the clusters met at the end.
  const clusterN = new Float64Array(count);
  let clusters = 0;
  const start = new Int32Array(products + 1);
  for (let at = 0; at < count; at++) {
    const p = columns.product[at]!;
    if (!(p >= 0 && p < products) || !Number.isInteger(p))
      throw new RangeError(`A cell names product ${p} of a list of ${products}`);
    const key = keys ? keys[at]! : columns.cluster[at]!;
    let g = dense ? dense[key as number]! : index.get(key);
    if (g === undefined || g < 0) {
      g = clusters++;
      if (dense) dense[key as number] = g;
      else index.set(key, g);
    }
    const cellCount = columns.n[at]!;
    product[at] = p;
    clusterOf[at] = g;
    cellN[at] = cellCount;
    clusterN[g]! += cellCount;
    n[p]! += cellCount;
    start[p + 1]!++;
  }
  for (let p = 0; p < products; p++) start[p + 1]! += start[p]!;
  const order = new Int32Array(count);
  const next = start.slice(0, products);
  for (let at = 0; at < count; at++) order[next[product[at]!]!++] = at;
  const lastProductOf = new Int32Array(clusters).fill(-1);
  let distinct = true;
  for (let p = 0; p < products && distinct; p++)
    for (let k = start[p]!; k < start[p + 1]!; k++) {
      const g = clusterOf[order[k]!]!;
      if (lastProductOf[g] === p) {
        distinct = false;
        break;
      }
      lastProductOf[g] = p;
    }
  return {
    distinct,
    products,
    n,
    start,
    order,
    product,
    clusterOf,
    cellN,
    clusterN: clusterN.subarray(0, clusters),
    clusters,
  };
}

/**
 * The layout of cells given as columns (`cluster`: respondent ids as integers); their `sum` and
 * `sumSq` are not read: a test gives its own (clusterRestTestsOn, clusterAverageTestsOn).
 */
export function clusterLayout(
  columns: Pick<ClusterColumns, 'product' | 'cluster' | 'n'>,
  products: number,
): ClusterLayout {
  return layoutOf(columns, null, products);
}

/** The layout with one test's sums per cell, added up per product and per cluster in cell order. */
function withSums(
  layout: ClusterLayout,
  cellSums: ArrayLike<number>,
  cellSumsSq: ArrayLike<number>,
): Prepared {
  const { products, product, clusterOf, clusters } = layout;
  const count = product.length;
  if (cellSums.length !== count || cellSumsSq.length !== count)
    throw new RangeError(`Clustered tests need one sum per cell (${count} cells)`);
  const sum = new Float64Array(products);
  const sumSq = new Float64Array(products);
  const cellSum = cellSums instanceof Float64Array ? cellSums : Float64Array.from(cellSums);
  const clusterSum = new Float64Array(clusters);
  for (let at = 0; at < count; at++) {
    const cellTotal = cellSum[at]!;
    const p = product[at]!;
    clusterSum[clusterOf[at]!]! += cellTotal;
    sum[p]! += cellTotal;
    sumSq[p]! += cellSumsSq[at]!;
  }
  return { ...layout, sum, sumSq, cellSum, clusterSum };
}

function prepare(cells: readonly ClusterCell[] | ClusterColumns, products: number): Prepared {
  const columns = Array.isArray(cells)
    ? columnsOf(cells as readonly ClusterCell[])
    : (cells as ClusterColumns);
  const keys = 'clusterKeys' in columns ? (columns.clusterKeys as (number | string)[]) : null;
  return withSums(layoutOf(columns, keys, products), columns.sum, columns.sumSq);
}

/**
 * Clusters given as small non-negative integers (respondent ids) are numbered through an array
 * indexed by id, -1 for an id not met yet, instead of a map: a list of 1,000 products has 150,000
 * cells. Null when an id is not such an integer or the ids are too sparse for the array to pay.
 */
function denseClusterIndex(cluster: ArrayLike<number>, count: number): Int32Array | null {
  let max = -1;
  for (let at = 0; at < count; at++) {
    const id = cluster[at]!;
    if (!(Number.isInteger(id) && id >= 0)) return null;
    if (id > max) max = id;
  }
  if (max >= Math.max(1 << 20, 8 * count)) return null;
  return new Int32Array(max + 1).fill(-1);
}

/**
 * A product's cells merged per cluster (a respondent may answer a product more than once), into
 * scratch arrays indexed by cluster; returns how many clusters it touched, listed in `touched`.
 */
function mergeProduct(
  data: Prepared,
  p: number,
  values: Float64Array,
  scratch: { n: Float64Array; sum: Float64Array; touched: Int32Array; seen: Int32Array },
  stamp: number,
): number {
  let touched = 0;
  for (let k = data.start[p]!; k < data.start[p + 1]!; k++) {
    const at = data.order[k]!;
    const g = data.clusterOf[at]!;
    if (scratch.seen[g] !== stamp) {
      scratch.seen[g] = stamp;
      scratch.n[g] = 0;
      scratch.sum[g] = 0;
      scratch.touched[touched++] = g;
    }
    scratch.n[g]! += data.cellN[at]!;
    scratch.sum[g]! += values[at]!;
  }
  return touched;
}

function scratchFor(data: Prepared) {
  return {
    n: new Float64Array(data.clusters),
    sum: new Float64Array(data.clusters),
    touched: new Int32Array(data.clusters),
    seen: new Int32Array(data.clusters).fill(-1),
  };
}

/** Sum of squared deviations from the mean, from sums (0 when every value is the same, up to rounding). */
function hasVariance(n: number, sum: number, sumSq: number): boolean {
  if (n < 2) return false;
  const deviations = sumSq - (sum * sum) / n;
  return deviations > 1e-12 * Math.max(1, sumSq);
}

function finish(
  difference: number,
  meat: number,
  factor: number,
  df: number,
  base: Omit<ClusterTestResult, 'difference' | 'stdError' | 't' | 'df' | 'pValue' | 'testable'>,
  allowed: boolean,
): ClusterTestResult {
  const stdError = Math.sqrt(factor * Math.max(0, meat));
  const t = difference / stdError;
  const pValue = Number.isNaN(t) ? Number.NaN : studentTPValue(t, df, 'two-sided');
  const testable =
    allowed &&
    Number.isFinite(difference) &&
    Number.isFinite(stdError) &&
    stdError > 1e-12 * Math.max(1, Math.abs(difference)) &&
    Number.isFinite(pValue);
  return { difference, stdError, t, df, pValue, ...base, testable };
}

function noAnswers(clusters: number): ClusterTestResult {
  return {
    difference: Number.NaN,
    stdError: Number.NaN,
    t: Number.NaN,
    df: clusters - 1,
    pValue: Number.NaN,
    n: 0,
    clustersSelection: 0,
    clustersOther: clusters,
    testable: false,
  };
}

/**
 * Every product of the list against the pooled answers of every other product: the slope of OLS
 * `y ~ 1 + selection` with CR1 cluster-robust standard errors by respondent, t with G − 1 df (G: the
 * respondents of the whole list). Cells of one (product, respondent) may repeat; they add up.
 */
export function clusterRestTests(
  cells: readonly ClusterCell[] | ClusterColumns,
  products: number,
): ClusterTestResult[] {
  return restTests(prepare(cells, products));
}

/**
 * clusterRestTests on a layout made once (clusterLayout) with one test's sum and sum of squares per
 * cell (a box: its 0/1 counts, both): the same numbers, without laying the cells out again.
 */
export function clusterRestTestsOn(
  layout: ClusterLayout,
  sum: ArrayLike<number>,
  sumSq: ArrayLike<number>,
): ClusterTestResult[] {
  return restTests(withSums(layout, sum, sumSq));
}

function restTests(data: Prepared): ClusterTestResult[] {
  const { products } = data;
  const scratch = scratchFor(data);
  const { clusterN, clusterSum, clusters } = data;
  let total = 0;
  let totalSum = 0;
  let totalSumSq = 0;
  for (let p = 0; p < products; p++) {
    total += data.n[p]!;
    totalSum += data.sum[p]!;
    totalSumSq += data.sumSq[p]!;
  }
  const mean = totalSum / total;
  // Each respondent's deviation from the list mean, D = T − C·m, and the sums that give
  // Σ (D − C·δ)² for any shift δ without a pass over the respondents.
  let dd = 0;
  let dc = 0;
  let cc = 0;
  const deviation = new Float64Array(clusters);
  for (let g = 0; g < clusters; g++) {
    const d = clusterSum[g]! - clusterN[g]! * mean;
    deviation[g] = d;
    dd += d * d;
    dc += d * clusterN[g]!;
    cc += clusterN[g]! * clusterN[g]!;
  }
  const factor =
    clusters > 1 && total > 2 ? (clusters / (clusters - 1)) * ((total - 1) / (total - 2)) : Number.NaN;
  const df = clusters - 1;
  const results: ClusterTestResult[] = [];
  for (let p = 0; p < products; p++) {
    const n1 = data.n[p]!;
    if (n1 === 0) {
      results.push(noAnswers(clusters));
      continue;
    }
    const n0 = total - n1;
    const m1 = data.sum[p]! / n1;
    const m0 = (totalSum - data.sum[p]!) / n0;
    const delta = m0 - mean;
    let ratersNonSelection = 0;
    let ratersShift = 0;
    let meat = 0;
    let onlyHere = 0;
    // Distinct: a product's cells are its clusters' own sums, in the order merging would list them.
    const touched = data.distinct
      ? data.start[p + 1]! - data.start[p]!
      : mergeProduct(data, p, data.cellSum, scratch, p);
    const first = data.start[p]!;
    for (let k = 0; k < touched; k++) {
      const at = data.distinct ? data.order[first + k]! : -1;
      const g = data.distinct ? data.clusterOf[at]! : scratch.touched[k]!;
      const ownN = data.distinct ? data.cellN[at]! : scratch.n[g]!;
      const ownSum = data.distinct ? data.cellSum[at]! : scratch.sum[g]!;
      const restN = clusterN[g]! - ownN;
      if (restN === 0) onlyHere++;
      const a = (ownSum - ownN * m1) / n1;
      const b = (clusterSum[g]! - ownSum - restN * m0) / n0;
      meat += (a - b) ** 2;
      const shifted = deviation[g]! - clusterN[g]! * delta;
      ratersShift += shifted * shifted;
      ratersNonSelection++;
    }
    // Respondents who did not answer this product: b = (D − C·δ)/N0 and a = 0.
    const allShift = dd - 2 * delta * dc + delta * delta * cc;
    meat += Math.max(0, allShift - ratersShift) / (n0 * n0);
    const restSum = totalSum - data.sum[p]!;
    const restSumSq = totalSumSq - data.sumSq[p]!;
    const clustersOther = clusters - onlyHere;
    const allowed =
      n0 > 0 &&
      ratersNonSelection >= 2 &&
      clustersOther >= 2 &&
      (hasVariance(n1, data.sum[p]!, data.sumSq[p]!) || hasVariance(n0, restSum, restSumSq));
    results.push(
      finish(
        m1 - m0,
        meat,
        factor,
        df,
        { n: n1, clustersSelection: ratersNonSelection, clustersOther },
        allowed,
      ),
    );
  }
  return results;
}

/**
 * Every product of the list against the unweighted average of the product scores, itself included:
 * the contrast e_i − (1/K)·1 of OLS `y ~ 0 + product` with CR1 cluster-robust covariance by respondent
 * (t with G − 1 df). Products without answers are not in the fit (K counts the others) and are not
 * tested.
 */
export function clusterAverageTests(
  cells: readonly ClusterCell[] | ClusterColumns,
  products: number,
): ClusterTestResult[] {
  return averageTests(prepare(cells, products));
}

/** clusterAverageTests on a layout made once, as clusterRestTestsOn. */
export function clusterAverageTestsOn(
  layout: ClusterLayout,
  sum: ArrayLike<number>,
  sumSq: ArrayLike<number>,
): ClusterTestResult[] {
  return averageTests(withSums(layout, sum, sumSq));
}

function averageTests(data: Prepared): ClusterTestResult[] {
  const { products } = data;
  const scratch = scratchFor(data);
  const { clusters } = data;
  const means = new Float64Array(products);
  let k = 0;
  let total = 0;
  let scoreSum = 0;
  let anyVariance = false;
  for (let p = 0; p < products; p++) {
    const n = data.n[p]!;
    if (n === 0) continue;
    k++;
    total += n;
    means[p] = data.sum[p]! / n;
    scoreSum += means[p]!;
    if (hasVariance(n, data.sum[p]!, data.sumSq[p]!)) anyVariance = true;
  }
  const average = scoreSum / k;
  // Each respondent's V = Σ_j u_gj with u_gj = (s_gj − n_gj·m_j)/n_j, and u per cell.
  const v = new Float64Array(clusters);
  const u = new Float64Array(data.cellN.length);
  for (let p = 0; p < products; p++) {
    for (let c = data.start[p]!; c < data.start[p + 1]!; c++) {
      const at = data.order[c]!;
      const value = (data.cellSum[at]! - data.cellN[at]! * means[p]!) / data.n[p]!;
      u[at] = value;
      v[data.clusterOf[at]!]! += value;
    }
  }
  let vv = 0;
  for (let g = 0; g < clusters; g++) vv += v[g]! * v[g]!;
  const factor =
    clusters > 1 && total > k ? (clusters / (clusters - 1)) * ((total - 1) / (total - k)) : Number.NaN;
  const df = clusters - 1;
  const results: ClusterTestResult[] = [];
  for (let p = 0; p < products; p++) {
    const n = data.n[p]!;
    if (n === 0) {
      results.push(noAnswers(clusters));
      continue;
    }
    const touched = data.distinct
      ? data.start[p + 1]! - data.start[p]!
      : mergeProduct(data, p, u, scratch, p);
    const first = data.start[p]!;
    let meat = 0;
    let ratersV = 0;
    for (let at = 0; at < touched; at++) {
      const cell = data.distinct ? data.order[first + at]! : -1;
      const g = data.distinct ? data.clusterOf[cell]! : scratch.touched[at]!;
      const own = data.distinct ? u[cell]! : scratch.sum[g]!;
      meat += (own - v[g]! / k) ** 2;
      ratersV += v[g]! * v[g]!;
    }
    meat += Math.max(0, vv - ratersV) / (k * k);
    const allowed = k >= 2 && touched >= 2 && clusters >= 2 && anyVariance;
    results.push(
      finish(
        means[p]! - average,
        meat,
        factor,
        df,
        { n, clustersSelection: touched, clustersOther: clusters },
        allowed,
      ),
    );
  }
  return results;
}

/** Answers (missing ones dropped) as cells of one answer each. */
function cellsOfRows(
  values: readonly number[],
  productOf: (index: number) => number,
  clusters: readonly (number | string)[],
): ClusterCell[] {
  if (clusters.length !== values.length)
    throw new RangeError(
      `Clustered tests need one cluster per value (got ${clusters.length} clusters and ${values.length} values)`,
    );
  const cells: ClusterCell[] = [];
  values.forEach((value, index) => {
    const cluster = clusters[index];
    if (!Number.isFinite(value) || cluster === null || cluster === undefined) return;
    cells.push({ product: productOf(index), cluster, n: 1, sum: value, sumSq: value * value });
  });
  return cells;
}

/** Result of {@link clusterTwoSample}: reference case `cluster_two_sample`. */
export interface ClusterTwoSampleResult {
  difference: number;
  stdError: number;
  t: number;
  df: number;
  pValue: number;
}

/**
 * Values of group 1 (the selection) against group 0 (the rest), respondents as clusters:
 * `OLS(values, add_constant(group)).fit(cov_type="cluster", use_t=True)`, the slope. Respondents may be
 * in both groups or several times in one. NaN where undefined (one cluster, an empty group).
 */
export function clusterTwoSample(
  values: readonly number[],
  group: readonly number[],
  clusters: readonly (number | string)[],
): ClusterTwoSampleResult {
  if (group.length !== values.length)
    throw new RangeError(`Clustered two-sample test needs one group per value (got ${group.length})`);
  if (group.some((entry) => entry !== 0 && entry !== 1))
    throw new RangeError('Clustered two-sample test needs groups 0 (rest) and 1 (selection)');
  const [, selection] = clusterRestTests(
    cellsOfRows(values, (index) => group[index]!, clusters),
    2,
  );
  const { difference, stdError, t, df, pValue } = selection!;
  return { difference, stdError, t, df, pValue };
}

/** Result of {@link clusterContrastAvg}: reference case `cluster_contrast_avg`. */
export interface ClusterContrastAvgResult {
  /** Product labels in sorted (code-point) order; the lists below follow it. */
  products: string[];
  difference: number[];
  stdError: number[];
  t: number[];
  pValue: number[];
  df: number;
}

/**
 * Each product's score against the unweighted average of all product scores (itself included), with
 * respondents as clusters: `OLS(values, product dummies).fit(cov_type="cluster", use_t=True)` and the
 * contrast e_i − (1/K)·1, products in sorted label order.
 */
export function clusterContrastAvg(
  values: readonly number[],
  products: readonly string[],
  clusters: readonly (number | string)[],
): ClusterContrastAvgResult {
  if (products.length !== values.length)
    throw new RangeError(`Clustered contrast needs one product per value (got ${products.length})`);
  const labels = [...new Set(products)].sort();
  const indexOf = new Map(labels.map((label, index) => [label, index]));
  const results = clusterAverageTests(
    cellsOfRows(values, (index) => indexOf.get(products[index]!)!, clusters),
    labels.length,
  );
  return {
    products: labels,
    difference: results.map((result) => result.difference),
    stdError: results.map((result) => result.stdError),
    t: results.map((result) => result.t),
    pValue: results.map((result) => result.pValue),
    df: results[0]?.df ?? Number.NaN,
  };
}
