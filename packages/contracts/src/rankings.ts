/**
 * Rankings (document 3 sections 2.3, 2.4, 4.2, 4.3): the Best/Worst Testers and Fragrance Attributes
 * wizards for every signed-in user. The body is the wizard's choices only; `rankingQuery` turns them
 * into the metric search of sections 4.2 and 4.3, the same one the wizards hand to Advanced Analytics
 * (`bestWorstQuery`, `attributesQuery`), so web and server build it in one place.
 */
import { z } from 'zod';
import { JOB_STATES, type MetricSearchRequest } from './analytics.ts';
import {
  WIZARD_ATTRIBUTE_TYPES,
  WIZARD_ATTRIBUTES,
  WIZARD_MESSAGES,
  WIZARD_SOURCES,
  attributesQuery,
  bestWorstQuery,
  type WizardNarrowing,
} from './comparisons.ts';

/** The largest top amount accepted (the same bound as `parseTopAmount`). */
export const RANKING_AMOUNT_MAX = 100_000;

export const RANKING_MESSAGES = {
  unknownAttribute: (attributeType: string, attribute: string) =>
    `Unknown ${attributeType} attribute: ${attribute}.`,
  yearOrder: 'The start year must not be after the end year.',
  loading: 'Ranking the fragrances…',
  failed: 'The search failed',
} as const;

const NarrowingValues = (description: string) =>
  z
    .array(z.string().trim().min(1, 'Filter values must not be empty').max(200))
    .max(500)
    .default([])
    .meta({ description });

const Year = z.number().int().min(1900).max(2100);

/** The optional narrowing filters of the wizards' last step. */
export const RankingNarrowing = z
  .strictObject({
    client: NarrowingValues('Clients.'),
    region: NarrowingValues("Regions; 'APAC' stands for its three sub-regions."),
    businessUnit: NarrowingValues('Business units (product_area).'),
    category: NarrowingValues('Categories.'),
    product: NarrowingValues('Product types.'),
    year: z
      .tuple([Year, Year])
      .nullable()
      .default(null)
      .refine((value) => value === null || value[0] <= value[1], { message: RANKING_MESSAGES.yearOrder })
      .meta({ description: 'First and last study year, inclusive; null: every year.' }),
  })
  .meta({ id: 'RankingNarrowing' });

const Amount = z
  .number({ error: WIZARD_MESSAGES.topAmount })
  .int(WIZARD_MESSAGES.topAmount)
  .min(1, WIZARD_MESSAGES.topAmount)
  .max(RANKING_AMOUNT_MAX, WIZARD_MESSAGES.topAmount)
  .meta({ description: 'How many (number) or which share in percent (percentage) to keep.' });

const common = {
  radioDesc: z.enum(['best', 'worst']).meta({ description: 'Best (highest first) or worst (lowest first).' }),
  amount: Amount,
  radioPercentType: z
    .enum(['number', 'percentage'])
    .meta({ description: 'Whether amount is a number of products or a percentage of them.' }),
  narrowing: RankingNarrowing.prefault({}),
};

/** Best/Worst Testers: fragrances or concepts by liking (Explicit), EEG hedonic (Implicit) or both (All). */
export const BestWorstRankingRequest = z
  .strictObject({
    kind: z.literal('testers'),
    ...common,
    type: z.enum(['fragrances', 'concepts']),
    rdfType: z.enum(WIZARD_SOURCES).meta({
      description: 'all: liking and EEG hedonic; rdf (Explicit): liking; eeg (Implicit): EEG hedonic.',
    }),
  })
  .meta({ id: 'BestWorstRankingRequest' });

