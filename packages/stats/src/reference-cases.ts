// Runs one case in the format of shared/reference/stats-cases.json (the SciPy reference) through the
// package's functions and returns a result keyed exactly like the reference's `expected` object. Used
// by the reference test and by the `npm run stats -- FILE` command.
import { summariseScale } from './harmonise.ts';
import { oneProportionZ, twoProportionZ } from './proportion-tests.ts';
import { pearson, spearman } from './correlation.ts';
import { mannWhitneyU, wilcoxonSignedRank } from './rank-tests.ts';
import { ols, olsClustered } from './regression.ts';
import { blockedAnova, friedmanTest, kruskalWallis, oneWayAnova } from './group-tests.ts';
import { tukeyHsd, tukeyHsdBlocked } from './tukey.ts';
import { benjaminiHochbergAdjust, holmAdjust } from './multiple-comparisons.ts';
import { cochranQ, mcnemarTest } from './binary-tests.ts';
import { percentiles } from './norms.ts';
import { derSimonianLaird } from './meta-analysis.ts';
import { metaCorrelation } from './meta-correlation.ts';
import { powerProportions, powerT } from './power.ts';
import { metaHksj } from './meta-hksj.ts';
import { oneSampleT, pairedT, studentT, welchT } from './t-tests.ts';
import { assertAlternative, type Alternative } from './types.ts';
import { clusterContrastAvg, clusterTwoSample } from './cluster-tests.ts';
import { computeDesignCase, DESIGN_CASE_TESTS, type DesignCaseResult } from './reference-cases-design.ts';

/** One case: `id`, `test`, the inputs the test needs and, optionally, `expected`. */
export type StatsCase = Record<string, unknown> & { id: string; test: string };

/** A computed result: numbers (NaN where undefined) or number arrays. */
export type StatsCaseResult = Record<string, number | number[]> | DesignCaseResult;

/** The test families a case may name. */
export const STATS_CASE_TESTS = [
  'welch_t',
  'student_t',
  'paired_t',
  'one_sample_t',
  'mann_whitney',
  'wilcoxon_signed_rank',
  'two_proportion_z',
  'one_proportion_z',
  'pearson',
  'spearman',
  'ols',
  'harmonized_boxes',
  'friedman',
  'anova_rm',
  'tukey_hsd_blocked',
  'kruskal',
  'anova_oneway',
  'tukey_hsd',
  'holm',
  'benjamini_hochberg',
  'mcnemar',
  'cochrans_q',
  'ols_cluster',
  'percentiles',
  'meta_dersimonian_laird',
  'power_t',
  'power_proportions',
  'meta_correlation',
  'cluster_two_sample',
  'cluster_contrast_avg',
  'meta_hksj',
  ...DESIGN_CASE_TESTS,
] as const;

/** A malformed case (missing or mistyped input, unknown test): the message names the case and field. */
export class StatsCaseError extends Error {}

/** A number, with JSON's null read as a missing value (NaN), so NaN inputs can travel as JSON. */
function asNumber(value: unknown): number | undefined {
  if (value === null) return Number.NaN;
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^(NaN|-?Infinity)$/.test(value)) return Number(value);
  return undefined;
}

function numbers(testCase: StatsCase, key: string): number[] {
  const value = testCase[key];
  if (!Array.isArray(value)) throw new StatsCaseError(`${testCase.id}: "${key}" is not a number array`);
  return value.map((entry) => {
    const number = asNumber(entry);
    if (number === undefined) throw new StatsCaseError(`${testCase.id}: "${key}" is not a number array`);
    return number;
  });
}

function matrix(testCase: StatsCase, key: string): number[][] {
  const value = testCase[key];
  if (!Array.isArray(value) || !value.every((row) => Array.isArray(row)))
    throw new StatsCaseError(`${testCase.id}: "${key}" is not a number matrix`);
  return (value as unknown[][]).map((row) =>
    row.map((entry) => {
      const number = asNumber(entry);
      if (number === undefined) throw new StatsCaseError(`${testCase.id}: "${key}" is not a number matrix`);
      return number;
    }),
  );
}

