/**
 * The CICS question search: turning the search terms into full-text and near-spelling matches, the
 * answer statistics of one question under respondent filters (harmonised with packages/stats), and
 * the filter options. Every call is limited to the caller's studies (client scope).
 */
import {
  CICS_AGE,
  CICS_MESSAGES,
  isPhraseTerm,
  termText,
  type CicsAnswerCount,
  type CicsInspectFilter,
  type CicsOptionsResponse,
  type CicsQuestionStatistics,
  type CicsSearchResponse,
} from '@accord/contracts';
import { mean, sampleVariance, summariseScale } from '@accord/stats';
import { studyScope } from '../../lib/client-scope.ts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { FieldsRepository } from '../fields/fields.repository.ts';
import { expandRegions, s } from '../search/search-filters.ts';
import { answerLabels, presentQuestion } from './cics.presenter.ts';
import type { AnswerFilter, CicsRepository, QueryTerm, QuestionRecord } from './cics.repository.ts';

/** Question types read on their scale, harmonised to 5 points (METRICS.md section 1). */
const SCALED_TYPES = new Set(['numerical', 'jar', 'binary']);
/** Bands of a continuous (EEG) score in the distribution. */
const CONTINUOUS_BANDS = 5;

/** The search terms as the query uses them; words are kept once (case-insensitively). */
export function queryTerms(searchTerms: readonly string[]): { text: string; phrase: boolean }[] {
  const seen = new Set<string>();
  const terms: { text: string; phrase: boolean }[] = [];
  for (const raw of searchTerms) {
    const phrase = isPhraseTerm(raw.trim());
    const text = termText(raw.trim()).replace(/"/g, ' ').replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const key = `${phrase ? 'p' : 'w'}:${text.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    terms.push({ text, phrase });
  }
  return terms;
}

const round = (value: number | null, digits = 6) =>
  value === null || !Number.isFinite(value) ? null : Number(value.toFixed(digits));

/** Statistics of one question from its answer counts per raw value (METRICS.md section 1). */
export function questionStatistics(
  question: QuestionRecord,
  counts: { value: number; count: number }[],
  respondents: number,
): Omit<CicsQuestionStatistics, 'question'> {
  const labels = answerLabels(question.labels);
  const min = question.scale_min;
  const max = question.scale_max;
  const validScale =
    min !== null && max !== null && Number.isFinite(min) && Number.isFinite(max) && max > min;
  const kind: CicsQuestionStatistics['kind'] =
    question.question_type === 'eeg'
      ? 'continuous'
      : SCALED_TYPES.has(question.question_type) && validScale
        ? 'scaled'
        : 'categorical';
  const values = counts.flatMap((entry) => Array<number>(entry.count).fill(entry.value));
  const n = values.length;
  const share = (count: number) => (n === 0 ? null : round(count / n));

  let answers: CicsAnswerCount[];
  if (kind === 'continuous') {
    const low = validScale ? min : Math.min(...values, 0);
    const high = validScale ? max : Math.max(...values, 1);
    const width = (high - low) / CONTINUOUS_BANDS;
    const bandCounts = Array<number>(CONTINUOUS_BANDS).fill(0);
    for (const value of values) {
      const band = Math.min(CONTINUOUS_BANDS - 1, Math.max(0, Math.floor((value - low) / width)));
      bandCounts[band]! += 1;
    }
    answers = bandCounts.map((count, band) => ({
      label: `${(low + band * width).toFixed(2)}–${(low + (band + 1) * width).toFixed(2)}`,
      value: null,
      count,
      share: share(count),
    }));
  } else {
    const byValue = new Map(counts.map((entry) => [entry.value, entry.count]));
    answers = labels.map((label) => ({
      label: label.name,
      value: label.value,
      count: byValue.get(label.value) ?? 0,
      share: share(byValue.get(label.value) ?? 0),
    }));
    // Answers outside the labelled values still count, under their own value.
    const labelled = new Set(labels.map((label) => label.value));
    for (const entry of counts) {
      if (!labelled.has(entry.value))
        answers.push({
          label: String(entry.value),
          value: entry.value,
          count: entry.count,
          share: share(entry.count),
        });
    }
    answers.sort((a, b) => (a.value ?? 0) - (b.value ?? 0));
  }

  const none = { top_box: null, top_2_box: null, just_right: null, bottom_2_box: null, bottom_box: null };
  let summary: Omit<CicsQuestionStatistics['statistics'], 'respondents' | 'Answers'>;
  if (kind === 'scaled') {
    const scaled = summariseScale(values, min!, max!);
    // A yes/no question has no middle answer: its just right (neutral) share is null, not 0.
    const binary = max! - min! === 1;
    summary = {
      n: scaled.n,
      mean: round(scaled.mean),
      variance: round(scaled.variance),
      top_box: round(scaled.top_box),
      top_2_box: round(scaled.top_2_box),
      just_right: binary ? null : round(scaled.just_right),
      bottom_2_box: round(scaled.bottom_2_box),
      bottom_box: round(scaled.bottom_box),
    };
  } else if (kind === 'continuous') {
    summary = {
      n,
      mean: n === 0 ? null : round(mean(values)),
      variance: n < 2 ? null : round(sampleVariance(values)),
      ...none,
    };
  } else {
    summary = { n, mean: null, variance: null, ...none };
  }

  return {
    kind,
    binary_scale: kind === 'scaled' && max! - min! === 1,
    strength: question.question_type === 'jar',
    statistics: {
      ...summary,
      respondents,
      Answers: Object.fromEntries(answers.map((answer) => [answer.label, answer.count])),
    },
    answers,
  };
}

export function createCicsService(deps: { cics: CicsRepository; fields: FieldsRepository }) {
  const scopeOf = (user: AuthUser) => studyScope(user, s.client);

  /** Country to region (the current map: field options of the study country). */
  async function countryRegions(): Promise<{ country: string; region: string | null }[]> {
    const definitions = await deps.fields.definitions();
    const country = definitions.find((field) => field.fieldGroup === 'metadata' && field.field === 'country');
    return (country?.options ?? []).map((option) => ({ country: option.value, region: option.parent }));
  }

  async function answerFilter(q: CicsInspectFilter): Promise<AnswerFilter> {
    let countries: string[] | null = q.Country?.length ? [...new Set(q.Country)] : null;
    if (q.Region_new?.length) {
      const regions = new Set(expandRegions(q.Region_new));
      const inRegions = (await countryRegions())
        .filter((entry) => entry.region !== null && regions.has(entry.region))
        .map((entry) => entry.country);
      countries = countries ? countries.filter((country) => inRegions.includes(country)) : inRegions;
    }
    const age = q.Age && (q.Age[0] > CICS_AGE.min || q.Age[1] < CICS_AGE.max) ? q.Age : null;
    return {
      countries,
      genders: q.Gender?.length ? [...new Set(q.Gender)] : null,
      age,
    };
  }

  return {
    async search(
      user: AuthUser,
      searchTerms: string[],
      page: { page: number; per_page: number },
    ): Promise<CicsSearchResponse> {
      const terms = queryTerms(searchTerms);
      if (terms.length === 0) throw errors.badRequest(CICS_MESSAGES.emptyQuery);
      const words = terms.filter((term) => !term.phrase).map((term) => term.text);
      const known = await deps.cics.knownWords(words);
      const query: QueryTerm[] = terms.map((term) => ({
        text: term.text,
        match: term.phrase ? 'phrase' : known.has(term.text) ? 'word' : 'spelling',
      }));
      const found = await deps.cics.search(query, scopeOf(user), {
        offset: (page.page - 1) * page.per_page,
        limit: page.per_page,
      });
      return {
        results: found.rows.map((row) => ({ ...presentQuestion(row), score: row.score })),
        total: found.total,
        page: page.page,
        per_page: page.per_page,
        terms: terms.map((term) => ({ term: term.text, kind: term.phrase ? 'phrase' : 'word' })),
      };
    },

    async inspect(user: AuthUser, id: number, q: CicsInspectFilter): Promise<CicsQuestionStatistics> {
      const question = await deps.cics.question(id, scopeOf(user));
      if (!question) throw errors.notFound(CICS_MESSAGES.questionNotFound);
      const filter = await answerFilter(q);
      // Region: the regions the study was run in, so the whole question is in or out.
      const regions = q.Region?.length ? expandRegions(q.Region) : null;
      const studyOutside =
        regions !== null && !question.study_region.some((region) => regions.includes(region));
      const noneLeft = studyOutside || (filter.countries !== null && filter.countries.length === 0);
      const counts = noneLeft
        ? { values: [], respondents: 0 }
        : await deps.cics.answerCounts({ id: question.id, studyId: question.study_id }, filter);
      return {
        question: presentQuestion(question),
        ...questionStatistics(question, counts.values, counts.respondents),
      };
    },

    async options(): Promise<CicsOptionsResponse> {
      const definitions = await deps.fields.definitions();
      const find = (group: string, field: string) =>
        definitions.find((definition) => definition.fieldGroup === group && definition.field === field);
      const regions = (find('metadata', 'region')?.options ?? []).map((option) => ({
        value: option.value,
        parent: option.parent,
      }));
      const countries = (find('metadata', 'country')?.options ?? [])
        .map((option) => ({ value: option.value, parent: option.parent }))
        .sort((a, b) => a.value.localeCompare(b.value));
      return {
        geo_types: [
          {
            value: 'Country',
            label: 'Country',
            description: "The respondent's country",
            options: countries,
          },
          {
            value: 'Region',
            label: 'Region',
            description: 'The regions the study was run in',
            options: regions,
          },
          {
            value: 'Region_new',
            label: 'Region (new)',
            description: "The region of the respondent's country",
            options: regions,
          },
        ],
        genders: (find('demographics', 'gender')?.options ?? []).map((option) => option.value),
        age: { min: CICS_AGE.min, max: CICS_AGE.max, mark_step: CICS_AGE.markStep },
      };
    },
  };
}

export type CicsService = ReturnType<typeof createCicsService>;
