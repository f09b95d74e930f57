/**
 * Statistics generator (document 3 sections 2.9-2.11, 3.5, 4.8) and the study statistics page
 * (document 2). Calls (all under /api, admins and analytics users; see docs/statistics.md):
 * - POST /rdf/upload/                       multipart study_name, data_input -> StatisticsUploadResponse
 * - PUT  /rdf/upload/                       multipart folder_name, likert_scale -> StatisticsScaleResponse
 * - POST /rdf/upload/files/                 multipart folder_name, kind, file (regression or names csv)
 * - POST /rdf/product-code/                 StatisticsProductCodeRequest -> StatisticsProductCodeResponse
 * - POST /rdf/results/                      StatisticsForm -> StatisticsResults
 * - GET  /rdf/download_templates/{folder_name}/{file}   templates and result files
 * - POST /statistics/{studyId}/             StatisticsStudyQuery -> StatisticsResults
 * - GET  /statistics/{studyId}/products/    StatisticsStudyProducts (the category filter's options)
 */
import { z } from 'zod';
import { TEXT_LIMITS } from './constants.ts';
import { LabelValueOption } from './mapping.ts';
import { numeric } from './common.ts';

// ---------------------------------------------------------------- constants and messages

/** Test types (document 3 section 9): one- or two-tailed at 99, 95, 90 and 80 %. */
export const STATISTICS_TEST_TYPES = [
  'one_99',
  'one_95',
  'one_90',
  'one_80',
  'two_99',
  'two_95',
  'two_90',
  'two_80',
] as const;
export type StatisticsTestType = (typeof STATISTICS_TEST_TYPES)[number];
export const DEFAULT_TEST_TYPES: StatisticsTestType[] = ['two_99', 'two_95', 'two_90'];

export const TEST_TYPE_LABELS: Record<StatisticsTestType, string> = {
  one_99: 'One-tailed 99%',
  one_95: 'One-tailed 95%',
  one_90: 'One-tailed 90%',
  one_80: 'One-tailed 80%',
  two_99: 'Two-tailed 99%',
  two_95: 'Two-tailed 95%',
  two_90: 'Two-tailed 90%',
  two_80: 'Two-tailed 80%',
};

/**
 * Control of multiplicity over the pairwise comparisons of one question (METRICS.md section 3):
 * none (each pair at its level, the original system's letters), Holm (family-wise error rate),
 * Benjamini-Hochberg (false discovery rate) or Tukey HSD (parametric, two-tailed tests only).
 */
export const MULTIPLE_COMPARISONS = ['none', 'holm', 'benjamini_hochberg', 'tukey_hsd'] as const;
export type MultipleComparisons = (typeof MULTIPLE_COMPARISONS)[number];
/**
 * A new run's control of multiplicity when the form names none (METRICS.md section 3): Tukey HSD for
 * parametric two-tailed tests, Holm otherwise. "none" stays a choice, by name.
 */
export function defaultMultipleComparisons(
  parametric: boolean,
  testTypes: readonly StatisticsTestType[],
): MultipleComparisons {
  return parametric && testTypes.every((type) => type.startsWith('two_')) ? 'tukey_hsd' : 'holm';
}

/** Designs read from the data (who rated which product), METRICS.md section 3. */
export const STATISTICS_DESIGNS = [
  'independent',
  'complete_block',
  'balanced_incomplete_block',
  'incomplete_block',
] as const;
export type StatisticsDesignKind = (typeof STATISTICS_DESIGNS)[number];

export const MULTIPLE_COMPARISON_LABELS: Record<MultipleComparisons, string> = {
  none: 'None (each pair at its level)',
  holm: 'Holm (family-wise error rate)',
  benjamini_hochberg: 'Benjamini-Hochberg (false discovery rate)',
  tukey_hsd: 'Tukey HSD (parametric tests only)',
};

