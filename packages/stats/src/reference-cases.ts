// Runs one case in the format of shared/reference/stats-cases.json (the SciPy reference) through the
// package's functions and returns a result keyed exactly like the reference's `expected` object. Used
// by the reference test and by the `npm run stats -- FILE` command.
import { summariseScale } from './harmonise.ts';
import { oneProportionZ, twoProportionZ } from './proportion-tests.ts';
import { pearson, spearman } from './correlation.ts';
import { mannWhitneyU, wilcoxonSignedRank } from './rank-tests.ts';
import { ols } from './regression.ts';
import { oneSampleT, pairedT, studentT, welchT } from './t-tests.ts';
import { assertAlternative, type Alternative } from './types.ts';

/** One case: `id`, `test`, the inputs the test needs and, optionally, `expected`. */
export type StatsCase = Record<string, unknown> & { id: string; test: string };

/** A computed result: numbers (NaN where undefined) or number arrays. */
export type StatsCaseResult = Record<string, number | number[]>;

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
 * arrays; n and the box aggregates). Numbers undefined for the data are NaN (null in JSON).
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
    default:
      throw new StatsCaseError(`${testCase.id}: unknown test "${testCase.test}"`);
  }
}
