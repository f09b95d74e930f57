/**
 * Advanced analytics (document 3 sections 3.1, 3.2 and 7; numbers per shared METRICS.md): the filters
 * of a metric search, the job protocol (POST answers a job id, GET polls SUCCESS / FAILURE /
 * progress), metric search results with diagnostics, significance, demographic options and profiles.
 */
import { z } from 'zod';
import { TEXT_LIMITS } from './constants.ts';
import { FieldDefinition } from './fields.ts';
import {
  ConceptDetailsFilter,
  DropdownOptionsResponse,
  EssentialsFilter,
  FragranceDetailsFilter,
  MethodologyFilter,
} from './search.ts';
import { numeric } from './common.ts';
import { SIGNIFICANCE_NOT_TESTED, SignificanceCorrection } from './significance-marks.ts';

const TEXT_MAX = TEXT_LIMITS.filterText;
const VALUES_MAX = 500;

/** The aggregations of METRICS.md section 1, in the spec's column order. */
export const AGGREGATIONS = [
  'top_box',
  'top_2_box',
  'just_right',
  'mean',
  'bottom_2_box',
  'bottom_box',
  'variance',
  'hi_yes',
  'hi_no',
  'irt_yes',
  'irt_no',
  'eeg_mean',
] as const;
export const Aggregation = z.enum(AGGREGATIONS);
export type Aggregation = z.infer<typeof Aggregation>;

/** Column abbreviations of the metrics table (document 3 section 2.1). */
export const AGGREGATION_LABELS: Record<Aggregation, string> = {
  top_box: 'TB',
  top_2_box: 'T2B',
  just_right: 'JAR/N',
  mean: 'M',
  bottom_2_box: 'B2B',
  bottom_box: 'BB',
  variance: 'VAR',
  hi_yes: 'HiY',
  hi_no: 'HiN',
  irt_yes: 'YES',
  irt_no: 'NO',
  eeg_mean: 'M',
};

/** Aggregations offered per kind of metric: implicit shares only on implicit metrics, EEG means on EEG. */
export const AGGREGATIONS_BY_METRIC_KIND: Record<
  'hedonic' | 'jar' | 'binary' | 'eeg' | 'implicit',
  readonly Aggregation[]
> = {
  hedonic: ['top_box', 'top_2_box', 'just_right', 'mean', 'bottom_2_box', 'bottom_box', 'variance'],
  jar: ['top_box', 'top_2_box', 'just_right', 'mean', 'bottom_2_box', 'bottom_box', 'variance'],
  binary: ['top_box', 'top_2_box', 'mean', 'bottom_2_box', 'bottom_box', 'variance'],
  eeg: ['eeg_mean', 'mean', 'variance'],
  implicit: ['irt_yes', 'irt_no', 'hi_yes', 'hi_no'],
};

/**
 * Aggregations a picker offers per kind of metric: a yes/no (CATA) metric has two values only, the
 * share selected (top box) and not selected (bottom box), never a mean or a variance (METRICS.md
 * section 3). A request naming its other boxes is still read, as the same shares (saved searches).
 */
export const OFFERED_AGGREGATIONS_BY_METRIC_KIND: Record<
  keyof typeof AGGREGATIONS_BY_METRIC_KIND,
  readonly Aggregation[]
> = { ...AGGREGATIONS_BY_METRIC_KIND, binary: ['top_box', 'bottom_box'] };

/** Kinds of study a metric search covers: all, classic results (rdf), EEG, implicit (irt). */
export const RDF_TYPES = ['all', 'rdf', 'eeg', 'irt'] as const;
export const RdfType = z.enum(RDF_TYPES);
export type RdfType = z.infer<typeof RdfType>;

/** Significance levels, strictest first (99 %, 95 %, 90 %). */
export const SIGNIFICANCE_LEVELS = [0.01, 0.05, 0.1] as const;

/** A result cell with a base below this is a low base (METRICS.md section 1). */
export const LOW_BASE = 30;

/** Age slider of the analytics screens. */
export const ANALYTICS_AGE_RANGE = { min: 18, max: 64 } as const;

/** Metrics every profile shows, with N/A placeholder rows when a product has no answers for them. */
export const PROFILE_REQUIRED_METRICS = ['liking', 'strength', 'purchase_intention'] as const;

/**
 * The metrics a profile draws as a time series (document 2, profile response): the mean EEG score of
 * the product per respondents' test date.
 */
export const PROFILE_TIME_SERIES_METRICS = [
  'hfd_hedonic',
  'addiction',
  'cogproc',
  'attention',
  'relaxation',
  'energizing',
] as const;

export const FRAGRANCE_PROFILE_FILE_NAME = 'fragrance_profile.xlsx';

