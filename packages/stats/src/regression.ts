// Ordinary least squares with an intercept, solved by Householder QR (no normal equations, so the
// condition number is not squared). Classic, non-robust standard errors, as statsmodels OLS.
import { meanAndSquaredDeviations, sum } from './descriptive.ts';
import { fSf, studentTPValue } from './distributions.ts';
import { assertAlternative, type Alternative } from './types.ts';

/**
 * A column whose part not explained by the previous columns is below this fraction of its own norm is
 * treated as collinear (the design is then rank deficient).
 */
const COLLINEARITY_TOLERANCE = 1e-10;

/** Options of {@link ols}. */
export interface OlsOptions {
  /** Alternative of the coefficient t-tests; two-sided unless stated. */
  alternative?: Alternative;
}

/** Fitted OLS model. Arrays have one entry per coefficient, the intercept first. */
export interface OlsResult {
  coefficients: number[];
  standardErrors: number[];
  /** t statistics, coefficient / standard error. */
  t: number[];
  pValues: number[];
  rSquared: number;
  /** 1 − (1 − R²)(n − 1)/(n − k). */
  adjRSquared: number;
  /** Overall F statistic of the predictors (NaN without predictors). */
  fStatistic: number;
  fPValue: number;
  /** √(SSR / (n − k)). */
  residualStandardError: number;
  /** Residual degrees of freedom n − k, k = predictors + 1. */
  df: number;
  /** Complete rows used. */
  n: number;
  /** True when the predictors (with the intercept) are collinear or there are fewer rows than coefficients; every number is then NaN. */
  rankDeficient: boolean;
}

/**
 * Ordinary least squares of `y` on `predictors` with an intercept (coefficient 0). `predictors[i]` is
 * the row of predictor values of observation i. Rows with a missing (non-finite) value in y or any
 * predictor are dropped. With n = k the fit is exact and standard errors, t and p are NaN; a constant y
 * gives NaN R² (0/0).
 * @throws RangeError when the row count differs from y's length or rows have different lengths.
 */
export function ols(
  predictors: readonly (readonly number[])[],
  y: readonly number[],
  options: OlsOptions = {},
): OlsResult {
  const alternative = options.alternative ?? 'two-sided';
  assertAlternative(alternative);
  if (predictors.length !== y.length) {
    throw new RangeError(
      `OLS needs one predictor row per observation (got ${predictors.length} rows and ${y.length} values)`,
    );
  }
  const predictorCount = predictors[0]?.length ?? 0;
  if (predictors.some((row) => row.length !== predictorCount)) {
    throw new RangeError('OLS predictor rows must all have the same length');
  }
  const rows: number[][] = [];
  const response: number[] = [];
  predictors.forEach((row, index) => {
    const value = y[index] ?? Number.NaN;
    if (Number.isFinite(value) && row.every((entry) => Number.isFinite(entry))) {
      rows.push([...row]);
      response.push(value);
    }
  });
  const n = rows.length;
  const k = predictorCount + 1;
  const df = n - k;
  const fit = fitLeastSquares(rows, response);
  if (!fit) return rankDeficientResult(k, n, df);

  const { coefficients, residuals, inverse } = fit;
  const residualSumOfSquares = sum(residuals.map((residual) => residual * residual));
  const totalSumOfSquares = meanAndSquaredDeviations(response).squaredDeviations;
  const rSquared = totalSumOfSquares > 0 ? 1 - residualSumOfSquares / totalSumOfSquares : Number.NaN;

  const residualVariance = df > 0 ? residualSumOfSquares / df : Number.NaN;
  // diag((XᵀX)⁻¹) = diag(R⁻¹R⁻ᵀ): squared norms of the rows of R⁻¹.
  const standardErrors = inverse.map((row) =>
    Math.sqrt(residualVariance * sum(row.map((entry) => entry * entry))),
  );
  const t = coefficients.map((coefficient, j) => ratio(coefficient, standardErrors[j] ?? Number.NaN));
  const pValues = t.map((statistic) => (df > 0 ? studentTPValue(statistic, df, alternative) : Number.NaN));
  const fStatistic =
    predictorCount > 0 && df > 0
      ? ratio((totalSumOfSquares - residualSumOfSquares) / predictorCount, residualVariance)
      : Number.NaN;
  return {
    coefficients,
    standardErrors,
    t,
    pValues,
    rSquared,
    adjRSquared: df > 0 ? 1 - ((1 - rSquared) * (n - 1)) / df : Number.NaN,
    fStatistic,
    fPValue: Number.isNaN(fStatistic) ? Number.NaN : fSf(fStatistic, predictorCount, df),
    residualStandardError: Math.sqrt(residualVariance),
    df,
    n,
    rankDeficient: false,
  };
}

