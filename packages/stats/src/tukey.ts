// Tukey's honestly significant difference for every pair of products (METRICS.md section 3): p-values
// from the studentized range with k products. Unpaired designs use the Tukey-Kramer standard error of
// SciPy `tukey_hsd`; paired designs the error mean square of the blocked two-way ANOVA with
// (k − 1)(n − 1) df. Products without answers (and, when blocked, respondents without a complete row)
// are left out; their rows and columns of the matrices are NaN.
import { finiteValues, meanAndSquaredDeviations, sum } from './descriptive.ts';
import { completeBlocks, safeRatio, twoWayParts } from './group-tests.ts';
import { studentizedRangeSf } from './studentized-range.ts';

/** Pairwise Tukey HSD result; matrices are k × k in the order of the input products. */
export interface TukeyResult {
  /** pValues[i][j]: p-value of products i and j (symmetric; 1 on the diagonal; NaN for a product left out). */
  pValues: number[][];
  /** meanDifferences[i][j] = mean of i − mean of j (0 on the diagonal; NaN for a product left out). */
  meanDifferences: number[][];
  /** Studentized range statistics q = |difference| / standard error (0 on the diagonal). */
  statistics: number[][];
  /** Product means (NaN for a product without answers). */
  means: number[];
  /** Error mean square the standard errors are built from. */
  meanSquareError: number;
  /** Error degrees of freedom: N − k unpaired, (k − 1)(n − 1) blocked. */
  df: number;
  /** Products compared (the studentized range's k). */
  k: number;
}

/**
 * Tukey-Kramer HSD of independent groups (SciPy `tukey_hsd`): q = |m_i − m_j| / √(MSE/2 · (1/n_i +
 * 1/n_j)), MSE of the one-way ANOVA with N − k df. A pair is NaN when the test is undefined (fewer than
 * two products, no error df, zero MSE and equal means); zero MSE with different means gives p = 0.
 */
export function tukeyHsd(groups: readonly (readonly number[])[]): TukeyResult {
  const summaries = groups.map((group) => meanAndSquaredDeviations(finiteValues(group)));
  const keptSummaries = summaries.filter((summary) => summary.n > 0);
  const k = keptSummaries.length;
  const total = sum(keptSummaries.map((summary) => summary.n));
  const df = total - k;
  const meanSquareError =
    df > 0 ? sum(keptSummaries.map((summary) => summary.squaredDeviations)) / df : Number.NaN;
  return pairwise(
    summaries.map((summary) => summary.mean),
    summaries.map((summary) => summary.n > 0),
    (i, j) =>
      Math.sqrt(
        (meanSquareError / 2) * (1 / (summaries[i]?.n ?? Number.NaN) + 1 / (summaries[j]?.n ?? Number.NaN)),
      ),
    meanSquareError,
    df,
    k,
  );
}

/**
 * Tukey HSD for repeated measures on complete blocks (rows respondents, columns products): q =
 * |m_i − m_j| / √(MSE / n) with the blocked two-way ANOVA's MSE and (k − 1)(n − 1) df. Needs two
 * products and two complete respondents; otherwise every pair is NaN.
 */
export function tukeyHsdBlocked(blocks: readonly (readonly number[])[]): TukeyResult {
  const width = blocks[0]?.length ?? 0;
  const { products, rows } = completeBlocks(blocks);
  const n = rows.length;
  const k = products.length;
  const df = (k - 1) * (n - 1);
  const means = new Array<number>(width).fill(Number.NaN);
  const included = new Array<boolean>(width).fill(false);
  let meanSquareError = Number.NaN;
  if (n > 0 && k > 0) {
    const parts = twoWayParts(rows);
    products.forEach((product, index) => {
      means[product] = parts.productMeans[index] ?? Number.NaN;
      included[product] = true;
    });
    if (df > 0) meanSquareError = parts.squaredResiduals / df;
  }
  return pairwise(means, included, () => Math.sqrt(meanSquareError / n), meanSquareError, df, k);
}

function pairwise(
  means: readonly number[],
  included: readonly boolean[],
  standardError: (i: number, j: number) => number,
  meanSquareError: number,
  df: number,
  k: number,
): TukeyResult {
  const size = means.length;
  const square = (): number[][] =>
    Array.from({ length: size }, () => new Array<number>(size).fill(Number.NaN));
  const pValues = square();
  const meanDifferences = square();
  const statistics = square();
  for (let i = 0; i < size; i++) {
    if (!included[i]) continue;
    for (let j = 0; j < size; j++) {
      if (!included[j]) continue;
      // The matrices are symmetric (differences antisymmetric): compute each pair once.
      if (j < i) {
        (meanDifferences[i] as number[])[j] = -((meanDifferences[j] as number[])[i] ?? Number.NaN);
        (pValues[i] as number[])[j] = (pValues[j] as number[])[i] ?? Number.NaN;
        (statistics[i] as number[])[j] = (statistics[j] as number[])[i] ?? Number.NaN;
        continue;
      }
      const difference = (means[i] ?? Number.NaN) - (means[j] ?? Number.NaN);
      (meanDifferences[i] as number[])[j] = i === j ? 0 : difference;
      if (i === j) {
        (pValues[i] as number[])[j] = 1;
        (statistics[i] as number[])[j] = 0;
        continue;
      }
      if (k < 2 || !(df > 0)) continue;
      const q = safeRatio(Math.abs(difference), standardError(i, j));
      (statistics[i] as number[])[j] = q;
      (pValues[i] as number[])[j] = Number.isNaN(q) ? Number.NaN : studentizedRangeSf(q, k, df);
    }
  }
  return { pValues, meanDifferences, statistics, means: [...means], meanSquareError, df, k };
}
