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
 * The metrics pooled across tests: strength (just about right) is never pooled as a mean; its shares
 * are shown per test (METRICS.md section 5).
 */
export const FRAGRANCE_POOLED_METRICS = ['liking', 'purchase_intention'] as const;
export type FragrancePooledMetric = (typeof FRAGRANCE_POOLED_METRICS)[number];

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
  otherGroup: 'Another category or methodology: listed, not pooled.',
  unknownGroup: 'No verified test of this fragrance in that category and methodology.',
  otherCategory: 'Another category: listed, not pooled.',
} as const;

/**
 * Which verified tests are pooled (METRICS.md section 5): one category and methodology by default;
 * the analyst may widen the pool to every methodology of the category, or to every test.
 */
export const FRAGRANCE_POOL_SCOPES = ['group', 'category', 'all'] as const;
export type FragrancePoolScope = (typeof FRAGRANCE_POOL_SCOPES)[number];

/** The pool choices as the page, its slides and the API document name them. */
export const FRAGRANCE_POOL_LABELS: Record<FragrancePoolScope, string> = {
  group: 'One category and methodology',
  category: 'Every methodology of this category',
  all: 'Every test (all categories and methodologies)',
};

/** The caution a widened pool carries on the page and its slides. */
export const FRAGRANCE_POOL_CAUTIONS: Record<FragrancePoolScope, string | null> = {
  group: null,
  category:
    'This pools tests of different methodologies, which measure the fragrance in different ways; a researcher may not want to pool them. The default pools one category and methodology.',
  all: 'This pools tests of different categories and methodologies, which a researcher may not want to pool: a fragrance can score differently in another product or way of testing. The default pools one category and methodology.',
};

/**
 * The category and methodology whose tests are pooled; without either, the group with the most
 * verified studies. A missing value matches tests without one.
 */
export const FragranceQuery = z.object({
  category: z.string().trim().min(1).max(120).optional().meta({
    description: 'Category of the tests to pool; default: that of the group with the most verified studies.',
  }),
  methodology: z.string().trim().min(1).max(120).optional().meta({
    description: 'Methodology of the tests to pool, with `category`.',
  }),
  pool: z
    .enum(FRAGRANCE_POOL_SCOPES)
    .default('group')
    .meta({
      description: `Which verified tests are pooled: group (default) "${FRAGRANCE_POOL_LABELS.group}" (the category and methodology chosen); category "${FRAGRANCE_POOL_LABELS.category}" (the chosen group's category, or \`category\` alone); all "${FRAGRANCE_POOL_LABELS.all}". Strength is never pooled.`,
    }),
});
export type FragranceQuery = z.input<typeof FragranceQuery>;
export type ParsedFragranceQuery = z.output<typeof FragranceQuery>;

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
    bottom_2_box: Share,
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
    pooled: z.boolean().meta({
      description:
        'Whether the pooled estimates count this test (verified, of the pooled category and methodology).',
    }),
    not_pooled_reason: z.string().nullable().meta({
      description: 'Why a listed test is not pooled (unverified, another group); null when pooled.',
    }),
    base: z.number().int().meta({ description: 'Respondents who rated the fragrance.' }),
    scores: FragranceScores,
  })
  .meta({ id: 'FragranceTest' });
export type FragranceTest = z.infer<typeof FragranceTest>;

