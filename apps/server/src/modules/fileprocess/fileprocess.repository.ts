/** The SQL of studies uploads: file processes, their tasks (job_results) and the reference data. */
import type { FileProcessStatus, FileTreeNode } from '@accord/contracts';
import { and, desc, eq, inArray, isNull, lt, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  fieldDefinitions,
  fieldOptions,
  fileProcesses,
  jobResults,
  metrics,
  studies,
} from '../../db/schema.ts';
import type { ReferenceData } from './study-zip.ts';

export const FILE_PROCESS_JOB_KIND = 'fileprocess';

export type FileProcessRecord = typeof fileProcesses.$inferSelect;
export type TaskRecord = typeof jobResults.$inferSelect;

/** Tree nodes as stored: the API's nodes plus each file's size. */
export type StoredNode = FileTreeNode & { size?: number; children?: StoredNode[] };

export function createFileProcessRepository(db: Db) {
  return {
    async create(values: typeof fileProcesses.$inferInsert): Promise<FileProcessRecord> {
      const [row] = await db.insert(fileProcesses).values(values).returning();
      return row as FileProcessRecord;
    },

    /** Every upload, newest first; only the user's own when a user is named. */
    async list(userId?: number): Promise<FileProcessRecord[]> {
      return db
        .select()
        .from(fileProcesses)
        .where(userId === undefined ? undefined : eq(fileProcesses.userId, userId))
        .orderBy(desc(fileProcesses.createdAt), desc(fileProcesses.id));
    },

    async get(id: number): Promise<FileProcessRecord | undefined> {
      const [row] = await db.select().from(fileProcesses).where(eq(fileProcesses.id, id));
      return row;
    },

    async update(id: number, values: Partial<typeof fileProcesses.$inferInsert>): Promise<void> {
      await db
        .update(fileProcesses)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(fileProcesses.id, id));
    },

    /** Moves the process from one of `from` to `to`; false when it was in none of them. */
    async moveStatus(
      id: number,
      from: FileProcessStatus[],
      values: Partial<typeof fileProcesses.$inferInsert>,
    ): Promise<boolean> {
      const rows = await db
        .update(fileProcesses)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(fileProcesses.id, id), inArray(fileProcesses.status, from)))
        .returning({ id: fileProcesses.id });
      return rows.length > 0;
    },

    /** The processes of a user whose files are still kept (for the storage quota). */
    async keptOf(userId: number, removedMessage: string): Promise<FileProcessRecord[]> {
      return db
        .select()
        .from(fileProcesses)
        .where(
          and(
            eq(fileProcesses.userId, userId),
            or(isNull(fileProcesses.message), ne(fileProcesses.message, removedMessage)),
          ),
        );
    },

    /** Ended processes last changed before `before` whose files are still kept. */
    async endedBefore(before: Date, removedMessage: string): Promise<FileProcessRecord[]> {
      return db
        .select()
        .from(fileProcesses)
        .where(
          and(
            inArray(fileProcesses.status, ['SUCCEED', 'ERRORED']),
            lt(fileProcesses.updatedAt, before),
            or(isNull(fileProcesses.message), ne(fileProcesses.message, removedMessage)),
          ),
        );
    },

    /** Processes still on their way (not SUCCEED or ERRORED). */
    async unfinished(): Promise<FileProcessRecord[]> {
      return db
        .select()
        .from(fileProcesses)
        .where(inArray(fileProcesses.status, ['UPLOADED', 'UNPACKED', 'VALIDATED', 'INJECTED']));
    },

    async queueTask(task: { id: string; userId: number; processId: number; now: Date }): Promise<void> {
      await db.insert(jobResults).values({
        id: task.id,
        userId: task.userId,
        kind: FILE_PROCESS_JOB_KIND,
        status: 'PENDING',
        progress: 0,
        result: { file_process_id: task.processId },
        createdAt: task.now,
        updatedAt: task.now,
      });
    },

    async task(id: string): Promise<TaskRecord | undefined> {
      const [row] = await db
        .select()
        .from(jobResults)
        .where(and(eq(jobResults.id, id), eq(jobResults.kind, FILE_PROCESS_JOB_KIND)));
      return row;
    },

    /** Progress of a running task; false when it has already ended. */
    async progressTask(id: string, progress: number): Promise<boolean> {
      const rows = await db
        .update(jobResults)
        .set({ status: 'STARTED', progress, updatedAt: new Date() })
        .where(and(eq(jobResults.id, id), inArray(jobResults.status, ['PENDING', 'STARTED'])))
        .returning({ id: jobResults.id });
      return rows.length > 0;
    },

    async endTask(
      id: string,
      outcome: { result: Record<string, unknown> } | { error: string },
    ): Promise<void> {
      await db
        .update(jobResults)
        .set(
          'error' in outcome
            ? { status: 'FAILURE', error: outcome.error, updatedAt: new Date() }
            : { status: 'SUCCESS', progress: 100, result: outcome.result, updatedAt: new Date() },
        )
        .where(and(eq(jobResults.id, id), inArray(jobResults.status, ['PENDING', 'STARTED'])));
    },

    /** Known clients, regions, countries and categories, the metric catalogue and the library's CMI numbers. */
    async referenceData(lastYear: number): Promise<ReferenceData> {
      const options = await db
        .select({ field: fieldDefinitions.field, value: fieldOptions.value })
        .from(fieldOptions)
        .innerJoin(fieldDefinitions, eq(fieldDefinitions.id, fieldOptions.fieldId))
        .where(
          and(
            eq(fieldDefinitions.fieldGroup, 'metadata'),
            inArray(fieldDefinitions.field, ['client', 'region', 'country', 'category']),
          ),
        );
      const of = (field: string) =>
        new Map(options.filter((o) => o.field === field).map((o) => [o.value.toLowerCase(), o.value]));
      const catalogue = await db
        .select({ id: metrics.id, name: metrics.name, kind: metrics.kind })
        .from(metrics);
      // Every CMI number of the library: a few bytes per study, read once per validation.
      const existing = await db.select({ cmi: studies.cMiNumber }).from(studies);
      return {
        clients: of('client'),
        regions: of('region'),
        countries: of('country'),
        categories: of('category'),
        metrics: new Map(catalogue.map((m) => [m.name.toLowerCase(), { id: m.id, kind: m.kind }])),
        existingCmis: new Set(existing.map((e) => e.cmi.toLowerCase())),
        lastYear,
      };
    },
  };
}

export type FileProcessRepository = ReturnType<typeof createFileProcessRepository>;
