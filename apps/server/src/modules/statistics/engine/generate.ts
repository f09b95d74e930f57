// The statistics generator (METRICS.md section 3): per question and product the harmonised summary
// (mean, boxes, base n; shares of yes for yes/no questions) with significance letters between products
// for the chosen tests and control of multiplicity, an omnibus test per question, benchmarks compared
// with every candidate, JAR distributions and penalty analysis for strength questions, correlations
// with the main question on respondent rows and on product means, and an OLS regression (standard
// errors cluster-robust by respondent in paired designs). Pure: data in, tables out.
import {
  defaultMultipleComparisons,
  type MultipleComparisons,
  type ProductOrderOption,
  type StatisticsChart,
  type StatisticsDesignReport,
  type StatisticsTable,
  type StatisticsTestType,
} from '@accord/contracts';
import {
  assignSignificanceLetters,
  averageRanks,
  harmoniseToFivePoint,
  jarDistribution,
  lettersLegend,
  ols,
  olsClustered,
  pairwiseMethod,
  pairwiseOutcomes,
  parseTestType,
  pearson,
  penaltyAnalysis,
  penaltySignificance,
  PENALTY_MIN_SHARE,
  vif,
  VIF_WARNING_THRESHOLD,
  type PenaltySide,
  type PenaltySignificance,
  spearman,
  summariseHarmonised,
  columnLetter,
  type DesignDetection,
  type HarmonisedSummary,
  type IntraBlockAnova,
  type LetterColumn,
  type PairwiseMethod,
  type PairwiseOutcome,
} from '@accord/stats';
import type { Dataset, QuestionDef, RegressionSpec } from './dataset.ts';
import {
  analysisOf,
  defaultPaired,
  designLine,
  designWarning,
  detectDesign,
  intraBlockOmnibus,
  intraBlockOutcomes,
  runIntraBlock,
  type QuestionAnalysis,
} from './design.ts';
import {
  controlMultiplicity,
  omnibusTest,
  omnibusText,
  tukeyOutcomes,
  yesNoOutcomes,
  yesNoValues,
  type OmnibusResult,
} from './question-tests.ts';

/** A refused combination of options: the message is shown to the user as it is. */
export class GeneratorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GeneratorError';
  }
}

export interface GeneratorOptions {
  mainQuestion: string;
  productOrder: ProductOrderOption;
  productCodeOrder?: readonly string[];
  benchmarkCodes?: readonly string[];
  benchmarkOrder?: readonly string[];
  candidateOrder?: readonly string[];
  strengthQuestions?: readonly string[];
  cpvQuestions?: readonly string[];
  testTypes: readonly StatisticsTestType[];
  /** Paired tests; undefined: read from the design of the data (paired unless each respondent rated one product). */
  paired?: boolean | undefined;
  parametric: boolean;
  /** The regression to fit, or null for none. */
  regression: RegressionSpec | null;
  replaceProductCodes: boolean;
  charts: boolean;
  displayCorrelation: boolean;
  /**
   * Control of multiplicity over each question's pairs; undefined: Tukey HSD for parametric two-tailed
   * tests, Holm otherwise. "none" tests each pair at its level.
   */
  multipleComparisons?: MultipleComparisons | undefined;
}

/** A product column of the output. */
export interface ProductColumn {
  code: string;
  label: string;
  letter: string;
  benchmark: boolean;
}

/** One row of significance letters: a tails kind with one or two levels (upper case, lower case). */
export interface LetterRow {
  tails: 1 | 2;
  levels: number[];
  label: string;
  legend: string;
}

export interface QuestionSignificance {
  row: LetterRow;
  outcomes: (PairwiseOutcome | null)[][];
  letters: LetterColumn[];
}

export interface QuestionResult {
  question: QuestionDef;
  cpv: boolean;
  strength: boolean;
  /** A yes/no (binary, CATA) question: shares of yes, McNemar or two-proportion z, no mean. */
  yesNo: boolean;
  summaries: HarmonisedSummary[];
  significance: QuestionSignificance[];
  omnibus: OmnibusResult;
  /** Who rated which product among the answers to this question; null without respondent ids. */
  design: DesignDetection | null;
  /** How the products were compared: paired tests, the intra-block analysis or independent groups. */
  analysis: QuestionAnalysis;
  /** The intra-block analysis (incomplete blocks): adjusted means and their contrasts. */
  intraBlock: IntraBlockAnova | null;
  /** Why the intra-block analysis could not compare the products (a disconnected design). */
  intraBlockError: string | null;
}

export interface CorrelationRow {
  question: QuestionDef;
  n: number;
  pearsonR: number | null;
  pearsonP: number | null;
  spearmanRho: number | null;
  spearmanP: number | null;
}

