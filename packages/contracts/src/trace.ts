/**
 * "How was this computed?": the trace of an aggregate shown on screen (a metric search cell, a
 * profile row, a group comparison value) back to the answers it is made of (METRICS.md sections 1,
 * 2 and 2b), and the raw answers behind it as csv for users with the download right.
 */
import { z } from 'zod';
import {
  Aggregation,
  AnalyticsDemographicsFilter,
  DemographicCondition,
  SIGNIFICANCE_LEVELS,
} from './analytics.ts';
import { TEXT_LIMITS } from './constants.ts';

/** Most products one trace may pool or compare against (a metric search of every fragrance). */
export const TRACE_MAX_PRODUCTS = 50_000;

const ProductIds = (description: string, min: number) =>
  z
    .array(z.number().int().positive())
    .min(min)
    .max(TRACE_MAX_PRODUCTS)
    .meta({ description: `${description} (product ids, as the results rows carry them).` });

/** Texts of the trace that the screens and tests read. */
export const TRACE_MESSAGES = {
  noFilters: 'No respondent filters: every respondent of the products.',
  unknownProducts: 'Some of the products are not available to you.',
  downloadNotAllowed: 'You are not allowed to download answers.',
  versusNeedsProducts: 'A comparison of groups traces the product scores: set unit to products.',
  significanceNeedsAnswers: 'Significance against the list traces pooled answers: set unit to answers.',
} as const;

/** File name of the raw answers download. */
export const TRACE_ANSWERS_FILE_NAME = 'answers.csv';

/** The columns of the raw answers csv, in order. */
export const TRACE_CSV_COLUMNS = [
  'study',
  'respondent',
  'product',
  'question',
  'question_text',
  'raw_value',
  'harmonised_value',
] as const;

/** POST /trace and POST /trace/answers.csv: which aggregate to trace. */
export const TraceRequest = z
  .strictObject({
    products: ProductIds(
      'The products the aggregate is computed over: one for a metric search cell or a profile row, a group’s products for a group comparison value',
      1,
    ),
    metric: z.string().trim().min(1, 'Choose a metric').max(TEXT_LIMITS.filterText),
    aggregation: Aggregation,
    unit: z.enum(['answers', 'products']).default('answers').meta({
      description:
        'answers: the aggregation over the pooled answers (a cell, a profile row); products: the mean of the product scores (a group comparison value, METRICS.md section 2b).',
    }),
    demographics: AnalyticsDemographicsFilter.prefault({}).meta({
      description: 'Respondent filters of the search (AND across fields, OR within one).',
    }),
    demographics_fragrances: z.array(DemographicCondition).max(20).default([]).meta({
      description: 'Results-table or profile conditions on respondents.',
    }),
    significance: z
      .strictObject({
        calculation: z.enum(['avg', 'rest']),
        products: ProductIds('The products of the result list the significance was calculated over', 2),
      })
      .optional()
      .meta({
        description: 'For a cell carrying a significance mark: the calculation and the list it ran over.',
      }),
    versus: z
      .strictObject({
        products: ProductIds('The products of the other group', 1),
        demographics: AnalyticsDemographicsFilter.prefault({}).meta({
          description: 'The other group’s respondent filters.',
        }),
      })
      .optional()
      .meta({
        description:
          'For a group comparison value: the other group (Welch t-test on product scores, METRICS.md section 2b).',
      }),
  })
  .refine((value) => !value.versus || value.unit === 'products', {
    message: TRACE_MESSAGES.versusNeedsProducts,
    path: ['unit'],
  })
  .refine((value) => !value.significance || value.unit === 'answers', {
    message: TRACE_MESSAGES.significanceNeedsAnswers,
    path: ['unit'],
  })
  .meta({ id: 'TraceRequest' });
export type TraceRequest = z.input<typeof TraceRequest>;
export type ParsedTraceRequest = z.output<typeof TraceRequest>;

const TraceQuestion = z.object({
  id: z.number().int(),
  qid: z.string().meta({ description: 'Question id in the results file.' }),
  text: z.string(),
  question_type: z.string(),
  scale_min: z.number().nullable(),
  scale_max: z.number().nullable(),
  scale: z.string().meta({ description: 'The original scale in words, e.g. "1 to 9 (9 points)".' }),
  harmonisation: z.string().meta({
    description: 'The transformation to the common 5-point scale, e.g. "h = 1 + 4 × (v − 1) / 8".',
  }),
  answers: z.number().int().meta({ description: 'Answers of this question counted in the base.' }),
  filename: z.string().meta({ description: 'The results file the question was read from.' }),
  results_file: z
    .object({
      id: z.number().int(),
      name: z.string(),
      url: z.string().meta({ description: 'Download route of the file (users who may download).' }),
    })
    .nullable(),
});

const TraceProduct = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string().nullable(),
  value: z.number().nullable().meta({ description: 'The product’s own score on the aggregation.' }),
  n: z.number().int().meta({ description: 'Answers of the product counted.' }),
});

/** The base of an aggregate. */
export const TraceBase = z.object({
  respondents: z.number().int(),
  answers: z.number().int(),
  products: z.number().int().meta({ description: 'Products with at least one answer counted.' }),
  studies: z.number().int(),
});

/** The test behind a significance mark. */
export const TraceSignificance = z.object({
  test: z.string().meta({ description: 'Test id: welch-t, one-sample-t, two-proportion-z, one-sample-z.' }),
  description: z.string().meta({ description: 'The test and what it compared, in words.' }),
  p_value: z.number().nullable(),
  level: z
    .number()
    .nullable()
    .meta({ description: `Smallest of ${SIGNIFICANCE_LEVELS.join(', ')} above p; null: not significant.` }),
  direction: z.enum(['mt', 'let']).nullable().meta({ description: 'mt: higher, let: lower.' }),
  reference: z.number().nullable().meta({ description: 'The value compared with (rest, average, group 2).' }),
});

/** POST /trace: how the aggregate was computed, recomputed from the answers. */
export const TraceResponse = z
  .object({
    metric: z.object({
      name: z.string(),
      label: z.string(),
      kind: z.string(),
      metric_type: z.string(),
    }),
    aggregation: Aggregation,
    aggregation_label: z.string(),
    rule: z.string().meta({ description: 'How the aggregation is computed, in words.' }),
    unit: z.enum(['answers', 'products']),
    value: z.number().nullable().meta({ description: 'The aggregate recomputed from the listed answers.' }),
    base: TraceBase,
    low_base: z
      .boolean()
      .meta({ description: 'The base n (answers; products for unit products) is below 30.' }),
    filters: z.array(z.string()).meta({ description: 'The respondent filters applied, in words.' }),
    out_of_scale: z
      .number()
      .int()
      .meta({ description: 'Answers outside their question’s scale, left out of the number.' }),
    studies: z.array(
      z.object({
        study_id: z.number().int(),
        c_mi_number: z.string(),
        project_name: z.string(),
        client: z.string(),
        products: z.array(TraceProduct),
        questions: z.array(TraceQuestion),
      }),
    ),
    significance: TraceSignificance.nullable(),
    can_download: z.boolean().meta({ description: 'Whether the caller may download the answers csv.' }),
  })
  .meta({ id: 'TraceResponse' });
export type TraceResponse = z.infer<typeof TraceResponse>;