/** DerSimonian-Laird pooling of one metric's study means, with the HKSJ and prediction intervals. */
export const FragrancePooled = z
  .object({
    metric: z.enum(FRAGRANCE_POOLED_METRICS),
    label: z.string(),
    k: z.number().int().meta({ description: 'Studies pooled.' }),
    estimate: z
      .number()
      .nullable()
      .meta({ description: 'Random-effects pooled mean; null below 2 studies.' }),
    std_error: z.number().nullable(),
    ci_low: z
      .number()
      .nullable()
      .meta({ description: 'Lower end of the 95 % normal (DerSimonian-Laird) interval.' }),
    ci_high: z.number().nullable(),
    hk_std_error: z.number().nullable().meta({ description: 'Hartung-Knapp-Sidik-Jonkman standard error.' }),
    hk_ci_low: z.number().nullable().meta({
      description:
        'Lower end of the 95 % Hartung-Knapp-Sidik-Jonkman interval (t with k − 1 df): the interval shown.',
    }),
    hk_ci_high: z.number().nullable(),
    pi_low: z.number().nullable().meta({
      description:
        "Lower end of Higgins' 95 % prediction interval for a new test (t with k − 2 df); null below 3 studies.",
    }),
    pi_high: z.number().nullable(),
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

/** A category and methodology of the fragrance's verified tests. */
export const FragrancePoolingGroup = z
  .object({
    category: z.string().nullable(),
    methodology: z.string().nullable(),
    studies: z.number().int().meta({ description: 'Verified studies of this category and methodology.' }),
  })
  .meta({ id: 'FragrancePoolingGroup' });
export type FragrancePoolingGroup = z.infer<typeof FragrancePoolingGroup>;

export const FragranceResponse = z
  .object({
    code: z.string(),
    name: z.string().meta({ description: 'The name of its latest test.' }),
    family: z.string().nullable(),
    subfamily: z.string().nullable(),
    perfumer_name: z.string().nullable(),
    tests: z.array(FragranceTest).meta({ description: 'Latest first.' }),
    pooling_group: FragrancePoolingGroup.nullable().meta({
      description: 'The category and methodology pooled; null without a verified test.',
    }),
    pooling_groups: z
      .array(FragrancePoolingGroup)
      .meta({ description: 'Every category and methodology of the verified tests, most studies first.' }),
    pool: z.enum(FRAGRANCE_POOL_SCOPES).meta({
      description:
        'Which tests are pooled: group (pooling_group alone), category (every methodology of its category) or all (every verified test).',
    }),
    pool_label: z.string().meta({ description: 'The pool in words (FRAGRANCE_POOL_LABELS).' }),
    pool_caution: z.string().nullable().meta({
      description: 'With a widened pool, the caution that it mixes tests a researcher may not want to pool.',
    }),
    pooled: z
      .array(FragrancePooled)
      .meta({ description: 'One entry per metric of FRAGRANCE_POOLED_METRICS (strength is not pooled).' }),
    by_market: z
      .array(FragranceGroup)
      .meta({ description: 'Pooled tests (of the pooled group) by market, most tests first.' }),
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

/** What I² says in the words of METRICS.md section 5. */
export const AGREEMENT_WORDS = {
  agree: 'the tests agree',
  some: 'the tests differ somewhat',
  differ: 'the tests differ: the pooled figure hides real differences between tests',
} as const;

/** The pooled metrics' names inside a sentence. */
const SENTENCE_NAMES: Record<FragrancePooledMetric, string> = {
  liking: 'liking',
  purchase_intention: 'purchase intention',
};

/** A number to one decimal for a sentence. */
const oneDecimal = (value: number) => value.toFixed(1);

/**
 * The sentence a researcher reads first: "Across 6 tests in 4 markets, liking is 3.9 (3.7-4.1); the
 * tests agree." (the pooled group's main metric, liking or else purchase intention, with its HKSJ
 * interval and the agreement of its I²); null when nothing is pooled.
 */
export function fragranceSentence(data: Pick<FragranceResponse, 'tests' | 'pooled'>): string | null {
  const main = FRAGRANCE_POOLED_METRICS.map((metric) =>
    data.pooled.find((entry) => entry.metric === metric),
  ).find((entry) => entry?.estimate !== null && entry?.estimate !== undefined);
  if (!main || main.estimate === null) return null;
  const pooledTests = data.tests.filter((test) => test.pooled);
  const markets = new Set(pooledTests.map((test) => test.market).filter((market) => market !== null)).size;
  const where = markets > 0 ? ` in ${markets} ${markets === 1 ? 'market' : 'markets'}` : '';
  const interval =
    main.hk_ci_low !== null && main.hk_ci_high !== null
      ? ` (${oneDecimal(main.hk_ci_low)}-${oneDecimal(main.hk_ci_high)})`
      : '';
  const agreement = agreementOf(main.i2);
  const words = agreement ? `; ${AGREEMENT_WORDS[agreement]}` : '';
  return `Across ${main.k} tests${where}, ${SENTENCE_NAMES[main.metric]} is ${oneDecimal(main.estimate)}${interval}${words}.`;
}
