// Pairwise comparisons between products in the market-research letters convention (METRICS.md
// section 3): each product column gets a letter; a cell lists the letters of the products it is
// significantly higher than, upper case at the strictest level and lower case at the next.
import { mannWhitneyU, wilcoxonSignedRank } from './rank-tests.ts';
import type { SignificanceDirection } from './significance.ts';
import { pairedT, welchT } from './t-tests.ts';
import type { Alternative } from './types.ts';

/** Outcome of comparing a row product i with a column product j. */
export interface PairwiseOutcome {
  /** p-value: one-sided in the observed direction for one-tailed tests, two-sided otherwise. */
  pValue: number;
  /** `mt` when product i is higher than product j, `let` when lower, null when they are level. */
  direction: SignificanceDirection | null;
}

/** One product column in the letters output. */
export interface LetterColumn {
  /** The column's own letter (A, B, ..., Z, AA, AB, ...). */
  letter: string;
  /** Letters of the products this one is significantly higher than: upper case at the strictest level, lower case at the next. */
  higherThan: string[];
  /** `higherThan` as displayed: concatenated ("Bc"), or space separated once labels have two characters. */
  text: string;
}

/** Test types offered by the statistics generator. */
export type TestType = 'one_99' | 'one_95' | 'one_90' | 'one_80' | 'two_99' | 'two_95' | 'two_90' | 'two_80';

/** A parsed test type. */
export interface TestTypeSpec {
  tails: 1 | 2;
  /** Confidence in percent (99, 95, 90, 80). */
  confidence: number;
  /** Significance level alpha (0.01, 0.05, 0.1, 0.2). */
  level: number;
}

/** The four tests of the generator: paired designs use paired t / Wilcoxon, unpaired Welch / Mann-Whitney. */
export type PairwiseMethod = 'paired-t' | 'wilcoxon' | 'welch-t' | 'mann-whitney';

const LEVEL_BY_CONFIDENCE: Record<string, number> = { '99': 0.01, '95': 0.05, '90': 0.1, '80': 0.2 };

const METHOD_NAMES: Record<PairwiseMethod, string> = {
  'paired-t': 'Paired t-test',
  wilcoxon: 'Wilcoxon signed-rank test',
  'welch-t': 'Welch t-test',
  'mann-whitney': 'Mann-Whitney U test',
};

/**
 * Spreadsheet-style column letter for a 0-based index: 0 → "A", 25 → "Z", 26 → "AA", 27 → "AB".
 * @throws RangeError for a negative or non-integer index.
 */
export function columnLetter(index: number): string {
  if (!Number.isInteger(index) || index < 0)
    throw new RangeError(`Column index must be a non-negative integer (got ${index})`);
  let remaining = index + 1;
  let letter = '';
  while (remaining > 0) {
    const digit = (remaining - 1) % 26;
    letter = String.fromCharCode(65 + digit) + letter;
    remaining = Math.floor((remaining - 1) / 26);
  }
  return letter;
}

/**
 * Parses a test type such as "two_95" into tails, confidence and level.
 * @throws RangeError for an unknown test type.
 */
export function parseTestType(type: TestType): TestTypeSpec {
  const match = /^(one|two)_(99|95|90|80)$/.exec(type);
  const level = match ? LEVEL_BY_CONFIDENCE[match[2] ?? ''] : undefined;
  if (!match || level === undefined) throw new RangeError(`Unknown test type "${type}"`);
  return { tails: match[1] === 'one' ? 1 : 2, confidence: Number(match[2]), level };
}

/** The method for a design: paired (same respondents rated the products) or not, parametric or not. */
export function pairwiseMethod(paired: boolean, parametric: boolean): PairwiseMethod {
  if (paired) return parametric ? 'paired-t' : 'wilcoxon';
  return parametric ? 'welch-t' : 'mann-whitney';
}

/**
 * Letters for every product column from the matrix of pairwise outcomes: `outcomes[i][j]` compares
 * product i with product j (null or missing: not compared, e.g. two candidates when only the benchmark
 * is compared with each). Cell i lists j in upper case when i is higher with p < the strictest level,
 * in lower case when p < the next level only. NaN p-values never count.
 * @param levels one or two significance levels (e.g. [0.05, 0.1]); the smaller is the strictest.
 * @throws RangeError when levels are not one or two numbers in (0, 1).
 */
