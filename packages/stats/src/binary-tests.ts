// Tests of yes/no (binary, CATA) answers in paired designs (METRICS.md section 3): McNemar for a pair
// of products, Cochran's Q as the omnibus over k products, as statsmodels `mcnemar(exact=False,
// correction=True)` and `cochrans_q`. Answers are 1 (yes) or 0 (no); non-finite values are missing and
// drop the respondent's pair (McNemar) or row (Cochran's Q, after leaving out products nobody answered).
// With no discordant answer the statistics are 0/0 and are NaN (no test is possible), like R.
import { chiSquarePValue, completeBlocks } from './group-tests.ts';
import { finitePairs, sum } from './descriptive.ts';

/** Result of McNemar's test. */
export interface McNemarResult {
  /** (|b − c| − 1)² / (b + c), b and c the discordant counts. */
  statistic: number;
  /** Chi-square p-value with 1 df. */
  pValue: number;
  /** Respondents with a yes to the first product and a no to the second. */
  yesNo: number;
  /** Respondents with a no to the first product and a yes to the second. */
  noYes: number;
  /** Share of yes for the first and the second product among the pairs used. */
  shareFirst: number;
  shareSecond: number;
  /** Complete pairs used. */
  n: number;
}

function assertBinary(values: readonly number[], label: string): void {
  const bad = values.find((value) => Number.isFinite(value) && value !== 0 && value !== 1);
  if (bad !== undefined) throw new RangeError(`${label} must be 0 (no) or 1 (yes) (got ${bad})`);
}

/**
 * McNemar's chi-square test with continuity correction on paired yes/no answers `first[i]`,
 * `second[i]` of respondent i. NaN statistic and p-value when no pair is discordant.
 * @throws RangeError when the arrays differ in length or hold a finite value other than 0 or 1.
 */
export function mcnemarTest(first: readonly number[], second: readonly number[]): McNemarResult {
  const pairs = finitePairs(first, second);
  assertBinary(pairs.x, 'McNemar answers');
  assertBinary(pairs.y, 'McNemar answers');
  const n = pairs.x.length;
  let yesNo = 0;
  let noYes = 0;
  pairs.x.forEach((value, index) => {
    const other = pairs.y[index];
    if (value === 1 && other === 0) yesNo += 1;
    if (value === 0 && other === 1) noYes += 1;
  });
  const discordant = yesNo + noYes;
  const statistic = discordant > 0 ? (Math.abs(yesNo - noYes) - 1) ** 2 / discordant : Number.NaN;
  return {
    statistic,
    pValue: chiSquarePValue(statistic, 1),
    yesNo,
    noYes,
    shareFirst: n > 0 ? sum(pairs.x) / n : Number.NaN,
    shareSecond: n > 0 ? sum(pairs.y) / n : Number.NaN,
    n,
  };
}

/** Result of Cochran's Q test. */
export interface CochranQResult {
  statistic: number;
  /** k − 1. */
  df: number;
  pValue: number;
  /** Share of yes per input product (NaN for a product nobody answered). */
  shares: number[];
  /** Products tested. */
  k: number;
  /** Complete respondents used. */
  n: number;
}

/**
 * Cochran's Q on yes/no answers `blocks[i][j]` of respondent i to product j: Q = (k − 1)(k·ΣC_j² − T²) /
 * (k·T − ΣR_i²), chi-square with k − 1 df. NaN when fewer than two products are left or every respondent
 * answered all products alike.
 * @throws RangeError for rows of different lengths or a finite value other than 0 or 1.
 */
export function cochranQ(blocks: readonly (readonly number[])[]): CochranQResult {
  blocks.forEach((row) => assertBinary(row, "Cochran's Q answers"));
  const width = blocks[0]?.length ?? 0;
  const { products, rows } = completeBlocks(blocks);
  const k = products.length;
  const n = rows.length;
  const shares = new Array<number>(width).fill(Number.NaN);
  const columnTotals = new Array<number>(k).fill(0);
  let total = 0;
  let rowSquares = 0;
  for (const row of rows) {
    const rowTotal = sum(row);
    total += rowTotal;
    rowSquares += rowTotal * rowTotal;
    row.forEach((value, j) => (columnTotals[j] = (columnTotals[j] ?? 0) + value));
  }
  if (n > 0) products.forEach((product, j) => (shares[product] = (columnTotals[j] ?? 0) / n));
  const df = Math.max(k - 1, 0);
  const denominator = k * total - rowSquares;
  const statistic =
    k >= 2 && denominator > 0
      ? ((k - 1) * (k * sum(columnTotals.map((count) => count * count)) - total * total)) / denominator
      : Number.NaN;
  return { statistic, df, pValue: chiSquarePValue(statistic, df), shares, k, n };
}

/** Result of the chi-square test of homogeneity of k yes shares. */
export interface YesNoHomogeneityResult {
  /** Pearson's chi-square over the k x 2 table of yes and no counts. */
  statistic: number;
  /** k − 1. */
  df: number;
  /** Chi-square p-value; NaN when fewer than two samples hold an answer or every answer is alike. */
  pValue: number;
  /** Answers used (finite values) over all samples. */
  n: number;
  /** Samples holding at least one answer. */
  k: number;
}

/**
 * The chi-square test of homogeneity of the yes shares of k independent samples (unpaired yes/no
 * answers), as SciPy `chi2_contingency(table, correction=False)` on the k x 2 table: no continuity
 * correction, so two samples give the square of the pooled two-proportion z. Answers are 1 (yes) or
 * 0 (no); non-finite values are missing; samples without an answer are left out.
 * @throws RangeError when a finite answer is neither 0 nor 1.
 */
export function yesNoHomogeneity(samples: readonly (readonly number[])[]): YesNoHomogeneityResult {
  const counts = samples
    .map((values) => {
      const answered = values.filter((value) => Number.isFinite(value));
      assertBinary(answered, 'Yes/no answers');
      return { yes: answered.filter((value) => value === 1).length, n: answered.length };
    })
    .filter((count) => count.n > 0);
  const k = counts.length;
  const n = sum(counts.map((count) => count.n));
  const yes = sum(counts.map((count) => count.yes));
  const df = k - 1;
  if (k < 2 || yes === 0 || yes === n) return { statistic: Number.NaN, df, pValue: Number.NaN, n, k };
  const share = yes / n;
  let statistic = 0;
  for (const count of counts) {
    const expectedYes = count.n * share;
    const expectedNo = count.n - expectedYes;
    statistic += (count.yes - expectedYes) ** 2 / expectedYes;
    statistic += (count.n - count.yes - expectedNo) ** 2 / expectedNo;
  }
  return { statistic, df, pValue: chiSquarePValue(statistic, df), n, k };
}