/** Least-squares fit with an intercept column first: coefficients, residuals and R⁻¹ of X = QR. */
interface LeastSquaresFit {
  columns: number[][];
  coefficients: number[];
  residuals: number[];
  /** R⁻¹ (row-major); (XᵀX)⁻¹ = R⁻¹R⁻ᵀ. */
  inverse: number[][];
}

/** Fits y on the complete rows (intercept added); null when the design is rank deficient or n < k. */
function fitLeastSquares(
  rows: readonly (readonly number[])[],
  response: readonly number[],
): LeastSquaresFit | null {
  const n = rows.length;
  const k = (rows[0]?.length ?? 0) + 1;
  // Column-major design with the intercept column first.
  const columns: number[][] = [response.map(() => 1)];
  for (let j = 0; j < k - 1; j++) columns.push(rows.map((row) => row[j] ?? 0));
  const decomposition = n >= k ? householderQr(columns, response) : null;
  if (!decomposition) return null;
  const { r, qty } = decomposition;
  const coefficients = solveUpperTriangular(r, qty.slice(0, k));
  const residuals = response.map(
    (value, i) => value - sum(coefficients.map((coefficient, j) => coefficient * (columns[j]?.[i] ?? 0))),
  );
  return { columns, coefficients, residuals, inverse: invertUpperTriangular(r) };
}

/** Fitted OLS model with cluster-robust standard errors. Arrays have one entry per coefficient, the intercept first. */
export interface OlsClusteredResult {
  coefficients: number[];
  /** CR1 cluster-robust standard errors. */
  standardErrors: number[];
  t: number[];
  /** p-values of t with clusters − 1 df. */
  pValues: number[];
  rSquared: number;
  adjRSquared: number;
  /** Degrees of freedom of the t tests: clusters − 1. */
  df: number;
  /** Clusters (respondents) among the rows used. */
  clusters: number;
  /** Complete rows used. */
  n: number;
  /** True when the design is collinear or has fewer rows than coefficients; every number is then NaN. */
  rankDeficient: boolean;
}

/**
 * Ordinary least squares of `y` on `predictors` (rows, intercept added) with standard errors robust to
 * correlation within clusters (respondents rating several products), as statsmodels
 * `OLS(y, X).fit(cov_type="cluster", cov_kwds={"groups": clusters}, use_t=True)`: the sandwich
 * (XᵀX)⁻¹·Σ_g X_gᵀu_g u_gᵀX_g·(XᵀX)⁻¹ times the CR1 factor G/(G − 1)·(n − 1)/(n − k), and t tests with
 * G − 1 df. Coefficients and R² are those of {@link ols}. Rows with a missing value, or a cluster that is
 * null, undefined or NaN, are dropped. With fewer than two clusters the standard errors, t and p are NaN.
 * @throws RangeError when y, the predictor rows and the clusters differ in length.
 */