/** Messages of the analytics calls. */
export const ANALYTICS_MESSAGES = {
  unknownMetric: (name: string) => `Unknown metric "${name}".`,
  aggregationNotOffered: (aggregation: string, metric: string) =>
    `The aggregation ${aggregation} is not offered for the metric ${metric}.`,
  noSuchJob: 'No such job.',
  unknownSort: (key: string) =>
    `Cannot sort by "${key}": choose name, c_mi_number or a column of the search.`,
  notInSearch: (ids: readonly number[]) => `Not rows of this search: ${ids.join(', ')}.`,
  missingProducts: (ids: readonly number[]) =>
    `Some chosen products are no longer available: ${ids.join(', ')}.`,
  significanceNeedsConfidence: 'You need to check at least one metric to calculate significance.',
  significanceNeedsProducts: 'Significance needs at least two products.',
  conceptFiltersAdminOnly: 'Only admins may filter on concept details.',
  notVerifiedAdminOnly: 'Only admins may search not verified studies.',
  jobFailed: 'The analysis could not be completed.',
  jobExpired: 'This result is no longer kept: run the search again.',
  jobCancelled: 'The search was cancelled.',
  missingMapping: (metric: string) => `No question is mapped to the metric ${metric}.`,
  lowBase: (metric: string, products: number, smallest: number, largest: number) =>
    products === 1
      ? `Low base on ${metric}: 1 product with ${smallest} answers (below ${LOW_BASE}).`
      : `Low base on ${metric}: ${products} products with ${smallest} to ${largest} answers (below ${LOW_BASE}).`,
  outOfScale: (count: number, question: string) =>
    `${count} answers to question ${question} are outside the question's scale.`,
  noProfileData: 'No fragrance profile data',
} as const;

const FilterValues = (description: string) =>
  z
    .array(z.string().trim().min(1, 'Filter values must not be empty').max(TEXT_MAX))
    .max(VALUES_MAX)
    .nullish()
    .meta({ description });

const Age = z.number().int().min(0).max(99).nullish();

/** Respondent demographics of an analytics search: AND across fields, OR within one. */
export const AnalyticsDemographicsFilter = z
  .strictObject({
    ethnicity: FilterValues('Ethnicities of respondents.'),
    gender: FilterValues('Genders of respondents.'),
    socialClass: FilterValues('Social classes of respondents.'),
    bumo: FilterValues('Brands used most often by respondents.'),
    startAge: Age.meta({ description: 'Youngest respondent age, inclusive.' }),
    endAge: Age.meta({ description: 'Oldest respondent age, inclusive.' }),
  })
  .refine((value) => value.startAge == null || value.endAge == null || value.startAge <= value.endAge, {
    message: 'startAge must not be after endAge',
    path: ['endAge'],
  });
export type AnalyticsDemographicsFilter = z.output<typeof AnalyticsDemographicsFilter>;

/** Best or worst N products, or N percent of them. */
export const Threshold = z
  .strictObject({
    applyThreshold: z.boolean().default(false),
    amount: z.number().positive('amount must be above 0').max(100_000).default(10),
    desc: z.boolean().default(true).meta({ description: 'true: best (highest values); false: worst.' }),
    type: z
      .enum(['fragrances', 'percentage'])
      .default('fragrances')
      .meta({ description: 'fragrances: a number of products; percentage: a percent of them.' }),
  })
  .refine((value) => value.type !== 'percentage' || value.amount <= 100, {
    message: 'A percentage threshold must not be above 100',
    path: ['amount'],
  })
  .meta({ id: 'Threshold' });
export type Threshold = z.output<typeof Threshold>;

/** One metric column of a search. */
export const MetricEntry = z
  .strictObject({
    metricType: z.string().trim().max(TEXT_MAX).nullish().meta({ description: 'Informative.' }),
    metric: z.string().trim().min(1, 'Choose a metric').max(TEXT_MAX),
    aggregation: Aggregation,
    confidence: z.boolean().default(false).meta({ description: 'Use this metric for significance.' }),
    applyThreshold: z.boolean().default(false),
    threshold: Threshold.optional(),
  })
  .meta({ id: 'MetricEntry' });
export type MetricEntry = z.output<typeof MetricEntry>;

export const AnalyticsMetricsFilter = z
  .strictObject({
    rdfType: RdfType.default('all'),
    useConcepts: z.boolean().nullish().meta({ description: 'Informative; the search type decides.' }),
    stage: z.unknown().optional(),
    order: z.unknown().optional(),
    threshold: Threshold.optional().meta({
      description: 'Applies to every metric entry without a threshold of its own.',
    }),
    metricsList: z.array(MetricEntry).min(1, 'Choose at least one metric').max(50),
  })
  .meta({ id: 'AnalyticsMetricsFilter' });

