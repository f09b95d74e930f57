import {
  STATISTICS_EXISTING_START_STEP,
  STATISTICS_MESSAGES,
  STATISTICS_RESULTS_STEP,
  type ProductOrderOption,
  type StatisticsTestType,
} from '@accord/contracts';

/** The fields of the wizard that its steps check (document 3 section 3.5). */
export interface WizardFields {
  study_name: string;
  data_input: unknown;
  likert_scale: unknown;
  regression_input: unknown;
  replace_product_input: unknown;
  product_code: string | null;
  product_order: ProductOrderOption | null;
  main_question_column: string | null;
  test_types: StatisticsTestType[];
  product_code_order: string[];
  benchmark_product_code_order: string[];
  candidate_product_code_order: string[];
  regression: boolean;
  replace_product_codes: boolean;
}

/** The wizard's labels of the fields its steps check: the 'Missing values!' list names them so. */
export const FIELD_LABELS: Record<
  Exclude<keyof WizardFields, 'regression' | 'replace_product_codes'>,
  string
> = {
  study_name: 'Study name',
  data_input: 'Data input (csv)',
  likert_scale: 'Likert scale (csv)',
  regression_input: 'Regression input (csv)',
  replace_product_input: 'Product names (csv)',
  product_code: 'Product code column',
  product_order: 'Display order of products',
  main_question_column: 'Main question column',
  test_types: 'Type of tests',
  product_code_order: 'Product code order',
  benchmark_product_code_order: 'Benchmark product code order',
  candidate_product_code_order: 'Candidate product code order',
};

/** The order list each display option needs (the optional benchmark list is not one of them). */
export const ORDER_LIST_OF: Record<
  ProductOrderOption,
  'product_code_order' | 'benchmark_product_code_order' | 'candidate_product_code_order' | null
> = {
  'Unspecified Product Order': null,
  'Specified Product Order': 'product_code_order',
  'Specified Benchmark Order Only': 'benchmark_product_code_order',
  'Specified Candidate Order Only': 'candidate_product_code_order',
};

/**
 * The problems that stop Next at a step (document 3 section 5), in the spec's words: 'Missing value for
 * {field name}' and 'The array {field name} is empty!', each field named by its label on the form. A missing single value is refused too, as the
 * issue asks. Existing-study mode has no file inputs for regression and product names: the study's own
 * answers and product names are used, so those files are not required there.
 */
export function stepProblems(step: number, fields: WizardFields, existing: boolean): string[] {
  const problems: string[] = [];
  const missing = (field: keyof typeof FIELD_LABELS) =>
    problems.push(STATISTICS_MESSAGES.missingValue(FIELD_LABELS[field]));
  const empty = (field: keyof typeof FIELD_LABELS) =>
    problems.push(STATISTICS_MESSAGES.emptyArray(FIELD_LABELS[field]));
  switch (step) {
    case 0:
      if (!fields.study_name.trim()) missing('study_name');
      if (!fields.data_input) missing('data_input');
      break;
    case 1:
      if (!fields.likert_scale) missing('likert_scale');
      break;
    case 2:
      if (fields.test_types.length === 0) empty('test_types');
      break;
    case 3: {
      if (!fields.product_code) missing('product_code');
      if (!fields.main_question_column) missing('main_question_column');
      if (!fields.product_order) {
        missing('product_order');
        break;
      }
      const list = ORDER_LIST_OF[fields.product_order];
      if (list && fields[list].length === 0) empty(list);
      break;
    }
    case 4:
      if (fields.regression && !existing && !fields.regression_input) missing('regression_input');
      break;
    case 5:
      if (fields.replace_product_codes && !existing && !fields.replace_product_input)
        missing('replace_product_input');
      break;
    default:
      break;
  }
  return problems;
}

/**
 * Prev and Next (document 3 section 2.11): "Prev is disabled at the start, and at step 3 when arriving
 * from an existing study. Next is disabled on results." Steps are numbered from 0 as in the spec. The
 * start is step 0 for a new upload and step 2 for an existing study (section 4.8), whose steps 0 and 1
 * (upload of the data and scale files) do not exist; step 3 is disabled for an existing study as written.
 */
export function navigation(
  step: number,
  existing: boolean,
  busy: boolean,
): { prevDisabled: boolean; nextDisabled: boolean } {
  const start = existing ? STATISTICS_EXISTING_START_STEP : 0;
  return {
    prevDisabled: busy || step <= start || (existing && step === 3),
    nextDisabled: busy || step >= STATISTICS_RESULTS_STEP,
  };
}
