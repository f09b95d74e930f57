/**
 * The SQL of question mapping: a study's questions, the metrics catalogue, the library's validated
 * mappings (examples for the suggestion), and mapping edits. A metric change moves the question's
 * answers to the new metric and recomputes the precomputed product statistics of the old and the new
 * metric in the same transaction, so analytics agree with the mapping the moment it is saved.
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { answers, metrics, products, questions, studies } from '../../db/schema.ts';
import type { MappingExample } from './suggest.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type QuestionRecord = typeof questions.$inferSelect;
export type MetricRecord = typeof metrics.$inferSelect;
export type StudyHeader = { id: number; cMiNumber: string; projectName: string };

/** Box thresholds are compared with a tolerance: 9-point 6 is exactly 3.5 only in exact arithmetic (METRICS.md section 1). */
const BOX_TOLERANCE = 1e-6;

export interface QuestionChange {
  metricId?: number | null;
  metricValidated?: boolean;
  constantValue?: string | null;
}

export function createMappingRepository(db: Db) {
  return {
    async findStudy(id: number, scope: SQL): Promise<StudyHeader | undefined> {
      const [row] = await db
        .select({ id: studies.id, cMiNumber: studies.cMiNumber, projectName: studies.projectName })
        .from(studies)
        .where(and(eq(studies.id, id), scope));
      return row;
    },

    async metricsCatalogue(): Promise<MetricRecord[]> {
      return db.select().from(metrics).orderBy(asc(metrics.chartOrder), asc(metrics.id));
    },

    async questionsOf(studyId: number): Promise<QuestionRecord[]> {
      return db
        .select()
        .from(questions)
        .where(eq(questions.studyId, studyId))
        .orderBy(asc(questions.filename), asc(questions.sortOrder), asc(questions.id));
    },

    async productsOf(studyId: number): Promise<{ code: string; kind: string; name: string }[]> {
      const result = (await db.execute(sql`
        select p.code, p.kind, coalesce(f.name, c.name, p.code) as name
        from products p
        left join fragrances f on f.id = p.fragrance_id
        left join concepts c on c.id = p.concept_id
        where p.study_id = ${studyId}
        order by p.kind desc, p.id`)) as unknown as { rows: Record<string, unknown>[] };
      return result.rows.map((row) => ({
        code: String(row.code),
        kind: String(row.kind),
        name: String(row.name),
      }));
    },

    /** Validated mappings of the whole library, counted by text, question type and metric. */
    async validatedExamples(): Promise<MappingExample[]> {
      const rows = await db
        .select({
          text: questions.text,
          questionType: questions.questionType,
          metricId: questions.metricId,
          count: sql<number>`count(*)::int`,
        })
        .from(questions)
        .where(and(eq(questions.metricValidated, true), sql`${questions.metricId} is not null`))
        .groupBy(questions.text, questions.questionType, questions.metricId);
      return rows.map((row) => ({
        text: row.text,
        questionType: row.questionType,
        metricId: Number(row.metricId),
        count: Number(row.count),
      }));
    },

    /** Runs `work` in one transaction. */
    transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** The study's questions of one file, locked so two edits of the file take turns. */
    async lockFile(tx: Tx, studyId: number, filename: string): Promise<QuestionRecord[]> {
      return tx
        .select()
        .from(questions)
        .where(and(eq(questions.studyId, studyId), eq(questions.filename, filename)))
        .orderBy(asc(questions.sortOrder), asc(questions.id))
        .for('update');
    },

    async findQuestion(tx: Tx, studyId: number, questionId: number): Promise<QuestionRecord | undefined> {
      const [row] = await tx
        .select()
        .from(questions)
        .where(and(eq(questions.id, questionId), eq(questions.studyId, studyId)));
      return row;
    },

    /** Files of the study's questions: name, path and results file. */
    async filesOf(
      tx: Tx,
      studyId: number,
    ): Promise<{ filename: string; path: string; resultsFileId: number | null }[]> {
      return tx
        .selectDistinct({
          filename: questions.filename,
          path: questions.path,
          resultsFileId: questions.resultsFileId,
        })
        .from(questions)
        .where(eq(questions.studyId, studyId));
    },

    async updateQuestion(tx: Tx, questionId: number, change: QuestionChange): Promise<QuestionRecord> {
      const [row] = await tx.update(questions).set(change).where(eq(questions.id, questionId)).returning();
      return row!;
    },

    async insertQuestion(tx: Tx, values: typeof questions.$inferInsert): Promise<QuestionRecord> {
      const [row] = await tx.insert(questions).values(values).returning();
      return row!;
    },

    /**
     * Moves a question's answers to its new metric (null: out of analytics) and recomputes the
     * product statistics of the study for the metrics involved.
     */
    async moveAnswers(
      tx: Tx,
      studyId: number,
      questionId: number,
      from: number | null,
      to: number | null,
    ): Promise<void> {
      await tx
        .update(answers)
        .set({ metricId: to })
        .where(and(eq(answers.studyId, studyId), eq(answers.questionId, questionId)));
      const affected = [from, to].filter((id): id is number => id !== null);
      if (affected.length === 0) return;
      const metricList = sql.join(
        affected.map((id) => sql`${id}`),
        sql`, `,
      );
      await tx.execute(sql`
        delete from product_metric_stats
        where metric_id in (${metricList})
          and product_id in (select id from ${products} where study_id = ${studyId})`);
      const box = (condition: SQL) =>
        sql`case when m.kind = 'eeg' then 0 else (count(*) filter (where ${condition}))::int end`;
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
        join ${metrics} m on m.id = a.metric_id
        where a.question_id in (select id from ${questions} where study_id = ${studyId})
          and a.metric_id in (${metricList})
        group by a.product_id, a.metric_id, m.kind`);
    },
  };
}

export type MappingRepository = ReturnType<typeof createMappingRepository>;