/** Fragrance Attributes: fragrances by the top 2 box share of one attribute. */
export const AttributeRankingRequest = z
  .strictObject({
    kind: z.literal('attributes'),
    ...common,
    attributeType: z.enum(WIZARD_ATTRIBUTE_TYPES),
    attribute: z.string().trim().min(1, WIZARD_MESSAGES.chooseAttribute).max(200),
  })
  .superRefine((value, context) => {
    if (!WIZARD_ATTRIBUTES[value.attributeType].some((entry) => entry.field === value.attribute))
      context.addIssue({
        code: 'custom',
        path: ['attribute'],
        message: RANKING_MESSAGES.unknownAttribute(value.attributeType, value.attribute),
      });
  })
  .meta({ id: 'AttributeRankingRequest' });

/** POST /rankings: the wizard's choices. */
export const RankingRequest = z
  .discriminatedUnion('kind', [BestWorstRankingRequest, AttributeRankingRequest])
  .superRefine((value, context) => {
    if (value.radioPercentType === 'percentage' && value.amount > 100)
      context.addIssue({ code: 'custom', path: ['amount'], message: WIZARD_MESSAGES.percentageAbove100 });
  })
  .meta({ id: 'RankingRequest' });
export type RankingRequest = z.input<typeof RankingRequest>;
export type ParsedRankingRequest = z.output<typeof RankingRequest>;

/** The metric search of a ranking (sections 4.2 and 4.3). */
export function rankingQuery(request: ParsedRankingRequest): MetricSearchRequest {
  const narrowing: WizardNarrowing = {
    client: request.narrowing.client,
    region: request.narrowing.region,
    businessUnit: request.narrowing.businessUnit,
    category: request.narrowing.category,
    product: request.narrowing.product,
    year: request.narrowing.year,
  };
  const threshold = {
    radioDesc: request.radioDesc,
    amount: request.amount,
    radioPercentType: request.radioPercentType,
  };
  return request.kind === 'testers'
    ? bestWorstQuery({ ...threshold, type: request.type, rdfType: request.rdfType }, narrowing)
    : attributesQuery(
        { ...threshold, attributeType: request.attributeType, attribute: request.attribute },
        narrowing,
      );
}

/** One ranked fragrance or concept. */
export const RankingRow = z
  .object({
    rank: z.number().int().min(1).meta({ description: '1 for the best (or, for worst, the lowest).' }),
    id: z.number().int().meta({ description: 'Product id.' }),
    study_id: z.number().int(),
    c_mi_number: z.string(),
    name: z.string().nullable().meta({ description: 'Fragrance or concept name.' }),
    prod: z.string().meta({ description: 'Product code (the profile page address).' }),
    kind: z.enum(['fragrance', 'concept']),
    values: z.record(z.string(), z.number().nullable()).meta({
      description: '"metric.aggregation": a mean, or a box share in [0, 1]; null: no answers.',
    }),
    bases: z
      .record(z.string(), z.number().int())
      .meta({ description: '"metric.aggregation": answers counted.' }),
  })
  .meta({ id: 'RankingRow' });
export type RankingRow = z.infer<typeof RankingRow>;

export const RankingColumn = z
  .object({
    key: z.string().meta({ description: '"metric.aggregation"' }),
    label: z.string().meta({ description: 'Metric label.' }),
    aggregation: z.string(),
    aggregation_label: z.string(),
  })
  .meta({ id: 'RankingColumn' });
export type RankingColumn = z.infer<typeof RankingColumn>;

export const RankingResult = z
  .object({
    type: z.enum(['fragrances', 'concepts']),
    columns: z.array(RankingColumn).meta({ description: 'The ranked metric first.' }),
    rows: z.array(RankingRow).meta({ description: 'In ranking order.' }),
  })
  .meta({ id: 'RankingResult' });
export type RankingResult = z.infer<typeof RankingResult>;

export const RankingJobQueued = z.object({ jobid: z.string() }).meta({ id: 'RankingJobQueued' });

/** GET /rankings/{jobId}: SUCCESS carries the ranking in result.json. */
export const RankingStatus = z
  .object({
    status: z.enum(JOB_STATES),
    progress: z.number().int().min(0).max(100),
    result: z.object({ json: RankingResult }).nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'RankingStatus' });
export type RankingStatus = z.infer<typeof RankingStatus>;
