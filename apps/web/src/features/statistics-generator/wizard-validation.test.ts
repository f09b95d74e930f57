import { describe, expect, it } from 'vitest';
import { navigation, stepProblems, type WizardFields } from './wizard-validation.ts';

const EMPTY: WizardFields = {
  study_name: '',
  data_input: null,
  likert_scale: null,
  regression_input: null,
  replace_product_input: null,
  product_code: null,
  product_order: null,
  main_question_column: null,
  test_types: [],
  product_code_order: [],
  benchmark_product_code_order: [],
  candidate_product_code_order: [],
  regression: false,
  replace_product_codes: false,
};
const FILE = { name: 'data.csv' };

describe('stepProblems', () => {
  it('step 0 needs the study name and the data file', () => {
    expect(stepProblems(0, EMPTY, false)).toEqual([
      'Missing value for Study name',
      'Missing value for Data input (csv)',
    ]);
    expect(stepProblems(0, { ...EMPTY, study_name: '   ', data_input: FILE }, false)).toEqual([
      'Missing value for Study name',
    ]);
    expect(stepProblems(0, { ...EMPTY, study_name: 'Autumn', data_input: FILE }, false)).toEqual([]);
  });

  it('step 1 needs the likert scale file', () => {
    expect(stepProblems(1, EMPTY, false)).toEqual(['Missing value for Likert scale (csv)']);
    expect(stepProblems(1, { ...EMPTY, likert_scale: FILE }, false)).toEqual([]);
  });

  it('step 2 needs at least one test type', () => {
    expect(stepProblems(2, EMPTY, false)).toEqual(['The array Type of tests is empty!']);
    expect(stepProblems(2, EMPTY, true)).toEqual(['The array Type of tests is empty!']);
    expect(stepProblems(2, { ...EMPTY, test_types: ['two_95'] }, false)).toEqual([]);
  });

  it('step 3 needs the product code, the main question and the display option', () => {
    expect(stepProblems(3, EMPTY, false)).toEqual([
      'Missing value for Product code column',
      'Missing value for Main question column',
      'Missing value for Display order of products',
    ]);
    const chosen = {
      ...EMPTY,
      product_code: 'product_code',
      main_question_column: 'liking',
      product_order: 'Unspecified Product Order' as const,
    };
    expect(stepProblems(3, chosen, false)).toEqual([]);
  });

  it('step 3 needs the order list of the chosen display option', () => {
    const base = { ...EMPTY, product_code: 'product_code', main_question_column: 'liking' };
    expect(stepProblems(3, { ...base, product_order: 'Specified Product Order' }, false)).toEqual([
      'The array Product code order is empty!',
    ]);
    expect(stepProblems(3, { ...base, product_order: 'Specified Benchmark Order Only' }, true)).toEqual([
      'The array Benchmark product code order is empty!',
    ]);
    expect(stepProblems(3, { ...base, product_order: 'Specified Candidate Order Only' }, false)).toEqual([
      'The array Candidate product code order is empty!',
    ]);
    // Another option's list does not count.
    expect(
      stepProblems(
        3,
        { ...base, product_order: 'Specified Candidate Order Only', product_code_order: ['101'] },
        false,
      ),
    ).toEqual(['The array Candidate product code order is empty!']);
    expect(
      stepProblems(
        3,
        { ...base, product_order: 'Specified Product Order', product_code_order: ['101', '102'] },
        false,
      ),
    ).toEqual([]);
  });

  it('step 4 needs the regression file only when regression is on, for a new upload', () => {
    expect(stepProblems(4, EMPTY, false)).toEqual([]);
    expect(stepProblems(4, { ...EMPTY, regression: true }, false)).toEqual([
      'Missing value for Regression input (csv)',
    ]);
    expect(stepProblems(4, { ...EMPTY, regression: true, regression_input: FILE }, false)).toEqual([]);
    expect(stepProblems(4, { ...EMPTY, regression: true }, true)).toEqual([]);
  });

  it('step 5 needs the names file only when replacing codes, skipped for an existing study', () => {
    expect(stepProblems(5, EMPTY, false)).toEqual([]);
    expect(stepProblems(5, { ...EMPTY, replace_product_codes: true }, false)).toEqual([
      'Missing value for Product names (csv)',
    ]);
    expect(
      stepProblems(5, { ...EMPTY, replace_product_codes: true, replace_product_input: FILE }, false),
    ).toEqual([]);
    expect(stepProblems(5, { ...EMPTY, replace_product_codes: true }, true)).toEqual([]);
  });

  it('results have nothing to check', () => {
    expect(stepProblems(6, EMPTY, false)).toEqual([]);
  });
});

describe('navigation', () => {
  it('a new upload: Prev disabled at step 0 only, Next disabled on results', () => {
    const prev = [0, 1, 2, 3, 4, 5, 6].map((step) => navigation(step, false, false).prevDisabled);
    expect(prev).toEqual([true, false, false, false, false, false, false]);
    const next = [0, 1, 2, 3, 4, 5, 6].map((step) => navigation(step, false, false).nextDisabled);
    expect(next).toEqual([false, false, false, false, false, false, true]);
  });

  it('an existing study: Prev disabled at its start (step 2) and at step 3', () => {
    const prev = [2, 3, 4, 5, 6].map((step) => navigation(step, true, false).prevDisabled);
    expect(prev).toEqual([true, true, false, false, false]);
    expect(navigation(6, true, false).nextDisabled).toBe(true);
    expect(navigation(2, true, false).nextDisabled).toBe(false);
  });

  it('both are disabled while a call runs', () => {
    expect(navigation(3, false, true)).toEqual({ prevDisabled: true, nextDisabled: true });
  });
});
