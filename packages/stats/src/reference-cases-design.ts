// The reference cases of the design-aware statistics (shared/reference/stats-cases-3.json):
// design_detection, anova_intrablock, vif and penalty_significance, keyed like the reference's
// `expected`. Kept apart from reference-cases.ts, which dispatches to it.
import { designDetection } from './design-detection.ts';
import { anovaIntrablock } from './intrablock.ts';
import { penaltySignificance } from './penalty-significance.ts';
import { vif } from './vif.ts';

type Case = Record<string, unknown> & { id: string; test: string };

/** Result of one of these cases: numbers (NaN where undefined), lists, strings and lists of records. */
export type DesignCaseResult = Record<string, number | number[] | string | Record<string, number>[]>;

/** The tests this file computes. */
export const DESIGN_CASE_TESTS = [
  'design_detection',
  'anova_intrablock',
  'vif',
  'penalty_significance',
] as const;

class DesignCaseError extends Error {}

function list(testCase: Case, key: string): unknown[] {
  const value = testCase[key];
  if (!Array.isArray(value)) throw new DesignCaseError(`${testCase.id}: "${key}" is not an array`);
  return value;
}

function ids(testCase: Case, key: string): (string | number)[] {
  return list(testCase, key).map((entry) => {
    if (typeof entry !== 'string' && typeof entry !== 'number')
      throw new DesignCaseError(`${testCase.id}: "${key}" holds something other than ids`);
    return entry;
  });
}

function labels(testCase: Case, key: string): string[] {
  return ids(testCase, key).map(String);
}

/** Numbers with JSON's null read as a missing value (NaN). */
function values(entries: unknown[], testCase: Case, key: string): number[] {
  return entries.map((entry) => {
    if (entry === null) return Number.NaN;
    if (typeof entry !== 'number')
      throw new DesignCaseError(`${testCase.id}: "${key}" is not a number array`);
    return entry;
  });
}

const orNaN = (value: number | null): number => value ?? Number.NaN;

/** Computes a case of one of {@link DESIGN_CASE_TESTS}. */
export function computeDesignCase(testCase: Case): DesignCaseResult {
  switch (testCase.test) {
    case 'design_detection': {
      const result = designDetection(ids(testCase, 'respondents'), labels(testCase, 'products'));
      return { design: result.design, products: result.products, respondents: result.respondents };
    }
    case 'anova_intrablock': {
      const result = anovaIntrablock(
        ids(testCase, 'respondents'),
        labels(testCase, 'products'),
        values(list(testCase, 'values'), testCase, 'values'),
      );
      return {
        f: result.f,
        df_num: result.dfNum,
        df_den: result.dfDen,
        p_value: result.pValue,
        adjusted_means: result.adjustedMeans,
        pairs: result.pairs.map((pair) => ({
          diff: pair.diff,
          std_error: pair.stdError,
          t: pair.t,
          p_value: pair.pValue,
          p_tukey: pair.pTukey,
        })),
      };
    }
    case 'vif': {
      const columns = list(testCase, 'x').map((column) => {
        if (!Array.isArray(column)) throw new DesignCaseError(`${testCase.id}: "x" is not a list of columns`);
        return values(column, testCase, 'x');
      });
      return { vif: vif(columns) };
    }
    case 'penalty_significance': {
      const result = penaltySignificance(
        values(list(testCase, 'jar'), testCase, 'jar'),
        values(list(testCase, 'liking'), testCase, 'liking'),
      );
      return {
        share_too_little: result.tooLittle.share,
        share_too_much: result.tooMuch.share,
        drop_too_little: orNaN(result.tooLittle.drop),
        drop_too_much: orNaN(result.tooMuch.drop),
        penalty_too_little: orNaN(result.tooLittle.penalty),
        penalty_too_much: orNaN(result.tooMuch.penalty),
        se_too_little: orNaN(result.tooLittle.stdError),
        se_too_much: orNaN(result.tooMuch.stdError),
        p_too_little: orNaN(result.tooLittle.pValue),
        p_too_much: orNaN(result.tooMuch.pValue),
      };
    }
    default:
      throw new DesignCaseError(`${testCase.id}: unknown test "${testCase.test}"`);
  }
}
