/**
 * CICS question search (document 2 sections 2, 3, 5 and 7, "CICS"): find survey questions across the
 * library by their text and read the answer statistics of one question, filtered by geography, gender
 * and age. The screen is offered to admins and users with analytics access (document 1 section 6);
 * the calls answer any signed-in user, limited to the studies of the caller's clients for client and
 * sales users. Calls (all under /api):
 * - POST /cics/search_bar/               CicsSearchRequest -> CicsSearchResponse
 * - POST /cics/inspect_question/{id}/    CicsInspectRequest -> CicsQuestionStatistics
 * - GET  /cics/options                   CicsOptionsResponse
 * Saved CICS searches use the saved-searches calls with search_type 'cics' and CicsFilters as JSON.
 *
 * Matching and ranking of search_bar:
 * - Full text on the stored English document of each question text (GIN index; stemmed, stop words
 *   ignored): a phrase must appear as those words in that order, a word anywhere in the text.
 * - A word that no question of the library holds (a misspelling, e.g. 'fragrence') is matched by
 *   spelling instead: it is first resolved to the library's own words (the distinct words of the
 *   question texts, kept current as questions are added or edited) with pg_trgm word similarity of
 *   at least 0.6, stop words left out; a question matches when its text holds one of those words and
 *   the misspelling has word similarity of at least 0.6 with part of its text. Phrases are never
 *   matched by spelling: quoting asks for exactly those words.
 * - Every term must match.
 * - score = ts_rank_cd(text, any full-text term) + 0.5 · mean over the terms of (1 for a full-text
 *   term, the word similarity for a spelling match); higher first, rounded to 4 decimals. Ties: newest
 *   study first, then the question order within the study.
 */
import { z } from 'zod';
import { numeric } from './common.ts';
import { TEXT_LIMITS } from './constants.ts';

// ---------------------------------------------------------------- constants and messages

/** Geography kinds of the filter: the respondent's country, the study's regions, the respondent's region. */
export const CICS_GEO_TYPES = ['Country', 'Region', 'Region_new'] as const;
export type CicsGeoType = (typeof CICS_GEO_TYPES)[number];

/** Age slider of the CICS (and study) screens: 0 to 99, marks every 5 (document 2 sections 5 and 9). */
export const CICS_AGE = { min: 0, max: 99, markStep: 5 } as const;

export const CICS_MESSAGES = {
  title: 'CICS Search',
  subtitle: 'What are you looking for today? Select the appropriate tab to specify search criteria.',
  savedTitle: 'Saved CICS',
  emptyQuery: 'Enter a question text to search.',
  tooManyTerms: 'Use at most 20 search terms.',
  questionNotFound: 'Question not found.',
} as const;

const TERM_MAX = TEXT_LIMITS.cicsTerm;
const TERMS_MAX = 20;

/**
 * Splits the question text box into search terms (document 2 section 5): text in double quotes is one
 * whole term (kept with its quotes, so the server knows it is a phrase); the rest splits on spaces.
 * An unclosed quote runs to the end of the text.
 */
export function parseQuestionText(text: string): string[] {
  const terms: string[] = [];
  const pattern = /"([^"]*)"?|(\S+)/g;
  for (const match of text.matchAll(pattern)) {
    if (match[1] !== undefined) {
      const phrase = match[1].trim().replace(/\s+/g, ' ');
      if (phrase) terms.push(`"${phrase}"`);
    } else if (match[2]) {
      const word = match[2].replace(/"/g, '');
      if (word) terms.push(word);
    }
  }
  return terms;
}

/** Whether a term is a phrase: written in double quotes, or holding a space. */
export function isPhraseTerm(term: string): boolean {
  return /^".*"$/.test(term) || /\s/.test(term.trim());
}

/** The words of a term without its quotes. */
export function termText(term: string): string {
  return term.replace(/^"|"$/g, '').trim();
}

// ---------------------------------------------------------------- search_bar

