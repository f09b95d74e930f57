// The design of the answers, read from the data before any test (METRICS.md section 3): per question,
// who rated which product. It sets the default of "paired", chooses between the paired tests
// (complete blocks), the intra-block analysis (incomplete blocks, balanced or not, and complete blocks
// with answers missing) and the independent-groups tests, and words the design line, the analysis and
// the warnings of the results.
import type { StatisticsDesignKind } from '@accord/contracts';
import {
  anovaIntrablock,
  designDetection,
  harmoniseToFivePoint,
  IntraBlockDesignError,
  type DesignDetection,
  type IntraBlockAnova,
  type PairwiseOutcome,
} from '@accord/stats';
import type { Dataset } from './dataset.ts';
import type { OmnibusResult } from './question-tests.ts';

/** How a question's products are compared. */
export type QuestionAnalysis = 'paired' | 'intrablock' | 'independent';

/** Plain-language names of the designs, as the design line prints them. */
export const DESIGN_NAMES: Record<StatisticsDesignKind, string> = {
  independent: 'independent groups (each respondent rated one product)',
  complete_block: 'complete block (every respondent rated every product)',
  balanced_incomplete_block:
    'balanced incomplete block (every respondent rated the same number of products, every pair of products equally often)',
  incomplete_block: 'incomplete block (respondents rated different sets of products, or answers are missing)',
};

/**
 * The design of the rows with an answer to question `q` (all questions when q is null) among the
 * products `codes`; null when a row has no respondent id (the data cannot say who rated what).
 */
export function detectDesign(
  dataset: Dataset,
  q: number | null,
  codes: readonly string[] = dataset.products,
): DesignDetection | null {
  const wanted = new Set(codes);
  const respondents: string[] = [];
  const products: string[] = [];
  for (const row of dataset.rows) {
    if (!wanted.has(row.product)) continue;
    if (q !== null && !Number.isFinite(row.values[q] ?? Number.NaN)) continue;
    if (q === null && !row.values.some((value) => Number.isFinite(value))) continue;
    if (row.respondent === null) return null;
    respondents.push(row.respondent);
    products.push(row.product);
  }
  return designDetection(respondents, products);
}

/** The default of "paired": true unless each respondent rated one product or respondents are unknown. */
export function defaultPaired(design: DesignDetection | null): boolean {
  return design !== null && design.design !== 'independent';
}

/** The analysis of a question given the user's choice of paired tests and the design found. */
export function analysisOf(paired: boolean, design: DesignDetection | null): QuestionAnalysis {
  if (!paired || design === null || design.design === 'independent') return 'independent';
  return design.design === 'complete_block' ? 'paired' : 'intrablock';
}

/** The intra-block analysis of a question, or the reason it cannot be run. */
export type IntraBlockRun = { anova: IntraBlockAnova; error: null } | { anova: null; error: string };

/**
 * Runs the intra-block analysis on question `q`'s answers (harmonised; yes/no answers as 1 and 0 via
 * `transform`) of the products `codes`.
 */
export function runIntraBlock(
  dataset: Dataset,
  q: number,
  codes: readonly string[],
  transform: (harmonised: number) => number = (value) => value,
  tukey = true,
): IntraBlockRun {
  const question = dataset.questions[q];
  const wanted = new Set(codes);
  const respondents: string[] = [];
  const products: string[] = [];
  const values: number[] = [];
  for (const row of dataset.rows) {
    if (!question || !wanted.has(row.product) || row.respondent === null) continue;
    const value = transform(harmoniseToFivePoint(row.values[q] ?? Number.NaN, question.min, question.max));
    if (!Number.isFinite(value)) continue;
    respondents.push(row.respondent);
    products.push(row.product);
    values.push(value);
  }
  try {
    return { anova: anovaIntrablock(respondents, products, values, { tukey }), error: null };
  } catch (error) {
    if (error instanceof IntraBlockDesignError) return { anova: null, error: error.message };
    throw error;
  }
}

/**
 * Pairwise outcomes of an intra-block analysis in the output order `codes`: the contrast of adjusted
 * means with its t-test (two-sided p; one-tailed: one-sided in the observed direction) or, for Tukey
 * HSD, its Tukey-Kramer p-value. Null for pairs not compared or products without answers.
 */
export function intraBlockOutcomes(
  anova: IntraBlockAnova,
  codes: readonly string[],
  options: { tails: 1 | 2; tukey: boolean; compare?: (i: number, j: number) => boolean },
): (PairwiseOutcome | null)[][] {
  const position = new Map(anova.products.map((product, index) => [product, index]));
  const pairs = new Map(anova.pairs.map((pair) => [`${pair.a}\u0000${pair.b}`, pair]));
  return codes.map((first, i) =>
    codes.map((second, j) => {
      if (i === j || (options.compare && !options.compare(i, j))) return null;
      const a = position.get(first);
      const b = position.get(second);
      if (a === undefined || b === undefined) return null;
      const pair = a < b ? pairs.get(`${first}\u0000${second}`) : pairs.get(`${second}\u0000${first}`);
      if (!pair || !Number.isFinite(pair.pValue)) return null;
      const difference = a < b ? pair.diff : -pair.diff;
      const direction = difference > 0 ? 'mt' : difference < 0 ? 'let' : null;
      const pValue = options.tukey ? pair.pTukey : options.tails === 2 ? pair.pValue : pair.pValue / 2;
      return { pValue, direction };
    }),
  );
}

/** The omnibus row of an intra-block analysis: the product F from Type II sums of squares. */
export function intraBlockOmnibus(run: IntraBlockRun, k: number): OmnibusResult {
  const test = 'Intra-block ANOVA (products adjusted for respondents)';
  if (!run.anova)
    return { test, symbol: 'F', statistic: null, df: '', pValue: null, n: 0, unit: 'respondents', k };
  const { anova } = run;
  return {
    test,
    symbol: 'F',
    statistic: Number.isFinite(anova.f) ? anova.f : null,
    df: `${anova.dfNum}, ${anova.dfDen}`,
    pValue: Number.isFinite(anova.pValue) ? anova.pValue : null,
    n: anova.respondents,
    unit: 'respondents',
    k: anova.products.length,
  };
}

/** The design line of the results: the design found, with its respondents and products. */
export function designLine(design: DesignDetection | null): string {
  if (design === null)
    return 'Design found: unknown (the data has no respondent ids, so it cannot say who rated which product).';
  return `Design found: ${DESIGN_NAMES[design.design]}; ${design.respondents} respondents, ${design.products} products.`;
}

/** The warning when the user's choice of paired or unpaired tests contradicts the design found. */
export function designWarning(paired: boolean, design: DesignDetection | null): string | null {
  if (design === null) return null;
  if (!paired && design.design !== 'independent')
    return `Warning: unpaired tests were chosen, but the design found is ${DESIGN_NAMES[design.design]}: the tests treat each respondent's answers to different products as independent, which they are not. Choose paired tests.`;
  if (paired && design.design === 'independent')
    return `Warning: paired tests were chosen, but the design found is ${DESIGN_NAMES[design.design]}: no respondent rated two products, so the products are compared as independent groups.`;
  return null;
}
