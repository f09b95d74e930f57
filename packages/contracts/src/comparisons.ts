/**
 * The wizards of every signed-in user (document 3 sections 2.3-2.6, 3.3, 4.2-4.5): the Best/Worst
 * Testers and Fragrance Attributes queries handed to Advanced Analytics, the Category Profile top
 * fragrances of a family, and the Group Comparison of two groups with the significance of their
 * differences (METRICS.md section 2, the rest-type tests between the two groups).
 */
import { z } from 'zod';
import {
  AnalyticsDemographicsFilter,
  ChosenProduct,
  JOB_STATES,
  MetricSearchResult,
  NO_TAG,
  type MetricEntry,
  type MetricSearchRequest,
  type Threshold,
} from './analytics.ts';
import { EssentialsFilter, FragranceDetailsFilter } from './search.ts';

/** Header of Advanced Analytics when a wizard opens it. */
export const WIZARD_HEADER = 'Confirm your selections:';

export const WIZARD_MESSAGES = {
  topAmount: 'The top amount must be a positive whole number.',
  percentageAbove100: 'A percentage must not be above 100.',
  chooseAttribute: 'Choose an attribute.',
  sourceFootnote:
    'Explicit is based on top two box liking scores, Implicit on mean EEG hedonic scores, All on both.',
  attributeFootnote: 'Based on top 2 box scores of the attribute.',
  noFragrances: 'No Fragrances found matching this query',
  noStudies: 'No studies found matching this query',
  noResults: 'No results for specific query',
  noFamilyData: 'No data available for this set of filters.',
  familyChartTitle: 'Fragrance Families frequency (in %)',
  topFamily: (family: string) => `Top ${family} fragrances based on T2B liking`,
  groupsNeedProducts: 'Each group needs at least one fragrance to compare.',
} as const;

/** Best or worst, number or percentage, fragrances or concepts, All / Explicit (rdf) / Implicit (eeg). */
export const WIZARD_SOURCES = ['all', 'rdf', 'eeg'] as const;
export type WizardSource = (typeof WIZARD_SOURCES)[number];
export const WIZARD_SOURCE_LABELS: Record<WizardSource, string> = {
  all: 'All',
  rdf: 'Explicit',
  eeg: 'Implicit',
};

/** Document 3 section 3.3: the best/worst form. */
export interface BestWorstForm {
  radioDesc: 'best' | 'worst';
  amount: number;
  radioPercentType: 'number' | 'percentage';
  type: 'fragrances' | 'concepts';
  rdfType: WizardSource;
}

/** The narrowing filters of the wizards' last step (APAC already expanded by the region rule). */
export interface WizardNarrowing {
  client: string[];
  region: string[];
  businessUnit: string[];
  category: string[];
  product: string[];
  year: [number, number] | null;
}

export const EMPTY_NARROWING: WizardNarrowing = {
  client: [],
  region: [],
  businessUnit: [],
  category: [],
  product: [],
  year: null,
};

/**
 * The top amount as typed: a positive whole number (at most 100 for a percentage), or the message
 * saying why not.
 */
export function parseTopAmount(
  text: string,
  percentType: BestWorstForm['radioPercentType'],
): { amount: number } | { error: string } {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return { error: WIZARD_MESSAGES.topAmount };
  const amount = Number(trimmed);
  if (!Number.isSafeInteger(amount) || amount < 1) return { error: WIZARD_MESSAGES.topAmount };
  if (amount > 100_000) return { error: WIZARD_MESSAGES.topAmount };
  if (percentType === 'percentage' && amount > 100) return { error: WIZARD_MESSAGES.percentageAbove100 };
  return { amount };
}

function essentialsOf(narrowing: WizardNarrowing) {
  const list = (values: string[]) => (values.length > 0 ? [...values] : undefined);
  return {
    client: list(narrowing.client),
    region: list(narrowing.region),
    businessUnit: list(narrowing.businessUnit),
    category: list(narrowing.category),
    product: list(narrowing.product),
    startYear: narrowing.year?.[0],
    endYear: narrowing.year?.[1],
  };
}