export const CicsSearchRequest = z
  .strictObject({
    q: z
      .lazy(() => CicsInspectFilter)
      .optional()
      .meta({
        description:
          'Geography, gender and age: only questions answered by such respondents (Region: of studies run there) are listed.',
      }),
    search_terms: z
      .array(z.string().max(TERM_MAX, `A search term has at most ${TERM_MAX} characters.`))
      .max(TERMS_MAX, CICS_MESSAGES.tooManyTerms)
      .meta({
        description:
          'The terms of the question text box (parseQuestionText): "in quotes" is a phrase, anything else a word. Blank terms are ignored; no term at all is refused with 400.',
      }),
  })
  .meta({ id: 'CicsSearchRequest' });
export type CicsSearchRequest = z.infer<typeof CicsSearchRequest>;

export const CicsSearchPageQuery = z.object({
  page: numeric(z.number().int().min(1)).default(1),
  per_page: numeric(z.number().int().min(1).max(100)).default(20),
});

export const CicsAnswerValue = z.object({ name: z.string(), value: z.number() });
export type CicsAnswerValue = z.infer<typeof CicsAnswerValue>;

export const CicsQuestionType = z.enum([
  'numerical',
  'categorical',
  'constant',
  'binary',
  'jar',
  'eeg',
  'implicit',
]);
export type CicsQuestionType = z.infer<typeof CicsQuestionType>;

/** The study a question belongs to. */
export const CicsStudyRef = z.object({
  id: z.number().int(),
  c_mi_number: z.string(),
  project_name: z.string(),
  client: z.string(),
  year: z.number().int(),
});

/** A study that asks a question, with the question's key and id there. */
export const CicsQuestionInStudy = z.object({
  id: z.number().int().meta({ description: "The question's key in that study (for inspect_question)." }),
  q_id: z.string(),
  study: CicsStudyRef,
});
export type CicsQuestionInStudy = z.infer<typeof CicsQuestionInStudy>;

/**
 * One question of the library (document 2 section 3, CICS question). id is the question's key. The
 * search lists a question asked by several studies (the same text) once: its fields are those of the
 * newest study, `studies` lists every study asking it.
 */
export const CicsQuestion = z
  .object({
    id: z.number().int(),
    q_id: z.string().meta({ description: 'The question id in its results file (Q1, Q2 ...).' }),
    q_text: z.string(),
    question_type: CicsQuestionType,
    question_values: z.array(CicsAnswerValue).meta({ description: 'Answer labels and their values.' }),
    scale_min: z.number().nullable(),
    scale_max: z.number().nullable(),
    score: z.number().meta({ description: 'Relevance; see the ranking above.' }),
    study: CicsStudyRef,
    studies: z.array(CicsQuestionInStudy).meta({
      description: 'Every study asking the same question (same text), newest first; the first is this one.',
    }),
  })
  .meta({ id: 'CicsQuestion' });
export type CicsQuestion = z.infer<typeof CicsQuestion>;

export const CicsSearchResponse = z
  .object({
    results: z.array(CicsQuestion),
    total: z.number().int().meta({
      description: 'Questions matching (a question several studies ask counts once), over every page.',
    }),
    page: z.number().int(),
    per_page: z.number().int(),
    terms: z.array(z.object({ term: z.string(), kind: z.enum(['phrase', 'word']) })),
  })
  .meta({ id: 'CicsSearchResponse' });
export type CicsSearchResponse = z.infer<typeof CicsSearchResponse>;

// ---------------------------------------------------------------- inspect_question

const GeoValues = (description: string) =>
  z
    .array(z.string().trim().min(1, 'Filter values must not be empty').max(TERM_MAX))
    .max(500)
    .optional()
    .meta({ description });

export const CicsInspectFilter = z
  .strictObject({
    Country: GeoValues("Respondent's country."),
    Region: GeoValues("Regions the study was run in; 'APAC' stands for its three sub-regions."),
    Region_new: GeoValues("Region of the respondent's country; 'APAC' stands for its three sub-regions."),
    Gender: GeoValues("Respondent's gender."),
    Age: z
      .tuple([
        z.number().int().min(CICS_AGE.min).max(CICS_AGE.max),
        z.number().int().min(CICS_AGE.min).max(CICS_AGE.max),
      ])
      .optional()
      .refine((range) => !range || range[0] <= range[1], 'The lower age limit must not be above the higher.')
      .meta({ description: 'Lower and higher age limit, inclusive.' }),
  })
  .meta({ id: 'CicsInspectFilter' });