/** Binary scale options (document 3 section 9). */
export const BINARY_OPTIONS = ['No binary questions', '0 and 1', '1 and 2'] as const;
export type BinaryOption = (typeof BINARY_OPTIONS)[number];

/** Product order options (document 3 section 2.11). */
export const PRODUCT_ORDER_OPTIONS = [
  'Unspecified Product Order',
  'Specified Product Order',
  'Specified Benchmark Order Only',
  'Specified Candidate Order Only',
] as const;
export type ProductOrderOption = (typeof PRODUCT_ORDER_OPTIONS)[number];

/** Wizard steps (0-5) and the results step. */
export const STATISTICS_STEP_COUNT = 6;
export const STATISTICS_RESULTS_STEP = 6;
/** Existing-study mode starts here (document 3 section 4.8). */
export const STATISTICS_EXISTING_START_STEP = 2;

/** Template and result files (document 3 section 9). */
export const STATISTICS_TEMPLATES = ['scale_template.csv', 'reg_template.csv', 'prod_template.csv'] as const;
export const STATISTICS_RESULT_FILES = [
  'summary.xlsx',
  'Regressions&Correlations.xlsx',
  'chart_ppt.pptx',
] as const;
export const STATISTICS_FILES = [...STATISTICS_TEMPLATES, ...STATISTICS_RESULT_FILES] as const;
export type StatisticsFileName = (typeof STATISTICS_FILES)[number];
/** Sample inputs, served by the templates route under the folder name SAMPLE_FOLDER. */
export const STATISTICS_SAMPLE_FILES = [
  'sample_data.csv',
  'sample_scale.csv',
  'sample_regression.csv',
  'sample_products.csv',
] as const;
export const STATISTICS_SAMPLE_FOLDER = 'sample-files';

/** Working folders are removed this long after their creation. */
export const STATISTICS_FOLDER_TTL_MS = 24 * 60 * 60 * 1000;
/** Largest csv the wizard accepts. */
export const STATISTICS_MAX_CSV_BYTES = 20 * 1024 * 1024;
/** Alerts of the wizard stay this long (document 3 section 9). */
export const STATISTICS_ALERT_MS = 5000;
/** Statistics chart height in px (document 3 section 9). */
export const STATISTICS_CHART_HEIGHT = 300;

export const STATISTICS_MESSAGES = {
  invalidExtension: 'Invalid file extension',
  missingValues: 'Missing values!',
  missingValue: (field: string) => `Missing value for ${field}`,
  emptyArray: (field: string) => `The array ${field} is empty!`,
  notReady: (file: string) => `Not ready yet! ${file}`,
  noData: 'No data',
  folderNotFound: 'This working folder does not exist or has expired. Start the wizard again.',
  fileNotReady: (file: string) => `${file} has not been generated yet.`,
  scaleFirst: 'Upload the likert scale file first.',
  dataFirst: 'Upload the data file first.',
  unknownColumn: (file: string, column: string) => `${file}: there is no column "${column}".`,
  unknownQuestion: (question: string) => `"${question}" is not a question of the scale file.`,
  unknownProduct: (code: string) => `"${code}" is not a product code of the data.`,
  studyNotFound: (id: number) => `Study ${id} does not exist.`,
  studyHasNoAnswers: 'This study has no answers to compute statistics from.',
  unknownCategory: (category: string) => `"${category}" is not a category of this study's products.`,
  tukeyNeedsParametric:
    'Tukey HSD compares means: choose parametric tests, or Holm or Benjamini-Hochberg for non-parametric ones.',
  tukeyIsTwoTailed:
    'Tukey HSD is a two-tailed test: choose two-tailed test types only, or Holm or Benjamini-Hochberg.',
  tooFewProducts: (count: number) =>
    `The chosen categories leave ${count} product${count === 1 ? '' : 's'} with answers; statistics compare at least two products.`,
} as const;

// ---------------------------------------------------------------- requests

const codeList = z.array(z.string().trim().min(1)).default([]);

