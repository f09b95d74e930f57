/**
 * The study planner (/plan): consumers needed for a planned test, from the variance of the library's
 * own answers. The base is chosen as for norms (a category, optionally region, product type,
 * methodology and years) and the same rule applies: a base of fewer than NORM_RULE.studies studies of
 * NORM_RULE.clients clients is too small for a trustworthy estimate and gives no plan. Researchers and
 * admins only.
 */
import { z } from 'zod';
import { Aggregation } from './analytics.ts';
import { numeric } from './common.ts';
import { NORM_BASE_FIELDS, NORM_MESSAGES, NORM_RULE, NormBase, normYearsInOrder } from './norms.ts';

export const PLAN_DESIGNS = ['monadic', 'sequential_monadic'] as const;
export const PlanDesign = z.enum(PLAN_DESIGNS);
export type PlanDesign = z.infer<typeof PlanDesign>;

export const PLAN_DESIGN_NAMES: Record<PlanDesign, string> = {
  monadic: 'Monadic (each consumer rates one product)',
  sequential_monadic: 'Sequential monadic (each consumer rates every product)',
};

export const PLAN_CORRECTIONS = ['none', 'bonferroni'] as const;
export const PlanCorrection = z.enum(PLAN_CORRECTIONS);
export type PlanCorrection = z.infer<typeof PlanCorrection>;

/** Products a plan may compare. */
export const PLAN_PRODUCTS = { min: 2, max: 12 } as const;

export const PLAN_FILE_NAME = 'study-plan.xlsx';

export const PLANNER_MESSAGES = {
  tooSmall: `This base is too small for a trustworthy estimate: it holds fewer than ${NORM_RULE.studies} studies of at least ${NORM_RULE.clients} clients.`,
  noAnswers: 'No product of this base has answers on this metric.',
  noCorrelation:
    "No complete-block study of this base (every consumer rating every product) measures this metric, so the correlation of a consumer's answers to two products is unknown: plan a monadic test or widen the base.",
  beyondScale: 'The share of the base plus the difference passes 100 %: choose a smaller difference.',
  varianceNotPlanned: 'A plan compares means or shares: choose the mean or a box.',
  differenceTooLarge:
    'The difference cannot exceed the scale: at most 4 on the 5-point mean, or 99 points of a share.',
  yearOrder: NORM_MESSAGES.yearOrder,
} as const;

const Difference = numeric(z.number().positive('Must be above 0').max(99), 'Expected a number');

/** GET /plan and /plan/xlsx. */
export const PlanQuery = z
  .strictObject({
    ...NORM_BASE_FIELDS,
    metric: z.string().trim().min(1).max(200).meta({ description: 'Metric name, e.g. liking.' }),
    aggregation: Aggregation.meta({
      description: 'mean (or eeg_mean) to compare means; a box (e.g. top_2_box) to compare shares.',
    }),
    design: PlanDesign.default('monadic'),
    difference: Difference.meta({
      description: 'Difference worth detecting: on the 5-point mean, or in points of a share (5 = 5 %).',
    }),
    products: numeric(z.number().int().min(PLAN_PRODUCTS.min).max(PLAN_PRODUCTS.max))
      .default(2)
      .meta({ description: 'Products in the test.' }),
    alpha: numeric(z.number().gt(0).max(0.2))
      .default(0.05)
      .meta({ description: 'Significance level (two-sided).' }),
    power: numeric(z.number().min(0.5).max(0.99)).default(0.8).meta({ description: 'Power wanted.' }),
    correction: PlanCorrection.default('none').meta({
      description: "bonferroni: alpha divided by the number of the products' pairs.",
    }),
  })
  .refine(normYearsInOrder, { message: PLANNER_MESSAGES.yearOrder, path: ['year_to'] })
  .refine((value) => value.aggregation !== 'variance', {
    message: PLANNER_MESSAGES.varianceNotPlanned,
    path: ['aggregation'],
  })
  .refine((value) => !['mean', 'eeg_mean'].includes(value.aggregation) || value.difference <= 4, {
    message: PLANNER_MESSAGES.differenceTooLarge,
    path: ['difference'],
  });