/** Pearson and Spearman of two columns, p-values cluster-robust when clusters are given. */
function correlate(
  x: readonly number[],
  y: readonly number[],
  clusters: readonly (string | null)[] | null,
): Omit<CorrelationRow, 'question'> {
  const p = pearson(x, y);
  const s = spearman(x, y);
  let pearsonP = p.pValue;
  let spearmanP = s.pValue;
  if (clusters) {
    // Repeated measures: the slope of y on x (the t test of r) with CR1 standard errors by respondent
    // and t with respondents - 1 df; Spearman the same on the ranks of the complete pairs.
    const complete = x.map((value, i) => Number.isFinite(value) && Number.isFinite(y[i] ?? Number.NaN));
    const pick = <T>(values: readonly T[]) => values.filter((_, i) => complete[i]);
    const xs = pick(x);
    const ys = pick(y);
    const groups = pick(clusters);
    pearsonP =
      olsClustered(
        ys,
        xs.map((value) => [value]),
        groups,
      ).pValues[1] ?? Number.NaN;
    const xRanks = averageRanks(xs);
    spearmanP =
      olsClustered(
        averageRanks(ys),
        xRanks.map((value) => [value]),
        groups,
      ).pValues[1] ?? Number.NaN;
  }
  return {
    n: p.n,
    pearsonR: finiteOrNull(p.r),
    pearsonP: Number.isFinite(p.r) ? finiteOrNull(pearsonP) : null,
    spearmanRho: finiteOrNull(s.r),
    spearmanP: Number.isFinite(s.r) ? finiteOrNull(spearmanP) : null,
  };
}

export interface GeneratorResult {
  method: PairwiseMethod;
  /** The design found, the analyses used and the warnings, as the results state them. */
  design: StatisticsDesignReport;
  products: ProductColumn[];
  letterRows: LetterRow[];
  questions: QuestionResult[];
  correlations: CorrelationRow[];
  productCorrelations: CorrelationRow[];
  summary: StatisticsTable;
  omnibus: StatisticsTable;
  correlation: StatisticsTable;
  productCorrelation: StatisticsTable;
  regression: StatisticsTable | null;
  jar: StatisticsTable | null;
  legend: string[];
  charts: StatisticsChart[];
}

const finiteOrNull = (value: number): number | null => (Number.isFinite(value) ? value : null);

function orderProducts(
  dataset: Dataset,
  options: GeneratorOptions,
): { codes: string[]; benchmarks: Set<string> } {
  const known = new Set(dataset.products);
  const check = (codes: readonly string[] | undefined): string[] => {
    const list = [...new Set(codes ?? [])];
    for (const code of list)
      if (!known.has(code)) throw new GeneratorError(`"${code}" is not a product code of the data.`);
    return list;
  };
  const rest = (first: readonly string[]): string[] =>
    dataset.products.filter((code) => !first.includes(code));
  switch (options.productOrder) {
    case 'Unspecified Product Order': {
      const benchmarks = check(options.benchmarkCodes);
      return { codes: [...benchmarks, ...rest(benchmarks)], benchmarks: new Set(benchmarks) };
    }
    case 'Specified Product Order': {
      const order = check(options.productCodeOrder);
      const benchmarks = check(options.benchmarkCodes);
      return { codes: [...order, ...rest(order)], benchmarks: new Set(benchmarks) };
    }
    case 'Specified Benchmark Order Only': {
      const benchmarks = check(options.benchmarkOrder);
      return { codes: [...benchmarks, ...rest(benchmarks)], benchmarks: new Set(benchmarks) };
    }
    case 'Specified Candidate Order Only': {
      const candidates = check(options.candidateOrder);
      const others = rest(candidates);
      return { codes: [...others, ...candidates], benchmarks: new Set(candidates.length > 0 ? others : []) };
    }
  }
}

/** Letter rows: per tails kind, the requested levels from the strictest, two per row (upper, lower case). */
export function letterRows(testTypes: readonly StatisticsTestType[], method: PairwiseMethod): LetterRow[] {
  const rows: LetterRow[] = [];
  for (const tails of [2, 1] as const) {
    const levels = [
      ...new Set(
        testTypes
          .map(parseTestType)
          .filter((spec) => spec.tails === tails)
          .map((spec) => spec.level),
      ),
    ].sort((left, right) => left - right);
    for (let index = 0; index < levels.length; index += 2) {
      const pair = levels.slice(index, index + 2);
      const percents = pair.map((level) => `${Math.round((1 - level) * 100)}%`).join(' / ');
      rows.push({
        tails,
        levels: pair,
        label: `${tails === 1 ? 'One-tailed' : 'Two-tailed'} ${percents}`,
        legend: lettersLegend(method, tails, pair),
      });
    }
  }
  return rows;
}

/** The penalty columns of each non-JAR group of the JAR table. */
export const JAR_SIDE_HEADERS = ['mean drop', 'standard error', 'p-value', 'penalty'] as const;

/**
 * Why a penalty group is not reported, or null when it is: nobody answered both questions, the
 * just-right group is empty, the group is empty, or it holds under 20 % of the respondents with both
 * answers (the exact share, one decimal).
 */
export function penaltySkipReason(
  group: PenaltySide,
  tested: PenaltySignificance,
  main: string,
): string | null {
  if (tested.n === 0) return `no respondent answered both this question and ${main}`;
  if (tested.nJustRight === 0) return 'no respondent in the just-right group';
  if (group.n === 0) return 'no respondent in this group';
  // Compare counts, not the rounded share, so exactly 20 % is never lost to rounding.
  if (group.n < PENALTY_MIN_SHARE * tested.n - 1e-9) {
    const percent = Math.round(group.share * 1000) / 10;
    return `under ${Math.round(PENALTY_MIN_SHARE * 100)} % of respondents (${percent.toFixed(1)} %)`;
  }
  return null;
}