/** The wizard form (document 3 section 3.5), without the files, which are uploaded beforehand. */
const StatisticsOptions = z.object({
  study_name: z.string().trim().max(TEXT_LIMITS.studyName).default(''),
  folder_name: z
    .string()
    .regex(/^[a-z0-9-]{8,64}$/)
    .optional(),
  study_id: numeric(z.number().int().positive()).optional(),
  product_code: z.string().trim().min(1, 'Missing value for product_code'),
  paired: z.boolean().optional().meta({
    description:
      'Paired tests (respondents rated several products). Left out: read from the design of the data (paired unless each respondent rated one product).',
  }),
  parametric: z.boolean().default(false),
  product_order: z.enum(PRODUCT_ORDER_OPTIONS),
  main_question_column: z.string().trim().min(1, 'Missing value for main_question_column'),
  strength_questions: z.array(z.string()).default([]),
  test_types: z
    .array(z.enum(STATISTICS_TEST_TYPES))
    .min(1, 'The array test_types is empty!')
    .default(DEFAULT_TEST_TYPES),
  cpv_question: z.array(z.string()).default([]),
  product_code_order: codeList,
  benchmark_product_code: codeList,
  benchmark_product_code_order: codeList,
  candidate_product_code_order: codeList,
  regression: z.boolean().default(false),
  replace_product_codes: z.boolean().default(false),
  display_correlation: z.boolean().default(true),
  charts: z.boolean().default(true),
  binary_option: z.enum(BINARY_OPTIONS).default('No binary questions'),
  multiple_comparisons: z.enum(MULTIPLE_COMPARISONS).optional().meta({
    description:
      "Control of multiplicity over each question's pairwise comparisons: none, holm, benjamini_hochberg, or tukey_hsd (parametric, two-tailed only). Left out: tukey_hsd for parametric two-tailed tests, holm otherwise.",
  }),
});

/** Tukey HSD needs means (parametric tests) and is two-sided. */
function checkMultipleComparisons(
  form: {
    multiple_comparisons?: MultipleComparisons | undefined;
    parametric: boolean;
    test_types: StatisticsTestType[];
  },
  context: z.RefinementCtx,
): void {
  if (form.multiple_comparisons !== 'tukey_hsd') return;
  if (!form.parametric)
    context.addIssue({
      code: 'custom',
      path: ['multiple_comparisons'],
      message: STATISTICS_MESSAGES.tukeyNeedsParametric,
    });
  if (form.test_types.some((type) => type.startsWith('one_')))
    context.addIssue({
      code: 'custom',
      path: ['multiple_comparisons'],
      message: STATISTICS_MESSAGES.tukeyIsTwoTailed,
    });
}

interface OrderLists {
  product_order: ProductOrderOption;
  product_code_order: string[];
  benchmark_product_code_order: string[];
  candidate_product_code_order: string[];
}

function checkOrderLists(form: OrderLists, context: z.RefinementCtx): void {
  const needs: [ProductOrderOption, keyof OrderLists][] = [
    ['Specified Product Order', 'product_code_order'],
    ['Specified Benchmark Order Only', 'benchmark_product_code_order'],
    ['Specified Candidate Order Only', 'candidate_product_code_order'],
  ];
  for (const [option, field] of needs) {
    const value = form[field];
    if (form.product_order === option && Array.isArray(value) && value.length === 0)
      context.addIssue({ code: 'custom', path: [field], message: STATISTICS_MESSAGES.emptyArray(field) });
  }
}

export const StatisticsForm = StatisticsOptions.superRefine((form, context) => {
  if (!form.folder_name && !form.study_id)
    context.addIssue({ code: 'custom', path: ['folder_name'], message: 'Send folder_name or study_id.' });
  checkOrderLists(form, context);
  checkMultipleComparisons(form, context);
}).meta({ id: 'StatisticsForm' });
export type StatisticsForm = z.input<typeof StatisticsForm>;
export type StatisticsFormParsed = z.output<typeof StatisticsForm>;

