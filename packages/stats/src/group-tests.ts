// Omnibus tests over several products (METRICS.md section 3): one-way ANOVA and Kruskal-Wallis for
// independent groups, the two-way ANOVA without interaction (respondents as blocks) and Friedman for
// repeated measures. Conventions follow SciPy (`f_oneway`, `kruskal`, `friedmanchisquare`).
//
// Inputs: `groups[j]` holds the answers of product j (unpaired designs); `blocks[i][j]` is the answer of
// respondent i to product j (paired designs: rows are respondents, columns products). Missing answers
// are non-finite numbers. A product without any answer is left out (k counts the products tested); in
// blocked designs a respondent who did not answer every remaining product is left out, since the tests
// need complete blocks. When a test is undefined for what is left (fewer than two products, no residual
// degrees of freedom, every value tied) its statistic and p-value are NaN, as in SciPy; zero residual
// variance with differing means gives an infinite statistic and p-value 0.
import {
  finiteValues,
  meanAndSquaredDeviations,
  rankWithTies,
  sum,
  tieCorrectionTerm,
} from './descriptive.ts';
import { chiSquareSf, fSf } from './distributions.ts';

/** Result of an F test (one-way or blocked two-way ANOVA). */
export interface FTestResult {
  /** F statistic: mean square of products over the error mean square. */
  statistic: number;
  /** Numerator degrees of freedom, k − 1. */
  df1: number;
  /** Error degrees of freedom: N − k (one-way) or (k − 1)(n − 1) (blocked). */
  df2: number;
  pValue: number;
  /** Error (residual) mean square, the MSE that Tukey's HSD reuses. */
  meanSquareError: number;
  /** Products tested (those with at least one answer). */
  k: number;
  /** Answers used (one-way) or complete respondents used (blocked). */
  n: number;
}

/** Result of a chi-square omnibus test (Kruskal-Wallis, Friedman, Cochran's Q). */
export interface ChiSquareTestResult {
  statistic: number;
  /** Degrees of freedom, k − 1. */
  df: number;
  pValue: number;
  /** Products tested. */
  k: number;
  /** Answers used (Kruskal-Wallis) or complete respondents used (Friedman, Cochran's Q). */
  n: number;
}

/** Complete blocks of a repeated-measures table, with the products (columns) they keep. */
export interface CompleteBlocks {
  /** Indexes (into the input columns) of the products that have at least one answer. */
  products: number[];
  /** Respondents with an answer to every kept product; each row lists those answers in `products` order. */
  rows: number[][];
}

/**
 * Keeps the products with at least one finite answer, then the respondents who answered all of them.
 * @throws RangeError when rows have different lengths.
 */
export function completeBlocks(blocks: readonly (readonly number[])[]): CompleteBlocks {
  const width = blocks[0]?.length ?? 0;
  if (blocks.some((row) => row.length !== width)) {
    throw new RangeError('Every respondent row needs one entry per product (rows of different lengths)');
  }
  const products: number[] = [];
  for (let j = 0; j < width; j++) {
    if (blocks.some((row) => Number.isFinite(row[j]))) products.push(j);
  }
  const rows: number[][] = [];
  for (const row of blocks) {
    const kept = products.map((j) => row[j] ?? Number.NaN);
    if (kept.every((value) => Number.isFinite(value))) rows.push(kept);
  }
  return { products, rows };
}

/** numerator / denominator with +Infinity for a positive numerator over zero and NaN for 0/0. */
export function safeRatio(numerator: number, denominator: number): number {
  if (denominator > 0) return numerator / denominator;
  if (denominator === 0 && numerator > 0 && Number.isFinite(numerator)) return Number.POSITIVE_INFINITY;
  return Number.NaN;
}

/** The finite answers of each group, with the groups left that have any. */
function nonEmptyGroups(groups: readonly (readonly number[])[]): number[][] {
  return groups.map((group) => finiteValues(group)).filter((group) => group.length > 0);
}

/**
 * One-way ANOVA of independent groups (SciPy `f_oneway`): F = (SS between / (k − 1)) / (SS within /
 * (N − k)). Needs two non-empty groups and N > k; otherwise NaN.
 */
export function oneWayAnova(groups: readonly (readonly number[])[]): FTestResult {
  const kept = nonEmptyGroups(groups);
  const k = kept.length;
  const n = sum(kept.map((group) => group.length));
  const df1 = k - 1;
  const df2 = n - k;
  if (k < 2 || df2 < 1) return undefinedF(Math.max(df1, 0), Math.max(df2, 0), k, n);
  const summaries = kept.map((group) => meanAndSquaredDeviations(group));
  const grandMean = meanAndSquaredDeviations(kept.flat()).mean;
  const within = sum(summaries.map((summary) => summary.squaredDeviations));
  const between = sum(summaries.map((summary) => summary.n * (summary.mean - grandMean) ** 2));
  const meanSquareError = within / df2;
  const statistic = safeRatio(between / df1, meanSquareError);
  return { statistic, df1, df2, pValue: fPValue(statistic, df1, df2), meanSquareError, k, n };
}

/**
 * Two-way ANOVA without interaction on complete blocks (products × respondents), the F test of products:
 * F = MS products / MS error with k − 1 and (k − 1)(n − 1) df. Needs two products and two complete
 * respondents; otherwise NaN.
 */