export function olsClustered(
  y: readonly number[],
  predictors: readonly (readonly number[])[],
  clusters: readonly (string | number | null | undefined)[],
  options: OlsOptions = {},
): OlsClusteredResult {
  if (clusters.length !== y.length) {
    throw new RangeError(
      `Clustered OLS needs one cluster per observation (got ${clusters.length} clusters and ${y.length} values)`,
    );
  }
  const alternative = options.alternative ?? 'two-sided';
  const keep = clusters.map((cluster) => cluster !== null && cluster !== undefined && !Number.isNaN(cluster));
  const classic = ols(
    predictors.filter((_, index) => keep[index]),
    y.filter((_, index) => keep[index]),
    { alternative },
  );
  const predictorCount = predictors[0]?.length ?? 0;
  const rows: number[][] = [];
  const response: number[] = [];
  const groupOf: (string | number)[] = [];
  predictors.forEach((row, index) => {
    const value = y[index] ?? Number.NaN;
    const cluster = clusters[index];
    if (!keep[index] || cluster === null || cluster === undefined) return;
    if (Number.isFinite(value) && row.every((entry) => Number.isFinite(entry))) {
      rows.push([...row]);
      response.push(value);
      groupOf.push(cluster);
    }
  });
  const n = rows.length;
  const k = predictorCount + 1;
  const clusterCount = new Set(groupOf).size;
  const df = clusterCount - 1;
  const fit = classic.rankDeficient ? null : fitLeastSquares(rows, response);
  const missing = (): number[] => new Array<number>(k).fill(Number.NaN);
  if (!fit) {
    return {
      coefficients: missing(),
      standardErrors: missing(),
      t: missing(),
      pValues: missing(),
      rSquared: Number.NaN,
      adjRSquared: Number.NaN,
      df,
      clusters: clusterCount,
      n,
      rankDeficient: true,
    };
  }
  const { columns, coefficients, residuals, inverse } = fit;
  // Scores per cluster: s_g = X_gᵀu_g (length k).
  const scores = new Map<string | number, number[]>();
  groupOf.forEach((cluster, i) => {
    const score = scores.get(cluster) ?? new Array<number>(k).fill(0);
    for (let j = 0; j < k; j++) score[j] = (score[j] ?? 0) + (columns[j]?.[i] ?? 0) * (residuals[i] ?? 0);
    scores.set(cluster, score);
  });
  // bread = (XᵀX)⁻¹ = R⁻¹R⁻ᵀ.
  const bread = inverse.map((rowI) =>
    inverse.map((rowJ) => sum(rowI.map((entry, m) => entry * (rowJ[m] ?? 0)))),
  );
  const meat = Array.from({ length: k }, (_, a) =>
    Array.from({ length: k }, (_, b) =>
      sum([...scores.values()].map((score) => (score[a] ?? 0) * (score[b] ?? 0))),
    ),
  );
  const factor =
    clusterCount > 1 && n > k ? (clusterCount / (clusterCount - 1)) * ((n - 1) / (n - k)) : Number.NaN;
  const standardErrors = coefficients.map((_, j) => {
    // (bread · meat · bread)[j][j] = Σ_a Σ_b bread[j][a]·meat[a][b]·bread[b][j].
    let variance = 0;
    for (let a = 0; a < k; a++) {
      for (let b = 0; b < k; b++)
        variance += (bread[j]?.[a] ?? 0) * (meat[a]?.[b] ?? 0) * (bread[b]?.[j] ?? 0);
    }
    return Math.sqrt(factor * variance);
  });
  const t = coefficients.map((coefficient, j) => ratio(coefficient, standardErrors[j] ?? Number.NaN));
  const pValues = t.map((statistic) => (df > 0 ? studentTPValue(statistic, df, alternative) : Number.NaN));
  return {
    coefficients,
    standardErrors,
    t,
    pValues,
    rSquared: classic.rSquared,
    adjRSquared: classic.adjRSquared,
    df,
    clusters: clusterCount,
    n,
    rankDeficient: false,
  };
}

/** numerator / denominator with ±Infinity for a non-zero numerator over zero and NaN for 0/0. */
function ratio(numerator: number, denominator: number): number {
  if (denominator > 0) return numerator / denominator;
  if (denominator === 0 && numerator !== 0 && Number.isFinite(numerator)) {
    return numerator > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  }
  return Number.NaN;
}

