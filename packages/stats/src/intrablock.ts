// Intra-block analysis of incomplete block designs (METRICS.md sections 3 and 4): the OLS model
// value ~ product + respondent, as statsmodels `ols("value ~ C(product) + C(respondent)")` with
// `anova_lm(typ=2)` and R's emmeans. The respondent effects are absorbed (within-respondent
// centring), which leaves the k × k information matrix C = Σ_r (diag(n_r) − n_r n_rᵀ / |r|) of the
// product effects and the adjusted totals Q: C·τ = Q. Everything follows from τ and C⁻ (the inverse
// with the first product's effect fixed at 0).
import { fSf, studentTPValue } from './distributions.ts';
import { studentizedRangeSf } from './studentized-range.ts';

/** A pairwise contrast of adjusted means (products a < b in sorted label order). */
export interface IntraBlockPair {
  a: string;
  b: string;
  /** Adjusted mean of a − adjusted mean of b. */
  diff: number;
  stdError: number;
  /** diff / stdError. */
  t: number;
  /** Two-sided p-value, t with the residual df. */
  pValue: number;
  /** Tukey-Kramer p-value: studentized range sf(|t|·√2, k, residual df); NaN when not asked for. */
  pTukey: number;
}

/** Result of {@link anovaIntrablock}. */
export interface IntraBlockAnova {
  /** Products with answers, in sorted label order. */
  products: string[];
  /** Answers per product, in the order of `products`. */
  counts: number[];
  /** Respondents with at least one answer. */
  respondents: number;
  /** Answers used. */
  n: number;
  /** Product F from Type II sums of squares (products adjusted for respondents). */
  f: number;
  dfNum: number;
  /** Residual degrees of freedom n − respondents − (k − 1). */
  dfDen: number;
  pValue: number;
  /** Least-squares (adjusted) means, equal weight per respondent, in the order of `products`. */
  adjustedMeans: number[];
  /** Pairs (i, j), i < j, in row order: (0, 1), (0, 2), ..., (1, 2), ... */
  pairs: IntraBlockPair[];
}

/** A design the intra-block analysis cannot compare: the message says why, for the results screen. */
export class IntraBlockDesignError extends RangeError {}

/**
 * Intra-block analysis of answers in long format: `values[i]` is what `respondents[i]` answered about
 * `products[i]`. Rows with a missing (non-finite) value are dropped, so a product without answers is
 * left out. Respondents who rated one product only count in the adjusted means (equal weight per
 * respondent) and in the degrees of freedom but carry no information about differences. The
 * Tukey-Kramer p-values (a numerical integral each) are left NaN with `options.tukey` false.
 * @throws IntraBlockDesignError with fewer than two products with answers, or a disconnected design
 *   (products no chain of respondents links, whose differences are not estimable).
 * @throws RangeError when the arrays differ in length.
 */