export function blockedAnova(blocks: readonly (readonly number[])[]): FTestResult {
  const { rows } = completeBlocks(blocks);
  const n = rows.length;
  const k = rows[0]?.length ?? 0;
  const df1 = k - 1;
  const df2 = (k - 1) * (n - 1);
  if (k < 2 || n < 2) return undefinedF(Math.max(df1, 0), Math.max(df2, 0), k, n);
  const { productMeans, squaredResiduals, grandMean } = twoWayParts(rows);
  const betweenProducts = n * sum(productMeans.map((productMean) => (productMean - grandMean) ** 2));
  const meanSquareError = squaredResiduals / df2;
  const statistic = safeRatio(betweenProducts / df1, meanSquareError);
  return { statistic, df1, df2, pValue: fPValue(statistic, df1, df2), meanSquareError, k, n };
}

/** Product means, grand mean and residual sum of squares of the additive two-way model. */
export function twoWayParts(rows: readonly (readonly number[])[]): {
  productMeans: number[];
  grandMean: number;
  squaredResiduals: number;
} {
  const k = rows[0]?.length ?? 0;
  const productMeans = Array.from(
    { length: k },
    (_, j) => meanAndSquaredDeviations(rows.map((row) => row[j] ?? Number.NaN)).mean,
  );
  const respondentMeans = rows.map((row) => meanAndSquaredDeviations(row).mean);
  const grandMean = meanAndSquaredDeviations(rows.flat()).mean;
  const residuals: number[] = [];
  rows.forEach((row, i) =>
    row.forEach((value, j) =>
      residuals.push(value - (productMeans[j] ?? 0) - (respondentMeans[i] ?? 0) + grandMean),
    ),
  );
  return {
    productMeans,
    grandMean,
    squaredResiduals: sum(residuals.map((residual) => residual * residual)),
  };
}

/**
 * Kruskal-Wallis H test of independent groups with the tie correction (SciPy `kruskal`), chi-square
 * with k − 1 df. Needs two non-empty groups; NaN when every value is tied.
 */
export function kruskalWallis(groups: readonly (readonly number[])[]): ChiSquareTestResult {
  const kept = nonEmptyGroups(groups);
  const k = kept.length;
  const all = kept.flat();
  const n = all.length;
  if (k < 2) return { statistic: Number.NaN, df: Math.max(k - 1, 0), pValue: Number.NaN, k, n };
  const { ranks, tieSizes } = rankWithTies(all);
  let offset = 0;
  let weighted = 0;
  for (const group of kept) {
    const rankSum = sum(ranks.slice(offset, offset + group.length));
    weighted += (rankSum * rankSum) / group.length;
    offset += group.length;
  }
  const uncorrected = (12 / (n * (n + 1))) * weighted - 3 * (n + 1);
  const correction = 1 - tieCorrectionTerm(tieSizes) / (n * n * n - n);
  const statistic = correction > 0 ? uncorrected / correction : Number.NaN;
  const df = k - 1;
  return { statistic, df, pValue: chiSquarePValue(statistic, df), k, n };
}

/**
 * Friedman test on complete blocks (SciPy `friedmanchisquare`): ranks within each respondent, chi-square
 * with k − 1 df, corrected for ties. Needs two products and one complete respondent; NaN when every
 * respondent gave all products the same answer.
 */
export function friedmanTest(blocks: readonly (readonly number[])[]): ChiSquareTestResult {
  const { rows } = completeBlocks(blocks);
  const n = rows.length;
  const k = rows[0]?.length ?? 0;
  const df = k - 1;
  if (k < 2 || n < 1) return { statistic: Number.NaN, df: Math.max(df, 0), pValue: Number.NaN, k, n };
  const rankSums = new Array<number>(k).fill(0);
  let ties = 0;
  for (const row of rows) {
    const { ranks, tieSizes } = rankWithTies(row);
    ranks.forEach((rank, j) => (rankSums[j] = (rankSums[j] ?? 0) + rank));
    ties += tieCorrectionTerm(tieSizes);
  }
  const uncorrected =
    (12 / (n * k * (k + 1))) * sum(rankSums.map((rankSum) => rankSum * rankSum)) - 3 * n * (k + 1);
  const correction = 1 - ties / (n * k * (k * k - 1));
  const statistic = correction > 0 ? Math.max(0, uncorrected) / correction : Number.NaN;
  return { statistic, df, pValue: chiSquarePValue(statistic, df), k, n };
}

function fPValue(statistic: number, df1: number, df2: number): number {
  if (Number.isNaN(statistic)) return Number.NaN;
  return fSf(statistic, df1, df2);
}

/** Upper-tail chi-square p-value, NaN for a NaN statistic. */
export function chiSquarePValue(statistic: number, df: number): number {
  if (Number.isNaN(statistic)) return Number.NaN;
  return chiSquareSf(statistic, df);
}

function undefinedF(df1: number, df2: number, k: number, n: number): FTestResult {
  return {
    statistic: Number.NaN,
    df1,
    df2,
    pValue: Number.NaN,
    meanSquareError: Number.NaN,
    k,
    n,
  };
}
