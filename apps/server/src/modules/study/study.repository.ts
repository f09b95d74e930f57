/**
 * The SQL of the study page: one study with its fragrances, concepts and history, the details and
 * table edits (each one transaction with its history row), the reference data the edits check
 * against, and the upload jobs. Every read of study data is limited by the caller's scope.
 */
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  answers,
  concepts,
  fieldDefinitions,
  fieldOptions,
  fragrances,
  jobResults,
  products,
  questions,
  studies,
  studyEditHistory,
} from '../../db/schema.ts';
import { recordStudyEdits, type StudyEditAudit, type StudyFieldChange } from '../../lib/study-history.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type StudyRecord = typeof studies.$inferSelect;
export type FragranceRecord = typeof fragrances.$inferSelect;
export type ConceptRecord = typeof concepts.$inferSelect;
export type NewFragrance = Omit<typeof fragrances.$inferInsert, 'studyId' | 'id'>;
export type NewConcept = Omit<typeof concepts.$inferInsert, 'studyId' | 'id'>;

/** What a table edit does: rows to remove, rows to update, rows to add, and the history. */
export interface TablePlan<New> {
  remove: number[];
  update: { id: number; values: New }[];
  insert: New[];
  changes: StudyFieldChange[];
}

/** A study's question ids: answers are found by study through them (their primary key leads with question_id). */
function questionsOf(tx: Tx, studyId: number) {
  return tx.select({ id: questions.id }).from(questions).where(eq(questions.studyId, studyId));
}