/** Products × respondents (the reference's `groups`) to respondents × products (the functions' blocks). */
function transpose(testCase: StatsCase, groups: number[][]): number[][] {
  const n = groups[0]?.length ?? 0;
  if (groups.some((group) => group.length !== n))
    throw new StatsCaseError(`${testCase.id}: "groups" of a paired test need equal lengths`);
  return Array.from({ length: n }, (_, i) => groups.map((group) => group[i] ?? Number.NaN));
}

/** Respondent ids (strings or integers) or product labels; only equality matters. */
function labels(testCase: StatsCase, key: string): (string | number)[] {
  const value = testCase[key];
  if (
    !Array.isArray(value) ||
    !value.every((entry) => typeof entry === 'string' || typeof entry === 'number')
  )
    throw new StatsCaseError(`${testCase.id}: "${key}" is not a list of labels`);
  return value as (string | number)[];
}

function scalar(testCase: StatsCase, key: string): number {
  const number = asNumber(testCase[key]);
  if (number === undefined) throw new StatsCaseError(`${testCase.id}: "${key}" is not a number`);
  return number;
}

function alternativeOf(testCase: StatsCase): Alternative {
  const value = testCase.alternative ?? 'two-sided';
  if (typeof value !== 'string') throw new StatsCaseError(`${testCase.id}: bad alternative`);
  try {
    assertAlternative(value);
  } catch {
    throw new StatsCaseError(`${testCase.id}: bad alternative "${value}"`);
  }
  return value;
}

/** Checks the shape of a parsed case (an object with a string id and test). */
export function assertStatsCase(value: unknown, index: number): asserts value is StatsCase {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new StatsCaseError(`case ${index}: not an object`);
  const record = value as Record<string, unknown>;
  if (typeof record.id !== 'string') throw new StatsCaseError(`case ${index}: "id" is not a string`);
  if (typeof record.test !== 'string') throw new StatsCaseError(`${record.id}: "test" is not a string`);
}

/**
 * The result of a case, keyed like the reference's `expected` (statistic, df, p_value; r; the OLS
 * arrays; n and the box aggregates; df1/df2 of F tests; the Tukey p-values of the pairs (i, j), i < j,
 * in row order; adjusted p-values; p10 ... p90; the pooled estimate and its heterogeneity). Paired
 * tests read `groups` as one array per product, aligned by respondent. Numbers undefined for the data are NaN (null in JSON).
 * @throws StatsCaseError for an unknown test or a missing or mistyped input.
 */
