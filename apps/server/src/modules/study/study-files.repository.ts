/**
 * The SQL of a study's files: the file list with each file's current version, the versions of one
 * file, a new version from an upload and a swap of the current version. Writes run in one
 * transaction with their history row (and, for uploads, the final state of the job row the status
 * polling reads). Upload job rows: queued by the request, started and ended by the worker.
 */
import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { jobResults, studies, studyFiles, studyFileVersions } from '../../db/schema.ts';
import { recordStudyEdits, type StudyEditAudit, type StudyFieldChange } from '../../lib/study-history.ts';
import type { Tx } from './study.repository.ts';
import { studyResultsContext, type StudyResultsContext } from './results-replacement.ts';

export type FileType = (typeof studyFiles.$inferSelect)['fileType'];
export type VersionRecord = typeof studyFileVersions.$inferSelect;

const fileColumns = {
  id: studyFiles.id,
  studyId: studyFiles.studyId,
  fileType: studyFiles.fileType,
  folder: studyFiles.folder,
  name: studyFiles.name,
  extension: studyFiles.extension,
  currentVersionId: studyFiles.currentVersionId,
  createdAt: studyFiles.createdAt,
  versionName: studyFileVersions.name,
  storageKey: studyFileVersions.storageKey,
  size: studyFileVersions.size,
  status: studyFileVersions.status,
  errors: studyFileVersions.errors,
  versionDate: studyFileVersions.createdAt,
};

export type FileRecord = {
  id: number;
  studyId: number;
  fileType: FileType;
  folder: string;
  name: string;
  extension: string;
  currentVersionId: number | null;
  createdAt: Date;
  versionName: string | null;
  storageKey: string | null;
  size: number | null;
  status: 'success' | 'failed' | null;
  errors: unknown;
  versionDate: Date | null;
};

/** What an upload writes once the bytes are stored. */
export interface NewVersion {
  studyId: number;
  folder: string;
  fileType: FileType;
  /** Name of the file slot the version belongs to (created when the folder has none). */
  slotName: string;
  extension: string;
  versionName: string;
  storageKey: string;
  size: number;
  /** The content checks' findings (file-validation.ts). */
  errors: unknown[];
  /** failed: the checks found errors; the version is kept but does not become current. */
  status: 'success' | 'failed';
  jobId: string;
  highMessage: string;
}

/** The kind of the job_results rows of uploads (the status call reads only these). */
export const UPLOAD_JOB_KIND = 'study-file-upload';