/** The summary rows of the adjusted means of an intra-block analysis (yes/no: adjusted shares of yes). */
export const ADJUSTED_MEAN_ROW = 'Adjusted mean';
export const ADJUSTED_SHARE_ROW = 'Adjusted share of yes';

/**
 * One-tailed letters against benchmarks test the direction fixed in advance, "candidate higher than
 * benchmark": a pair where the benchmark is higher gets no letter.
 */
function candidateHigherOnly(
  outcomes: (PairwiseOutcome | null)[][],
  isBenchmark: (index: number) => boolean,
): (PairwiseOutcome | null)[][] {
  return outcomes.map((row, i) =>
    row.map((outcome, j) => {
      if (!outcome || isBenchmark(i) === isBenchmark(j)) return outcome;
      const candidateHigher = isBenchmark(i) ? outcome.direction === 'let' : outcome.direction === 'mt';
      return candidateHigher ? outcome : null;
    }),
  );
}

/** The summary row of a question's omnibus test (its text in the first product column). */
export const OMNIBUS_ROW = 'Omnibus test';

/** The legend's line on the control of multiplicity. */
const MULTIPLE_COMPARISON_LEGEND: Record<MultipleComparisons, string> = {
  none: 'Multiple comparisons: none; each pair is tested at its level, as in the original letters.',
  holm: "Multiple comparisons: Holm's adjustment of the p-values of each question's pairs (family-wise error rate).",
  benjamini_hochberg:
    "Multiple comparisons: Benjamini-Hochberg adjustment of the p-values of each question's pairs (false discovery rate).",
  tukey_hsd:
    "Multiple comparisons: Tukey HSD over each question's pairs (studentized range; paired designs use the two-way ANOVA's error mean square with (k-1)(n-1) df, unpaired designs Tukey-Kramer).",
};

/** Question ids of results, the first eight and a count of the rest. */
function idList(results: readonly QuestionResult[]): string {
  const ids = results.map((result) => result.question.id);
  return ids.length <= 8 ? ids.join(', ') : `${ids.slice(0, 8).join(', ')} and ${ids.length - 8} more`;
}

/** The design found, the analysis used per group of questions and the warnings (METRICS.md section 3). */
function reportDesign(
  questions: readonly QuestionResult[],
  overall: DesignDetection | null,
  options: { paired: boolean; parametric: boolean; multiple: MultipleComparisons },
): StatisticsDesignReport {
  const { paired, parametric, multiple } = options;
  const groups: [QuestionAnalysis, string][] = [
    [
      'paired',
      `paired tests on complete blocks: ${parametric ? 'paired t-test' : 'Wilcoxon signed-rank test'} per pair (McNemar for yes/no), omnibus ${parametric ? 'two-way ANOVA with respondents as blocks' : 'Friedman test'}.`,
    ],
    [
      'intrablock',
      `intra-block analysis of incomplete blocks: OLS of the answer on product and respondent, letters on the adjusted (least-squares) means by t-tests of their contrasts with the residual df${multiple === 'tukey_hsd' ? ' and Tukey-Kramer p-values' : ''}, omnibus the product F (Type II).${parametric ? '' : ' The rank tests need complete blocks, so the parametric intra-block analysis is used for these questions.'}`,
    ],
    [
      'independent',
      `independent groups: ${parametric ? 'Welch t-test' : 'Mann-Whitney U test'} per pair (two-proportion z for yes/no), omnibus ${parametric ? 'one-way ANOVA' : 'Kruskal-Wallis test'}.`,
    ],
  ];
  const analysis: string[] = [];
  for (const [kind, text] of groups) {
    const members = questions.filter((result) => result.analysis === kind);
    if (members.length === 0) continue;
    const scope = members.length === questions.length ? 'every question' : idList(members);
    analysis.push(`Analysis used (${scope}): ${text}`);
  }
  const disconnected = questions.filter((result) => result.intraBlockError);
  if (disconnected.length > 0)
    analysis.push(`No letters for ${idList(disconnected)}: ${disconnected[0]?.intraBlockError ?? ''}`);
  const warning = designWarning(paired, overall);
  return {
    found: designLine(overall),
    analysis,
    warnings: warning ? [warning] : [],
    paired,
    multiple_comparisons: multiple,
  };
}

/** Chart label rule (document 3 section 9): over 18 characters, cut to 15 plus '...'. */
export function chartLabel(text: string): string {
  return text.length > 18 ? `${text.slice(0, 15)}...` : text;
}

interface Samples {
  /** Per product (in output order), harmonised answers per question: samples[q][p][k]. */
  byQuestion: number[][][];
}