export function anovaIntrablock(
  respondents: readonly (string | number)[],
  products: readonly string[],
  values: readonly number[],
  options: { tukey?: boolean } = {},
): IntraBlockAnova {
  const withTukey = options.tukey ?? true;
  if (respondents.length !== products.length || products.length !== values.length) {
    throw new RangeError(
      `The intra-block analysis needs one respondent, product and value per answer (got ${respondents.length}, ${products.length} and ${values.length})`,
    );
  }
  const rows: { respondent: string | number; product: string; value: number }[] = [];
  values.forEach((value, i) => {
    if (Number.isFinite(value))
      rows.push({ respondent: respondents[i] as string | number, product: products[i] as string, value });
  });
  const labels = [...new Set(rows.map((row) => row.product))].sort();
  const k = labels.length;
  if (k < 2) {
    throw new IntraBlockDesignError(
      `The intra-block analysis needs answers about at least two products (found ${k}).`,
    );
  }
  const index = new Map(labels.map((label, i) => [label, i]));
  // Per respondent: answers, their sum, and per product count and sum.
  const blocks = new Map<string | number, { n: number; total: number; counts: number[]; sums: number[] }>();
  for (const row of rows) {
    let block = blocks.get(row.respondent);
    if (!block) {
      block = { n: 0, total: 0, counts: new Array<number>(k).fill(0), sums: new Array<number>(k).fill(0) };
      blocks.set(row.respondent, block);
    }
    const p = index.get(row.product) ?? 0;
    block.n += 1;
    block.total += row.value;
    block.counts[p] = (block.counts[p] ?? 0) + 1;
    block.sums[p] = (block.sums[p] ?? 0) + row.value;
  }
  assertConnected(
    labels,
    [...blocks.values()].map((block) => block.counts),
  );

  const information = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const adjustedTotals = new Array<number>(k).fill(0);
  let withinRespondents = 0;
  const meanOf = new Map<string | number, number>();
  for (const [respondent, block] of blocks) {
    const centre = block.total / block.n;
    meanOf.set(respondent, centre);
    for (let a = 0; a < k; a++) {
      const countA = block.counts[a] ?? 0;
      if (countA === 0) continue;
      adjustedTotals[a] = (adjustedTotals[a] ?? 0) + (block.sums[a] ?? 0) - countA * centre;
      const row = information[a] as number[];
      row[a] = (row[a] ?? 0) + countA;
      for (let b = 0; b < k; b++) row[b] = (row[b] ?? 0) - (countA * (block.counts[b] ?? 0)) / block.n;
    }
  }
  for (const row of rows) withinRespondents += (row.value - (meanOf.get(row.respondent) ?? 0)) ** 2;

  // Effects relative to the first product: solve the (k − 1) × (k − 1) system without it.
  const reduced = information.slice(1).map((row) => row.slice(1));
  const inverse = invertSymmetric(reduced);
  const effects = [
    0,
    ...inverse.map((row) => row.reduce((total, entry, j) => total + entry * (adjustedTotals[j + 1] ?? 0), 0)),
  ];
  const covariance = (a: number, b: number): number =>
    a === 0 || b === 0 ? 0 : (inverse[a - 1]?.[b - 1] ?? 0);

  const n = rows.length;
  const dfNum = k - 1;
  const dfDen = n - blocks.size - dfNum;
  const productSumOfSquares = effects.reduce(
    (total, effect, a) => total + effect * (adjustedTotals[a] ?? 0),
    0,
  );
  const residualSumOfSquares = Math.max(withinRespondents - productSumOfSquares, 0);
  const residualVariance = dfDen > 0 ? residualSumOfSquares / dfDen : Number.NaN;
  const f = dfDen > 0 ? productSumOfSquares / dfNum / residualVariance : Number.NaN;

  // emmeans: the prediction for each product averaged over every respondent with equal weight.
  let respondentLevel = 0;
  for (const [respondent, block] of blocks) {
    let effectTotal = 0;
    for (let a = 0; a < k; a++) effectTotal += (block.counts[a] ?? 0) * (effects[a] ?? 0);
    respondentLevel += (meanOf.get(respondent) ?? 0) - effectTotal / block.n;
  }
  respondentLevel /= blocks.size;
  const adjustedMeans = effects.map((effect) => effect + respondentLevel);

  const pairs: IntraBlockPair[] = [];
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      const diff = (adjustedMeans[a] ?? 0) - (adjustedMeans[b] ?? 0);
      const stdError = Math.sqrt(
        residualVariance * (covariance(a, a) + covariance(b, b) - 2 * covariance(a, b)),
      );
      const t = diff / stdError;
      const defined = Number.isFinite(t);
      pairs.push({
        a: labels[a] as string,
        b: labels[b] as string,
        diff,
        stdError,
        t: defined ? t : Number.NaN,
        pValue: defined ? studentTPValue(t, dfDen) : Number.NaN,
        pTukey: defined && withTukey ? studentizedRangeSf(Math.abs(t) * Math.SQRT2, k, dfDen) : Number.NaN,
      });
    }
  }
  const counts = new Array<number>(k).fill(0);
  for (const block of blocks.values())
    block.counts.forEach((count, a) => (counts[a] = (counts[a] ?? 0) + count));
  return {
    products: labels,
    counts,
    respondents: blocks.size,
    n,
    f: Number.isFinite(f) ? f : Number.NaN,
    dfNum,
    dfDen,
    pValue: Number.isFinite(f) ? fSf(f, dfNum, dfDen) : Number.NaN,
    adjustedMeans,
    pairs,
  };
}

/** Refuses products that no chain of respondents links: their differences are not estimable. */
function assertConnected(labels: readonly string[], blockCounts: readonly number[][]): void {
  const parent = labels.map((_, i) => i);
  const root = (i: number): number => {
    let node = i;
    while (parent[node] !== node) node = parent[node] as number;
    return node;
  };
  for (const counts of blockCounts) {
    const rated = counts.flatMap((count, p) => (count > 0 ? [p] : []));
    for (const p of rated.slice(1)) parent[root(p)] = root(rated[0] as number);
  }
  const groups = new Map<number, string[]>();
  labels.forEach((label, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), label]));
  if (groups.size > 1) {
    const parts = [...groups.values()].map((group) => group.join(', ')).join(' | ');
    throw new IntraBlockDesignError(
      `The products fall into ${groups.size} sets that no respondent links (${parts}): products of different sets cannot be compared within respondents.`,
    );
  }
}

/** Inverse of a symmetric positive definite matrix by Gauss-Jordan elimination with partial pivoting. */
function invertSymmetric(matrix: readonly (readonly number[])[]): number[][] {
  const size = matrix.length;
  const work = matrix.map((row, i) => [...row, ...Array.from({ length: size }, (_, j) => (i === j ? 1 : 0))]);
  for (let column = 0; column < size; column++) {
    let pivotRow = column;
    for (let i = column + 1; i < size; i++)
      if (Math.abs(work[i]?.[column] ?? 0) > Math.abs(work[pivotRow]?.[column] ?? 0)) pivotRow = i;
    [work[column], work[pivotRow]] = [work[pivotRow] as number[], work[column] as number[]];
    const pivot = work[column] as number[];
    const scale = pivot[column] ?? Number.NaN;
    for (let j = 0; j < 2 * size; j++) pivot[j] = (pivot[j] ?? 0) / scale;
    for (let i = 0; i < size; i++) {
      if (i === column) continue;
      const row = work[i] as number[];
      const factor = row[column] ?? 0;
      if (factor === 0) continue;
      for (let j = 0; j < 2 * size; j++) row[j] = (row[j] ?? 0) - factor * (pivot[j] ?? 0);
    }
  }
  return work.map((row) => row.slice(size));
}