/** The analytics filters: the study filters plus demographics and metrics (document 3 section 3.1). */
export const AnalyticsQuery = z
  .strictObject({
    essentials: EssentialsFilter.prefault({}),
    fragranceDetails: FragranceDetailsFilter.prefault({}),
    conceptDetails: ConceptDetailsFilter.prefault({}),
    methodology: MethodologyFilter.prefault({}),
    demographics: AnalyticsDemographicsFilter.prefault({}),
    metrics: AnalyticsMetricsFilter,
  })
  .meta({ id: 'AnalyticsQuery' });
export type AnalyticsQuery = z.input<typeof AnalyticsQuery>;
export type ParsedAnalyticsQuery = z.output<typeof AnalyticsQuery>;

/** Demographic fields a condition may name (the profile and results-table filters). */
export const DEMOGRAPHIC_FIELDS = ['gender', 'ethnicity', 'social_class', 'bumo', 'age'] as const;

/** Equal filter (field and value) or range filter on age (from and to), document 3 section 3.1. */
export const DemographicCondition = z
  .union([
    z.strictObject({
      field: z.enum(['gender', 'ethnicity', 'social_class', 'bumo']),
      filter: z.strictObject({ type: z.literal('equal'), value: z.string().trim().min(1).max(TEXT_MAX) }),
    }),
    z.strictObject({
      field: z.literal('age'),
      filter: z
        .strictObject({
          type: z.literal('range'),
          from: z.number().int().min(0).max(99),
          to: z.number().int().min(0).max(99),
        })
        .refine((value) => value.from <= value.to, { message: 'from must not be after to', path: ['to'] }),
    }),
  ])
  .meta({ id: 'DemographicCondition' });
export type DemographicCondition = z.output<typeof DemographicCondition>;

/** A product chosen in the results list. */
export const ChosenProduct = z.object({
  id: z.number().int().positive().meta({ description: 'Result row id (the product id).' }),
  c_mi_number: z.string().nullish(),
  prod: z.string().nullish(),
  data: z.unknown().optional(),
});

/** Fields a performance search can break the rows down by. */
export const BREAKDOWN_FIELDS = {
  metadata: [
    'client',
    'category',
    'product_type',
    'product_area',
    'region',
    'country',
    'year',
    'methodology',
    'design_method',
    'research_type',
  ],
  fragrance: ['family', 'subfamily', 'specifier', 'perfumer_name', 'region', 'country'],
} as const;

/** The label of each breakdown field, as the performance tab and its download head it. */
export const BREAKDOWN_FIELD_LABELS: Record<string, string> = {
  client: 'Client',
  category: 'Category',
  product_type: 'Product',
  product_area: 'Business Unit',
  region: 'Region',
  country: 'Country',
  year: 'Year',
  methodology: 'Methodology',
  design_method: 'Design Method',
  research_type: 'Research Type',
  family: 'Family',
  subfamily: 'Subfamily',
  specifier: 'Specifier',
  perfumer_name: 'Perfumer Name',
};

export const PerformanceBreakdown = z
  .strictObject({
    category: z.enum(['metadata', 'fragrance']).meta({ description: 'Metadata Type.' }),
    field: z
      .string()
      .trim()
      .min(1)
      .max(TEXT_MAX)
      .meta({ description: 'Metadata: the field to break down by.' }),
  })
  .superRefine((value, context) => {
    const fields: readonly string[] = BREAKDOWN_FIELDS[value.category];
    if (!fields.includes(value.field))
      context.addIssue({
        code: 'custom',
        message: `Cannot break down by ${value.category}.${value.field}; choose one of ${fields.join(', ')}`,
        path: ['field'],
      });
  })
  .meta({ id: 'PerformanceBreakdown' });
export type PerformanceBreakdown = z.output<typeof PerformanceBreakdown>;

/** POST /analytics/fragrances. */
export const MetricSearchRequest = z
  .strictObject({
    q: AnalyticsQuery,
    type: z
      .enum(['fragrances', 'concepts'])
      .default('fragrances')
      .meta({ description: 'What the rows are: fragrances or concepts.' }),
    demographics_fragrances: z
      .array(DemographicCondition)
      .max(20)
      .default([])
      .meta({ description: 'Demographic conditions of the results-table filter (AND).' }),
    fragrances: z
      .array(ChosenProduct)
      .max(50_000)
      .nullish()
      .meta({ description: 'Limit the rows to these products (the selected fragrances).' }),
    data: PerformanceBreakdown.nullish().meta({
      description: 'Performance search: also pool the rows by this study (metadata) or fragrance field.',
    }),
  })
  .meta({ id: 'MetricSearchRequest' });
export type MetricSearchRequest = z.input<typeof MetricSearchRequest>;
export type ParsedMetricSearchRequest = z.output<typeof MetricSearchRequest>;