export type PlanQuery = z.input<typeof PlanQuery>;
export type ParsedPlanQuery = z.output<typeof PlanQuery>;

/** What the base says about the metric: the numbers a plan is computed from. */
export const PlanEstimates = z.object({
  answers: z.number().int().meta({ description: 'Answers of the base on the metric.' }),
  mean: z.number().nullable().meta({ description: 'Mean of every answer (means only).' }),
  sd: z.number().nullable().meta({
    description:
      'Standard deviation of one answer, pooled within products: √(Σ(nᵢ − 1)sᵢ² / Σ(nᵢ − 1)) (means only).',
  }),
  share: z
    .number()
    .nullable()
    .meta({ description: 'Share of the box over every answer of the base, in [0, 1] (boxes only).' }),
  correlation: z.number().nullable().meta({
    description:
      "Correlation of a consumer's answers to two products: Pearson r of every pair of products of each complete-block study, averaged on Fisher's z with weights n − 3.",
  }),
  correlation_studies: z.number().int(),
  correlation_respondents: z.number().int(),
  correlation_pairs: z.number().int().meta({ description: 'Product pairs behind the correlation.' }),
});
export type PlanEstimates = z.infer<typeof PlanEstimates>;

/** One plan: consumers needed and how. */
export const PlanAnswer = z.object({
  test: z.string().meta({ description: 'The test the plan is for, in words.' }),
  effect_size: z.number(),
  comparisons: z.number().int().meta({ description: "Pairs of products (the correction's family)." }),
  alpha_per_comparison: z.number(),
  n: z.number().meta({ description: 'The solved real sample size (per product, or respondents in total).' }),
  per_product: z.number().int().nullable().meta({ description: 'Consumers per product (monadic).' }),
  total: z.number().int().meta({ description: 'Consumers in the whole test.' }),
  words: z.string(),
});
export type PlanAnswer = z.infer<typeof PlanAnswer>;

/** One point of the power curve: with this many consumers the smallest difference detectable. */
export const PlanCurvePoint = z.object({
  consumers: z
    .number()
    .int()
    .meta({ description: 'Per product (monadic) or in total (sequential monadic).' }),
  difference: z.number().meta({ description: 'On the 5-point mean, or points of a share.' }),
});

export const PlanResponse = z
  .object({
    status: z.enum(['available', 'withheld', 'empty']),
    reason: z.string().nullable(),
    base: NormBase,
    metric: z.object({ name: z.string(), label: z.string(), kind: z.string() }),
    aggregation: z.object({ value: Aggregation, label: z.string(), share: z.boolean() }),
    design: PlanDesign,
    products: z.number().int().meta({ description: 'Products in the planned test.' }),
    difference: z.number(),
    alpha: z.number(),
    power: z.number(),
    correction: PlanCorrection,
    base_products: z.number().int().nullable(),
    base_studies: z.number().int().nullable(),
    base_clients: z.number().int().nullable(),
    estimates: PlanEstimates.nullable(),
    plan: PlanAnswer.nullable(),
    plan_reason: z.string().nullable().meta({ description: 'Why there is no plan when the base is shown.' }),
    action_standard: z
      .object({
        p75: z.number().meta({ description: "The base's P75 (share in [0, 1] for boxes)." }),
        label: z.string(),
        plan: PlanAnswer,
      })
      .nullable()
      .meta({
        description:
          "To show a fragrance beats the category's top quartile: a one-sample test of the fragrance against the norm's P75, by the same difference.",
      }),
    curve: z.array(PlanCurvePoint),
    notes: z.array(z.string()),
  })
  .meta({ id: 'PlanResponse' });
export type PlanResponse = z.infer<typeof PlanResponse>;
