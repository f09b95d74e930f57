// The tests of one question across its products (METRICS.md section 3), beside the letters' pairwise
// tests of @accord/stats: yes/no (binary, CATA) pairs with McNemar or the two-proportion z-test, the
// control of multiplicity over the question's pairs (Holm, Benjamini-Hochberg, Tukey HSD) and the
// omnibus test of the question. Pure: harmonised answers in, outcomes out.
import type { MultipleComparisons } from '@accord/contracts';
import {
  benjaminiHochbergAdjust,
  blockedAnova,
  cochranQ,
  friedmanTest,
  holmAdjust,
  kruskalWallis,
  mcnemarTest,
  oneWayAnova,
  tukeyHsd,
  tukeyHsdBlocked,
  twoProportionZ,
  yesNoHomogeneity,
  type PairwiseOutcome,
  type SignificanceDirection,
} from '@accord/stats';

/** Tolerance of the harmonised yes (5) and no (1) of a binary answer. */
const YES_NO_TOLERANCE = 1e-9;

/**
 * Harmonised binary answers (5 yes, 1 no: the scale's higher code is yes) as 1 and 0; anything else
 * (missing) is NaN.
 */
export function yesNoValues(harmonised: readonly number[]): number[] {
  return harmonised.map((value) =>
    Math.abs(value - 5) <= YES_NO_TOLERANCE ? 1 : Math.abs(value - 1) <= YES_NO_TOLERANCE ? 0 : Number.NaN,
  );
}

/** Rows respondents, columns products, from per-product answers aligned by respondent. */
export function respondentBlocks(perProduct: readonly (readonly number[])[]): number[][] {
  const respondents = perProduct[0]?.length ?? 0;
  return Array.from({ length: respondents }, (_, r) => perProduct.map((values) => values[r] ?? Number.NaN));
}

const directionOf = (difference: number): SignificanceDirection | null =>
  difference > 0 ? 'mt' : difference < 0 ? 'let' : null;

/**
 * Pairwise outcomes of yes/no answers (1 yes, 0 no, NaN missing), as pairwiseOutcomes gives them for
 * scores: paired designs McNemar's chi-square with continuity correction, unpaired designs the
 * two-proportion z-test (pooled, no correction). Two-tailed: the two-sided p-value; one-tailed: the
 * one-sided p-value in the observed direction (McNemar: half the two-sided p-value, the chi-square with
 * one df being the square of a normal statistic). Null where no test is possible (no discordant pair,
 * fewer than one answer on a side) or the pair is not compared.
 */
export function yesNoOutcomes(
  samples: readonly (readonly number[])[],
  options: { paired: boolean; tails: 1 | 2; compare?: (i: number, j: number) => boolean },
): (PairwiseOutcome | null)[][] {
  const counts = samples.map((values) => {
    const answered = values.filter((value) => Number.isFinite(value));
    return { yes: answered.filter((value) => value === 1).length, n: answered.length };
  });
  return samples.map((x, i) =>
    samples.map((y, j) => {
      if (i === j || (options.compare && !options.compare(i, j))) return null;
      if (options.paired) {
        const result = mcnemarTest(x, y);
        if (!Number.isFinite(result.pValue)) return null;
        const direction = directionOf(result.yesNo - result.noYes);
        const pValue = options.tails === 2 || direction === null ? result.pValue : result.pValue / 2;
        return { pValue, direction };
      }
      const first = counts[i]!;
      const second = counts[j]!;
      const twoSided = twoProportionZ(first.yes, first.n, second.yes, second.n, 'two-sided');
      if (!Number.isFinite(twoSided.pValue)) return null;
      const direction = directionOf(twoSided.estimate);
      if (options.tails === 2 || direction === null) return { pValue: twoSided.pValue, direction };
      const oneSided = twoProportionZ(
        first.yes,
        first.n,
        second.yes,
        second.n,
        direction === 'mt' ? 'greater' : 'less',
      );
      return { pValue: oneSided.pValue, direction };
    }),
  );
}

/**
 * The outcomes with each p-value adjusted over the family of the question's compared pairs (each
 * unordered pair once, as both of its entries carry the same p-value), by Holm's step-down or
 * Benjamini-Hochberg's step-up adjustment (statsmodels `multipletests`).
 */
export function adjustOutcomes(
  outcomes: readonly (readonly (PairwiseOutcome | null)[])[],
  method: 'holm' | 'benjamini_hochberg',
): (PairwiseOutcome | null)[][] {
  const pairs: [number, number][] = [];
  const pValues: number[] = [];
  outcomes.forEach((row, i) =>
    row.forEach((outcome, j) => {
      if (j <= i) return;
      const entry = outcome ?? outcomes[j]?.[i];
      if (!entry) return;
      pairs.push([i, j]);
      pValues.push(entry.pValue);
    }),
  );
  const adjusted = method === 'holm' ? holmAdjust(pValues) : benjaminiHochbergAdjust(pValues);
  const result = outcomes.map((row) => row.map((outcome) => (outcome ? { ...outcome } : null)));
  pairs.forEach(([i, j], index) => {
    const pValue = adjusted[index] ?? Number.NaN;
    const forward = result[i]?.[j];
    const backward = result[j]?.[i];
    if (forward) forward.pValue = pValue;
    if (backward) backward.pValue = pValue;
  });
  return result;
}