export const NoCacheQuery = z.object({
  no_cache: z
    .union([z.literal('true'), z.literal('1'), z.literal(''), z.literal('false'), z.literal('0')])
    .optional()
    .transform((value) => value === 'true' || value === '1' || value === '')
    .meta({ description: 'Compute afresh instead of answering from the cache.' }),
});

export const JobIdParam = z.object({ jobId: z.string().uuid('Not a job id') });

/** Answer of POST /analytics/fragrances. */
export const QueuedJob = z.object({ jobid: z.string() }).meta({ id: 'QueuedJob' });
/** Answer of POST /analytics/significance. */
export const QueuedSignificanceJob = z.object({ job_id: z.string() }).meta({ id: 'QueuedSignificanceJob' });

export const JOB_STATES = ['PENDING', 'STARTED', 'SUCCESS', 'FAILURE', 'REVOKED'] as const;

/**
 * Answer of DELETE /analytics/fragrances/{jobId} and /analytics/top-attributes/{jobId}: the job's
 * state after the cancel (REVOKED, or the state it had already ended in).
 */
export const CancelledJob = z
  .object({
    status: z.enum(JOB_STATES),
    progress: z.number().int().min(0).max(100),
  })
  .meta({ id: 'CancelledJob' });
export type CancelledJob = z.infer<typeof CancelledJob>;

/** One result row: a fragrance or a concept with its values per `metric.aggregation`. */
export const MetricResultRow = z
  .object({
    id: z.number().int().meta({ description: 'Product id.' }),
    study_id: z.number().int(),
    c_mi_number: z.string(),
    category: z.string().nullable(),
    product: z.string().nullable().meta({ description: 'Product type of the study.' }),
    name: z.string().nullable().meta({ description: 'Fragrance or concept name.' }),
    prod: z.string().meta({ description: 'Product code.' }),
    sap_code: z
      .string()
      .optional()
      .meta({ description: "A fragrance's 6-digit (SAP) code (its page of every test), when it has one." }),
    kind: z.enum(['fragrance', 'concept']),
    values: z.record(z.string(), z.number().nullable()).meta({
      description: '"metric.aggregation": a mean or VAR, or a box share in [0, 1]; null: no answers.',
    }),
    bases: z
      .record(z.string(), z.number().int())
      .meta({ description: '"metric.aggregation": answers counted.' }),
    low_base: z.array(z.string()).meta({ description: 'Keys whose base is below 30.' }),
  })
  .meta({ id: 'MetricResultRow' });
export type MetricResultRow = z.infer<typeof MetricResultRow>;

/** Pooled aggregates of a metric over every row. Keys with a dot hold counts. */
export const MetricSummary = z.record(z.string(), z.number().nullable()).meta({ id: 'MetricSummary' });

export const DiagnosticEntry = z.object({
  level: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  file: z.string().nullable().meta({ description: 'Results file concerned, if any.' }),
});

export const Diagnostics = z
  .object({
    studies_found: z.number().int(),
    studies_with_anomalies: z.number().int(),
    studies: z.array(
      z.object({
        study_id: z.number().int(),
        c_mi_number: z.string(),
        errors: z.number().int(),
        warnings: z.number().int(),
        infos: z.number().int(),
        details: z.array(DiagnosticEntry),
      }),
    ),
  })
  .meta({ id: 'Diagnostics' });
export type Diagnostics = z.infer<typeof Diagnostics>;

export const MetricColumn = z.object({
  metric: z.string(),
  label: z.string(),
  metric_type: z.string(),
  aggregation: Aggregation,
  aggregation_label: z.string(),
  confidence: z.boolean(),
  key: z.string().meta({ description: '"metric.aggregation"' }),
  yes_no: z.boolean().optional().meta({
    description:
      'A yes/no (CATA) metric: its values, summary and performance breakdown are shares (% selected for the mean and top boxes, % not selected for a bottom box; no value for the variance or neutral share), never a mean or a box; its aggregation_label says which share, and significance tests that share.',
  }),
});

export const MetricSearchResult = z
  .object({
    type: z.enum(['fragrances', 'concepts']),
    columns: z.array(MetricColumn),
    results: z.array(MetricResultRow),
    summary: z.record(z.string(), MetricSummary),
    diagnostics: Diagnostics,
    filtered: z.boolean().meta({ description: 'Whether respondent filters applied.' }),
    performance: z
      .array(
        z.object({
          category: z.object({ name: z.string(), value: z.string() }),
          metrics: z.array(z.object({ name: z.string(), value: z.number().nullable() })),
          fragrances: z.number().int(),
          n: z.record(z.string(), z.number().int()),
        }),
      )
      .optional()
      .meta({
        description:
          'Performance search: per value of the breakdown field, each metric.aggregation pooled over its rows (No tag: no value).',
      }),
  })
  .meta({ id: 'MetricSearchResult' });