/** The filter card of the study statistics page: the same options on the study's own results. */
export const StatisticsStudyFilters = StatisticsOptions.omit({
  folder_name: true,
  study_id: true,
  study_name: true,
})
  .extend({
    product_code: z.string().trim().min(1).default('product_code'),
    category: z.array(z.string().trim().min(1).max(200)).max(50).default([]).meta({
      description:
        "Fragrance families (the products' category): only the study's fragrances of these families enter the statistics. Empty: every product.",
    }),
  })
  .superRefine((form, context) => {
    checkOrderLists(form, context);
    checkMultipleComparisons(form, context);
  })
  .meta({ id: 'StatisticsStudyFilters' });
export type StatisticsStudyFilters = z.input<typeof StatisticsStudyFilters>;

export const StatisticsStudyQuery = z
  .object({ query: StatisticsStudyFilters })
  .meta({ id: 'StatisticsStudyQuery' });
export type StatisticsStudyQuery = z.input<typeof StatisticsStudyQuery>;

export const StatisticsProductCodeRequest = z
  .object({
    product_code: z.string().trim().min(1, 'Missing value for product_code'),
    folder_name: z
      .string()
      .regex(/^[a-z0-9-]{8,64}$/)
      .optional(),
    study_id: numeric(z.number().int().positive()).optional(),
  })
  .refine((body) => body.folder_name || body.study_id, {
    message: 'Send folder_name or study_id.',
    path: ['folder_name'],
  })
  .meta({ id: 'StatisticsProductCodeRequest' });
export type StatisticsProductCodeRequest = z.infer<typeof StatisticsProductCodeRequest>;

export const StatisticsFolderParams = z.object({
  folder_name: z.string().regex(/^[a-z0-9-]{8,64}$/, 'Unknown working folder.'),
  file: z.enum([...STATISTICS_FILES, ...STATISTICS_SAMPLE_FILES]),
});

// ---------------------------------------------------------------- responses

/** The design of a data file or study, read before the tests: it sets the default of "paired". */
export const StatisticsDesign = z
  .object({
    design: z.enum(STATISTICS_DESIGNS).nullable().meta({
      description: 'The design found; null when the data has no respondent ids (who rated what is unknown).',
    }),
    respondents: z.number().int(),
    products: z.number().int(),
    paired: z.boolean().meta({ description: 'The default of "paired" this design sets.' }),
    text: z.string().meta({ description: 'The design line, e.g. "Design found: complete block (...)".' }),
  })
  .meta({ id: 'StatisticsDesign' });
export type StatisticsDesign = z.infer<typeof StatisticsDesign>;

/** What the results say about the design: the design found, the analysis used and any warning. */
export const StatisticsDesignReport = z
  .object({
    found: z.string().meta({ description: 'The design line of the main question.' }),
    analysis: z.array(z.string()).meta({ description: 'The analyses used, one line each.' }),
    warnings: z
      .array(z.string())
      .meta({ description: 'Where the choice of paired or unpaired tests contradicts the design found.' }),
    paired: z
      .boolean()
      .meta({ description: 'The choice of paired tests used (given, or read from the design).' }),
    multiple_comparisons: z.enum(MULTIPLE_COMPARISONS),
  })
  .meta({ id: 'StatisticsDesignReport' });
export type StatisticsDesignReport = z.infer<typeof StatisticsDesignReport>;

export const StatisticsUploadResponse = z
  .object({
    folder_name: z.string(),
    design: StatisticsDesign.nullable().meta({
      description: 'The design of the data when it has a product_code column (null otherwise).',
    }),
    product_codes: z.array(LabelValueOption),
    product_code_columns: z.array(LabelValueOption),
    metrics: z.array(LabelValueOption),
  })
  .meta({ id: 'StatisticsUploadResponse' });
export type StatisticsUploadResponse = z.infer<typeof StatisticsUploadResponse>;