function collectSamples(
  dataset: Dataset,
  codes: readonly string[],
  questionIndexes: readonly number[],
  paired: boolean,
): Samples {
  const productIndex = new Map(codes.map((code, index) => [code, index]));
  if (!paired) {
    const byQuestion = questionIndexes.map(() => codes.map((): number[] => []));
    for (const row of dataset.rows) {
      const p = productIndex.get(row.product);
      if (p === undefined) continue;
      questionIndexes.forEach((q, k) => {
        const question = dataset.questions[q];
        if (question)
          byQuestion[k]?.[p]?.push(
            harmoniseToFivePoint(row.values[q] ?? Number.NaN, question.min, question.max),
          );
      });
    }
    return { byQuestion };
  }
  const respondents = new Map<string, number>();
  const seen = new Set<string>();
  for (const row of dataset.rows) {
    if (row.respondent === null)
      throw new GeneratorError(
        'Paired tests need a respondent_id column in the data file, filled on every row; add it or choose unpaired tests.',
      );
    const key = `${row.respondent}\u0000${row.product}`;
    if (seen.has(key))
      throw new GeneratorError(
        `Respondent "${row.respondent}" rated product "${row.product}" more than once; paired tests need one row per respondent and product.`,
      );
    seen.add(key);
    if (!respondents.has(row.respondent)) respondents.set(row.respondent, respondents.size);
  }
  const byQuestion = questionIndexes.map(() =>
    codes.map(() => new Array<number>(respondents.size).fill(Number.NaN)),
  );
  for (const row of dataset.rows) {
    const p = productIndex.get(row.product);
    const r = respondents.get(row.respondent ?? '');
    if (p === undefined || r === undefined) continue;
    questionIndexes.forEach((q, k) => {
      const question = dataset.questions[q];
      const target = byQuestion[k]?.[p];
      if (question && target)
        target[r] = harmoniseToFivePoint(row.values[q] ?? Number.NaN, question.min, question.max);
    });
  }
  return { byQuestion };
}

function questionIndex(dataset: Dataset, id: string, role: string): number {
  const index = dataset.questions.findIndex((question) => question.id === id);
  if (index < 0) throw new GeneratorError(`${role} "${id}" is not a question with a scale in the data.`);
  return index;
}

const BOX_ROWS: { key: keyof HarmonisedSummary; label: string; strength: string }[] = [
  { key: 'top_box', label: 'Top box', strength: 'Too strong' },
  { key: 'top_2_box', label: 'Top 2 box', strength: 'Strong' },
  { key: 'just_right', label: 'Neutral', strength: 'Just right' },
  { key: 'bottom_2_box', label: 'Bottom 2 box', strength: 'Weak' },
  { key: 'bottom_box', label: 'Bottom box', strength: 'Too weak' },
];

/**
 * A strength row's share of answers in its own category only: the five strength rows are the five
 * points of the scale (Too strong, Strong, Just right, Weak, Too weak) and add up to 100 %, where the
 * boxes nest (top 2 box holds the top box, bottom 2 box the bottom box).
 */
export function exclusiveStrengthShare(
  summary: HarmonisedSummary,
  key: keyof HarmonisedSummary,
): number | null {
  const share = summary[key];
  if (share === null) return null;
  const nested = key === 'top_2_box' ? summary.top_box : key === 'bottom_2_box' ? summary.bottom_box : null;
  if (nested === null) return share;
  // Shares are counts over the same base: the difference is that of the counts, up to rounding.
  return Math.max(0, Math.round((share - nested) * summary.n) / summary.n);
}

function chartOf(result: QuestionResult, products: readonly ProductColumn[]): StatisticsChart {
  const { question, summaries, strength } = result;
  const share = (summary: HarmonisedSummary, key: keyof HarmonisedSummary): number => {
    const value = summary[key];
    return value === null ? 0 : Math.round(value * 1000) / 10;
  };
  const series =
    question.type === 'binary'
      ? [
          { name: 'No', values: summaries.map((summary) => share(summary, 'bottom_box')) },
          { name: 'Yes', values: summaries.map((summary) => share(summary, 'top_box')) },
        ]
      : [
          {
            name: strength ? 'Too weak' : 'Bottom box',
            values: summaries.map((summary) => share(summary, 'bottom_box')),
          },
          {
            name: strength ? 'Weak' : 'Bottom 2 box',
            values: summaries.map(
              (s) => Math.round((share(s, 'bottom_2_box') - share(s, 'bottom_box')) * 10) / 10,
            ),
          },
          {
            name: strength ? 'Just right' : 'Neutral',
            values: summaries.map((summary) => share(summary, 'just_right')),
          },
          {
            name: strength ? 'Strong' : 'Top 2 box',
            values: summaries.map((s) => Math.round((share(s, 'top_2_box') - share(s, 'top_box')) * 10) / 10),
          },
          {
            name: strength ? 'Too strong' : 'Top box',
            values: summaries.map((summary) => share(summary, 'top_box')),
          },
        ];
  return {
    name: `${question.id}: ${question.text}`,
    question: question.id,
    labels: products.map((product) => `${product.letter}: ${chartLabel(product.label)}`),
    series,
    letters: result.significance[0]?.letters.map((letter) => letter.text) ?? products.map(() => ''),
  };
}

