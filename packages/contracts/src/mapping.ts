/**
 * Question mapping (document 2 sections 2 to 7): the questions of a study's results files, the metric
 * each one is mapped to, a suggested metric, and the validation state.
 *
 * Calls (all under /api, signed in):
 * - GET /study/metrics/                 MetricsCatalogueResponse (every metric a question can map to)
 * - GET /study/metrics/{studyId}        StudyMetricsResponse (metrics in use, product codes, code column)
 * - GET /study/{id}/questions/          StudyQuestionsResponse (questions grouped by file)
 * - PUT /study/{id}/question/           MappingUpdateRequest -> MappingUpdateResponse
 *                                       (admins and analytics users)
 */
import { z } from 'zod';
import { numeric } from './common.ts';
import { TEXT_LIMITS } from './constants.ts';

// ---------------------------------------------------------------- constants and messages

/** Questions per page of one file section (document 2 section 9). */
export const MAPPING_PAGE_SIZE = 25;
/** Value names a categorical domain shows before '...' (document 2 section 9). */
export const MAPPING_CATEGORICAL_PREVIEW = 2;
/** The question list shows its spinner for at least this long (document 2 section 9). */
export const MAPPING_SPINNER_MS = 300;

export const MAPPING_MESSAGES = {
  studyNotFound: (id: number) => `Study ${id} does not exist.`,
  unknownQuestion: (id: number) => `Question ${id} is not a question of this study.`,
  unknownMetric: (name: string) => `Unknown metric "${name}".`,
  unknownFile: (filename: string) => `"${filename}" is not a results file of this study.`,
  metricUsedInFile: (label: string, qid: string, filename: string) =>
    `${label} is already mapped to question ${qid} of ${filename}. A metric can be used once per file.`,
  validatedMetricLocked:
    'This question is validated, so its metric cannot change. Remove the validation first.',
  validateWithoutMetric: 'Choose a metric before validating the question.',
  valueOnlyForConstants: 'Only constant questions have a value to edit.',
  nothingToChange: 'Send a metric, a value or metric_validated to change.',
  textRequired: 'Enter the substance of the question.',
  filenameRequired: 'Name the results file the question belongs to.',
  saved: 'Mapping saved.',
  added: 'Question added.',
} as const;

// ---------------------------------------------------------------- metrics

export const METRIC_TYPES = ['Performance', 'Attribute', 'EEG', 'Implicit'] as const;
export const METRIC_KINDS = ['hedonic', 'jar', 'binary', 'eeg', 'implicit'] as const;

/** A metric as a question refers to it: its name (the key) and label. */
export const MetricRef = z
  .object({
    name: z.string().meta({ description: 'Metric key, e.g. liking.' }),
    label: z.string().meta({ description: 'Display name, e.g. Overall Liking.' }),
  })
  .meta({ id: 'MetricRef' });
export type MetricRef = z.infer<typeof MetricRef>;

/** A metric of the catalogue. */
export const MetricOption = MetricRef.extend({
  metric_type: z.enum(METRIC_TYPES).meta({ description: 'Performance, Attribute, EEG or Implicit.' }),
  kind: z.enum(METRIC_KINDS).meta({
    description: 'How answers are read: hedonic scale, JAR (strength), binary (CATA), EEG score, implicit.',
  }),
}).meta({ id: 'MetricOption' });
export type MetricOption = z.infer<typeof MetricOption>;

export const MetricsCatalogueResponse = z.array(MetricOption).meta({ id: 'MetricsCatalogueResponse' });
export type MetricsCatalogueResponse = z.infer<typeof MetricsCatalogueResponse>;

/** An option of the statistics wizard's lists (document 3 section 3.5): label and value. */
export const LabelValueOption = z.object({ label: z.string(), value: z.string() });

/** Where a study uses a metric. */
export const MetricUse = z.object({
  filename: z.string(),
  qid: z.string(),
  question_id: z.number().int(),
  validated: z.boolean(),
});