export function assignSignificanceLetters(
  outcomes: ReadonlyArray<ReadonlyArray<PairwiseOutcome | null | undefined>>,
  levels: readonly number[],
): LetterColumn[] {
  if (levels.length < 1 || levels.length > 2 || levels.some((level) => !(level > 0 && level < 1))) {
    throw new RangeError('Letters need one or two significance levels in (0, 1)');
  }
  const [strict, next] = [...levels].sort((left, right) => left - right);
  const letters = outcomes.map((_, index) => columnLetter(index));
  const separator = outcomes.length > 26 ? ' ' : '';
  return outcomes.map((row, i) => {
    const higherThan: string[] = [];
    letters.forEach((letter, j) => {
      const outcome = row[j];
      if (i === j || !outcome || outcome.direction !== 'mt') return;
      if (strict !== undefined && outcome.pValue < strict) higherThan.push(letter);
      else if (next !== undefined && outcome.pValue < next) higherThan.push(letter.toLowerCase());
    });
    return { letter: letters[i] ?? '', higherThan, text: higherThan.join(separator) };
  });
}

/** Runs one test of product i against product j and reports p and the observed direction. */
function compareTwo(
  x: readonly number[],
  y: readonly number[],
  method: PairwiseMethod,
  alternative: Alternative,
): { pValue: number; difference: number } {
  switch (method) {
    case 'paired-t': {
      const result = pairedT(x, y, alternative);
      return { pValue: result.pValue, difference: result.estimate };
    }
    case 'welch-t': {
      const result = welchT(x, y, alternative);
      return { pValue: result.pValue, difference: result.estimate };
    }
    case 'wilcoxon': {
      const result = wilcoxonSignedRank(x, y, alternative);
      return { pValue: result.pValue, difference: result.wPlus - result.wMinus };
    }
    case 'mann-whitney': {
      const result = mannWhitneyU(x, y, alternative);
      return { pValue: result.pValue, difference: result.statistic - (result.n1 * result.n2) / 2 };
    }
  }
}

/** Options of {@link pairwiseOutcomes}. */
export interface PairwiseOptions {
  method: PairwiseMethod;
  tails: 1 | 2;
  /** Which ordered pairs to compare (default: all); e.g. only pairs involving a benchmark. */
  compare?: (i: number, j: number) => boolean;
}

/**
 * The matrix of pairwise outcomes for `samples` (one array of answers per product; for paired methods
 * the arrays are aligned by respondent). Two-tailed tests give the two-sided p-value; one-tailed tests
 * give the one-sided p-value in the observed direction. Entries are null on the diagonal, for pairs not
 * compared, and where the test is undefined (too few answers, no spread).
 * @throws RangeError for paired methods when two samples have different lengths.
 */
export function pairwiseOutcomes(
  samples: readonly (readonly number[])[],
  options: PairwiseOptions,
): (PairwiseOutcome | null)[][] {
  return samples.map((x, i) =>
    samples.map((y, j) => {
      if (i === j || (options.compare && !options.compare(i, j))) return null;
      const twoSided = compareTwo(x, y, options.method, 'two-sided');
      if (Number.isNaN(twoSided.pValue) || Number.isNaN(twoSided.difference)) return null;
      const direction: SignificanceDirection | null =
        twoSided.difference > 0 ? 'mt' : twoSided.difference < 0 ? 'let' : null;
      if (options.tails === 2 || direction === null) return { pValue: twoSided.pValue, direction };
      const oneSided = compareTwo(x, y, options.method, direction === 'mt' ? 'greater' : 'less');
      return { pValue: oneSided.pValue, direction };
    }),
  );
}

/**
 * Legend for a letters table, e.g. "Welch t-test, two-tailed. Upper case: significantly higher at
 * 95 %; lower case: at 90 %."
 */
export function lettersLegend(method: PairwiseMethod, tails: 1 | 2, levels: readonly number[]): string {
  const [strict, next] = [...levels].sort((left, right) => left - right);
  const percent = (level: number): string => `${Math.round((1 - level) * 1000) / 10} %`;
  const tailText = tails === 1 ? 'one-tailed' : 'two-tailed';
  const upper = strict === undefined ? '' : ` Upper case: significantly higher at ${percent(strict)}`;
  const lower = next === undefined ? '' : `; lower case: at ${percent(next)}`;
  return `${METHOD_NAMES[method]}, ${tailText}.${upper}${lower}${upper ? '.' : ''}`;
}