export function createStudyRepository(db: Db) {
  /** Locks the visible study for the rest of the transaction; undefined when not visible. */
  async function lockStudy(tx: Tx, id: number, scope: SQL): Promise<StudyRecord | undefined> {
    const [row] = await tx
      .select()
      .from(studies)
      .where(and(eq(studies.id, id), scope))
      .for('update');
    return row;
  }

  return {
    async findStudy(id: number, scope: SQL): Promise<StudyRecord | undefined> {
      const [row] = await db
        .select()
        .from(studies)
        .where(and(eq(studies.id, id), scope));
      return row;
    },

    async fragrancesOf(studyId: number): Promise<FragranceRecord[]> {
      return db.select().from(fragrances).where(eq(fragrances.studyId, studyId)).orderBy(asc(fragrances.id));
    },

    async conceptsOf(studyId: number): Promise<ConceptRecord[]> {
      return db.select().from(concepts).where(eq(concepts.studyId, studyId)).orderBy(asc(concepts.id));
    },

    async hasQuestions(studyId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: questions.id })
        .from(questions)
        .where(eq(questions.studyId, studyId))
        .limit(1);
      return row !== undefined;
    },

    /** Country -> region, from the parent values of the metadata country options. */
    async countryRegions(): Promise<Map<string, string>> {
      const found = await db
        .select({ value: fieldOptions.value, parent: fieldOptions.parentValue })
        .from(fieldOptions)
        .innerJoin(fieldDefinitions, eq(fieldDefinitions.id, fieldOptions.fieldId))
        .where(and(eq(fieldDefinitions.fieldGroup, 'metadata'), eq(fieldDefinitions.field, 'country')));
      return new Map(
        found.filter((row) => row.parent !== null).map((row) => [row.value, row.parent as string]),
      );
    },

    /** Every history row of the study, newest first. */
    async history(studyId: number) {
      return db
        .select()
        .from(studyEditHistory)
        .where(eq(studyEditHistory.studyId, studyId))
        .orderBy(desc(studyEditHistory.changeDate), desc(studyEditHistory.id));
    },

    /**
     * A details or tag edit in one transaction: `plan` receives the locked study and answers the
     * columns to set and the changes to record (or throws, leaving everything unchanged). Nothing is
     * written when there are no changes. Answers undefined when the study is not visible.
     */
    async editStudy(
      id: number,
      scope: SQL,
      plan: (current: StudyRecord) => {
        set: Partial<typeof studies.$inferInsert>;
        changes: StudyFieldChange[];
      },
      audit: StudyEditAudit,
    ): Promise<StudyFieldChange[] | undefined> {
      return db.transaction(async (tx) => {
        const current = await lockStudy(tx, id, scope);
        if (!current) return undefined;
        const { set, changes } = plan(current);
        if (changes.length === 0) return changes;
        await tx
          .update(studies)
          .set({ ...set, updatedAt: audit.now })
          .where(eq(studies.id, id));
        await recordStudyEdits(tx, audit, [{ studyId: id, type: 'study', changes }]);
        return changes;
      });
    },

    /**
     * Replaces the study's fragrance table in one transaction. Removed fragrances take their rated
     * product, its statistics and its answers with them; kept ones keep their product (its code
     * follows the fragrance code). Answers undefined when the study is not visible.
     */
    async editFragrances(
      studyId: number,
      scope: SQL,
      plan: (current: FragranceRecord[]) => TablePlan<NewFragrance>,
      audit: StudyEditAudit,
    ): Promise<StudyFieldChange[] | undefined> {
      return db.transaction(async (tx) => {
        if (!(await lockStudy(tx, studyId, scope))) return undefined;
        const current = await tx
          .select()
          .from(fragrances)
          .where(eq(fragrances.studyId, studyId))
          .orderBy(asc(fragrances.id));
        const { remove, update, insert, changes } = plan(current);
        if (changes.length === 0) return changes;
        if (remove.length > 0) {
          const gone = tx
            .select({ id: products.id })
            .from(products)
            .where(inArray(products.fragranceId, remove));
          await tx
            .delete(answers)
            .where(
              and(inArray(answers.questionId, questionsOf(tx, studyId)), inArray(answers.productId, gone)),
            );
          await tx.delete(fragrances).where(inArray(fragrances.id, remove));
        }
        // Codes are unique per study: park changed codes first so that two rows may swap codes.
        const recoded = update.filter(
          (row) => current.find((old) => old.id === row.id)?.fragranceCode !== row.values.fragranceCode,
        );
        for (const row of recoded)
          await tx
            .update(fragrances)
            .set({ fragranceCode: `\u0000${row.id}` })
            .where(eq(fragrances.id, row.id));
        for (const row of update) {
          await tx.update(fragrances).set(row.values).where(eq(fragrances.id, row.id));
        }
        for (const row of recoded)
          await tx
            .update(products)
            .set({ code: row.values.fragranceCode })
            .where(eq(products.fragranceId, row.id));
        if (insert.length > 0) {
          const added = await tx
            .insert(fragrances)
            .values(insert.map((values) => ({ ...values, studyId })))
            .returning({ id: fragrances.id, code: fragrances.fragranceCode });
          await tx
            .insert(products)
            .values(
              added.map((row) => ({
                studyId,
                kind: 'fragrance' as const,
                code: row.code,
                fragranceId: row.id,
              })),
            )
            .onConflictDoNothing();
        }
        await tx.update(studies).set({ updatedAt: audit.now }).where(eq(studies.id, studyId));
        await recordStudyEdits(tx, audit, [{ studyId, type: 'fragrances', changes }]);
        return changes;
      });
    },

    /** Replaces the study's concept table in one transaction (as editFragrances). */
    async editConcepts(
      studyId: number,
      scope: SQL,
      plan: (current: ConceptRecord[]) => TablePlan<NewConcept>,
      audit: StudyEditAudit,
    ): Promise<StudyFieldChange[] | undefined> {
      return db.transaction(async (tx) => {
        if (!(await lockStudy(tx, studyId, scope))) return undefined;
        const current = await tx
          .select()
          .from(concepts)
          .where(eq(concepts.studyId, studyId))
          .orderBy(asc(concepts.id));
        const { remove, update, insert, changes } = plan(current);
        if (changes.length === 0) return changes;
        if (remove.length > 0) {
          const gone = tx
            .select({ id: products.id })
            .from(products)
            .where(inArray(products.conceptId, remove));
          await tx
            .delete(answers)
            .where(
              and(inArray(answers.questionId, questionsOf(tx, studyId)), inArray(answers.productId, gone)),
            );
          await tx.delete(concepts).where(inArray(concepts.id, remove));
        }
        const recoded = update.filter(
          (row) => current.find((old) => old.id === row.id)?.conceptCode !== row.values.conceptCode,
        );
        for (const row of recoded)
          await tx
            .update(concepts)
            .set({ conceptCode: `\u0000${row.id}` })
            .where(eq(concepts.id, row.id));
        for (const row of update) await tx.update(concepts).set(row.values).where(eq(concepts.id, row.id));
        for (const row of recoded)
          await tx
            .update(products)
            .set({ code: row.values.conceptCode })
            .where(eq(products.conceptId, row.id));
        if (insert.length > 0) {
          const added = await tx
            .insert(concepts)
            .values(insert.map((values) => ({ ...values, studyId })))
            .returning({ id: concepts.id, code: concepts.conceptCode });
          await tx
            .insert(products)
            .values(
              added.map((row) => ({ studyId, kind: 'concept' as const, code: row.code, conceptId: row.id })),
            )
            .onConflictDoNothing();
        }
        await tx.update(studies).set({ updatedAt: audit.now }).where(eq(studies.id, studyId));
        await recordStudyEdits(tx, audit, [{ studyId, type: 'concepts', changes }]);
        return changes;
      });
    },

    /** A job of the user (upload status polling). */
    async findJob(id: string, userId: number) {
      const [row] = await db
        .select()
        .from(jobResults)
        .where(
          and(
            eq(jobResults.id, id),
            eq(jobResults.userId, userId),
            sql`${jobResults.kind} = 'study-file-upload'`,
          ),
        );
      return row;
    },
  };
}

export type StudyRepository = ReturnType<typeof createStudyRepository>;