export const StudyMetricsResponse = z
  .object({
    metrics: z
      .array(
        LabelValueOption.extend({
          metric_type: z.enum(METRIC_TYPES),
          used_in: z.array(MetricUse).meta({ description: 'Questions of the study mapped to the metric.' }),
        }),
      )
      .meta({ description: 'Metrics the study has questions mapped to (value: metric name).' }),
    product_codes: z
      .array(LabelValueOption)
      .meta({ description: 'Products of the study (value: product code, label: code and name).' }),
    product_code_columns: z
      .array(LabelValueOption)
      .meta({ description: 'Columns of the study data that hold product codes.' }),
  })
  .meta({ id: 'StudyMetricsResponse' });
export type StudyMetricsResponse = z.infer<typeof StudyMetricsResponse>;

export const StudyIdParam = z.object({ studyId: numeric(z.number().int().positive()) });

// ---------------------------------------------------------------- questions

export const DOMAIN_TYPES = ['numerical', 'categorical', 'constant'] as const;
export type DomainType = (typeof DOMAIN_TYPES)[number];

export const DomainValue = z.object({ name: z.string(), value: z.number() });

export const QuestionDomain = z
  .object({
    type: z.enum(DOMAIN_TYPES),
    min: z.number().nullable().meta({ description: 'Lowest scale value (numerical).' }),
    max: z.number().nullable().meta({ description: 'Highest scale value (numerical).' }),
    values: z.array(DomainValue).meta({ description: 'Answer labels of the scale.' }),
    value: z.string().nullable().meta({ description: 'The value of a constant question.' }),
  })
  .meta({ id: 'QuestionDomain' });
export type QuestionDomain = z.infer<typeof QuestionDomain>;

export const QUESTION_TYPES = [
  'numerical',
  'categorical',
  'constant',
  'binary',
  'jar',
  'eeg',
  'implicit',
] as const;

export const SUGGESTION_CONFIDENCES = ['high', 'medium'] as const;
export type SuggestionConfidence = (typeof SUGGESTION_CONFIDENCES)[number];

/** Where a word of the metric's lexicon comes from. */
export const SUGGESTION_WORD_SOURCES = ['catalogue', 'wordnet-synonym', 'wordnet-related'] as const;

/** One reason for a suggested metric. */
export const SuggestionReason = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('words'),
      weight: z.number().min(0).max(1).meta({ description: 'How strongly the words point to the metric.' }),
      words: z.array(z.string()).meta({ description: "The question's words that matched, as written." }),
      term: z.string().meta({ description: "The metric's word or phrase they matched." }),
      source: z.enum(SUGGESTION_WORD_SOURCES).meta({
        description:
          "catalogue: one of the metric's own words or questionnaire phrases; wordnet-synonym: a WordNet synonym of one; wordnet-related: a similar or derived word in WordNet.",
      }),
      via: z.string().nullable().meta({ description: 'The metric word WordNet relates the term to.' }),
    }),
    z.object({
      kind: z.literal('example'),
      weight: z
        .number()
        .min(0)
        .max(1)
        .meta({ description: 'Text similarity to the validated question (0 to 1).' }),
      text: z
        .string()
        .meta({ description: 'The most similar question validated to this metric in the library.' }),
      count: z
        .number()
        .int()
        .meta({ description: 'How many validated questions of the library have that text.' }),
    }),
    z.object({
      kind: z.literal('scale'),
      weight: z.number().min(0).max(1),
      labels: z.array(z.string()).meta({ description: 'Answer labels that name the metric.' }),
    }),
  ])
  .meta({ id: 'SuggestionReason' });
export type SuggestionReason = z.infer<typeof SuggestionReason>;

/** Why a metric is suggested and how sure the suggestion is. */
export const SuggestionDetail = z
  .object({
    confidence: z.enum(SUGGESTION_CONFIDENCES).meta({
      description:
        'high: strong evidence well ahead of any other metric; medium: clear enough to suggest, worth a look. Unclear questions get no suggestion.',
    }),
    score: z
      .number()
      .min(0)
      .max(1)
      .meta({ description: 'Strength of the evidence for the metric (0 to 1).' }),
    reasons: z.array(SuggestionReason).meta({ description: 'The evidence, strongest first.' }),
  })
  .meta({ id: 'SuggestionDetail' });
export type SuggestionDetail = z.infer<typeof SuggestionDetail>;