export type MetricSearchResult = z.infer<typeof MetricSearchResult>;

const jobStatus = <T extends z.ZodType>(result: T, id: string) =>
  z
    .object({
      status: z.enum(JOB_STATES),
      progress: z.number().int().min(0).max(100),
      result: result.nullable(),
      error: z.string().nullable(),
    })
    .meta({ id });

/** GET /analytics/fragrances/{jobId}: the result travels in result.json. */
export const MetricSearchStatus = jobStatus(z.object({ json: MetricSearchResult }), 'MetricSearchStatus');
export type MetricSearchStatus = z.infer<typeof MetricSearchStatus>;

/** POST /analytics/significance. */
export const SignificanceRequest = z
  .strictObject({
    data: z
      .array(ChosenProduct)
      .max(50_000)
      .default([])
      .meta({ description: 'The products compared (at least two), unless search_job names them.' }),
    search_job: z.string().uuid('Not a job id').optional().meta({
      description:
        'A finished metric search of yours: its selected rows are compared (every row when none is selected), instead of data.',
    }),
    calculation: z.enum(['avg', 'rest']),
    correction: SignificanceCorrection.default('benjamini_hochberg').meta({
      description:
        'Multiplicity correction across every test of this calculation (products × metrics): Benjamini-Hochberg (default) or none.',
    }),
    metrics: z
      .array(
        z.strictObject({
          field: z.string().trim().min(1).max(TEXT_MAX),
          aggregation: Aggregation,
          confidence: z.boolean(),
        }),
      )
      .min(1)
      .max(50)
      .refine((list) => list.some((entry) => entry.confidence), {
        message: 'You need to check at least one metric to calculate significance.',
      }),
    demographics: AnalyticsDemographicsFilter.prefault({}),
    demographics_fragrances: z.array(DemographicCondition).max(20).default([]),
  })
  .superRefine((value, context) => {
    if (value.search_job !== undefined && value.data.length > 0)
      context.addIssue({ code: 'custom', message: 'Give either data or search_job.', path: ['data'] });
    else if (value.search_job === undefined && value.data.length < 2)
      context.addIssue({
        code: 'custom',
        message: ANALYTICS_MESSAGES.significanceNeedsProducts,
        path: ['data'],
      });
  })
  .meta({ id: 'SignificanceRequest' });
export type SignificanceRequest = z.input<typeof SignificanceRequest>;
export type ParsedSignificanceRequest = z.output<typeof SignificanceRequest>;

/** The fields a mark adds to the spec's level and table: its test, base and p-values (METRICS.md 2). */
export const SignificanceMarkDetail = {
  test: z.string().meta({
    description:
      'cluster-two-sample (rest) or cluster-contrast-avg (avg); for a yes/no (CATA) column cluster-two-sample-share or cluster-contrast-avg-share: the test of its share % selected.',
  }),
  p_value: z.number().nullable().meta({ description: 'Two-sided p-value; null: not tested.' }),
  n: z.number().int().meta({ description: "The product's answers under the respondent filters." }),
  adjusted_p_value: z.number().nullable().optional().meta({
    description: 'The p-value after the correction, which the level reads; null: not tested.',
  }),
  correction: SignificanceCorrection.optional(),
  not_tested: z
    .string()
    .nullable()
    .optional()
    .meta({
      description: `Why there is no test: "${SIGNIFICANCE_NOT_TESTED.lowBase}" under ${LOW_BASE} answers, or "${SIGNIFICANCE_NOT_TESTED.noVariance}"; null: tested.`,
    }),
};

export const SignificanceMark = z.object({
  level: z.number().nullable().meta({ description: '0.01, 0.05 or 0.1; null: not significant.' }),
  table: z.enum(['mt', 'let']).nullable().meta({ description: 'mt: higher; let: lower.' }),
  ...SignificanceMarkDetail,
});

/** Per product: id, and per "metric.aggregation.confidence" key its mark. */
export const SignificanceRow = z
  .object({ id: z.number().int() })
  .catchall(SignificanceMark)
  .meta({ id: 'SignificanceRow' });

export const SignificanceStatus = jobStatus(
  z.object({
    calculation: z.enum(['avg', 'rest']),
    correction: SignificanceCorrection.optional().meta({ description: 'The correction the levels read.' }),
    results: z.array(SignificanceRow),
  }),
  'SignificanceStatus',
);
export type SignificanceStatus = z.infer<typeof SignificanceStatus>;

/** A metric option: its type, its label (name) and its server name (field). */
export const AnalyticsMetricOption = z.object({
  type: z.string(),
  name: z.string(),
  field: z.string(),
  kind: z.string(),
  aggregations: z.array(Aggregation),
  count: z.number().int().meta({ description: 'Studies in scope with answers mapped to it.' }),
});