export type CicsInspectFilter = z.infer<typeof CicsInspectFilter>;

export const CicsInspectRequest = z
  .strictObject({ q: CicsInspectFilter.prefault({}) })
  .meta({ id: 'CicsInspectRequest' });
export type CicsInspectRequest = z.input<typeof CicsInspectRequest>;

/** One answer of the distribution: its label, value, count and share of the base n. */
export const CicsAnswerCount = z.object({
  label: z.string(),
  value: z.number().nullable().meta({ description: 'null for a band of a continuous (EEG) score.' }),
  count: z.number().int(),
  share: z.number().nullable().meta({ description: 'count / n in [0, 1]; null when n = 0.' }),
});
export type CicsAnswerCount = z.infer<typeof CicsAnswerCount>;

export const CicsQuestionStatistics = z
  .object({
    question: CicsQuestion.omit({ score: true, studies: true }),
    /** How the question is read. */
    kind: z.enum(['scaled', 'categorical', 'continuous']).meta({
      description:
        'scaled: harmonised to the 5-point scale (mean and boxes); categorical: counts only; continuous: EEG score, mean not harmonised.',
    }),
    binary_scale: z.boolean().meta({ description: 'Two-point scale (CATA): no neutral answers.' }),
    strength: z
      .boolean()
      .meta({ description: 'Strength (JAR) question: boxes read Too strong ... Too weak.' }),
    statistics: z
      .object({
        n: z.number().int().meta({ description: 'Base: answers counted under the filters.' }),
        respondents: z.number().int().meta({ description: 'Distinct respondents behind the answers.' }),
        mean: z.number().nullable(),
        variance: z.number().nullable(),
        top_box: z.number().nullable(),
        top_2_box: z.number().nullable(),
        just_right: z.number().nullable(),
        bottom_2_box: z.number().nullable(),
        bottom_box: z.number().nullable(),
        Answers: z
          .record(z.string(), z.number().int())
          .meta({ description: 'Count of answers per answer label.' }),
      })
      .meta({
        description: 'Mean and boxes on the harmonised 1-5 scale; null when they do not apply or n = 0.',
      }),
    answers: z.array(CicsAnswerCount).meta({ description: 'The distribution in scale order, base n.' }),
  })
  .meta({ id: 'CicsQuestionStatistics' });
export type CicsQuestionStatistics = z.infer<typeof CicsQuestionStatistics>;

// ---------------------------------------------------------------- options

export const CicsOption = z.object({
  value: z.string(),
  parent: z.string().nullable().meta({ description: 'APAC for its sub-regions.' }),
});

export const CicsOptionsResponse = z
  .object({
    geo_types: z.array(
      z.object({
        value: z.enum(CICS_GEO_TYPES),
        label: z.string(),
        description: z.string(),
        options: z.array(CicsOption),
      }),
    ),
    genders: z.array(z.string()),
    age: z.object({ min: z.number().int(), max: z.number().int(), mark_step: z.number().int() }),
  })
  .meta({ id: 'CicsOptionsResponse' });
export type CicsOptionsResponse = z.infer<typeof CicsOptionsResponse>;

// ---------------------------------------------------------------- saved CICS search

/**
 * The filters of the CICS screen as saved (metadata_query of a 'cics' saved search). Older saved
 * searches may hold geographicalValue.value instead of geo_value.
 */
export const CicsFilters = z
  .object({
    geo_type: z.enum(CICS_GEO_TYPES).nullish(),
    geo_value: z.array(z.string()).nullish(),
    gender: z.array(z.string()).nullish(),
    question: z.string().nullish(),
    lower_age: z.number().int().min(CICS_AGE.min).max(CICS_AGE.max).nullish(),
    higher_age: z.number().int().min(CICS_AGE.min).max(CICS_AGE.max).nullish(),
    geographicalValue: z.object({ value: z.union([z.string(), z.array(z.string())]).nullish() }).nullish(),
  })
  .meta({ id: 'CicsFilters' });
export type CicsFilters = z.infer<typeof CicsFilters>;
