/**
 * The SQL of the trace: the products of an aggregate as the caller may see them, the statistics of
 * their answers per product and question (under the same in-scale rule and respondent conditions as
 * the metric search), and the answers themselves, read in pages for the csv download.
 */
import { BOX_TOLERANCE } from '@accord/stats';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  answers,
  concepts,
  fragrances,
  metrics,
  products,
  questions,
  respondents,
  studies,
  studyFiles,
} from '../../db/schema.ts';
import {
  answerSums,
  intArray,
  type MetricRecord,
  type MetricSums,
} from '../analytics/analytics.repository.ts';

/** A product of a trace with its study. */
export interface TraceProductRecord {
  id: number;
  code: string;
  name: string | null;
  studyId: number;
  cMiNumber: string;
  projectName: string;
  client: string;
}

/** A question behind a metric in a study, with its results file. */
export interface TraceQuestionRecord {
  id: number;
  studyId: number;
  qid: string;
  text: string;
  questionType: string;
  scaleMin: number | null;
  scaleMax: number | null;
  filename: string;
  resultsFileId: number | null;
  resultsFileName: string | null;
}

/** Sufficient statistics of one product's answers to one question. */
export type QuestionSums = MetricSums & { questionId: number };

/** One answer row of the csv. */
export interface TraceAnswerRow {
  study: string;
  respondent: string;
  product: string;
  question: string;
  questionText: string;
  rawValue: number;
  value: number;
}

/** Which answers make an aggregate: the metric's answers of the products, under respondent conditions. */
export interface AnswerSelection {
  metric: MetricRecord;
  productIds: readonly number[];
  /** Conditions over the respondents (alias r), as analytics compiles them. */
  respondentConditions: readonly SQL[];
}

/** Answers read per page of the csv download. */
export const ANSWER_PAGE_ROWS = 2000;

const lo = (threshold: number) => threshold - BOX_TOLERANCE;
const hi = (threshold: number) => threshold + BOX_TOLERANCE;

/** Answers the metric search counts: inside the 5-point scale, except continuous EEG scores. */
function inScale(metric: MetricRecord): SQL {
  return metric.kind === 'eeg' ? sql`true` : sql.raw(`a.value between ${lo(1)} and ${hi(5)}`);
}

/** WHERE of the answers of a selection (alias a, respondents r). */
function answersWhere(selection: AnswerSelection, counted = true): SQL {
  const parts: SQL[] = [
    sql`a.metric_id = ${selection.metric.id}`,
    sql`a.product_id = any(${intArray(selection.productIds)})`,
    counted ? inScale(selection.metric) : sql`not (${inScale(selection.metric)})`,
    ...selection.respondentConditions,
  ];
  return sql.join(
    parts.map((part) => sql`(${part})`),
    sql` and `,
  );
}

/**
 * The answers of a selection (alias a) with their respondents (alias r) when its conditions read
 * them. Without conditions the answers are read alone, as the stored statistics of the metric search
 * count them: the join would hash every respondent of the library (450,000 at 3,000 studies, about
 * 300 ms) to keep answers that all have one. With conditions only the respondents of the products'
 * studies are read (a study's answers are its own respondents'), through their study index: 3,750
 * respondents for 200 products instead of a scan of them all.
 */
function answersFrom(selection: AnswerSelection): SQL {
  if (selection.respondentConditions.length === 0) return sql`${answers} a`;
  return sql`${answers} a join ${respondents} r on r.id = a.respondent_id
    and r.study_id in (select sp.study_id from ${products} sp where sp.id = any(${intArray(selection.productIds)}))`;
}

