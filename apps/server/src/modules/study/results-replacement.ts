/**
 * A results data file (RDF csv) uploaded into a study's results folder, or made current again by a
 * swap, is held against the study before it may become current: its respondents, product codes and
 * the study its name names must be the study's own, and its question columns the questions of the
 * file it replaces. A file that belongs elsewhere is refused with a message naming what differs.
 *
 * When such a file becomes current, the analytics follow it in the same transaction: the answers of
 * the file's questions are replaced by the file's (raw and harmonised with the questions' scales),
 * the product statistics of the study are recomputed (the demographic statistics follow the answers
 * through the triggers of migration 0005), and the products and questions counters of data_versions
 * are raised, so every cache computed from the old answers is dropped.
 */
import { harmoniseToFivePoint } from '@accord/stats';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { answers, metrics, products, questions, respondents, studies } from '../../db/schema.ts';
import { csvRecordsOf } from '../../lib/csv-table.ts';
import type { Tx } from './study.repository.ts';

/** Columns of a results data file that are not questions (docs/data-formats.md). */
const NOT_QUESTIONS = new Set([
  'respondent_id',
  'product_code',
  'gender',
  'age',
  'ethnicity',
  'social_class',
  'country',
  'bumo',
  'test_date',
]);

/** At most this many values are named in one message. */
const NAMED = 5;
const BOX_TOLERANCE = 1e-6;

const CMI_NUMBER = /CMI-\d{4}-\d{5}/i;

export const RESULTS_MESSAGES = {
  otherStudy: (named: string, study: string) =>
    `The file is named for study ${named}, not for this study (${study})`,
  foreignProducts: (codes: readonly string[], total: number, own: readonly string[]) =>
    `${total === 1 ? 'Product code' : `${total} product codes`} not in this study: ${listed(codes, total)} (this study's products: ${listed(own, own.length)})`,
  foreignRespondents: (codes: readonly string[], total: number) =>
    `${total === 1 ? 'Respondent' : `${total} respondents`} not in this study: ${listed(codes, total)}`,
  foreignQuestions: (columns: readonly string[], total: number, file: string) =>
    `${total === 1 ? 'Column' : `${total} columns`} not a question of ${file}: ${listed(columns, total)}`,
} as const;

function listed(values: readonly string[], total: number): string {
  const shown = values.slice(0, NAMED).join(', ');
  return total > NAMED ? `${shown} and ${total - NAMED} more` : shown;
}

/** Whether a results folder file is a data file (csv, not the scale file of one). */
export function isResultsDataCsv(slotName: string): boolean {
  const lower = slotName.toLowerCase();
  return lower.endsWith('.csv') && !lower.endsWith('.scale.csv');
}

/** A results data file read for the check and the answers: its rows and question columns. */
export interface ResultsRows {
  questionColumns: string[];
  /** Per data row: respondent code, product code, and the cells of the question columns. */
  rows: { respondent: string; product: string; cells: string[] }[];
}

/** Reads a results data csv (already through the file checks: its header has the id columns). */
export function readResultsRows(bytes: Uint8Array, fileName: string): ResultsRows | null {
  const records = csvRecordsOf(bytes, fileName);
  const header = (records[0] ?? []).map((cell) => cell.trim());
  const lowered = header.map((cell) => cell.toLowerCase());
  const respondentAt = lowered.indexOf('respondent_id');
  const productAt = lowered.indexOf('product_code');
  if (respondentAt < 0 || productAt < 0) return null;
  const questionAt: number[] = [];
  for (let index = 0; index < header.length; index++)
    if (header[index] && !NOT_QUESTIONS.has(lowered[index]!)) questionAt.push(index);
  const rows: ResultsRows['rows'] = [];
  for (const record of records.slice(1)) {
    if (record.every((cell) => cell.trim() === '')) continue;
    rows.push({
      respondent: (record[respondentAt] ?? '').trim(),
      product: (record[productAt] ?? '').trim(),
      cells: questionAt.map((index) => (record[index] ?? '').trim()),
    });
  }
  return { questionColumns: questionAt.map((index) => header[index]!), rows };
}

interface QuestionOfFile {
  id: number;
  qid: string;
  questionType: string;
  scaleMin: number | null;
  scaleMax: number | null;
  metricId: number | null;
}

