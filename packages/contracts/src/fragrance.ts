/**
 * One fragrance across all its tests: every test of a 6-digit (SAP) code the caller may see, the
 * random-effects pooling of its study means per metric (METRICS.md section 5), and its scores by
 * market and by year.
 */
import { z } from 'zod';

/** A fragrance's 6-digit (SAP) code. */
export const FRAGRANCE_CODE_PATTERN = /^\d{6}$/;

/** The metrics a fragrance's tests are compared on, in this order. */
export const FRAGRANCE_TEST_METRICS = ['liking', 'purchase_intention', 'strength'] as const;
export type FragranceTestMetric = (typeof FRAGRANCE_TEST_METRICS)[number];

/**
 * I² below `agree`: the tests agree (their differences are about what sampling alone gives); from
 * `differ`, most of their spread is real. Higgins' low and high bands (25 %, 75 %).
 */
export const I2_BANDS = { agree: 0.25, differ: 0.75 } as const;

export const FRAGRANCE_MESSAGES = {
  malformedCode: 'A fragrance code has exactly 6 digits.',
  notFound: 'No test of this fragrance in the studies you may see.',
  singleTest: 'One study tested this fragrance: there is nothing to pool yet.',
  noTests: 'No test of this fragrance in the studies you may see.',
  notPooled: 'Not verified: listed, not pooled.',
} as const;

export const FragranceParams = z.object({
  code: z
    .string()
    .trim()
    .regex(FRAGRANCE_CODE_PATTERN, FRAGRANCE_MESSAGES.malformedCode)
    .meta({ description: "The fragrance's 6-digit (SAP) code." }),
});

const Share = z.number().nullable().meta({ description: 'A share in [0, 1]; null without answers.' });

/** One metric's scores in one test. */
export const FragranceTestScore = z
  .object({
    mean: z.number().nullable().meta({ description: 'Mean of the harmonised answers (1-5).' }),
    sd: z
      .number()
      .nullable()
      .meta({ description: 'Sample standard deviation (n − 1) of the harmonised answers; null below 2.' }),
    top_2_box: Share,
    just_right: Share,
    n: z.number().int().meta({ description: 'Answers counted (the base).' }),
  })
  .meta({ id: 'FragranceTestScore' });
export type FragranceTestScore = z.infer<typeof FragranceTestScore>;

/** Scores per metric; a metric without answers is absent. */
export const FragranceScores = z
  .object({
    liking: FragranceTestScore.optional(),
    purchase_intention: FragranceTestScore.optional(),
    strength: FragranceTestScore.optional(),
  })
  .meta({ id: 'FragranceScores' });
export type FragranceScores = z.infer<typeof FragranceScores>;

/** One test of the fragrance: a study that rated it. */
export const FragranceTest = z
  .object({
    study_id: z.number().int(),
    c_mi_number: z.string(),
    project_name: z.string(),
    client: z.string(),
    year: z.number().int(),
    region: z.array(z.string()).meta({ description: 'Regions of the study.' }),
    market: z.string().nullable().meta({ description: "The study's lead country." }),
    methodology: z.string().nullable(),
    category: z.string().nullable(),
    product_type: z.string().nullable(),
    prod: z.string().meta({ description: "The fragrance's product code in the study (its profile's key)." }),
    name: z.string(),
    verified: z.boolean(),
    pooled: z
      .boolean()
      .meta({ description: 'Whether the pooled estimates count this test (verified ones).' }),
    base: z.number().int().meta({ description: 'Respondents who rated the fragrance.' }),
    scores: FragranceScores,
  })
  .meta({ id: 'FragranceTest' });
export type FragranceTest = z.infer<typeof FragranceTest>;

/** DerSimonian-Laird pooling of one metric's study means. */
export const FragrancePooled = z
  .object({
    metric: z.enum(FRAGRANCE_TEST_METRICS),
    label: z.string(),
    k: z.number().int().meta({ description: 'Studies pooled.' }),
    estimate: z
      .number()
      .nullable()
      .meta({ description: 'Random-effects pooled mean; null below 2 studies.' }),
    std_error: z.number().nullable(),
    ci_low: z.number().nullable().meta({ description: 'Lower end of the 95 % normal interval.' }),
    ci_high: z.number().nullable(),
    tau2: z.number().nullable().meta({ description: 'Between-study variance τ².' }),
    q: z.number().nullable().meta({ description: "Cochran's Q." }),
    i2: z
      .number()
      .nullable()
      .meta({ description: 'I² in [0, 1]: the share of the spread between studies beyond sampling.' }),
  })
  .meta({ id: 'FragrancePooled' });
export type FragrancePooled = z.infer<typeof FragrancePooled>;

/** The answers of a group of tests (a market, a year) summed, per metric. */
export const FragranceGroup = z
  .object({
    key: z.string().meta({ description: 'The market (lead country) or the year.' }),
    tests: z.number().int(),
    scores: FragranceScores,
  })
  .meta({ id: 'FragranceGroup' });
export type FragranceGroup = z.infer<typeof FragranceGroup>;

export const FragranceResponse = z
  .object({
    code: z.string(),
    name: z.string().meta({ description: 'The name of its latest test.' }),
    family: z.string().nullable(),
    subfamily: z.string().nullable(),
    perfumer_name: z.string().nullable(),
    tests: z.array(FragranceTest).meta({ description: 'Latest first.' }),
    pooled: z.array(FragrancePooled).meta({ description: 'One entry per metric of FRAGRANCE_TEST_METRICS.' }),
    by_market: z.array(FragranceGroup).meta({ description: 'Pooled tests by market, most tests first.' }),
    by_year: z.array(FragranceGroup).meta({ description: 'Pooled tests by year, oldest first.' }),
  })
  .meta({ id: 'FragranceResponse' });
export type FragranceResponse = z.infer<typeof FragranceResponse>;

/** Words for a user of how far the tests agree, from I². */
export function agreementOf(i2: number | null): 'agree' | 'some' | 'differ' | null {
  if (i2 === null || !Number.isFinite(i2)) return null;
  if (i2 < I2_BANDS.agree) return 'agree';
  if (i2 < I2_BANDS.differ) return 'some';
  return 'differ';
}
