/**
 * The SQL of the CICS question search: questions found by their text (PostgreSQL full text search on
 * the GIN index questions_search_vector_idx; near spellings resolved to the library's words through
 * pg_trgm on cics_words, then found by full text and checked once per distinct text),
 * one question with its study, and the answer counts of a question under respondent filters. Every
 * query here is limited by the caller's study scope.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sqlTextArray } from '../../lib/client-scope.ts';

/** A search term as the query uses it: a phrase, a word found as such, or a word matched by spelling. */
export interface QueryTerm {
  text: string;
  match: 'phrase' | 'word' | 'spelling';
}

/** A term with, for a spelling, the library's words it is near to (cics_words). */
interface ResolvedTerm extends QueryTerm {
  near: string[];
}

/** Respondent and study conditions of the answer statistics. */
export interface AnswerFilter {
  /** Respondent countries (Country and Region_new). */
  countries: string[] | null;
  genders: string[] | null;
  age: [number, number] | null;
}

/** What a question of the search list must have: answers from such respondents, a study run there. */
export interface SearchFilter {
  answers: AnswerFilter | null;
  /** The study's regions must include one of these (sub-regions, not APAC). */
  regions: string[] | null;
}

/** The respondent conditions of an answer filter, on respondents aliased r. */
function respondentConditions(filter: AnswerFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.countries) conditions.push(sql`r.country = any(${sqlTextArray(filter.countries)})`);
  if (filter.genders) conditions.push(sql`r.gender = any(${sqlTextArray(filter.genders)})`);
  if (filter.age) conditions.push(sql`r.age between ${filter.age[0]} and ${filter.age[1]}`);
  return conditions;
}

/** The search filter as a condition on questions q of studies s. */
function searchFilterCondition(filter: SearchFilter): SQL {
  const conditions: SQL[] = [];
  if (filter.regions) conditions.push(sql`s.region && ${sqlTextArray(filter.regions)}`);
  const people = filter.answers ? respondentConditions(filter.answers) : [];
  if (people.length > 0)
    conditions.push(sql`exists (select 1 from answers a join respondents r on r.id = a.respondent_id
      where a.question_id = q.id and ${sql.join(people, sql` and `)})`);
  return conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;
}

/** One question of a search group: its key, id in its study and the study. */
export interface OccurrenceRecord extends Record<string, unknown> {
  id: number;
  qid: string;
  study_id: number;
  c_mi_number: string;
  project_name: string;
  client: string;
  year: number;
}

export interface QuestionRecord extends Record<string, unknown> {
  id: number;
  qid: string;
  text: string;
  question_type: string;
  scale_min: number | null;
  scale_max: number | null;
  labels: unknown;
  study_id: number;
  c_mi_number: string;
  project_name: string;
  client: string;
  year: number;
  study_region: string[];
}

/** The stored English document of the question text (questions_search_vector_idx). */
const VECTOR = sql`q.search_vector`;

function tsQuery(term: QueryTerm): SQL {
  return term.match === 'phrase'
    ? sql`phraseto_tsquery('english', ${term.text})`
    : sql`plainto_tsquery('english', ${term.text})`;
}

/**
 * The condition one term puts on a question row, by the full-text index: its words or phrase, or for a
 * spelling one of the library's words near to it (the spelling itself is checked once per distinct
 * text, by spellingMatches).
 */
function termMatches(term: ResolvedTerm): SQL {
  if (term.match === 'spelling') {
    if (term.near.length === 0) return sql`false`;
    const anyNear = sql.join(
      term.near.map((word) => sql`plainto_tsquery('english', ${word})`),
      sql` || `,
    );
    return sql`${VECTOR} @@ (${anyNear})`;
  }
  return sql`${VECTOR} @@ ${tsQuery(term)}`;
}