export const AggregationGroup = z.object({
  category: z.string(),
  label: z.string(),
  options: z.array(z.object({ field: Aggregation, label: z.string() })),
});

/** GET /analytics/options. */
export const AnalyticsOptionsResponse = z
  .object({
    data: z.object({
      fields: z.object({
        demographics: z.array(FieldDefinition),
        metrics: z.array(AnalyticsMetricOption),
        aggregation_metadata: z.array(AggregationGroup),
        metrics_range: z.object({ age: z.object({ min: z.number().int(), max: z.number().int() }) }),
        metadata: z.object({ year: z.object({ min: z.number().int(), max: z.number().int() }) }),
      }),
    }),
  })
  .meta({ id: 'AnalyticsOptionsResponse' });
export type AnalyticsOptionsResponse = z.infer<typeof AnalyticsOptionsResponse>;

/** POST /smartsearch/dropdown_options_analytics. */
export const AnalyticsDropdownRequest = z
  .strictObject({
    query: z
      .strictObject({
        essentials: EssentialsFilter.prefault({}),
        fragranceDetails: FragranceDetailsFilter.prefault({}),
        conceptDetails: ConceptDetailsFilter.prefault({}),
        methodology: MethodologyFilter.prefault({}),
        demographics: AnalyticsDemographicsFilter.optional(),
        metrics: z.unknown().optional(),
      })
      .prefault({}),
    query_metrics: z
      .array(MetricEntry.partial({ aggregation: true }))
      .max(50)
      .default([]),
    rdf_type: RdfType.default('all'),
    irt_implict: z.boolean().default(false).meta({ description: 'Implicit (IRT) metrics only.' }),
  })
  .meta({ id: 'AnalyticsDropdownRequest' });
export type AnalyticsDropdownRequest = z.input<typeof AnalyticsDropdownRequest>;

export const AnalyticsDropdownResponse = z
  .object({
    data: z.object({
      fields: DropdownOptionsResponse.shape.data.shape.fields.extend({
        metrics: z.array(AnalyticsMetricOption),
      }),
      dependencies: DropdownOptionsResponse.shape.data.shape.dependencies,
    }),
  })
  .meta({ id: 'AnalyticsDropdownResponse' });
export type AnalyticsDropdownResponse = z.infer<typeof AnalyticsDropdownResponse>;

/** Filters a profile offers (the bumo category is hidden). */
export const PROFILE_FILTERS = ['gender', 'ethnicity', 'social_class', 'age'] as const;

/**
 * GET /study/{id}/demographic-options: the profile filter's values, from the study's own respondents
 * (a value no respondent of the study has would only lead to 'No data found').
 */
export const ProfileDemographicOptions = z
  .object({
    demographics: z.array(FieldDefinition).meta({
      description:
        "The profile filter's categories (gender, ethnicity, social_class, age); each value one the study's respondents have (count: its respondents).",
    }),
    age: z.object({ min: z.number().int(), max: z.number().int() }).meta({
      description: "The ages of the study's respondents (the analytics age range when none is known).",
    }),
  })
  .meta({ id: 'ProfileDemographicOptions' });
export type ProfileDemographicOptions = z.infer<typeof ProfileDemographicOptions>;

/** POST /study/{id}/fragrance/{code}, /concept/{code} and the xlsx variant. */
export const ProfileRequest = z
  .strictObject({
    demographics: z
      .array(DemographicCondition)
      .max(20)
      .default([])
      .meta({ description: 'Respondent conditions, all applied (AND).' }),
  })
  .meta({ id: 'ProfileRequest' });
export type ProfileRequest = z.input<typeof ProfileRequest>;

export const ProfileParams = z.object({
  id: numeric(z.number().int().positive()),
  code: z.string().trim().min(1).max(TEXT_MAX),
});

const ProfileValue = z
  .union([z.number(), z.literal('N/A')])
  .nullable()
  .meta({ description: 'A mean or a share in [0, 1]; null: none for this scale; N/A: placeholder row.' });

export const ProfileRow = z
  .object({
    metric: z.string(),
    metric_name: z.string(),
    metric_type: z.string(),
    mean: ProfileValue,
    top_box: ProfileValue,
    top_2_box: ProfileValue,
    just_right: ProfileValue,
    bottom_box: ProfileValue,
    bottom_2_box: ProfileValue,
    selected: z.number().nullable().meta({
      description:
        'Yes/no (CATA) rows: the share of answers selecting it (% selected), their only number (mean and boxes null); null on other rows.',
    }),
    is_binary_scale: z.boolean(),
    n: z.number().int().meta({ description: 'Answers counted (0 for a placeholder row).' }),
  })
  .meta({ id: 'ProfileRow' });