export const StatisticsScaleResponse = z
  .object({
    folder_name: z.string(),
    metrics: z
      .array(LabelValueOption)
      .meta({ description: 'Questions of the scale file (value: question id).' }),
    strength_questions: z.array(z.string()).meta({ description: 'Questions of type jar.' }),
    binary_questions: z.array(z.string()).meta({ description: 'Questions of type binary.' }),
  })
  .meta({ id: 'StatisticsScaleResponse' });
export type StatisticsScaleResponse = z.infer<typeof StatisticsScaleResponse>;

export const StatisticsFileResponse = z
  .object({ folder_name: z.string(), file: z.string(), rows: z.number().int() })
  .meta({ id: 'StatisticsFileResponse' });
export type StatisticsFileResponse = z.infer<typeof StatisticsFileResponse>;

export const StatisticsProductCodeResponse = z
  .object({ product_codes: z.array(LabelValueOption) })
  .meta({ id: 'StatisticsProductCodeResponse' });
export type StatisticsProductCodeResponse = z.infer<typeof StatisticsProductCodeResponse>;

const Cell = z.union([z.string(), z.number(), z.null()]);
export const StatisticsTable = z.object({
  headers: z.array(z.string()),
  data: z.array(z.array(Cell)),
});
export type StatisticsTable = z.infer<typeof StatisticsTable>;

export const StatisticsChart = z.object({
  name: z.string().optional(),
  question: z.string(),
  labels: z.array(z.string()).meta({ description: 'Products (letter and label).' }),
  series: z.array(z.object({ name: z.string(), values: z.array(z.number()) })),
  letters: z.array(z.string()).meta({ description: 'Significance letters of each product.' }),
});
export type StatisticsChart = z.infer<typeof StatisticsChart>;

export const StatisticsResults = z
  .object({
    study_folder_name: z.string(),
    study_name: z.string(),
    summary: StatisticsTable.meta({
      description:
        "Per question: base, mean (not for yes/no questions, which show shares of yes and no), boxes, a letters row per level pair and an 'Omnibus test' row (its text in the first product column).",
    }),
    omnibus: StatisticsTable.meta({
      description:
        'The omnibus test of each question across the products: test, statistic, degrees of freedom, p-value, respondents or answers used, products.',
    }),
    correlation: StatisticsTable.meta({
      description:
        'Respondent-level correlations with the main question (one row per respondent and product); in paired designs the p-values are cluster-robust by respondent.',
    }),
    product_correlation: StatisticsTable.meta({
      description: 'Product-level correlations with the main question: on product means, n = products.',
    }),
    regression: StatisticsTable.nullable(),
    jar: StatisticsTable.nullable(),
    legend: z.array(z.string()),
    design: StatisticsDesignReport,
    charts: z.array(StatisticsChart),
    files: z.array(z.enum(STATISTICS_RESULT_FILES)),
    product_codes: z
      .array(z.string())
      .meta({ description: 'Product code of each product column of the summary, in column order.' }),
  })
  .meta({ id: 'StatisticsResults' });
export type StatisticsResults = z.infer<typeof StatisticsResults>;

/** The products of a study with their category (fragrance family), for the study statistics page. */
export const StatisticsStudyProducts = z
  .object({
    products: z.array(
      z.object({
        id: z.number().int().meta({ description: 'Product id (what POST /trace takes).' }),
        code: z.string(),
        name: z.string(),
        kind: z.enum(['fragrance', 'concept']),
        category: z.string().nullable().meta({ description: 'Fragrance family; null for concepts.' }),
      }),
    ),
    categories: z
      .array(LabelValueOption.extend({ count: z.number().int() }))
      .meta({ description: 'The families of the products, with the number of products of each.' }),
    design: StatisticsDesign,
  })
  .meta({ id: 'StatisticsStudyProducts' });
export type StatisticsStudyProducts = z.infer<typeof StatisticsStudyProducts>;