export function computeStatsCase(testCase: StatsCase): StatsCaseResult {
  const alternative = alternativeOf(testCase);
  switch (testCase.test) {
    case 'welch_t':
    case 'student_t':
    case 'paired_t': {
      const run = { welch_t: welchT, student_t: studentT, paired_t: pairedT }[testCase.test];
      const result = run(numbers(testCase, 'x'), numbers(testCase, 'y'), alternative);
      return { statistic: result.statistic, df: result.df, p_value: result.pValue };
    }
    case 'one_sample_t': {
      const result = oneSampleT(numbers(testCase, 'x'), scalar(testCase, 'mu'), alternative);
      return { statistic: result.statistic, df: result.df, p_value: result.pValue };
    }
    case 'mann_whitney': {
      const result = mannWhitneyU(numbers(testCase, 'x'), numbers(testCase, 'y'), alternative);
      return { statistic: result.statistic, p_value: result.pValue };
    }
    case 'wilcoxon_signed_rank': {
      const result = wilcoxonSignedRank(numbers(testCase, 'x'), numbers(testCase, 'y'), alternative);
      return { statistic: result.statistic, p_value: result.pValue };
    }
    case 'two_proportion_z': {
      const result = twoProportionZ(
        scalar(testCase, 'k1'),
        scalar(testCase, 'n1'),
        scalar(testCase, 'k2'),
        scalar(testCase, 'n2'),
        alternative,
      );
      return { statistic: result.statistic, p_value: result.pValue };
    }
    case 'one_proportion_z': {
      const result = oneProportionZ(
        scalar(testCase, 'k'),
        scalar(testCase, 'n'),
        scalar(testCase, 'p0'),
        alternative,
      );
      return { statistic: result.statistic, p_value: result.pValue };
    }
    case 'pearson':
    case 'spearman': {
      const run = testCase.test === 'pearson' ? pearson : spearman;
      const result = run(numbers(testCase, 'x'), numbers(testCase, 'y'), alternative);
      return { r: result.r, p_value: result.pValue };
    }
    case 'ols': {
      const result = ols(matrix(testCase, 'X'), numbers(testCase, 'y'), { alternative });
      return {
        coefficients: result.coefficients,
        std_errors: result.standardErrors,
        t: result.t,
        p_values: result.pValues,
        r_squared: result.rSquared,
        adj_r_squared: result.adjRSquared,
      };
    }
    case 'harmonized_boxes': {
      const summary = summariseScale(
        numbers(testCase, 'values'),
        scalar(testCase, 'scale_min'),
        scalar(testCase, 'scale_max'),
      );
      const output: Record<string, number> = { n: summary.n };
      for (const key of [
        'mean',
        'variance',
        'top_box',
        'top_2_box',
        'just_right',
        'bottom_2_box',
        'bottom_box',
      ] as const) {
        output[key] = summary[key] ?? Number.NaN;
      }
      return output;
    }
    case 'friedman':
    case 'kruskal': {
      // `groups[j]` holds product j's answers; for Friedman the respondents line up across products.
      const groups = matrix(testCase, 'groups');
      const result =
        testCase.test === 'friedman' ? friedmanTest(transpose(testCase, groups)) : kruskalWallis(groups);
      return { statistic: result.statistic, df: result.df, p_value: result.pValue };
    }
    case 'anova_rm':
    case 'anova_oneway': {
      const groups = matrix(testCase, 'groups');
      const result =
        testCase.test === 'anova_rm' ? blockedAnova(transpose(testCase, groups)) : oneWayAnova(groups);
      return { statistic: result.statistic, df1: result.df1, df2: result.df2, p_value: result.pValue };
    }
    case 'tukey_hsd':
    case 'tukey_hsd_blocked': {
      const groups = matrix(testCase, 'groups');
      const result =
        testCase.test === 'tukey_hsd_blocked'
          ? tukeyHsdBlocked(transpose(testCase, groups))
          : tukeyHsd(groups);
      // The pairs (i, j), i < j, in row order: (0, 1), (0, 2), ..., (1, 2), ...
      const pValues: number[] = [];
      result.pValues.forEach((row, i) => row.forEach((p, j) => j > i && pValues.push(p)));
      return { p_values: pValues };
    }
    case 'holm':
      return { adjusted: holmAdjust(numbers(testCase, 'p_values')) };
    case 'benjamini_hochberg':
      return { adjusted: benjaminiHochbergAdjust(numbers(testCase, 'p_values')) };
    case 'mcnemar': {
      const result = mcnemarTest(numbers(testCase, 'x'), numbers(testCase, 'y'));
      return { statistic: result.statistic, p_value: result.pValue };
    }
    case 'cochrans_q': {
      const result = cochranQ(transpose(testCase, matrix(testCase, 'groups')));
      return { statistic: result.statistic, df: result.df, p_value: result.pValue };
    }
    case 'ols_cluster': {
      // `x[j]` is predictor j over all observations; `groups` the respondent of each observation.
      const columns = matrix(testCase, 'x');
      const y = numbers(testCase, 'y');
      const clusters = numbers(testCase, 'groups');
      const rows = y.map((_, i) => columns.map((column) => column[i] ?? Number.NaN));
      const result = olsClustered(y, rows, clusters, { alternative });
      return {
        coefficients: result.coefficients,
        std_errors: result.standardErrors,
        p_values: result.pValues,
        df: result.df,
      };
    }
    case 'percentiles': {
      const values = percentiles(numbers(testCase, 'values'), [10, 25, 50, 75, 90]);
      return {
        p10: values[0] ?? NaN,
        p25: values[1] ?? NaN,
        p50: values[2] ?? NaN,
        p75: values[3] ?? NaN,
        p90: values[4] ?? NaN,
      };
    }
    case 'meta_dersimonian_laird': {
      const means = numbers(testCase, 'means');
      const sds = numbers(testCase, 'sds');
      const ns = numbers(testCase, 'ns');
      if (sds.length !== means.length || ns.length !== means.length)
        throw new StatsCaseError(`${testCase.id}: "means", "sds" and "ns" differ in length`);
      const result = derSimonianLaird(
        means.map((mean, i) => ({ mean, sd: sds[i] ?? Number.NaN, n: ns[i] ?? Number.NaN })),
      );
      return {
        estimate: result.estimate,
        std_error: result.stdError,
        tau2: result.tau2,
        q: result.q,
        i2: result.i2,
        ci_low: result.ciLow,
        ci_high: result.ciHigh,
      };
    }
    case 'power_t': {
      const design = testCase.design;
      if (design !== 'independent' && design !== 'paired')
        throw new StatsCaseError(`${testCase.id}: "design" is not "independent" or "paired"`);
      const correlation = testCase.correlation === null ? null : scalar(testCase, 'correlation');
      const result = powerT({
        design,
        difference: scalar(testCase, 'difference'),
        sd: scalar(testCase, 'sd'),
        correlation: design === 'paired' ? correlation : null,
        alpha: scalar(testCase, 'alpha'),
        power: scalar(testCase, 'power'),
        nGiven: scalar(testCase, 'n_given'),
      });
      return {
        effect_size: result.effectSize,
        n: result.n,
        n_required: result.nRequired,
        power_at_n: result.powerAtN,
      };
    }
    case 'power_proportions': {
      const result = powerProportions({
        p1: scalar(testCase, 'p1'),
        p2: scalar(testCase, 'p2'),
        alpha: scalar(testCase, 'alpha'),
        power: scalar(testCase, 'power'),
        nGiven: scalar(testCase, 'n_given'),
      });
      return {
        effect_size: result.effectSize,
        n: result.n,
        n_required: result.nRequired,
        power_at_n: result.powerAtN,
      };
    }
    case 'meta_correlation': {
      const rs = numbers(testCase, 'rs');
      const ns = numbers(testCase, 'ns');
      if (ns.length !== rs.length) throw new StatsCaseError(`${testCase.id}: "rs" and "ns" differ in length`);
      const result = metaCorrelation(rs.map((r, i) => ({ r, n: ns[i] ?? Number.NaN })));
      return {
        r: result.r,
        z: result.z,
        tau2: result.tau2,
        q: result.q,
        i2: result.i2,
        ci_low: result.ciLow,
        ci_high: result.ciHigh,
        pi_low: result.piLow,
        pi_high: result.piHigh,
      };
    }
    case 'cluster_two_sample': {
      const result = clusterTwoSample(
        numbers(testCase, 'values'),
        numbers(testCase, 'group'),
        labels(testCase, 'clusters'),
      );
      return {
        difference: result.difference,
        std_error: result.stdError,
        t: result.t,
        df: result.df,
        p_value: result.pValue,
      };
    }
    case 'cluster_contrast_avg': {
      const result = clusterContrastAvg(
        numbers(testCase, 'values'),
        labels(testCase, 'products').map(String),
        labels(testCase, 'clusters'),
      );
      return {
        difference: result.difference,
        std_error: result.stdError,
        t: result.t,
        df: result.df,
        p_value: result.pValue,
      };
    }
    case 'meta_hksj': {
      const means = numbers(testCase, 'means');
      const sds = numbers(testCase, 'sds');
      const ns = numbers(testCase, 'ns');
      if (sds.length !== means.length || ns.length !== means.length)
        throw new StatsCaseError(`${testCase.id}: "means", "sds" and "ns" differ in length`);
      const result = metaHksj(
        means.map((mean, i) => ({ mean, sd: sds[i] ?? Number.NaN, n: ns[i] ?? Number.NaN })),
      );
      return {
        estimate: result.estimate,
        tau2: result.tau2,
        hk_std_error: result.hkStdError,
        hk_ci_low: result.hkCiLow,
        hk_ci_high: result.hkCiHigh,
        pi_low: result.piLow,
        pi_high: result.piHigh,
      };
    }
    case 'design_detection':
    case 'anova_intrablock':
    case 'vif':
    case 'penalty_significance':
      return computeDesignCase(testCase);
    default:
      throw new StatsCaseError(`${testCase.id}: unknown test "${testCase.test}"`);
  }
}