function thresholdOf(form: Pick<BestWorstForm, 'radioDesc' | 'amount' | 'radioPercentType'>): Threshold {
  return {
    applyThreshold: true,
    amount: form.amount,
    desc: form.radioDesc === 'best',
    type: form.radioPercentType === 'percentage' ? 'percentage' : 'fragrances',
  };
}

/**
 * Section 4.2: top_2_box liking for Explicit (rdf), mean hfd_hedonic for Implicit (eeg), both for
 * All; metric type Performance; the threshold applied, desc for best, fragrances or percentage.
 */
export function bestWorstQuery(form: BestWorstForm, narrowing: WizardNarrowing): MetricSearchRequest {
  const liking: MetricEntry = {
    metricType: 'Performance',
    metric: 'liking',
    aggregation: 'top_2_box',
    confidence: false,
    applyThreshold: false,
  };
  const hedonic: MetricEntry = {
    metricType: 'Performance',
    metric: 'hfd_hedonic',
    aggregation: 'mean',
    confidence: false,
    applyThreshold: false,
  };
  const metricsList =
    form.rdfType === 'rdf' ? [liking] : form.rdfType === 'eeg' ? [hedonic] : [liking, hedonic];
  return {
    q: {
      essentials: essentialsOf(narrowing),
      metrics: { rdfType: form.rdfType, threshold: thresholdOf(form), metricsList },
    },
    type: form.type,
    demographics_fragrances: [],
  };
}

/** Attribute type cards of the Fragrance Attributes wizard. */
export const WIZARD_ATTRIBUTE_TYPES = ['olfactive', 'descriptive', 'moods', 'usage'] as const;
export type WizardAttributeType = (typeof WIZARD_ATTRIBUTE_TYPES)[number];

export const WIZARD_ATTRIBUTE_TYPE_TEXT: Record<WizardAttributeType, { label: string; description: string }> =
  {
    olfactive: { label: 'Olfactive', description: 'How the fragrance smells: fresh, clean, soft...' },
    descriptive: { label: 'Descriptive', description: 'How the fragrance is described: premium, modern...' },
    moods: { label: 'Moods', description: 'How the fragrance makes people feel: relaxing, energizing...' },
    usage: { label: 'Usage', description: 'How the fragrance performs in use: long lasting, every day...' },
  };

/** The attribute metrics of the catalogue (metric type Attribute) by attribute type. */
export const WIZARD_ATTRIBUTES: Record<WizardAttributeType, readonly { field: string; label: string }[]> = {
  olfactive: [
    { field: 'clean', label: 'Clean' },
    { field: 'fresh', label: 'Fresh' },
    { field: 'natural', label: 'Natural' },
    { field: 'soft', label: 'Soft' },
  ],
  descriptive: [
    { field: 'feminine', label: 'Feminine' },
    { field: 'masculine', label: 'Masculine' },
    { field: 'modern', label: 'Modern' },
    { field: 'premium', label: 'Premium' },
    { field: 'unique', label: 'Unique' },
    { field: 'youthful', label: 'Youthful' },
  ],
  moods: [
    { field: 'comforting', label: 'Comforting' },
    { field: 'energizing', label: 'Energizing' },
    { field: 'relaxing', label: 'Relaxing' },
    { field: 'sensual', label: 'Sensual' },
  ],
  usage: [
    { field: 'good_for_every_day_use', label: 'Good for every day use' },
    { field: 'long_lasting', label: 'Long lasting' },
  ],
};

/** Document 3 section 3.3: the attributes form (the best/worst form plus the attribute). */
export interface AttributesForm extends Omit<BestWorstForm, 'type' | 'rdfType'> {
  attributeType: WizardAttributeType;
  attribute: string;
}