/** The condition of the spellings on a question text: word similarity of at least 0.6 with part of it. */
function spellingMatches(terms: ResolvedTerm[], text: SQL): SQL {
  const spellings = terms.filter((term) => term.match === 'spelling');
  if (spellings.length === 0) return sql`true`;
  return sql.join(
    spellings.map((term) => sql`${term.text} <% ${text}`),
    sql` and `,
  );
}

/** A term's share of the score: 1 for a full-text match, the trigram word similarity for a spelling. */
function termWeight(term: QueryTerm, text: SQL): SQL {
  if (term.match === 'spelling') return sql`word_similarity(${term.text}, ${text})`;
  return sql`1.0`;
}

export function createCicsRepository(db: Db) {
  async function rows<T extends Record<string, unknown>>(query: SQL): Promise<T[]> {
    const result = (await db.execute(query)) as unknown as { rows: T[] };
    return result.rows;
  }

  /**
   * The words of the question texts near to this spelling: trigram word similarity of at least 0.6
   * (cics_words_word_trgm_idx), stop words left out (the full-text index cannot find them).
   */
  async function nearWords(word: string): Promise<string[]> {
    const found = await rows<{ word: string }>(
      sql`select w.word from cics_words w where ${word} <% w.word and w.lexemes <> ''::tsvector order by w.word`,
    );
    return found.map((row) => row.word);
  }

  return {
    /**
     * Of these words, those that some question of the library holds (after stemming): read from the
     * library's words (cics_words), whose lexemes are those of the question texts.
     */
    async knownWords(words: string[]): Promise<Set<string>> {
      if (words.length === 0) return new Set();
      const checks = words.map(
        (word, index) =>
          sql`select ${index}::int as i where exists (select 1 from cics_words w where w.lexemes @@ plainto_tsquery('english', ${word}))`,
      );
      const found = await rows<{ i: number }>(sql.join(checks, sql` union all `));
      return new Set(found.map((row) => words[row.i]!));
    },

    /**
     * One page of the questions every term matches and the filter keeps, best score first, a question
     * several studies ask (the same text, whatever its case and spacing) once, with the questions of
     * every study asking it (newest first; the first stands for the group); and how many groups match.
     * The score is computed once per distinct text (libraries repeat their standard questions).
     */
    async search(
      queryTerms: QueryTerm[],
      scope: SQL,
      page: { offset: number; limit: number },
      filter: SearchFilter = { answers: null, regions: null },
    ): Promise<{
      rows: (QuestionRecord & { score: number; occurrences: OccurrenceRecord[] })[];
      total: number;
    }> {
      const terms: ResolvedTerm[] = await Promise.all(
        queryTerms.map(async (term) => ({
          ...term,
          near: term.match === 'spelling' ? await nearWords(term.text) : [],
        })),
      );
      const conditions = sql.join(
        terms.map((term) => sql`(${termMatches(term)})`),
        sql` and `,
      );
      const fullText = terms.filter((term) => term.match !== 'spelling');
      const anyTerm = fullText.length
        ? sql.join(
            fullText.map((term) => tsQuery(term)),
            sql` || `,
          )
        : null;
      const text = sql`t.text`;
      const rank = anyTerm ? sql`ts_rank_cd(to_tsvector('english', t.text), ${anyTerm})` : sql`0`;
      const similarity = sql.join(
        terms.map((term) => termWeight(term, text)),
        sql` + `,
      );
      const newestFirst = sql`hits.year desc, hits.study_id desc, hits.sort_order, hits.id`;
      const found = await rows<QuestionRecord & { score: number; total: number; ids: number[] }>(sql`
        with hits as materialized (
          select q.id, q.text, q.study_id, q.sort_order, s.year,
                 lower(regexp_replace(btrim(q.text), '\\s+', ' ', 'g')) as same
          from questions q join studies s on s.id = q.study_id
          where ${scope} and ${conditions} and ${searchFilterCondition(filter)}
        ),
        scored as materialized (
          select t.text, (${rank} + 0.5 * (${similarity}) / ${terms.length})::float8 as score
          from (select distinct text from hits) t
          where ${spellingMatches(terms, text)}
        ),
        grouped as (
          select max(scored.score) as score, array_agg(hits.id order by ${newestFirst}) as ids,
                 max(hits.year) as year, max(hits.study_id) as study_id
          from hits join scored on scored.text = hits.text
          group by hits.same
        ),
        ranked as (
          select grouped.score, grouped.ids, grouped.ids[1] as id, grouped.year, grouped.study_id,
                 count(*) over ()::int as total
          from grouped
          order by grouped.score desc, grouped.year desc, grouped.study_id desc, grouped.ids[1]
          limit ${page.limit} offset ${page.offset}
        )
        select q.id, q.qid, q.text, q.question_type, q.scale_min, q.scale_max, q.labels,
               s.id as study_id, s.c_mi_number, s.project_name, s.client, s.year, s.region as study_region,
               round(ranked.score::numeric, 4)::float8 as score, ranked.total, ranked.ids
        from ranked
        join questions q on q.id = ranked.id
        join studies s on s.id = q.study_id
        order by ranked.score desc, ranked.year desc, ranked.study_id desc, ranked.id`);
      const total =
        found[0]?.total ??
        (page.offset > 0
          ? ((
              await rows<{ total: number }>(sql`
                select count(distinct lower(regexp_replace(btrim(q.text), '\\s+', ' ', 'g')))::int as total
                from questions q join studies s on s.id = q.study_id
                where ${scope} and ${conditions} and ${searchFilterCondition(filter)}
                  and ${spellingMatches(terms, sql`q.text`)}`)
            )[0]?.total ?? 0)
          : 0);
      const ids = found.flatMap((row) => row.ids.map(Number));
      const occurrences = ids.length
        ? await rows<OccurrenceRecord>(sql`
            select q.id, q.qid, s.id as study_id, s.c_mi_number, s.project_name, s.client, s.year
            from questions q join studies s on s.id = q.study_id
            where q.id = any(${`{${ids.join(',')}}`}::int[])`)
        : [];
      const byId = new Map(occurrences.map((row) => [Number(row.id), row]));
      return {
        rows: found.map(({ total: _total, ids: group, ...row }) => ({
          ...row,
          occurrences: group.map((id) => byId.get(Number(id))).filter((row) => row !== undefined),
        })),
        total,
      };
    },

    /** One question with its study, when the caller may see the study. */
    async question(id: number, scope: SQL): Promise<QuestionRecord | null> {
      const [row] = await rows<QuestionRecord>(sql`
        select q.id, q.qid, q.text, q.question_type, q.scale_min, q.scale_max, q.labels,
               s.id as study_id, s.c_mi_number, s.project_name, s.client, s.year, s.region as study_region
        from questions q join studies s on s.id = q.study_id
        where q.id = ${id} and ${scope}`);
      return row ?? null;
    },

    /** Answers of a question per raw value, and the distinct respondents behind them, under the filter. */
    async answerCounts(
      question: { id: number; studyId: number },
      filter: AnswerFilter,
    ): Promise<{ values: { value: number; count: number }[]; respondents: number }> {
      // The respondents of a question are those of its study: read them by the study index, then their answers.
      const conditions: SQL[] = [
        sql`a.question_id = ${question.id}`,
        sql`r.study_id = ${question.studyId}`,
        ...respondentConditions(filter),
      ];
      const where = sql.join(conditions, sql` and `);
      const from = sql`from answers a join respondents r on r.id = a.respondent_id where ${where}`;
      const [values, [people]] = await Promise.all([
        rows<{ value: number; count: number }>(
          sql`select a.raw_value::float8 as value, count(*)::int as count ${from} group by a.raw_value order by 1`,
        ),
        rows<{ respondents: number }>(
          sql`select count(distinct a.respondent_id)::int as respondents ${from}`,
        ),
      ]);
      const respondents = people?.respondents ?? 0;
      return { values, respondents };
    },
  };
}

export type CicsRepository = ReturnType<typeof createCicsRepository>;