export type ProfileRow = z.infer<typeof ProfileRow>;

export const ProfileResponse = z
  .object({
    result: z.array(ProfileRow).meta({
      description:
        'Performance rows first (liking, purchase_intention, strength), then attributes, EEG and implicit metrics. Missing liking, strength or purchase_intention rows are N/A placeholders; empty when no respondent meets the filters.',
    }),
    info: z.object({
      product_id: z
        .number()
        .int()
        .meta({ description: 'Id of the fragrance or concept as a product (what POST /trace takes).' }),
      project_name: z.string(),
      client: z.string(),
      name: z.string().nullable(),
      code: z.string().nullable().meta({ description: 'SAP code of a fragrance.' }),
      c_mi_number: z.string(),
      prod: z.string().meta({ description: 'Product code of the fragrance or concept.' }),
      ref_number: z.string().nullable(),
      concept_code: z.string().nullable(),
      category: z.string().nullable(),
      product: z.string().nullable(),
    }),
    filters: z.array(z.enum(PROFILE_FILTERS)),
    time_series: z.record(z.string(), z.record(z.string(), z.number())).meta({
      description:
        'EEG metric to test date (yyyy-mm-dd) to the mean score of the answers of respondents tested that day; empty when the study stored no test dates.',
    }),
  })
  .meta({ id: 'ProfileResponse' });
export type ProfileResponse = z.infer<typeof ProfileResponse>;

/** Fragrance fields the tendencies can count by (perfume_characteristics.<field>). */
export const TENDENCY_FIELDS = [
  'family',
  'subfamily',
  'specifier',
  'perfumer_name',
  'region',
  'country',
  'methodology',
  'dominant_note',
] as const;

/** Label of fragrances without a value for the counted field. */
export const NO_TAG = 'No tag';
export const TENDENCIES_FILE_NAME = 'fragrance_tendencies.xlsx';

/** Study filters of the analytics side calls that need no metric list; rdfType picks the kind of study. */
export const AnalyticsStudyQuery = z
  .strictObject({
    essentials: EssentialsFilter.prefault({}),
    fragranceDetails: FragranceDetailsFilter.prefault({}),
    conceptDetails: ConceptDetailsFilter.prefault({}),
    methodology: MethodologyFilter.prefault({}),
    demographics: AnalyticsDemographicsFilter.optional().meta({
      description:
        'Respondent filters of the top attributes; the tendencies count fragrances and ignore them.',
    }),
    metrics: z
      .object({ rdfType: RdfType.default('all') })
      .loose()
      .optional()
      .meta({ description: 'Only rdfType is used: the kind of studies counted.' }),
  })
  .prefault({});

/** POST /analytics/tendencies (and its xlsx variant). */
export const TendenciesRequest = z
  .strictObject({
    q: AnalyticsStudyQuery,
    data: z.strictObject({
      return: z.enum(['percentage', 'count']).default('percentage'),
      groupby: z
        .string()
        .regex(
          new RegExp(`^perfume_characteristics\\.(${TENDENCY_FIELDS.join('|')})$`),
          `groupby must be perfume_characteristics.<${TENDENCY_FIELDS.join(' | ')}>`,
        ),
      count: z
        .number()
        .int()
        .min(1)
        .max(1000)
        .nullish()
        .meta({ description: 'Keep the most frequent values only.' }),
    }),
    frags: z.array(ChosenProduct).max(50_000).nullish().meta({ description: 'Count these fragrances only.' }),
  })
  .meta({ id: 'TendenciesRequest' });
export type TendenciesRequest = z.input<typeof TendenciesRequest>;

export const TendenciesResponse = z
  .object({
    table_data: z.array(z.object({ name: z.string(), count: z.number().int(), percentage: z.number() })),
    chart_data: z.object({ labels: z.array(z.string()), data: z.array(z.number()) }),
    total: z.number().int().meta({ description: 'Fragrances counted.' }),
  })
  .meta({ id: 'TendenciesResponse' });
export type TendenciesResponse = z.infer<typeof TendenciesResponse>;

/** Aggregations the top attributes can rank by. */
export const ATTRIBUTE_AGGREGATIONS = ['top_2_box', 'top_box', 'mean', 'bottom_2_box', 'bottom_box'] as const;
export const ATTRIBUTE_TYPES = ['all', 'hedonic', 'binary'] as const;
export const ATTRIBUTES_FILE_NAME = 'fragrance_attributes.xlsx';