/**
 * Householder QR of the n × k design given by columns (n ≥ k), applied to y as well. Returns the k × k
 * upper-triangular R (row-major) and Qᵀy, or null when a column is collinear with the previous ones.
 */
function householderQr(
  columns: readonly number[][],
  y: readonly number[],
): { r: number[][]; qty: number[] } | null {
  const k = columns.length;
  const n = y.length;
  const work = columns.map((column) => [...column]);
  const qty = [...y];
  const originalNorms = work.map((column) => euclideanNorm(column, 0));
  for (let j = 0; j < k; j++) {
    const column = work[j] ?? [];
    const norm = euclideanNorm(column, j);
    if (!(norm > COLLINEARITY_TOLERANCE * (originalNorms[j] ?? 0))) return null;
    const pivot = column[j] ?? 0;
    // Reflect onto −sign(pivot)·norm so that v = x − alpha·e1 never cancels.
    const alpha = pivot > 0 ? -norm : norm;
    const reflector = column.slice(j);
    reflector[0] = pivot - alpha;
    const reflectorNormSquared = sum(reflector.map((entry) => entry * entry));
    const reflect = (target: number[]): void => {
      let dot = 0;
      for (let i = j; i < n; i++) dot += (reflector[i - j] ?? 0) * (target[i] ?? 0);
      const scale = (2 * dot) / reflectorNormSquared;
      for (let i = j; i < n; i++) target[i] = (target[i] ?? 0) - scale * (reflector[i - j] ?? 0);
    };
    for (let later = j; later < k; later++) reflect(work[later] ?? []);
    reflect(qty);
  }
  const r = Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) => (j >= i ? (work[j]?.[i] ?? 0) : 0)),
  );
  return { r, qty };
}

function euclideanNorm(values: readonly number[], from: number): number {
  // Scaled by the largest magnitude so that squares neither overflow nor underflow.
  let largest = 0;
  for (let i = from; i < values.length; i++) largest = Math.max(largest, Math.abs(values[i] ?? 0));
  if (largest === 0) return 0;
  let squares = 0;
  for (let i = from; i < values.length; i++) squares += ((values[i] ?? 0) / largest) ** 2;
  return largest * Math.sqrt(squares);
}

function solveUpperTriangular(r: readonly number[][], rhs: readonly number[]): number[] {
  const k = rhs.length;
  const solution = new Array<number>(k).fill(0);
  for (let i = k - 1; i >= 0; i--) {
    let value = rhs[i] ?? 0;
    for (let j = i + 1; j < k; j++) value -= (r[i]?.[j] ?? 0) * (solution[j] ?? 0);
    solution[i] = value / (r[i]?.[i] ?? Number.NaN);
  }
  return solution;
}

function invertUpperTriangular(r: readonly number[][]): number[][] {
  const k = r.length;
  const inverse = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let j = 0; j < k; j++) {
    const row = inverse[j] ?? [];
    row[j] = 1 / (r[j]?.[j] ?? Number.NaN);
    for (let i = j - 1; i >= 0; i--) {
      let value = 0;
      for (let m = i + 1; m <= j; m++) value += (r[i]?.[m] ?? 0) * (inverse[m]?.[j] ?? 0);
      const target = inverse[i] ?? [];
      target[j] = -value / (r[i]?.[i] ?? Number.NaN);
    }
  }
  return inverse;
}

function rankDeficientResult(k: number, n: number, df: number): OlsResult {
  const missing = (): number[] => new Array<number>(k).fill(Number.NaN);
  return {
    coefficients: missing(),
    standardErrors: missing(),
    t: missing(),
    pValues: missing(),
    rSquared: Number.NaN,
    adjRSquared: Number.NaN,
    fStatistic: Number.NaN,
    fPValue: Number.NaN,
    residualStandardError: Number.NaN,
    df,
    n,
    rankDeficient: true,
  };
}
