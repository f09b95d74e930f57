/// <reference types="node" />
// Every case of shared/reference/stats-cases.json and stats-cases-2.json (computed with SciPy and
// statsmodels) must match to a relative error below 1e-6, with the two documented allowances below for
// what the reference itself cannot resolve; every expected field is compared, and an unknown test or
// field fails the run.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeStatsCase, type StatsCaseResult } from './reference-cases.ts';

type ReferenceCase = Record<string, unknown> & {
  id: string;
  test: string;
  expected: Record<string, unknown>;
};

// The reference cases travel with the package so the tests run on any clone; where the project's
// shared design folder sits beside the repository, each copy must be identical to it.
function load(name: string): { text: string; cases: ReferenceCase[]; sharedUrl: URL } {
  const text = readFileSync(new URL(`../reference/${name}`, import.meta.url), 'utf8');
  return {
    text,
    cases: JSON.parse(text) as ReferenceCase[],
    sharedUrl: new URL(`../../../../shared/reference/${name}`, import.meta.url),
  };
}

const RELATIVE_TOLERANCE = 1e-6;
const ABSOLUTE_TOLERANCE_AT_ZERO = 1e-12;
/**
 * SciPy's studentized range returns sf as 1 − cdf of an integral computed to an absolute 1e-11, so its
 * Tukey p-values carry an absolute error up to about 4e-14 (it prints 1.88e-14 for tails near 1e-26).
 * Tukey p-values are therefore compared within 1e-6 relative or 1e-13 absolute, whichever is larger.
 */
const STUDENTIZED_RANGE_ABSOLUTE = 1e-13;
/** Half a unit in the last printed decimal of the DerSimonian-Laird inputs (means and sds). */
const INPUT_ROUNDING = 5e-7;

/** Relative error below 1e-6, or below `absolute`; an expected 0 allows an absolute error of 1e-12. */
function expectClose(actual: number, expected: number, label: string, absolute = 0): void {
  const error = Math.abs(actual - expected);
  const allowed = Math.max(
    expected === 0 ? ABSOLUTE_TOLERANCE_AT_ZERO : RELATIVE_TOLERANCE * Math.abs(expected),
    absolute,
  );
  expect(Number.isFinite(actual), `${label}: ${actual} is not finite`).toBe(true);
  expect(error, `${label}: got ${actual}, expected ${expected}`).toBeLessThanOrEqual(allowed);
}

/**
 * The DerSimonian-Laird cases print means and sds to 6 decimals but their expected values were computed
 * before rounding (moving every input by less than 5e-7 reproduces all seven outputs to 5e-9). The
 * allowance per output is 1e-6 relative plus the first-order effect of that rounding,
 * Σ |∂output/∂input|·5e-7, measured here by central differences.
 */
function roundingAllowance(testCase: ReferenceCase): Record<string, number> {
  const allowance: Record<string, number> = {};
  for (const key of ['means', 'sds']) {
    const inputs = testCase[key] as number[];
    inputs.forEach((value, index) => {
      const shifted = (delta: number): StatsCaseResult =>
        computeStatsCase({
          ...testCase,
          [key]: inputs.map((entry, i) => (i === index ? value + delta : entry)),
        });
      const up = shifted(INPUT_ROUNDING);
      const down = shifted(-INPUT_ROUNDING);
      for (const output of Object.keys(testCase.expected)) {
        if (testCase.expected[output] === null) continue;
        const change = Math.abs((up[output] as number) - (down[output] as number)) / 2;
        allowance[output] = (allowance[output] ?? 0) + change;
      }
    });
  }
  return allowance;
}

