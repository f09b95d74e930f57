/**
 * Norms (METRICS.md section 5): the distribution of product scores of a base of library products (a
 * category, optionally narrowed by region, product type, methodology and years), its percentiles and
 * a product's percentile rank within it. Norms are anonymous aggregates of the whole library, open to
 * every signed-in user, but only when the base holds at least NORM_RULE.studies studies of at least
 * NORM_RULE.clients clients; otherwise the norm is withheld with that reason.
 *
 * Withheld is an answer, not an error: GET /norms and /norms/rank answer 200 with status "withheld"
 * and the reason (the request was valid and the caller may read norms; it is this base that is too
 * small, as a screen shows it in place of the chart). Only the spreadsheet download of a withheld norm
 * answers 403 with the reason, since a file without its numbers has nothing to hand out.
 */
import { z } from 'zod';
import { Aggregation } from './analytics.ts';
import { numeric } from './common.ts';

/** The privacy rule of a norm: at least this many studies of at least this many clients. */
export const NORM_RULE = { studies: 5, clients: 3 } as const;

/** The percentiles every norm reports (numpy's linear method). */
export const NORM_PERCENTILE_KEYS = ['p10', 'p25', 'p50', 'p75', 'p90'] as const;
export type NormPercentileKey = (typeof NORM_PERCENTILE_KEYS)[number];

/** Aggregations where a lower score is the better one (the action standards then sit low). */
export const LOWER_IS_BETTER: readonly Aggregation[] = ['bottom_box', 'bottom_2_box', 'hi_no', 'irt_no'];

export const NORMS_FILE_NAME = 'norm.xlsx';

export const NORM_MESSAGES = {
  withheld: `This norm is withheld: its base holds fewer than ${NORM_RULE.studies} studies of at least ${NORM_RULE.clients} clients, so its numbers could point to a single study.`,
  noCategory: "This product's study has no category: choose a category for its norm.",
  noSuchProduct: 'No such product.',
  yearOrder: 'The first year must not be after the last year.',
  whichProduct: 'Name the product by product_id, or by study_id and code.',
} as const;

const Text = (description: string) =>
  z.string().trim().min(1, 'Must not be empty').max(200).meta({ description });
const Year = numeric(z.number().int().min(1900).max(2100), 'Expected a year');

/** The base of a norm: products of one kind of the library's verified studies matching all given filters. */
const baseFields = {
  category: Text('Category of the studies (required).'),
  region: Text('A region the study was run in.').optional(),
  product_type: Text('Product type of the studies.').optional(),
  methodology: Text('Methodology of the studies.').optional(),
  year_from: Year.optional().meta({ description: 'First study year, inclusive.' }),
  year_to: Year.optional().meta({ description: 'Last study year, inclusive.' }),
  kind: z
    .enum(['fragrance', 'concept'])
    .default('fragrance')
    .meta({ description: 'Products of the base: fragrances (default) or concepts.' }),
};

const measure = {
  metric: Text('Metric name (field) as the metric search names it, e.g. liking.'),
  aggregation: Aggregation.meta({ description: 'Aggregation, one the metric offers.' }),
};

const yearOrder = (value: { year_from?: number | undefined; year_to?: number | undefined }) =>
  value.year_from === undefined || value.year_to === undefined || value.year_from <= value.year_to;

/** GET /norms and /norms/xlsx: a metric and aggregation over a base. */
export const NormQuery = z
  .strictObject({ ...baseFields, ...measure })
  .refine(yearOrder, { message: NORM_MESSAGES.yearOrder, path: ['year_to'] });
export type NormQuery = z.input<typeof NormQuery>;
export type ParsedNormQuery = z.output<typeof NormQuery>;

/**
 * GET /norms/rank: a product's percentile within a base; without a category the base is the
 * product's own category norm (its study's category, products of its kind).
 */
export const NormRankQuery = z
  .strictObject({
    product_id: numeric(z.number().int().positive())
      .optional()
      .meta({ description: 'Id of the product; or study_id with code and kind.' }),
    study_id: numeric(z.number().int().positive())
      .optional()
      .meta({ description: "The product's study (with code and kind), as a profile's address names it." }),
    code: Text('Product code within its study (with study_id).').optional(),
    ...measure,
    ...baseFields,
    category: baseFields.category.optional(),
    kind: z.enum(['fragrance', 'concept']).optional().meta({ description: "Default: the product's kind." }),
  })
  .refine(yearOrder, { message: NORM_MESSAGES.yearOrder, path: ['year_to'] })
  .refine(
    (value) =>
      (value.product_id !== undefined) !== (value.study_id !== undefined && value.code !== undefined),
    { message: NORM_MESSAGES.whichProduct, path: ['product_id'] },
  );