/** What the study holds that a results file must match. */
export interface StudyResultsContext {
  cMiNumber: string;
  productCodes: string[];
  respondentCodes: Set<string>;
  /** The questions of the file being replaced (none for a new file). */
  questions: QuestionOfFile[];
}

export async function studyResultsContext(
  db: Db | Tx,
  studyId: number,
  fileId: number | null,
): Promise<StudyResultsContext | null> {
  const [study] = await db
    .select({ cMiNumber: studies.cMiNumber })
    .from(studies)
    .where(eq(studies.id, studyId));
  if (!study) return null;
  const productRows = await db
    .select({ code: products.code })
    .from(products)
    .where(eq(products.studyId, studyId))
    .orderBy(products.code);
  const respondentRows = await db
    .select({ code: respondents.respondentCode })
    .from(respondents)
    .where(eq(respondents.studyId, studyId));
  const questionRows =
    fileId === null
      ? []
      : await db
          .select({
            id: questions.id,
            qid: questions.qid,
            questionType: questions.questionType,
            scaleMin: questions.scaleMin,
            scaleMax: questions.scaleMax,
            metricId: questions.metricId,
          })
          .from(questions)
          .where(eq(questions.resultsFileId, fileId));
  return {
    cMiNumber: study.cMiNumber,
    productCodes: [...new Set(productRows.map((row) => row.code))],
    respondentCodes: new Set(respondentRows.map((row) => row.code)),
    questions: questionRows.map((row) => ({
      ...row,
      scaleMin: row.scaleMin === null ? null : Number(row.scaleMin),
      scaleMax: row.scaleMax === null ? null : Number(row.scaleMax),
    })),
  };
}

/**
 * What in a results data file does not belong to the study, one message per kind (empty: it
 * belongs): the study its name names, product codes and respondents (when the study has some) and
 * question columns (when the file replaces one with questions).
 */
export function foreignToStudy(
  fileName: string,
  slotName: string,
  table: ResultsRows,
  study: StudyResultsContext,
): string[] {
  const problems: string[] = [];
  const named = CMI_NUMBER.exec(fileName)?.[0];
  if (named && named.toUpperCase() !== study.cMiNumber.toUpperCase())
    problems.push(RESULTS_MESSAGES.otherStudy(named.toUpperCase(), study.cMiNumber));
  const ownProducts = new Set(study.productCodes);
  const foreignProducts = [...new Set(table.rows.map((row) => row.product))].filter(
    (code) => code !== '' && !ownProducts.has(code),
  );
  // A study without products (none listed at its upload) has no answers for the file to break.
  if (ownProducts.size > 0 && foreignProducts.length > 0)
    problems.push(
      RESULTS_MESSAGES.foreignProducts(foreignProducts, foreignProducts.length, study.productCodes),
    );
  if (study.respondentCodes.size > 0) {
    const foreign = [...new Set(table.rows.map((row) => row.respondent))].filter(
      (code) => code !== '' && !study.respondentCodes.has(code),
    );
    if (foreign.length > 0) problems.push(RESULTS_MESSAGES.foreignRespondents(foreign, foreign.length));
  }
  if (study.questions.length > 0) {
    const known = new Set(study.questions.map((question) => question.qid));
    const foreign = table.questionColumns.filter((column) => !known.has(column));
    if (foreign.length > 0)
      problems.push(RESULTS_MESSAGES.foreignQuestions(foreign, foreign.length, slotName));
  }
  return problems;
}

function literal(values: readonly (number | null)[]): string {
  return `{${values.map((value) => (value === null || !Number.isFinite(value) ? 'NULL' : String(value))).join(',')}}`;
}

/**
 * Replaces the answers of the file's questions with the file's and recomputes the study's product
 * statistics, in the caller's transaction; raises the products and questions counters. Answers of
 * other results files of the study are kept. Answers number the rows written.
 */