function checkCase(testCase: ReferenceCase): void {
  const actual = computeStatsCase(testCase);
  const expectedEntries = Object.entries(testCase.expected);
  expect(expectedEntries.length).toBeGreaterThan(0);
  const tukey = testCase.test === 'tukey_hsd' || testCase.test === 'tukey_hsd_blocked';
  const rounding =
    testCase.test === 'meta_dersimonian_laird' || testCase.test === 'meta_hksj'
      ? roundingAllowance(testCase)
      : {};
  for (const [key, expected] of expectedEntries) {
    const value = actual[key];
    if (value === undefined) throw new Error(`${testCase.id}: expected field "${key}" is not computed`);
    // null: undefined for the data, which the functions give as NaN.
    if (expected === null) {
      expect(value, `${testCase.id}.${key} should be undefined (NaN)`).toBeNaN();
      continue;
    }
    const absolute = tukey ? STUDENTIZED_RANGE_ABSOLUTE : 0;
    if (Array.isArray(expected)) {
      expect(Array.isArray(value), `${testCase.id}.${key} should be an array`).toBe(true);
      const values = value as number[];
      expect(values).toHaveLength(expected.length);
      expected.forEach((entry, index) =>
        expectClose(
          values[index] ?? Number.NaN,
          entry as number,
          `${testCase.id}.${key}[${index}]`,
          absolute,
        ),
      );
    } else {
      const allowance =
        rounding[key] === undefined
          ? absolute
          : RELATIVE_TOLERANCE * Math.abs(expected as number) + rounding[key];
      expectClose(value as number, expected as number, `${testCase.id}.${key}`, allowance);
    }
  }
}

describe('SciPy reference cases (shared/reference/stats-cases.json)', () => {
  const { text, cases, sharedUrl } = load('stats-cases.json');

  it.runIf(existsSync(sharedUrl))('uses the same cases as the shared reference', () => {
    expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(sharedUrl, 'utf8')));
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

  it.each(cases.map((testCase) => [testCase.id, testCase] as const))('%s', (_id, testCase) =>
    checkCase(testCase),
  );
});

describe('SciPy and statsmodels reference cases (shared/reference/stats-cases-2.json)', () => {
  const { text, cases, sharedUrl } = load('stats-cases-2.json');

  it.runIf(existsSync(sharedUrl))('uses the same cases as the shared reference', () => {
    expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(sharedUrl, 'utf8')));
  });

  it('loads all 65 cases covering the thirteen test families', () => {
    expect(cases).toHaveLength(65);
    expect(new Set(cases.map((testCase) => testCase.test))).toEqual(
      new Set([
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
      ]),
    );
  });

  it.each(cases.map((testCase) => [testCase.id, testCase] as const))('%s', (_id, testCase) =>
    checkCase(testCase),
  );
});

/** Compares a value of the third reference set: strings exactly, null as NaN, lists and records entry by entry. */
function expectMatches(actual: unknown, expected: unknown, label: string): void {
  if (expected === null) {
    expect(Number.isNaN(actual), `${label}: got ${String(actual)}, expected null`).toBe(true);
  } else if (typeof expected === 'string') {
    expect(actual, label).toBe(expected);
  } else if (typeof expected === 'number') {
    expectClose(actual as number, expected, label);
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual), `${label} should be a list`).toBe(true);
    expect(actual as unknown[], label).toHaveLength(expected.length);
    expected.forEach((entry, index) =>
      expectMatches((actual as unknown[])[index], entry, `${label}[${index}]`),
    );
  } else {
    const record = expected as Record<string, unknown>;
    for (const [key, entry] of Object.entries(record)) {
      const value = (actual as Record<string, unknown>)[key];
      if (value === undefined) throw new Error(`${label}: expected field "${key}" is not computed`);
      expectMatches(value, entry, `${label}.${key}`);
    }
  }
}

describe('SciPy and statsmodels reference cases, third set (stats-cases-3.json, CASES-3.md)', () => {
  const { text, cases, sharedUrl } = load('stats-cases-3.json');

  it.runIf(existsSync(sharedUrl))('uses the same cases as the shared reference', () => {
    expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(sharedUrl, 'utf8')));
  });

  it('loads all 50 cases, five of each of the ten tests', () => {
    const counts = new Map<string, number>();
    for (const testCase of cases) counts.set(testCase.test, (counts.get(testCase.test) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({
      anova_intrablock: 5,
      cluster_two_sample: 5,
      meta_hksj: 5,
      vif: 5,
      penalty_significance: 5,
      design_detection: 5,
      cluster_contrast_avg: 5,
      power_t: 5,
      power_proportions: 5,
      meta_correlation: 5,
    });
  });

  it.each(cases.map((testCase) => [testCase.id, testCase] as const))('%s', (_id, testCase) => {
    expectMatches(computeStatsCase(testCase), testCase.expected, testCase.id);
  });
});