export type NormRankQuery = z.input<typeof NormRankQuery>;
export type ParsedNormRankQuery = z.output<typeof NormRankQuery>;

/** The base as chosen, and in words. */
export const NormBase = z
  .object({
    category: z.string(),
    region: z.string().nullable(),
    product_type: z.string().nullable(),
    methodology: z.string().nullable(),
    year_from: z.number().int().nullable(),
    year_to: z.number().int().nullable(),
    kind: z.enum(['fragrance', 'concept']),
    description: z.string().meta({
      description:
        'The base in words, e.g. "Fabric Care, Europe, 2022-2026: 412 fragrances in 96 studies" (years: the chosen range, else the years the base covers; counts only when the norm is shown).',
    }),
  })
  .meta({ id: 'NormBase' });
export type NormBase = z.infer<typeof NormBase>;

/** One bar of the histogram: scores in [from, to) (the last bar includes its upper end). */
export const NormBin = z.object({ from: z.number(), to: z.number(), count: z.number().int() });
export type NormBin = z.infer<typeof NormBin>;

/** A line a screen marks on the distribution, named. */
export const NormLine = z.object({
  key: z.string(),
  label: z.string().meta({ description: 'e.g. "Action standard: top quartile (P75)".' }),
  value: z.number(),
  action_standard: z.boolean().meta({ description: 'An action standard rather than a plain percentile.' }),
});
export type NormLine = z.infer<typeof NormLine>;

/** A norm: shown (status available), withheld by the privacy rule, or empty (no product has a score). */
export const NormResponse = z
  .object({
    status: z.enum(['available', 'withheld', 'empty']),
    reason: z.string().nullable().meta({ description: 'Why the norm is withheld or empty.' }),
    base: NormBase,
    metric: z.object({ name: z.string(), label: z.string(), kind: z.string() }),
    aggregation: z.object({ value: Aggregation, label: z.string(), share: z.boolean() }),
    products: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Products with a score (null when withheld from a client or sales user).' }),
    studies: z.number().int().nullable(),
    clients: z.number().int().nullable().meta({ description: 'How many clients; never which.' }),
    mean: z.number().nullable(),
    percentiles: z
      .object({ p10: z.number(), p25: z.number(), p50: z.number(), p75: z.number(), p90: z.number() })
      .nullable(),
    histogram: z.array(NormBin),
    lines: z.array(NormLine).meta({ description: 'Percentiles and action standards to mark.' }),
  })
  .meta({ id: 'NormResponse' });
export type NormResponse = z.infer<typeof NormResponse>;

/** A product's percentile rank within a norm. */
export const NormRankResponse = z
  .object({
    product: z.object({
      id: z.number().int(),
      code: z.string(),
      name: z.string().nullable(),
      kind: z.enum(['fragrance', 'concept']),
      score: z.number().nullable(),
      n: z.number().int().meta({ description: 'Answers behind the score.' }),
    }),
    rank: z.number().nullable().meta({
      description:
        'Share of the base scoring below the product plus half the share scoring the same, in [0, 1]; null when the norm is not shown or the product has no score.',
    }),
    norm: NormResponse,
  })
  .meta({ id: 'NormRankResponse' });
export type NormRankResponse = z.infer<typeof NormRankResponse>;

/** The choices of the norms screen: metrics with their aggregations, and the base's options. */
export const NormOptionsResponse = z
  .object({
    metrics: z.array(
      z.object({
        name: z.string(),
        label: z.string(),
        type: z.string(),
        kind: z.string(),
        aggregations: z.array(z.object({ value: Aggregation, label: z.string() })),
      }),
    ),
    categories: z.array(z.string()),
    regions: z.array(z.string()),
    product_types: z.array(z.object({ value: z.string(), category: z.string() })),
    methodologies: z.array(z.string()),
    years: z.object({ min: z.number().int(), max: z.number().int() }).nullable(),
  })
  .meta({ id: 'NormOptionsResponse' });
export type NormOptionsResponse = z.infer<typeof NormOptionsResponse>;

/** Aggregations in words, for the norms screen and its spreadsheet. */
export const AGGREGATION_NAMES: Record<Aggregation, string> = {
  top_box: 'Top box',
  top_2_box: 'Top 2 box',
  just_right: 'Just right / neutral',
  mean: 'Mean',
  bottom_2_box: 'Bottom 2 box',
  bottom_box: 'Bottom box',
  variance: 'Variance',
  hi_yes: 'HI yes',
  hi_no: 'HI no',
  irt_yes: 'IRT yes',
  irt_no: 'IRT no',
  eeg_mean: 'EEG mean',
};

/** The fields of a norm base and their year check, shared with the study planner and the drivers of liking. */
export const NORM_BASE_FIELDS = baseFields;
export const normYearsInOrder = yearOrder;