/**
 * Section 4.3: metric type 'Attribute: {type} ' and the chosen attribute, aggregation top_2_box, the
 * threshold applied with desc and type set; fragrances of classic (rdf) studies.
 */
export function attributesQuery(form: AttributesForm, narrowing: WizardNarrowing): MetricSearchRequest {
  return {
    q: {
      essentials: essentialsOf(narrowing),
      metrics: {
        rdfType: 'rdf',
        threshold: thresholdOf(form),
        metricsList: [
          {
            metricType: `Attribute: ${form.attributeType} `,
            metric: form.attribute,
            aggregation: 'top_2_box',
            confidence: false,
            applyThreshold: false,
          },
        ],
      },
    },
    type: 'fragrances',
    demographics_fragrances: [],
  };
}

/** Where Advanced Analytics is opened by a wizard: React Router navigation state. */
export interface WizardNavigationState {
  startSearch: true;
  hideDescription: true;
  header: typeof WIZARD_HEADER;
  query: MetricSearchRequest;
}

export function wizardNavigationState(query: MetricSearchRequest): WizardNavigationState {
  return { startSearch: true, hideDescription: true, header: WIZARD_HEADER, query };
}

// ---------------------------------------------------------------------------------------------
// Category Profile

/** Top fragrances shown per family. */
export const TOP_FRAGRANCES_PER_FAMILY = 5;

const CategoryStudyFilters = EssentialsFilter;

/** POST /category-profile/top-fragrances: the best fragrances of one family by top 2 box liking. */
export const TopFamilyFragrancesRequest = z
  .strictObject({
    essentials: CategoryStudyFilters.prefault({}).meta({
      description: 'Category, region, product type, client and years of the studies.',
    }),
    family: z
      .string()
      .trim()
      .min(1, 'Choose a fragrance family')
      .max(200)
      .refine((value) => value !== NO_TAG, {
        message: `Fragrances without a family (${NO_TAG}) have no top list`,
      })
      .meta({ description: 'The fragrance family (the bar clicked).' }),
  })
  .meta({ id: 'TopFamilyFragrancesRequest' });
export type TopFamilyFragrancesRequest = z.input<typeof TopFamilyFragrancesRequest>;
export type ParsedTopFamilyFragrancesRequest = z.output<typeof TopFamilyFragrancesRequest>;

export const TopFamilyFragrance = z.object({
  id: z.number().int().meta({ description: 'Product id.' }),
  study_id: z.number().int(),
  c_mi_number: z.string(),
  name: z.string().nullable(),
  prod: z.string(),
  top_2_box: z.number().nullable().meta({ description: 'Liking top 2 box share in [0, 1].' }),
  n: z.number().int().meta({ description: 'Liking answers counted.' }),
});
export type TopFamilyFragrance = z.infer<typeof TopFamilyFragrance>;

export const ComparisonJobQueued = z.object({ jobid: z.string() }).meta({ id: 'ComparisonJobQueued' });

const comparisonStatus = <T extends z.ZodType>(result: T, id: string) =>
  z
    .object({
      status: z.enum(JOB_STATES),
      progress: z.number().int().min(0).max(100),
      result: result.nullable(),
      error: z.string().nullable(),
    })
    .meta({ id });

export const TopFamilyFragrancesStatus = comparisonStatus(
  z.object({ json: z.object({ family: z.string(), fragrances: z.array(TopFamilyFragrance) }) }),
  'TopFamilyFragrancesStatus',
);
export type TopFamilyFragrancesStatus = z.infer<typeof TopFamilyFragrancesStatus>;

// ---------------------------------------------------------------------------------------------
// Group Comparison

/** The metrics compared between the groups (chart order: liking, purchase intention, strength). */
export const GROUP_COMPARISON_METRICS = [
  { metric: 'liking', aggregations: ['mean', 'top_2_box', 'bottom_2_box'] },
  { metric: 'purchase_intention', aggregations: ['mean', 'top_2_box', 'bottom_2_box'] },
  { metric: 'strength', aggregations: ['top_2_box', 'just_right', 'bottom_2_box'] },
] as const;