/** POST /analytics/top-attributes. */
export const TopAttributesRequest = z
  .strictObject({
    q: AnalyticsStudyQuery,
    demographics: z.array(DemographicCondition).max(20).default([]),
    frags: z.array(ChosenProduct).max(50_000).nullish().meta({ description: 'Pool these fragrances only.' }),
    responses: z.unknown().optional().meta({ description: 'Accepted and not used.' }),
    metrics: z.unknown().optional().meta({ description: 'Accepted and not used.' }),
    data: z
      .strictObject({
        order: z.enum(['best', 'worst']).default('best'),
        count: z.number().int().min(1).max(1000).default(10).meta({ description: 'Attributes #.' }),
        attribute_type: z
          .enum(ATTRIBUTE_TYPES)
          .default('all')
          .meta({ description: 'hedonic: agreement scales; binary: check-all-that-apply words.' }),
        aggregation: z.enum(ATTRIBUTE_AGGREGATIONS).default('top_2_box'),
      })
      .prefault({}),
  })
  .meta({ id: 'TopAttributesRequest' });
export type TopAttributesRequest = z.input<typeof TopAttributesRequest>;

/** How a yes/no (CATA) share is named on every screen and file (METRICS.md section 3). */
export const YES_NO_SHARE_LABEL = '% selected';

export const AttributeRow = z
  .object({
    attribute: z.string(),
    field: z.string(),
    top_2_box: z.number().nullable().meta({ description: 'Scale attributes; null for yes/no ones.' }),
    bottom_2_box: z.number().nullable(),
    mean: z.number().nullable().meta({ description: 'Scale attributes; a yes/no attribute has no mean.' }),
    top_box: z.number().nullable(),
    bottom_box: z.number().nullable(),
    selected: z.number().nullable().meta({
      description:
        'Yes/no (CATA) attributes: the share of answers selecting it (% selected); null for scale ones.',
    }),
    is_binary_scale: z.boolean(),
    n: z.number().int(),
  })
  .meta({ id: 'AttributeRow' });

export const TopAttributesStatus = z
  .object({
    status: z.enum(JOB_STATES),
    progress: z.number().int().min(0).max(100),
    result: z
      .object({ json: z.object({ attributes: z.array(AttributeRow), fragrances: z.number().int() }) })
      .nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'TopAttributesStatus' });
export type TopAttributesStatus = z.infer<typeof TopAttributesStatus>;

/** Spreadsheet filters of the metrics download ('Filter results'). */
export const XLSX_FILTERS = [
  { value: 'bases', label: 'Show bases (n)' },
  { value: 'hide_low_base', label: 'Hide rows with a low base' },
  { value: 'hide_empty', label: 'Hide rows without answers' },
] as const;
export const DEFAULT_XLSX_FILTERS = ['bases'] as const;
export const METRICS_FILE_NAME = 'fragrance_metrics.xlsx';
export const PERFORMANCE_FILE_NAME = 'fragrance_performance.xlsx';

/** GET /analytics/performance/xlsx/{jobId}: the order of the rows, as the performance table shows them. */
export const PerformanceXlsxQuery = z.object({
  sort: z
    .string()
    .trim()
    .min(1)
    .max(TEXT_MAX)
    .default('category')
    .meta({ description: "'category' (the breakdown value), 'fragrances' (the count) or a metric key." }),
  desc: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true')
    .meta({ description: 'Largest first (the default).' }),
});

export const XlsxFiltersResponse = z
  .object({
    xlsxFilters: z.array(z.object({ value: z.string(), label: z.string() })),
    chosenXlsxFilters: z.array(z.string()),
  })
  .meta({ id: 'XlsxFiltersResponse' });

export const XlsxFiltersQuery = z.object({
  filters: z
    .string()
    .max(500)
    .optional()
    .transform((text, context) => {
      if (text === undefined) return [...DEFAULT_XLSX_FILTERS] as string[];
      const chosen = text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      const known: readonly string[] = XLSX_FILTERS.map((filter) => filter.value);
      const unknown = chosen.filter((part) => !known.includes(part));
      if (unknown.length > 0)
        context.addIssue({ code: 'custom', message: `Unknown spreadsheet filter: ${unknown.join(', ')}` });
      return chosen;
    })
    .meta({ description: 'Comma-separated spreadsheet filters (default: bases).' }),
  significance: z.string().uuid('Not a significance job id').optional().meta({
    description:
      'A finished significance job of yours on the very list of this search: its marks are written beside the numbers they qualify, with a legend.',
  }),
});

/** Headings of the fragrance fields the tendencies count by (the first column of their table). */
export const TENDENCY_FIELD_LABELS: Record<(typeof TENDENCY_FIELDS)[number], string> = {
  family: 'Family',
  subfamily: 'Subfamily',
  specifier: 'Specifier',
  dominant_note: 'Dominant Note',
  perfumer_name: 'Perfumer Name',
  methodology: 'Methodology',
  region: 'Region',
  country: 'Country',
};