export function createTraceRepository(db: Db) {
  async function rows<T>(query: SQL): Promise<T[]> {
    return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  }

  return {
    /** The metric of a name, or null. */
    async metricByName(name: string): Promise<MetricRecord | null> {
      const [row] = await db
        .select()
        .from(metrics)
        .where(sql`${metrics.name} = ${name}`);
      return row
        ? { id: row.id, name: row.name, label: row.label, metricType: row.metricType, kind: row.kind }
        : null;
    },

    /** The products of the list the scope lets the caller see (scope over studies alias s). */
    async visibleProducts(productIds: readonly number[], scope: SQL): Promise<TraceProductRecord[]> {
      const found = await rows<{
        id: number;
        code: string;
        name: string | null;
        study_id: number;
        c_mi_number: string;
        project_name: string;
        client: string;
      }>(sql`select p.id, p.code, coalesce(f.name, c.name) as name, s.id as study_id, s.c_mi_number,
          s.project_name, s.client
        from ${products} p join ${studies} s on s.id = p.study_id
        left join ${fragrances} f on f.id = p.fragrance_id
        left join ${concepts} c on c.id = p.concept_id
        where p.id = any(${intArray(productIds)}) and ${scope}
        order by s.id, p.id`);
      return found.map((row) => ({
        id: Number(row.id),
        code: row.code,
        name: row.name,
        studyId: Number(row.study_id),
        cMiNumber: row.c_mi_number,
        projectName: row.project_name,
        client: row.client,
      }));
    },

    /** The questions of the studies mapped to the metric, with their results file. */
    async questionsOf(studyIds: readonly number[], metricId: number): Promise<TraceQuestionRecord[]> {
      if (studyIds.length === 0) return [];
      const found = await rows<{
        id: number;
        study_id: number;
        qid: string;
        text: string;
        question_type: string;
        scale_min: number | null;
        scale_max: number | null;
        filename: string;
        results_file_id: number | null;
        results_file_name: string | null;
      }>(sql`select q.id, q.study_id, q.qid, q.text, q.question_type, q.scale_min, q.scale_max, q.filename,
          q.results_file_id, sf.name as results_file_name
        from ${questions} q left join ${studyFiles} sf on sf.id = q.results_file_id
        where q.study_id = any(${intArray(studyIds)}) and q.metric_id = ${metricId}
        order by q.study_id, q.sort_order, q.id`);
      return found.map((row) => ({
        id: Number(row.id),
        studyId: Number(row.study_id),
        qid: row.qid,
        text: row.text,
        questionType: row.question_type,
        scaleMin: row.scale_min === null ? null : Number(row.scale_min),
        scaleMax: row.scale_max === null ? null : Number(row.scale_max),
        filename: row.filename,
        resultsFileId: row.results_file_id === null ? null : Number(row.results_file_id),
        resultsFileName: row.results_file_name,
      }));
    },

    /** Statistics of the counted answers per product and question. */
    async sumsByQuestion(selection: AnswerSelection): Promise<QuestionSums[]> {
      const found = await rows<Record<string, number>>(sql`select product_id, question_id, ${answerSums}
        from (select a.product_id, a.question_id, a.value::float8 as v
          from ${answersFrom(selection)}
          where ${answersWhere(selection)}) x
        group by product_id, question_id`);
      return found.map((row) => ({
        productId: Number(row.product_id),
        questionId: Number(row.question_id),
        metricId: selection.metric.id,
        n: Number(row.n),
        sum: Number(row.sum),
        sumSq: Number(row.sum_sq),
        nTopBox: Number(row.n_top_box),
        nTop2Box: Number(row.n_top_2_box),
        nJustRight: Number(row.n_just_right),
        nBottom2Box: Number(row.n_bottom_2_box),
        nBottomBox: Number(row.n_bottom_box),
      }));
    },

    /** Each respondent's sums per product of the counted answers: the clustered tests' data. */
    async sumsByRespondent(
      selection: AnswerSelection,
    ): Promise<(Omit<QuestionSums, 'questionId'> & { respondentId: number })[]> {
      const found = await rows<Record<string, number>>(sql`select product_id, respondent_id, ${answerSums}
        from (select a.product_id, a.respondent_id, a.value::float8 as v
          from ${answersFrom(selection)}
          where ${answersWhere(selection)}) x
        group by product_id, respondent_id`);
      return found.map((row) => ({
        productId: Number(row.product_id),
        respondentId: Number(row.respondent_id),
        metricId: selection.metric.id,
        n: Number(row.n),
        sum: Number(row.sum),
        sumSq: Number(row.sum_sq),
        nTopBox: Number(row.n_top_box),
        nTop2Box: Number(row.n_top_2_box),
        nJustRight: Number(row.n_just_right),
        nBottom2Box: Number(row.n_bottom_2_box),
        nBottomBox: Number(row.n_bottom_box),
      }));
    },

    /** Distinct respondents behind the counted answers. */
    async respondentCount(selection: AnswerSelection): Promise<number> {
      const [row] = await rows<{ count: number }>(sql`select count(distinct a.respondent_id)::int as count
        from ${answersFrom(selection)} where ${answersWhere(selection)}`);
      return Number(row?.count ?? 0);
    },

    /** Answers of the selection outside their question's scale (left out of every number). */
    async outOfScaleCount(selection: AnswerSelection): Promise<number> {
      if (selection.metric.kind === 'eeg') return 0;
      const [row] = await rows<{ count: number }>(sql`select count(*)::int as count
        from ${answersFrom(selection)}
        where ${answersWhere(selection, false)}`);
      return Number(row?.count ?? 0);
    },

    /**
     * The counted answers in pages of `pageSize`, in product, question and respondent order (a keyset
     * over the answers' key, so each page is one index range and memory stays flat).
     */
    async *answerPages(
      selection: AnswerSelection,
      pageSize = ANSWER_PAGE_ROWS,
    ): AsyncGenerator<TraceAnswerRow[]> {
      let after: { productId: number; questionId: number; respondentId: number } | null = null;
      for (;;) {
        const keyset: SQL = after
          ? sql` and (a.product_id, a.question_id, a.respondent_id) > (${after.productId}, ${after.questionId}, ${after.respondentId})`
          : sql``;
        const page = await rows<{
          product_id: number;
          question_id: number;
          respondent_id: number;
          c_mi_number: string;
          respondent_code: string;
          code: string;
          qid: string;
          text: string;
          raw_value: number;
          value: number;
        }>(sql`select a.product_id, a.question_id, a.respondent_id, s.c_mi_number, r.respondent_code,
            p.code, q.qid, q.text, a.raw_value, a.value
          from ${answers} a
          join ${respondents} r on r.id = a.respondent_id
          join ${products} p on p.id = a.product_id
          join ${studies} s on s.id = p.study_id
          join ${questions} q on q.id = a.question_id
          where ${answersWhere(selection)}${keyset}
          order by a.product_id, a.question_id, a.respondent_id
          limit ${pageSize}`);
        if (page.length === 0) return;
        yield page.map((row) => ({
          study: row.c_mi_number,
          respondent: row.respondent_code,
          product: row.code,
          question: row.qid,
          questionText: row.text,
          rawValue: Number(row.raw_value),
          value: Number(row.value),
        }));
        if (page.length < pageSize) return;
        const last = page[page.length - 1]!;
        after = {
          productId: Number(last.product_id),
          questionId: Number(last.question_id),
          respondentId: Number(last.respondent_id),
        };
      }
    },
  };
}

export type TraceRepository = ReturnType<typeof createTraceRepository>;