export function createStudyFilesRepository(db: Db) {
  const withCurrent = () =>
    db
      .select(fileColumns)
      .from(studyFiles)
      .innerJoin(studies, eq(studies.id, studyFiles.studyId))
      .leftJoin(studyFileVersions, eq(studyFileVersions.id, studyFiles.currentVersionId))
      .$dynamic();

  async function lockFile(tx: Tx, studyId: number, folder: string, name: string) {
    const [row] = await tx
      .select()
      .from(studyFiles)
      .where(and(eq(studyFiles.studyId, studyId), eq(studyFiles.folder, folder), eq(studyFiles.name, name)))
      .orderBy(asc(studyFiles.id))
      .limit(1)
      .for('update');
    return row;
  }

  return {
    /** What a results file of the study must match: the study, its products, respondents and questions. */
    async resultsContext(studyId: number, slotName: string): Promise<StudyResultsContext | null> {
      const [file] = await db
        .select({ id: studyFiles.id })
        .from(studyFiles)
        .where(
          and(
            eq(studyFiles.studyId, studyId),
            eq(studyFiles.folder, 'results'),
            eq(studyFiles.name, slotName),
          ),
        )
        .orderBy(asc(studyFiles.id))
        .limit(1);
      return studyResultsContext(db, studyId, file?.id ?? null);
    },

    /** Files of a visible study of the given types, with their current version, by folder and name. */
    async filesOf(studyId: number, scope: SQL, types: FileType[]): Promise<FileRecord[]> {
      if (types.length === 0) return [];
      return withCurrent()
        .where(and(eq(studyFiles.studyId, studyId), scope, inArray(studyFiles.fileType, types)))
        .orderBy(asc(studyFiles.folder), asc(studyFiles.name), asc(studyFiles.id));
    },

    async fileById(studyId: number, fileId: number, scope: SQL): Promise<FileRecord | undefined> {
      const [row] = await withCurrent().where(
        and(eq(studyFiles.studyId, studyId), eq(studyFiles.id, fileId), scope),
      );
      return row;
    },

    /** The file of that name (in that folder, when given); the oldest when names repeat. */
    async fileByName(
      studyId: number,
      name: string,
      scope: SQL,
      folder?: string,
    ): Promise<FileRecord | undefined> {
      const [row] = await withCurrent()
        .where(
          and(
            eq(studyFiles.studyId, studyId),
            eq(studyFiles.name, name),
            folder ? eq(studyFiles.folder, folder) : undefined,
            scope,
          ),
        )
        .orderBy(asc(studyFiles.id))
        .limit(1);
      return row;
    },

    /** Every version of a file, newest first. */
    async versionsOf(fileId: number): Promise<VersionRecord[]> {
      return db
        .select()
        .from(studyFileVersions)
        .where(eq(studyFileVersions.fileId, fileId))
        .orderBy(desc(studyFileVersions.createdAt), desc(studyFileVersions.id));
    },

    /** The newest version of each of the files (by upload order). */
    async newestVersions(fileIds: number[]): Promise<VersionRecord[]> {
      if (fileIds.length === 0) return [];
      return db
        .selectDistinctOn([studyFileVersions.fileId])
        .from(studyFileVersions)
        .where(inArray(studyFileVersions.fileId, fileIds))
        .orderBy(asc(studyFileVersions.fileId), desc(studyFileVersions.id));
    },

    /**
     * Records an uploaded version in one transaction: the file slot (created if new), the version,
     * the job and, when the version passed its checks, the slot's current version and the history
     * row. A failed version is kept for the user to see why, but the current version stays as it
     * was (a new slot then has none). `describe` names the old and new current versions.
     */
    async addVersion(
      version: NewVersion,
      audit: StudyEditAudit,
      describe: (previous: VersionRecord | undefined, added: VersionRecord) => StudyFieldChange[],
      /** Run in the transaction when the version becomes current (the analytics of a results file). */
      onCurrent?: (tx: Tx, fileId: number) => Promise<void>,
    ): Promise<VersionRecord> {
      return db.transaction(async (tx) => {
        let file = await lockFile(tx, version.studyId, version.folder, version.slotName);
        if (!file) {
          [file] = await tx
            .insert(studyFiles)
            .values({
              studyId: version.studyId,
              fileType: version.fileType,
              folder: version.folder,
              name: version.slotName,
              extension: version.extension,
              createdAt: audit.now,
            })
            .returning();
        }
        if (!file) throw new Error('study file slot was not created');
        const [previous] =
          file.currentVersionId === null
            ? []
            : await tx
                .select()
                .from(studyFileVersions)
                .where(eq(studyFileVersions.id, file.currentVersionId));
        const [added] = await tx
          .insert(studyFileVersions)
          .values({
            fileId: file.id,
            name: version.versionName,
            storageKey: version.storageKey,
            size: version.size,
            status: version.status,
            errors: version.errors,
            uploadedBy: audit.userId,
            createdAt: audit.now,
          })
          .returning();
        if (!added) throw new Error('file version was not created');
        if (version.status === 'success') {
          await tx
            .update(studyFiles)
            .set({ currentVersionId: added.id, extension: version.extension })
            .where(eq(studyFiles.id, file.id));
          await tx.update(studies).set({ updatedAt: audit.now }).where(eq(studies.id, version.studyId));
          await recordStudyEdits(tx, audit, [
            { studyId: version.studyId, type: 'study', changes: describe(previous, added) },
          ]);
          if (onCurrent) await onCurrent(tx, file.id);
        }
        const [ended] = await tx
          .update(jobResults)
          .set({
            status: version.status === 'success' ? 'SUCCESS' : 'FAILURE',
            progress: 100,
            result: {
              study_id: version.studyId,
              filename: version.versionName,
              high_msg: version.highMessage,
            },
            updatedAt: new Date(),
          })
          .where(and(eq(jobResults.id, version.jobId), inArray(jobResults.status, ['PENDING', 'STARTED'])))
          .returning({ id: jobResults.id });
        // The job was ended meanwhile (or removed): store nothing.
        if (!ended) throw new Error(`upload job ${version.jobId} is no longer running`);
        return added;
      });
    },

    /** Records a queued upload job (PENDING) of the user. */
    async queueUploadJob(job: { id: string; userId: number; studyId: number; filename: string; now: Date }) {
      await db.insert(jobResults).values({
        id: job.id,
        userId: job.userId,
        kind: UPLOAD_JOB_KIND,
        status: 'PENDING',
        progress: 0,
        result: { study_id: job.studyId, filename: job.filename, high_msg: '' },
        createdAt: job.now,
        updatedAt: job.now,
      });
    },

    /** Marks a queued (or interrupted) upload job started; false when it has already ended or is gone. */
    async startUploadJob(id: string): Promise<boolean> {
      const rows = await db
        .update(jobResults)
        .set({ status: 'STARTED', progress: 10, updatedAt: new Date() })
        .where(
          and(
            eq(jobResults.id, id),
            eq(jobResults.kind, UPLOAD_JOB_KIND),
            inArray(jobResults.status, ['PENDING', 'STARTED']),
          ),
        )
        .returning({ id: jobResults.id });
      return rows.length > 0;
    },

    /** Ends a running upload job as failed with the message the poller shows. */
    async failUploadJob(id: string, job: { studyId: number; filename: string; highMessage: string }) {
      await db
        .update(jobResults)
        .set({
          status: 'FAILURE',
          progress: 100,
          result: { study_id: job.studyId, filename: job.filename, high_msg: job.highMessage },
          error: job.highMessage,
          updatedAt: new Date(),
        })
        .where(and(eq(jobResults.id, id), inArray(jobResults.status, ['PENDING', 'STARTED'])));
    },

    /** Removes a job row that never reached the queue. */
    async dropUploadJob(id: string) {
      await db.delete(jobResults).where(and(eq(jobResults.id, id), eq(jobResults.kind, UPLOAD_JOB_KIND)));
    },

    /** Whether the upload job has ended (finished or failed). */
    async uploadJobEnded(id: string): Promise<boolean> {
      const [row] = await db
        .select({ status: jobResults.status })
        .from(jobResults)
        .where(eq(jobResults.id, id));
      return !row || row.status === 'SUCCESS' || row.status === 'FAILURE' || row.status === 'REVOKED';
    },

    /**
     * Makes a version of the file current, in one transaction with its history row. Answers
     * 'missing' when the version is not one of the file's and 'failed' (changing nothing) when the
     * version failed its checks.
     */
    async swapVersion(
      studyId: number,
      fileId: number,
      versionId: number,
      audit: StudyEditAudit,
      describe: (previous: VersionRecord | undefined, chosen: VersionRecord) => StudyFieldChange[],
      /** Run in the transaction when the chosen version becomes current; it may refuse it by throwing. */
      onCurrent?: (tx: Tx, file: typeof studyFiles.$inferSelect, chosen: VersionRecord) => Promise<void>,
    ): Promise<'swapped' | 'missing' | { failed: VersionRecord }> {
      return db.transaction(async (tx) => {
        const [file] = await tx.select().from(studyFiles).where(eq(studyFiles.id, fileId)).for('update');
        if (!file) return 'missing';
        const [chosen] = await tx
          .select()
          .from(studyFileVersions)
          .where(and(eq(studyFileVersions.id, versionId), eq(studyFileVersions.fileId, fileId)));
        if (!chosen) return 'missing';
        if (file.currentVersionId === chosen.id) return 'swapped';
        if (chosen.status === 'failed') return { failed: chosen };
        const [previous] =
          file.currentVersionId === null
            ? []
            : await tx
                .select()
                .from(studyFileVersions)
                .where(eq(studyFileVersions.id, file.currentVersionId));
        const extension = chosen.name.includes('.')
          ? chosen.name.split('.').pop()!.toLowerCase()
          : file.extension;
        await tx
          .update(studyFiles)
          .set({ currentVersionId: chosen.id, extension })
          .where(eq(studyFiles.id, fileId));
        await tx.update(studies).set({ updatedAt: audit.now }).where(eq(studies.id, studyId));
        await recordStudyEdits(tx, audit, [{ studyId, type: 'study', changes: describe(previous, chosen) }]);
        if (onCurrent) await onCurrent(tx, file, chosen);
        return 'swapped';
      });
    },
  };
}

export type StudyFilesRepository = ReturnType<typeof createStudyFilesRepository>;