export const MappingQuestion = z
  .object({
    id: z.number().int(),
    qid: z.string().meta({ description: 'Question id in the results file, e.g. Q3.' }),
    text: z.string(),
    question_type: z.enum(QUESTION_TYPES),
    domain: QuestionDomain,
    metric: MetricRef.nullable(),
    suggested_metric: MetricRef.nullable().meta({
      description:
        "Metric suggested from the question's words, its scale and similar validated questions of the library; null when no metric is clearly right.",
    }),
    suggestion: SuggestionDetail.nullable().meta({
      description: 'Why suggested_metric is suggested and how sure; null with it.',
    }),
    metric_validated: z.boolean(),
    results_id: z.number().int().nullable().meta({ description: 'Id of the results file.' }),
    filename: z.string(),
    path: z.string(),
  })
  .meta({ id: 'MappingQuestion' });
export type MappingQuestion = z.infer<typeof MappingQuestion>;

export const MappingFile = z.object({
  filename: z.string(),
  path: z.string(),
  results_id: z.number().int().nullable(),
  questions: z.array(MappingQuestion),
});
export type MappingFile = z.infer<typeof MappingFile>;

export const StudyQuestionsResponse = z
  .object({
    study_id: z.number().int(),
    c_mi_number: z.string(),
    project_name: z.string(),
    files: z.array(MappingFile).meta({ description: 'One entry per results file, by file name.' }),
  })
  .meta({ id: 'StudyQuestionsResponse' });
export type StudyQuestionsResponse = z.infer<typeof StudyQuestionsResponse>;

// ---------------------------------------------------------------- update

const MetricField = z
  .union([z.string().trim().min(1).max(100), MetricRef.loose(), z.null()])
  .meta({ description: 'Metric name (or the question metric object); null unmaps the question.' });

/**
 * q_upd of PUT /study/{id}/question/ (document 2 section 7, mapping update payloads):
 * - metric change: id and metric;
 * - constant value: id and value;
 * - validation: the full question plus metric_validated;
 * - new question: text, min null, max null, value, metric, attribute '', results_id, filename, path.
 */
export const MappingQuestionUpdate = z
  .looseObject({
    id: z.number().int().positive().optional().meta({ description: 'The question; absent for a new one.' }),
    metric: MetricField.optional(),
    value: z
      .string()
      .trim()
      .max(TEXT_LIMITS.constantValue)
      .nullable()
      .optional()
      .meta({ description: 'Constant value.' }),
    metric_validated: z.boolean().optional(),
    text: z
      .string()
      .trim()
      .max(TEXT_LIMITS.questionText)
      .optional()
      .meta({ description: 'Substance of a new question.' }),
    min: z.number().nullable().optional(),
    max: z.number().nullable().optional(),
    attribute: z.string().max(200).optional(),
    results_id: z.number().int().nullable().optional(),
    filename: z.string().trim().max(500).optional(),
    path: z.string().max(1000).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.id === undefined) {
      if (!q.text) ctx.addIssue({ code: 'custom', path: ['text'], message: MAPPING_MESSAGES.textRequired });
      if (!q.filename)
        ctx.addIssue({ code: 'custom', path: ['filename'], message: MAPPING_MESSAGES.filenameRequired });
    } else if (q.metric === undefined && q.value === undefined && q.metric_validated === undefined) {
      ctx.addIssue({ code: 'custom', path: [], message: MAPPING_MESSAGES.nothingToChange });
    }
  });
export type MappingQuestionUpdate = z.infer<typeof MappingQuestionUpdate>;

export const MappingUpdateRequest = z
  .object({ q_upd: MappingQuestionUpdate })
  .meta({ id: 'MappingUpdateRequest' });
export type MappingUpdateRequest = z.infer<typeof MappingUpdateRequest>;

export const MappingUpdateResponse = z
  .object({ message: z.string(), question: MappingQuestion })
  .meta({ id: 'MappingUpdateResponse' });
export type MappingUpdateResponse = z.infer<typeof MappingUpdateResponse>;

/** The name of a metric sent as a name or as the question's metric object. */
export function metricNameOf(
  metric: string | { name: string } | null | undefined,
): string | null | undefined {
  if (metric === undefined || metric === null) return metric;
  return typeof metric === 'string' ? metric : metric.name;
}
