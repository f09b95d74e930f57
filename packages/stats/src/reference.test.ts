/// <reference types="node" />
// Every case of shared/reference/stats-cases.json (computed with SciPy) must match to a relative error
// below 1e-6; every expected field is compared, and an unknown test or field fails the run.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  mannWhitneyU,
  oneSampleT,
  ols,
  pairedT,
  pearson,
  studentT,
  summariseScale,
  twoProportionZ,
  welchT,
  wilcoxonSignedRank,
  type Alternative,
} from './index.ts';

type ReferenceCase = Record<string, unknown> & {
  id: string;
  test: string;
  expected: Record<string, unknown>;
};

// The SciPy reference cases travel with the package so the tests run on any clone; where the
// project's shared design folder sits beside the repository, the copy must be identical to it.
const referenceUrl = new URL('../reference/stats-cases.json', import.meta.url);
const sharedReferenceUrl = new URL('../../../../shared/reference/stats-cases.json', import.meta.url);
const referenceText = readFileSync(referenceUrl, 'utf8');
const cases = JSON.parse(referenceText) as ReferenceCase[];

const RELATIVE_TOLERANCE = 1e-6;
const ABSOLUTE_TOLERANCE_AT_ZERO = 1e-12;

/** Relative error below 1e-6; an expected value of exactly 0 allows an absolute error of 1e-12. */
function expectClose(actual: number, expected: number, label: string): void {
  const error = Math.abs(actual - expected);
  const allowed = expected === 0 ? ABSOLUTE_TOLERANCE_AT_ZERO : RELATIVE_TOLERANCE * Math.abs(expected);
  expect(Number.isFinite(actual), `${label}: ${actual} is not finite`).toBe(true);
  expect(error, `${label}: got ${actual}, expected ${expected}`).toBeLessThan(allowed);
}

function numbers(testCase: ReferenceCase, key: string): number[] {
  const value = testCase[key];
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'number')) {
    throw new Error(`${testCase.id}: "${key}" is not a number array`);
  }
  return value as number[];
}

function matrix(testCase: ReferenceCase, key: string): number[][] {
  const value = testCase[key];
  if (
    !Array.isArray(value) ||
    !value.every((row) => Array.isArray(row) && row.every((entry) => typeof entry === 'number'))
  ) {
    throw new Error(`${testCase.id}: "${key}" is not a number matrix`);
  }
  return value as number[][];
}

function scalar(testCase: ReferenceCase, key: string): number {
  const value = testCase[key];
  if (typeof value !== 'number') throw new Error(`${testCase.id}: "${key}" is not a number`);
  return value;
}

function alternativeOf(testCase: ReferenceCase): Alternative {
  const value = testCase.alternative ?? 'two-sided';
  if (value !== 'two-sided' && value !== 'greater' && value !== 'less')
    throw new Error(`${testCase.id}: bad alternative`);
  return value;
}

/** What the implementation returns for a case, keyed exactly like the case's `expected` object. */
function compute(testCase: ReferenceCase): Record<string, number | number[]> {
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
    case 'pearson': {
      const result = pearson(numbers(testCase, 'x'), numbers(testCase, 'y'), alternative);
      return { r: result.r, p_value: result.pValue };
    }
    case 'ols': {
      const result = ols(matrix(testCase, 'X'), numbers(testCase, 'y'), { alternative });
      expect(result.rankDeficient).toBe(false);
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
        const value = summary[key];
        if (value === null) throw new Error(`${testCase.id}: ${key} is null`);
        output[key] = value;
      }
      return output;
    }
    default:
      throw new Error(`${testCase.id}: no implementation mapped for test "${testCase.test}"`);
  }
}

describe('SciPy reference cases (shared/reference/stats-cases.json)', () => {
  it.runIf(existsSync(sharedReferenceUrl))('uses the same cases as the shared reference', () => {
    expect(JSON.parse(referenceText)).toEqual(JSON.parse(readFileSync(sharedReferenceUrl, 'utf8')));
  });

  it('loads all 61 cases covering the ten test families', () => {
    expect(cases).toHaveLength(61);
    expect(new Set(cases.map((testCase) => testCase.test))).toEqual(
      new Set([
        'welch_t',
        'student_t',
        'paired_t',
        'one_sample_t',
        'mann_whitney',
        'wilcoxon_signed_rank',
        'two_proportion_z',
        'pearson',
        'ols',
        'harmonized_boxes',
      ]),
    );
  });

  it.each(cases.map((testCase) => [testCase.id, testCase] as const))('%s', (_id, testCase) => {
    const actual = compute(testCase);
    const expectedEntries = Object.entries(testCase.expected);
    expect(expectedEntries.length).toBeGreaterThan(0);
    for (const [key, expected] of expectedEntries) {
      const value = actual[key];
      if (value === undefined) throw new Error(`${testCase.id}: expected field "${key}" is not computed`);
      if (Array.isArray(expected)) {
        expect(Array.isArray(value), `${testCase.id}.${key} should be an array`).toBe(true);
        const values = value as number[];
        expect(values).toHaveLength(expected.length);
        expected.forEach((entry, index) =>
          expectClose(values[index] ?? Number.NaN, entry as number, `${testCase.id}.${key}[${index}]`),
        );
      } else {
        expectClose(value as number, expected as number, `${testCase.id}.${key}`);
      }
    }
  });
});