/** One group: study and fragrance filters, respondent filters, and optionally the chosen products. */
export const ComparisonGroup = z
  .strictObject({
    essentials: EssentialsFilter.prefault({}),
    fragranceDetails: FragranceDetailsFilter.prefault({}),
    demographics: AnalyticsDemographicsFilter.prefault({}),
    products: z
      .array(ChosenProduct)
      .max(50_000)
      .nullish()
      .meta({ description: 'Compare only these products (the selection of the results page).' }),
  })
  .meta({ id: 'ComparisonGroup' });
export type ComparisonGroup = z.input<typeof ComparisonGroup>;

/** POST /group-comparison. */
export const GroupComparisonRequest = z
  .strictObject({ group1: ComparisonGroup, group2: ComparisonGroup })
  .meta({ id: 'GroupComparisonRequest' });
export type GroupComparisonRequest = z.input<typeof GroupComparisonRequest>;
export type ParsedGroupComparisonRequest = z.output<typeof GroupComparisonRequest>;

/**
 * The difference of one metric aggregation between the groups (group 1 against group 2). The unit is
 * the product (METRICS.md section 2b): each fragrance contributes one score (its mean or box share over
 * its respondents), and the groups' product scores are compared with a Welch t-test, n = products.
 */
export const GroupDifference = z
  .object({
    metric: z.string(),
    label: z.string(),
    aggregation: z.string(),
    key: z.string().meta({ description: '"metric.aggregation"' }),
    group1: z
      .number()
      .nullable()
      .meta({ description: "Mean of group 1's product scores (means on 1-5, boxes in [0, 1])." }),
    group2: z.number().nullable().meta({ description: "Mean of group 2's product scores." }),
    n1: z.number().int().meta({ description: 'Products of group 1 with a score: the n of the test.' }),
    n2: z.number().int().meta({ description: 'Products of group 2 with a score: the n of the test.' }),
    respondents1: z
      .number()
      .int()
      .meta({ description: 'Respondents of group 1 who answered the metric (the second base).' }),
    respondents2: z
      .number()
      .int()
      .meta({ description: 'Respondents of group 2 who answered the metric (the second base).' }),
    test: z.literal('welch-t').meta({ description: 'Welch t-test on the product scores.' }),
    p_value: z.number().nullable(),
    level: z.number().nullable().meta({ description: '0.01, 0.05 or 0.1; null: not significant.' }),
    table: z.enum(['mt', 'let']).nullable().meta({ description: 'mt: group 1 higher; let: group 1 lower.' }),
  })
  .meta({ id: 'GroupDifference' });
export type GroupDifference = z.infer<typeof GroupDifference>;

/** The two bases of a group: its products (the unit of the tests) and the respondents behind them. */
export const GroupBases = z
  .object({
    products: z.number().int().meta({
      description:
        "Fragrances of the group with at least one answer to a compared metric under the group's respondent filter: the n of its tests.",
    }),
    respondents: z
      .number()
      .int()
      .meta({ description: 'Respondents who answered at least one compared metric about them.' }),
  })
  .meta({ id: 'GroupBases' });
export type GroupBases = z.infer<typeof GroupBases>;

export const GroupComparisonResult = z
  .object({
    group1: MetricSearchResult,
    group2: MetricSearchResult,
    bases: z.object({ group1: GroupBases, group2: GroupBases }),
    differences: z.array(GroupDifference),
  })
  .meta({ id: 'GroupComparisonResult' });
export type GroupComparisonResult = z.infer<typeof GroupComparisonResult>;

export const GroupComparisonStatus = comparisonStatus(
  z.object({ json: GroupComparisonResult }),
  'GroupComparisonStatus',
);
export type GroupComparisonStatus = z.infer<typeof GroupComparisonStatus>;