/**
 * Tukey HSD outcomes of the compared pairs (two-sided studentized range p-values): paired designs on
 * complete respondent blocks with the two-way ANOVA's error mean square and (k − 1)(n − 1) df,
 * unpaired designs Tukey-Kramer (SciPy `tukey_hsd`). The direction is that of the means.
 */
export function tukeyOutcomes(
  samples: readonly (readonly number[])[],
  options: { paired: boolean; compare?: (i: number, j: number) => boolean },
): (PairwiseOutcome | null)[][] {
  const tukey = options.paired ? tukeyHsdBlocked(respondentBlocks(samples)) : tukeyHsd(samples);
  return samples.map((_, i) =>
    samples.map((__, j) => {
      if (i === j || (options.compare && !options.compare(i, j))) return null;
      const pValue = tukey.pValues[i]?.[j] ?? Number.NaN;
      const difference = tukey.meanDifferences[i]?.[j] ?? Number.NaN;
      if (!Number.isFinite(pValue) || Number.isNaN(difference)) return null;
      return { pValue, direction: directionOf(difference) };
    }),
  );
}

/** Applies the chosen control of multiplicity to a question's pairwise outcomes (Tukey is computed apart). */
export function controlMultiplicity(
  outcomes: (PairwiseOutcome | null)[][],
  method: Exclude<MultipleComparisons, 'tukey_hsd'>,
): (PairwiseOutcome | null)[][] {
  return method === 'none' ? outcomes : adjustOutcomes(outcomes, method);
}

/** The omnibus test of a question across its products. */
export interface OmnibusResult {
  test: string;
  /** Symbol of the statistic: F, chi-square, H or Q. */
  symbol: string;
  statistic: number | null;
  /** "3" or "3, 237" for an F test. */
  df: string;
  pValue: number | null;
  /** Respondents (complete blocks, paired designs) or answers (unpaired designs) used. */
  n: number;
  unit: 'respondents' | 'answers';
  /** Products tested. */
  k: number;
}

const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);

/**
 * The omnibus test of METRICS.md section 3 for a question: paired parametric the two-way ANOVA
 * without interaction (respondents as blocks), paired non-parametric Friedman, unpaired parametric the
 * one-way ANOVA, unpaired non-parametric Kruskal-Wallis; yes/no questions Cochran's Q (paired) or the
 * chi-square test of homogeneity (unpaired). `samples` are harmonised answers per product (aligned by
 * respondent in paired designs), or 1/0 for yes/no questions.
 */
export function omnibusTest(
  samples: readonly (readonly number[])[],
  options: { paired: boolean; parametric: boolean; yesNo: boolean },
): OmnibusResult {
  const { paired, parametric, yesNo } = options;
  if (yesNo && paired) {
    const result = cochranQ(respondentBlocks(samples));
    return {
      test: "Cochran's Q",
      symbol: 'Q',
      statistic: finite(result.statistic),
      df: String(result.df),
      pValue: finite(result.pValue),
      n: result.n,
      unit: 'respondents',
      k: result.k,
    };
  }
  if (yesNo) {
    const result = yesNoHomogeneity(samples);
    return {
      test: 'Chi-square test of homogeneity',
      symbol: 'chi-square',
      statistic: finite(result.statistic),
      df: String(Math.max(result.df, 0)),
      pValue: finite(result.pValue),
      n: result.n,
      unit: 'answers',
      k: result.k,
    };
  }
  if (paired && parametric) {
    const result = blockedAnova(respondentBlocks(samples));
    return {
      test: 'Two-way ANOVA (respondents as blocks)',
      symbol: 'F',
      statistic: finite(result.statistic),
      df: `${result.df1}, ${result.df2}`,
      pValue: finite(result.pValue),
      n: result.n,
      unit: 'respondents',
      k: result.k,
    };
  }
  if (paired) {
    const result = friedmanTest(respondentBlocks(samples));
    return {
      test: 'Friedman test',
      symbol: 'chi-square',
      statistic: finite(result.statistic),
      df: String(result.df),
      pValue: finite(result.pValue),
      n: result.n,
      unit: 'respondents',
      k: result.k,
    };
  }
  if (parametric) {
    const result = oneWayAnova(samples);
    return {
      test: 'One-way ANOVA',
      symbol: 'F',
      statistic: finite(result.statistic),
      df: `${result.df1}, ${result.df2}`,
      pValue: finite(result.pValue),
      n: result.n,
      unit: 'answers',
      k: result.k,
    };
  }
  const result = kruskalWallis(samples);
  return {
    test: 'Kruskal-Wallis test',
    symbol: 'H',
    statistic: finite(result.statistic),
    df: String(result.df),
    pValue: finite(result.pValue),
    n: result.n,
    unit: 'answers',
    k: result.k,
  };
}

/** A p-value as reported: 4 decimals, or "< 0.0001". */
export function pValueText(pValue: number): string {
  return pValue < 0.0001 ? '< 0.0001' : `= ${pValue.toFixed(4)}`;
}

/** The omnibus row's text, e.g. "Friedman test: chi-square = 12.34, df = 3, p = 0.0063 (80 respondents)". */
export function omnibusText(result: OmnibusResult): string {
  const base = `(${result.n} ${result.unit}, ${result.k} products)`;
  if (result.statistic === null || result.pValue === null)
    return `${result.test}: not defined for these answers ${base}`;
  return `${result.test}: ${result.symbol} = ${result.statistic.toFixed(2)}, df = ${result.df}, p ${pValueText(result.pValue)} ${base}`;
}
