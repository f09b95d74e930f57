/// <reference types="node" />
// Every case of shared/reference/stats-cases.json (computed with SciPy) must match to a relative error
// below 1e-6; every expected field is compared, and an unknown test or field fails the run.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeStatsCase } from './reference-cases.ts';

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
    const actual = computeStatsCase(testCase);
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