/** Runs the generator on a dataset. @throws GeneratorError for options the data cannot satisfy. */
export function generateStatistics(dataset: Dataset, options: GeneratorOptions): GeneratorResult {
  if (dataset.rows.length === 0) throw new GeneratorError('The data has no rows.');
  if (options.testTypes.length === 0) throw new GeneratorError('The array test_types is empty!');
  const main = questionIndex(dataset, options.mainQuestion, 'The main question');
  const strength = new Set(options.strengthQuestions ?? []);
  for (const id of strength) questionIndex(dataset, id, 'The strength question');
  const cpv = new Set(options.cpvQuestions ?? []);
  for (const id of cpv) {
    const question = dataset.questions[questionIndex(dataset, id, 'The CPV question')];
    if (question && question.max - question.min !== 4)
      throw new GeneratorError(
        `The CPV question "${id}" is not on a 5-point scale (${question.min} to ${question.max}).`,
      );
  }
  const { codes, benchmarks } = orderProducts(dataset, options);
  const products: ProductColumn[] = codes.map((code, index) => ({
    code,
    label: options.replaceProductCodes ? (dataset.productNames.get(code) ?? code) : code,
    letter: columnLetter(index),
    benchmark: benchmarks.has(code),
  }));
  // The design is read from the data before any test; it sets the default of "paired".
  const overall = detectDesign(dataset, null, codes);
  const paired = options.paired ?? defaultPaired(overall);
  const method = pairwiseMethod(paired, options.parametric);
  const multiple =
    options.multipleComparisons ?? defaultMultipleComparisons(options.parametric, options.testTypes);
  if (multiple === 'tukey_hsd' && !options.parametric)
    throw new GeneratorError(
      'Tukey HSD compares means: choose parametric tests, or Holm or Benjamini-Hochberg for non-parametric ones.',
    );
  if (multiple === 'tukey_hsd' && options.testTypes.some((type) => parseTestType(type).tails === 1))
    throw new GeneratorError(
      'Tukey HSD is a two-tailed test: choose two-tailed test types only, or Holm or Benjamini-Hochberg.',
    );
  // Tukey HSD letters come from the studentized range, not from the design's pairwise test.
  const rows = letterRows(options.testTypes, method).map((row) =>
    multiple === 'tukey_hsd' ? { ...row, legend: row.legend.replace(/^[^,]+,/, 'Tukey HSD,') } : row,
  );
  const allIndexes = dataset.questions.map((_, index) => index);
  // Answers per product: aligned by respondent for the paired tests, as they come otherwise.
  const independentSamples = collectSamples(dataset, codes, allIndexes, false);
  const pairedSamples = paired ? collectSamples(dataset, codes, allIndexes, true) : null;
  const compare =
    benchmarks.size > 0
      ? (i: number, j: number) => benchmarks.has(codes[i] ?? '') !== benchmarks.has(codes[j] ?? '')
      : undefined;
  const isBenchmark = (index: number): boolean => benchmarks.has(codes[index] ?? '');

  const questions: QuestionResult[] = dataset.questions.map((question, q) => {
    const yesNo = question.type === 'binary';
    const isStrength = strength.has(question.id);
    const design = detectDesign(dataset, q, codes);
    const analysis = analysisOf(paired, design);
    const perProduct = independentSamples.byQuestion[q] ?? [];
    const aligned = analysis === 'paired' ? (pairedSamples?.byQuestion[q] ?? perProduct) : perProduct;
    const tested = yesNo ? aligned.map(yesNoValues) : aligned;
    const questionMethod = pairwiseMethod(analysis === 'paired', options.parametric);
    const intra =
      analysis === 'intrablock'
        ? runIntraBlock(
            dataset,
            q,
            codes,
            yesNo ? (value) => yesNoValues([value])[0] ?? Number.NaN : undefined,
            // Tukey-Kramer p-values only where the letters use them (each is a numerical integral).
            multiple === 'tukey_hsd' && !yesNo,
          )
        : null;
    const outcomesByTails = new Map<1 | 2, (PairwiseOutcome | null)[][]>();
    const pairwise = (requested: 1 | 2): (PairwiseOutcome | null)[][] => {
      // Strength questions are always tested two-tailed: "stronger" has no direction fixed in advance.
      const tails = isStrength ? 2 : requested;
      const compared = compare ? { compare } : {};
      // Tukey HSD compares means; yes/no questions take Holm's control of the same family instead.
      const tukey = multiple === 'tukey_hsd' && !yesNo;
      const control = multiple === 'tukey_hsd' ? 'holm' : multiple;
      let outcomes: (PairwiseOutcome | null)[][];
      if (intra) {
        outcomes = intra.anova
          ? intraBlockOutcomes(intra.anova, codes, { tails, tukey, ...compared })
          : codes.map(() => codes.map(() => null));
        if (!tukey) outcomes = controlMultiplicity(outcomes, control);
      } else if (tukey) {
        outcomes = tukeyOutcomes(tested, { paired: analysis === 'paired', ...compared });
      } else {
        const raw = yesNo
          ? yesNoOutcomes(tested, { paired: analysis === 'paired', tails, ...compared })
          : pairwiseOutcomes(tested, { method: questionMethod, tails, ...compared });
        outcomes = controlMultiplicity(raw, control);
      }
      // One-tailed against a benchmark: the direction fixed in advance is "candidate higher".
      return tails === 1 && benchmarks.size > 0 ? candidateHigherOnly(outcomes, isBenchmark) : outcomes;
    };
    const significance = rows.map((row) => {
      let outcomes = outcomesByTails.get(row.tails);
      if (!outcomes) {
        outcomes = pairwise(row.tails);
        outcomesByTails.set(row.tails, outcomes);
      }
      return { row, outcomes, letters: assignSignificanceLetters(outcomes, row.levels) };
    });
    return {
      question,
      cpv: cpv.has(question.id),
      strength: isStrength,
      yesNo,
      summaries: perProduct.map((values) => summariseHarmonised(values)),
      significance,
      omnibus: intra
        ? intraBlockOmnibus(intra, codes.length)
        : omnibusTest(tested, { paired: analysis === 'paired', parametric: options.parametric, yesNo }),
      design,
      analysis,
      intraBlock: intra?.anova ?? null,
      intraBlockError: intra?.error ?? null,
    };
  });

  // Summary table: per question the base, the mean, the boxes and one letters row per level pair.
  const header = [
    'Question',
    'Statistic',
    ...products.map(
      (product) => `${product.letter}: ${product.label}${product.benchmark ? ' (benchmark)' : ''}`,
    ),
  ];
  const summaryData: (string | number | null)[][] = [];
  for (const result of questions) {
    const { question } = result;
    const title = `${question.id}: ${question.text}${result.cpv ? ' (CPV)' : ''}`;
    summaryData.push([title, 'Base (n)', ...result.summaries.map((summary) => summary.n)]);
    // Yes/no answers have shares, never a mean of their codes.
    if (!result.yesNo) summaryData.push([title, 'Mean', ...result.summaries.map((summary) => summary.mean)]);
    // Incomplete blocks: the letters compare the adjusted (least-squares) means, shown beside the raw
    // ones (after the mean; yes/no questions after their shares).
    const pushAdjusted = () => {
      if (!result.intraBlock) return;
      const adjusted = new Map(
        result.intraBlock.products.map((code, index) => [
          code,
          result.intraBlock?.adjustedMeans[index] ?? null,
        ]),
      );
      summaryData.push([
        title,
        result.yesNo ? ADJUSTED_SHARE_ROW : ADJUSTED_MEAN_ROW,
        ...products.map((product) => adjusted.get(product.code) ?? null),
      ]);
    };
    if (!result.yesNo) pushAdjusted();
    const boxes =
      question.type === 'binary'
        ? BOX_ROWS.filter((box) => box.key === 'top_box' || box.key === 'bottom_box')
        : BOX_ROWS;
    for (const box of boxes) {
      const label =
        question.type === 'binary'
          ? box.key === 'top_box'
            ? 'Yes'
            : 'No'
          : result.strength
            ? box.strength
            : box.label;
      summaryData.push([
        title,
        label,
        ...result.summaries.map((summary) =>
          result.strength ? exclusiveStrengthShare(summary, box.key) : (summary[box.key] as number | null),
        ),
      ]);
    }
    if (result.yesNo) pushAdjusted();
    for (const entry of result.significance)
      summaryData.push([
        title,
        `Significance ${entry.row.label}`,
        ...entry.letters.map((letter) => letter.text),
      ]);
    const omnibusLine = result.intraBlockError
      ? `${result.omnibus.test}: ${result.intraBlockError}`
      : omnibusText(result.omnibus);
    summaryData.push([title, OMNIBUS_ROW, omnibusLine, ...products.slice(1).map(() => null)]);
  }
  const omnibus: StatisticsTable = {
    headers: ['Question', 'Test', 'Statistic', 'df', 'p-value', 'n', 'Products'],
    data: questions.map((result) => [
      `${result.question.id}: ${result.question.text}`,
      result.omnibus.test,
      result.omnibus.statistic,
      result.omnibus.df,
      result.omnibus.pValue,
      result.omnibus.n,
      result.omnibus.k,
    ]),
  };

  // Correlations of every question with the main question, over all rows (respondent and product).
  const harmonisedColumn = (q: number): number[] => {
    const question = dataset.questions[q];
    return dataset.rows.map((row) =>
      question ? harmoniseToFivePoint(row.values[q] ?? Number.NaN, question.min, question.max) : Number.NaN,
    );
  };
  const mainValues = harmonisedColumn(main);
  // Paired designs: each respondent rated several products, so their rows are clusters.
  const clusters = paired ? dataset.rows.map((row) => row.respondent) : null;
  const others = dataset.questions.map((question, q) => ({ question, q })).filter(({ q }) => q !== main);
  const correlations: CorrelationRow[] = others.map(({ question, q }) => ({
    question,
    ...correlate(harmonisedColumn(q), mainValues, clusters),
  }));
  // Product level: one point per product, its mean of each question (n = products).
  const productMeans = (q: number): number[] =>
    (questions[q]?.summaries ?? []).map((summary) => summary.mean ?? Number.NaN);
  const mainMeans = productMeans(main);
  const productCorrelations: CorrelationRow[] = others.map(({ question, q }) => ({
    question,
    ...correlate(productMeans(q), mainMeans, null),
  }));
  const mainQuestion = dataset.questions[main];
  const correlationData = (list: CorrelationRow[]) =>
    options.displayCorrelation
      ? list.map((row) => [
          `${row.question.id}: ${row.question.text}`,
          row.pearsonR,
          row.pearsonP,
          row.spearmanRho,
          row.spearmanP,
          row.n,
        ])
      : [];
  const pNote = paired ? ' (cluster-robust by respondent)' : '';
  const correlation: StatisticsTable = {
    headers: [
      'Question',
      `Pearson r with ${mainQuestion?.id ?? ''}`,
      `Pearson p-value${pNote}`,
      'Spearman rho',
      `Spearman p-value${pNote}`,
      'n',
    ],
    data: correlationData(correlations),
  };
  const productCorrelation: StatisticsTable = {
    headers: [
      'Question',
      `Pearson r with ${mainQuestion?.id ?? ''} (product means)`,
      'Pearson p-value',
      'Spearman rho',
      'Spearman p-value',
      'n (products)',
    ],
    data: correlationData(productCorrelations),
  };

  let regression: StatisticsTable | null = null;
  if (options.regression) {
    const outcomeId = options.regression.outcome ?? options.mainQuestion;
    const outcome = questionIndex(dataset, outcomeId, 'The regression outcome');
    const drivers = options.regression.drivers
      .filter((id) => id !== outcomeId)
      .map((id) => questionIndex(dataset, id, 'The regression driver'));
    if (drivers.length === 0)
      throw new GeneratorError('The regression needs at least one driver other than its outcome.');
    const driverColumns = drivers.map(harmonisedColumn);
    const y = harmonisedColumn(outcome);
    const predictors = y.map((_, row) => driverColumns.map((column) => column[row] ?? Number.NaN));
    // Paired designs: standard errors cluster-robust by respondent (CR1, t with respondents - 1 df).
    const fit = clusters ? olsClustered(y, predictors, clusters) : ols(predictors, y);
    if (fit.rankDeficient)
      throw new GeneratorError(
        'The regression cannot be fitted: its drivers are collinear or there are fewer complete rows than coefficients.',
      );
    // Drivers by id and text, as the correlation rows name them: an unmapped question's raw id alone says little.
    const terms = [
      '(Intercept)',
      ...drivers.map((q) => {
        const question = dataset.questions[q];
        if (!question) return '';
        return question.text && question.text !== question.id
          ? `${question.id}: ${question.text}`
          : question.id;
      }),
    ];
    // Collinearity of the drivers on the rows the fit used (complete in the outcome and every driver).
    const used = predictors.filter(
      (row, index) => Number.isFinite(y[index] ?? Number.NaN) && row.every((value) => Number.isFinite(value)),
    );
    const inflation = vif(drivers.map((_, j) => used.map((row) => row[j] ?? Number.NaN)));
    const collinear = drivers
      .map((q) => dataset.questions[q]?.id ?? '')
      .filter((_, j) => (inflation[j] ?? 0) > VIF_WARNING_THRESHOLD);
    regression = {
      headers: ['Term', 'Coefficient', 'Standard error', 't', 'p-value', 'VIF'],
      data: [
        ...terms.map((term, index) => [
          term,
          finiteOrNull(fit.coefficients[index] ?? Number.NaN),
          finiteOrNull(fit.standardErrors[index] ?? Number.NaN),
          finiteOrNull(fit.t[index] ?? Number.NaN),
          finiteOrNull(fit.pValues[index] ?? Number.NaN),
          index === 0 ? null : (finiteOrNull(inflation[index - 1] ?? Number.NaN) ?? 'infinite'),
        ]),
        ...(collinear.length > 0
          ? [
              [
                `Warning: ${collinear.join(', ')} ${collinear.length === 1 ? 'has' : 'have'} a variance inflation factor above ${VIF_WARNING_THRESHOLD}: the other drivers explain ${collinear.length === 1 ? 'it' : 'them'} almost entirely, so ${collinear.length === 1 ? 'its coefficient is' : 'their coefficients are'} unstable.`,
                null,
                null,
                null,
                null,
                null,
              ],
            ]
          : []),
        [`Outcome: ${outcomeId}`, null, null, null, null, null],
        ...(options.regression.leftOut && options.regression.leftOut.length > 0
          ? [
              [
                `Left out of the default drivers as measures of the outcome: ${options.regression.leftOut.join(', ')}`,
                null,
                null,
                null,
                null,
                null,
              ],
            ]
          : []),
        [
          'clusters' in fit
            ? `Standard errors: cluster-robust by respondent (CR1), t with ${fit.df} df (${fit.clusters} respondents)`
            : 'Standard errors: classic (independent rows)',
          null,
          null,
          null,
          null,
          null,
        ],
        ['R squared', finiteOrNull(fit.rSquared), null, null, null, null],
        ['Adjusted R squared', finiteOrNull(fit.adjRSquared), null, null, null, null],
        ['n', fit.n, null, null, null, null],
      ],
    };
  }

  let jar: StatisticsTable | null = null;
  if (strength.size > 0) {
    const data: (string | number | null)[][] = [];
    for (const result of questions.filter((entry) => entry.strength)) {
      const q = dataset.questions.indexOf(result.question);
      products.forEach((product, p) => {
        const jarValues: number[] = [];
        const liking: number[] = [];
        dataset.rows.forEach((row) => {
          if (row.product !== product.code) return;
          jarValues.push(
            harmoniseToFivePoint(row.values[q] ?? Number.NaN, result.question.min, result.question.max),
          );
          liking.push(
            mainQuestion
              ? harmoniseToFivePoint(row.values[main] ?? Number.NaN, mainQuestion.min, mainQuestion.max)
              : Number.NaN,
          );
        });
        const distribution = jarDistribution(independentSamples.byQuestion[q]?.[p] ?? []);
        const penalty = penaltyAnalysis(jarValues, liking);
        const tested = penaltySignificance(jarValues, liking);
        const side = (group: PenaltySide, name: string) => {
          const reason = penaltySkipReason(group, tested, mainQuestion?.id ?? 'the main question');
          return {
            cells: reason
              ? [null, null, null, null]
              : [
                  finiteOrNull(group.drop ?? Number.NaN),
                  finiteOrNull(group.stdError ?? Number.NaN),
                  finiteOrNull(group.pValue ?? Number.NaN),
                  finiteOrNull(group.penalty ?? Number.NaN),
                ],
            note: reason ? `${name} skipped: ${reason}` : null,
          };
        };
        const weak = side(tested.tooLittle, 'Weak or too weak');
        const strong = side(tested.tooMuch, 'Strong or too strong');
        data.push([
          `${result.question.id}: ${result.question.text}`,
          `${product.letter}: ${product.label}`,
          distribution.n,
          distribution.tooWeak,
          distribution.justRight,
          distribution.tooStrong,
          penalty.justRight.meanLiking,
          ...weak.cells,
          ...strong.cells,
          [weak.note, strong.note].filter((note) => note !== null).join('; ') || null,
        ]);
      });
    }
    jar = {
      headers: [
        'Question',
        'Product',
        'n',
        // The groups of the penalty analysis pool two points of the scale each.
        'Weak or too weak',
        'Just right',
        'Strong or too strong',
        `Mean ${mainQuestion?.id ?? ''} (just right)`,
        ...JAR_SIDE_HEADERS.map((text) => `Weak or too weak: ${text}`),
        ...JAR_SIDE_HEADERS.map((text) => `Strong or too strong: ${text}`),
        'Note',
      ],
      data,
    };
  }

  const yesNoQuestions = questions.filter((result) => result.yesNo);
  const yesCodes = [
    ...new Set(yesNoQuestions.map((result) => `${result.question.max} (no: ${result.question.min})`)),
  ];
  const omnibusTests = [...new Set(questions.map((result) => result.omnibus.test))];
  // The pairwise test of each analysis a yes/no question received, in a fixed order.
  const YES_NO_TESTS: Record<QuestionAnalysis, string> = {
    paired: "McNemar's test with continuity correction",
    intrablock:
      'the intra-block analysis of the 0/1 answers (contrasts of adjusted shares) where answers are missing',
    independent: 'the two-proportion z-test (pooled, no continuity correction)',
  };
  const yesNoTests = (['paired', 'intrablock', 'independent'] as const)
    .filter((kind) => yesNoQuestions.some((result) => result.analysis === kind))
    .map((kind) => YES_NO_TESTS[kind]);
  const strengthResults = questions.filter((result) => result.strength);
  const designReport = reportDesign(questions, overall, { paired, parametric: options.parametric, multiple });
  // Every scale question analysed within blocks: the letters' test is the intra-block contrast (Tukey
  // HSD keeps its name: its p-values are then Tukey-Kramer's).
  const scaleResults = questions.filter((result) => !result.yesNo);
  const allIntraBlock =
    scaleResults.length > 0 && scaleResults.every((result) => result.analysis === 'intrablock');
  const legend = [
    ...rows.map((row) =>
      allIntraBlock && multiple !== 'tukey_hsd'
        ? row.legend.replace(/^[^,]+,/, 'Intra-block contrasts of adjusted means,')
        : row.legend,
    ),
    MULTIPLE_COMPARISON_LEGEND[multiple],
    designReport.found,
    ...designReport.analysis,
    ...designReport.warnings,
    ...(rows.some((row) => row.tails === 1)
      ? [
          benchmarks.size > 0
            ? 'One-tailed letters test the direction fixed in advance: a candidate significantly higher than a benchmark.'
            : 'One-tailed letters test the direction of the observed difference: a one-tailed 95 % letter is a two-tailed 90 % decision.',
        ]
      : []),
    ...(strengthResults.length > 0
      ? [
          `Strength questions (${idList(strengthResults)}): a letter means significantly stronger than the product of that letter, always tested two-tailed. "Weak" and "Strong" are the 2s and 4s alone, "Too weak" and "Too strong" the 1s and 5s; the penalty analysis pools "Weak or too weak" (1-2) and "Strong or too strong" (4-5).`,
        ]
      : []),
    ...(yesNoQuestions.length > 0
      ? [
          `Yes/no questions: shares of yes, where yes is the code ${yesCodes.join(', ')}; pairs by ${yesNoTests.join(
            '; ',
          )}${multiple === 'tukey_hsd' ? ", with Holm's correction (Tukey HSD compares means)" : ''}.`,
        ]
      : []),
    `Omnibus test of each question across the products: ${omnibusTests.join('; ')}.`,
    ...(benchmarks.size > 0
      ? [
          `Benchmarks (${products
            .filter((product) => product.benchmark)
            .map((product) => product.letter)
            .join(', ')}) are compared with every candidate.`,
        ]
      : []),
    'Scores are harmonised to a common 5 point scale; boxes are shares of answers.',
  ];

  return {
    method,
    design: designReport,
    products,
    letterRows: rows,
    questions,
    correlations,
    productCorrelations,
    summary: { headers: header, data: summaryData },
    omnibus,
    correlation,
    productCorrelation,
    regression,
    jar,
    legend,
    charts: options.charts ? questions.map((result) => chartOf(result, products)) : [],
  };
}