export async function replaceResultsAnswers(
  tx: Tx,
  studyId: number,
  table: ResultsRows,
  study: StudyResultsContext,
): Promise<number> {
  if (study.questions.length === 0) return 0;
  const questionIds = study.questions.map((question) => question.id);
  const idList = sql.join(
    questionIds.map((id) => sql`${id}`),
    sql`, `,
  );
  await tx.execute(sql`delete from ${answers} where question_id in (${idList})`);

  const productRows = await tx
    .select({ id: products.id, code: products.code, kind: products.kind })
    .from(products)
    .where(eq(products.studyId, studyId));
  // A code naming a fragrance and a concept is the fragrance's, as at the studies upload.
  const productOf = new Map<string, number>();
  for (const row of productRows.filter((entry) => entry.kind === 'fragrance'))
    productOf.set(row.code, row.id);
  for (const row of productRows) if (!productOf.has(row.code)) productOf.set(row.code, row.id);
  const respondentRows = await tx
    .select({ id: respondents.id, code: respondents.respondentCode })
    .from(respondents)
    .where(eq(respondents.studyId, studyId));
  const respondentOf = new Map(respondentRows.map((row) => [row.code, row.id]));
  const byQid = new Map(study.questions.map((question) => [question.qid, question]));
  const columns = table.questionColumns.map((column) => byQid.get(column) ?? null);

  const r: number[] = [];
  const p: number[] = [];
  const q: number[] = [];
  const m: (number | null)[] = [];
  const raw: number[] = [];
  const value: number[] = [];
  for (const row of table.rows) {
    const respondentId = respondentOf.get(row.respondent);
    const productId = productOf.get(row.product);
    if (respondentId === undefined || productId === undefined) continue;
    row.cells.forEach((cell, index) => {
      const question = columns[index];
      if (!question || cell === '' || question.questionType === 'constant') return;
      const rawValue = Number(cell);
      if (!Number.isFinite(rawValue)) return;
      const harmonised =
        question.questionType === 'eeg'
          ? rawValue
          : harmoniseToFivePoint(rawValue, question.scaleMin ?? 1, question.scaleMax ?? 5);
      if (!Number.isFinite(harmonised)) return;
      r.push(respondentId);
      p.push(productId);
      q.push(question.id);
      m.push(question.metricId);
      raw.push(rawValue);
      value.push(harmonised);
    });
  }
  const BATCH = 20_000;
  for (let start = 0; start < r.length; start += BATCH) {
    const end = Math.min(r.length, start + BATCH);
    await tx.execute(sql`
      insert into ${answers} (study_id, respondent_id, product_id, question_id, metric_id, raw_value, value)
      select ${studyId}, t.r, t.p, t.q, t.m, t.raw, t.v
      from unnest(
        ${literal(r.slice(start, end))}::int[],
        ${literal(p.slice(start, end))}::int[],
        ${literal(q.slice(start, end))}::int[],
        ${literal(m.slice(start, end))}::smallint[],
        ${literal(raw.slice(start, end))}::float8[],
        ${literal(value.slice(start, end))}::float8[]
      ) as t(r, p, q, m, raw, v)`);
  }

  await tx.execute(sql`
    delete from product_metric_stats where product_id in (select id from ${products} where study_id = ${studyId})`);
  const box = (condition: SQL) =>
    sql`case when mt.kind = 'eeg' then 0 else (count(*) filter (where ${condition}))::int end`;
  const lo = (threshold: number) => threshold - BOX_TOLERANCE;
  const hi = (threshold: number) => threshold + BOX_TOLERANCE;
  await tx.execute(sql`
    insert into product_metric_stats
      (product_id, metric_id, n, sum, sum_sq, n_top_box, n_top_2_box, n_just_right, n_bottom_2_box, n_bottom_box)
    select a.product_id, a.metric_id, count(*)::int, sum(a.value::float8), sum(a.value::float8 * a.value::float8),
      ${box(sql`a.value >= ${lo(4.5)}`)},
      ${box(sql`a.value >= ${lo(3.5)}`)},
      ${box(sql`a.value > ${hi(2.5)} and a.value < ${lo(3.5)}`)},
      ${box(sql`a.value <= ${hi(2.5)}`)},
      ${box(sql`a.value <= ${hi(1.5)}`)}
    from ${answers} a
    join ${metrics} mt on mt.id = a.metric_id
    where a.question_id in (select id from ${questions} where study_id = ${studyId})
      and a.metric_id is not null
    group by a.product_id, a.metric_id, mt.kind`);
  // The answers have no counter of their own: the caches follow them through their products and
  // questions (analytics-context.ts), whose counters these writes raise at commit.
  await tx.execute(sql`update ${products} set code = code where study_id = ${studyId}`);
  await tx.execute(sql`update ${questions} set qid = qid where id in (${idList})`);
  return r.length;
}
