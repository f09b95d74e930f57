/**
 * A study's files: the list and tree (results files, the RDFs, only for admins and users who may
 * download), downloads (users who may download), uploads and version control (admins).
 *
 * Nothing is ever overwritten: an upload stores its bytes under a fresh storage key, then records a
 * new version in one transaction (the previous version stays in the history); if that transaction
 * fails, the stored bytes are removed again. A swap only changes which version is current.
 *
 * Uploads run as jobs on the queue (jobs/queue.ts). The request refuses what it can see at once
 * (no file, empty, too large, wrong type for the folder) with 400 and stores nothing; otherwise it
 * stores the bytes under a fresh key, records the job row (queued) and queues the job. The worker
 * (study-files.jobs.ts) marks it started, checks the file and records the version, ending the job
 * row in the same transaction. The request waits up to UPLOAD_WAIT_MS for its job, so a quick
 * upload answers finished or failed at the first poll; a slower one shows queued or started to the
 * poller. An exception in the worker removes the stored bytes and fails the job with a clear
 * high_msg: nothing is half stored.
 *
 * Content checks (file-validation.ts) give each upload its errors[]. Warnings only: the version
 * becomes current and keeps its warnings (job finished). Any error: the version is stored with
 * status failed so its errors can be read in the tree and the version history, the current file
 * stays the previous good one (a new file gets no current version) and the job answers failed with
 * a high_msg naming the first error. The files page tree shows, per file, the problems of its
 * current version and, when the file's newest upload failed, that upload's errors too. A failed
 * version cannot be made current by a swap (400 with the reason): it was refused for its errors.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  STUDY_MESSAGES,
  STUDY_UPLOAD_MAX_BYTES,
  extensionsForFolder,
  type StudyFileEntry,
  type StudyFileNode,
  type StudyFolder,
  type StudyUploadFields,
  type SwapVersionRequest,
  type SwapVersionResponse,
  type UploadJobStatus,
  type UploadStartedResponse,
  type VersionHistoryResponse,
} from '@accord/contracts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { studyByIdScope } from '../../lib/client-scope.ts';
import { errors } from '../../lib/errors.ts';
import type { StudyFieldChange } from '../../lib/study-history.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { FileRecord, FileType, StudyFilesRepository, VersionRecord } from './study-files.repository.ts';
import { displayFileName } from '../../lib/file-names.ts';
import { validateStudyFileOffThread } from '../../workers/pool.ts';
import { hasBlockingErrors, VALIDATION_EVENT } from './file-validation.ts';
import {
  foreignToStudy,
  isResultsDataCsv,
  readResultsRows,
  replaceResultsAnswers,
  studyResultsContext,
  type ResultsRows,
} from './results-replacement.ts';
import type { Tx } from './study.repository.ts';
import { errorsOf, presentFileEntry, presentFileTree, presentVersionHistory } from './study.presenter.ts';
import type { StudyRepository } from './study.repository.ts';

export const FILE_MESSAGES = {
  noSuchFile: 'No such file in this study.',
  noSuchVersion: 'No such version of this file.',
  resultsForbidden: 'Results files (RDF) are available to admins and users who may download.',
  downloadForbidden: 'You may not download files.',
  missingBytes: 'The stored file is missing.',
  typeMismatch: (name: string, type: string) => `${name} is a ${type} file.`,
  uploadedWithWarnings: (name: string, count: number) =>
    `Uploaded ${name} with ${count} warning${count === 1 ? '' : 's'}.`,
  checking: (name: string) => `${name} is being checked.`,
  processingFailed: (name: string) =>
    `${name} could not be processed, so nothing was stored. The current file was kept; try the upload again.`,
  failedVersion: (name: string, firstError: string | null) =>
    `${name} cannot be made the current file: it failed its checks${firstError ? ` (${firstError})` : ''}. Upload a corrected file instead.`,
  foreignVersion: (problems: readonly string[]) =>
    `This version cannot be made the current file: ${problems.join('; ')}.`,
  rejected: (name: string, firstError: string, count: number) =>
    `${name} was not accepted: ${firstError}${count > 1 ? ` (and ${count - 1} more error${count > 2 ? 's' : ''})` : ''}. The current file was kept.`,
} as const;

/** A swap refused inside its transaction: the chosen results file is not the study's. */
class ForeignResults extends Error {}

/** The answers and statistics of the study follow its results data file that became current. */
async function followResults(tx: Tx, studyId: number, fileId: number, table: ResultsRows): Promise<void> {
  const context = await studyResultsContext(tx, studyId, fileId);
  if (context) await replaceResultsAnswers(tx, studyId, table, context);
}

const ALL_TYPES: FileType[] = ['report', 'questionnaire', 'protocol', 'screener', 'RDF'];

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

export function contentTypeOf(fileName: string): string {
  return CONTENT_TYPES[extensionOf(fileName)] ?? 'application/octet-stream';
}

export function extensionOf(fileName: string): string {
  return path.extname(fileName).replace(/^\./, '').toLowerCase();
}

/** A file to send: its name, type, size and bytes. */
export interface Download {
  fileName: string;
  contentType: string;
  size: number;
  stream: Readable;
}

/** An uploaded file part as the route read it. */
export interface UploadedFile {
  fileName: string;
  bytes: Buffer;
  /** The part went over the size limit (its bytes were cut). */
  truncated: boolean;
}

const JOB_STATUS: Record<string, UploadJobStatus['status']> = {
  PENDING: 'queued',
  STARTED: 'started',
  SUCCESS: 'finished',
  FAILURE: 'failed',
  REVOKED: 'failed',
};

/** What the upload worker needs to finish an upload (the pg-boss job's data). */
export interface UploadJob {
  jobId: string;
  studyId: number;
  userId: number;
  userEmail: string;
  folder: StudyFolder;
  fileType: FileType;
  slotName: string;
  extension: string;
  versionName: string;
  /** Where the request stored the bytes; the version keeps them there. */
  storageKey: string;
  size: number;
  /** When the upload was made (the version's and the history row's time). */
  uploadedAt: string;
}

/** The pg-boss queue of study file uploads. */
export const STUDY_UPLOAD_QUEUE = 'study-file-upload';

/** An upload request waits this long for its job, so a quick job answers at the first poll. */
export const UPLOAD_WAIT_MS = 1500;

const versionLabel = (version: VersionRecord | undefined) =>
  version ? `${version.name} (version ${version.id}, ${version.createdAt.toISOString()})` : null;

export function createStudyFilesService(deps: {
  studies: StudyRepository;
  files: StudyFilesRepository;
  storage: FileStorage;
  clock: Clock;
  jobs: JobQueue;
  maxUploadBytes?: number;
  /** How long an upload request waits for its job before answering it queued or started. */
  uploadWaitMs?: number;
}) {
  const { files, storage } = deps;
  const uploadWaitMs = deps.uploadWaitMs ?? UPLOAD_WAIT_MS;
  const maxBytes = deps.maxUploadBytes ?? STUDY_UPLOAD_MAX_BYTES;
  const maySeeResults = (user: AuthUser) => user.permissions.isAdmin || user.permissions.allowDownload;
  const visibleTypes = (user: AuthUser) => ALL_TYPES.filter((type) => type !== 'RDF' || maySeeResults(user));

  async function visibleStudy(user: AuthUser, id: number) {
    const study = await deps.studies.findStudy(id, studyByIdScope(user));
    if (!study) throw errors.notFound(`Study ${id} does not exist.`);
    return study;
  }

  /** A file of a visible study that the user may see; RDFs are hidden (404) from the others. */
  function checkVisible(user: AuthUser, file: FileRecord | undefined): FileRecord {
    if (!file || (file.fileType === 'RDF' && !maySeeResults(user)))
      throw errors.notFound(FILE_MESSAGES.noSuchFile);
    return file;
  }

  async function download(user: AuthUser, file: FileRecord): Promise<Download> {
    if (!user.permissions.allowDownload) throw errors.forbidden(FILE_MESSAGES.downloadForbidden);
    if (!file.storageKey || !(await storage.exists(file.storageKey)))
      throw errors.notFound(FILE_MESSAGES.missingBytes);
    const fileName = file.versionName ?? file.name;
    return {
      fileName,
      contentType: contentTypeOf(fileName),
      size: await storage.size(file.storageKey),
      stream: storage.stream(file.storageKey),
    };
  }

  async function fileInFolder(user: AuthUser, studyId: number, name: string, folder: StudyFolder) {
    await visibleStudy(user, studyId);
    return checkVisible(user, await files.fileByName(studyId, name, studyByIdScope(user), folder));
  }

  async function history(file: FileRecord): Promise<VersionHistoryResponse> {
    return presentVersionHistory(file, await files.versionsOf(file.id));
  }

  async function uploadStatus(user: AuthUser, studyId: number, jobId: string): Promise<UploadJobStatus> {
    const job = await deps.studies.findJob(jobId, user.id);
    const result = (job?.result ?? {}) as { study_id?: number; filename?: string; high_msg?: string };
    if (!job || result.study_id !== studyId) throw errors.notFound(STUDY_MESSAGES.noSuchJob);
    return {
      status: JOB_STATUS[job.status] ?? 'failed',
      filename: result.filename ?? '',
      high_msg: result.high_msg ?? job.error ?? (job.status === 'FAILURE' ? STUDY_MESSAGES.uploadFailed : ''),
    };
  }

  return {
    async list(user: AuthUser, studyId: number): Promise<StudyFileEntry[]> {
      await visibleStudy(user, studyId);
      return (await files.filesOf(studyId, studyByIdScope(user), visibleTypes(user))).map(presentFileEntry);
    },

    async tree(user: AuthUser, studyId: number): Promise<StudyFileNode> {
      const study = await visibleStudy(user, studyId);
      const rows = await files.filesOf(studyId, studyByIdScope(user), visibleTypes(user));
      const newest = new Map(
        (await files.newestVersions(rows.map((row) => row.id))).map((version) => [version.fileId, version]),
      );
      // A failed newest upload shows its errors beside those of the current version.
      const withFailedUpload = rows.map((row) => {
        const latest = newest.get(row.id);
        if (!latest || latest.status !== 'failed' || latest.id === row.currentVersionId) return row;
        const current = Array.isArray(row.errors) ? (row.errors as unknown[]) : [];
        const failed = Array.isArray(latest.errors) ? (latest.errors as unknown[]) : [];
        return { ...row, errors: [...failed, ...current] };
      });
      return presentFileTree(study.cMiNumber, withFailedUpload);
    },

    async downloadById(user: AuthUser, studyId: number, fileId: number): Promise<Download> {
      await visibleStudy(user, studyId);
      return download(user, checkVisible(user, await files.fileById(studyId, fileId, studyByIdScope(user))));
    },

    async downloadByName(user: AuthUser, studyId: number, fileName: string): Promise<Download> {
      await visibleStudy(user, studyId);
      return download(
        user,
        checkVisible(user, await files.fileByName(studyId, fileName, studyByIdScope(user))),
      );
    },

    /**
     * Stores an uploaded file as the new current version of `fields.filename` in the folder (a new
     * file when the folder has none of that name). Refused with 400, storing nothing, when the file
     * is missing, empty, too large or of a type the folder does not take. A file whose contents fail
     * the checks is stored as a failed version and does not become current (see the module note).
     */
    async upload(
      user: AuthUser,
      studyId: number,
      fields: StudyUploadFields,
      file: UploadedFile | undefined,
    ): Promise<UploadStartedResponse> {
      await visibleStudy(user, studyId);
      const fail = (field: string, message: string) => errors.badRequest(message, [{ path: field, message }]);
      if (!file) throw fail('file', STUDY_MESSAGES.noFile);
      if (file.truncated || file.bytes.length > maxBytes)
        throw fail('file', STUDY_MESSAGES.tooLarge(Math.round(maxBytes / 1024 / 1024)));
      if (file.bytes.length === 0) throw fail('file', STUDY_MESSAGES.emptyFile);
      const versionName = displayFileName(file.fileName);
      const extension = extensionOf(versionName);
      const allowed = extensionsForFolder(fields.foldertype);
      if (!allowed.includes(extension))
        throw fail('file', STUDY_MESSAGES.wrongExtension(fields.foldertype, extension || '(none)', allowed));
      if ((fields.foldertype === 'results') !== (fields.filetype === 'RDF'))
        throw fail('filetype', `The ${fields.foldertype} folder does not hold ${fields.filetype} files.`);
      const slotName = fields.filename || versionName;
      const existing = await files.fileByName(studyId, slotName, studyByIdScope(user), fields.foldertype);
      if (existing && existing.fileType !== fields.filetype)
        throw fail('filetype', FILE_MESSAGES.typeMismatch(slotName, existing.fileType));

      const jobId = randomUUID();
      const job: UploadJob = {
        jobId,
        studyId,
        userId: user.id,
        userEmail: user.email,
        folder: fields.foldertype,
        fileType: fields.filetype,
        slotName,
        extension,
        versionName,
        storageKey: `studies/${studyId}/${fields.foldertype}/uploads/${jobId}/${versionName}`,
        size: file.bytes.length,
        uploadedAt: deps.clock.now().toISOString(),
      };
      // The bytes wait in their final place; the worker removes them again if it cannot finish.
      await storage.put(job.storageKey, file.bytes);
      try {
        await files.queueUploadJob({
          id: jobId,
          userId: user.id,
          studyId,
          filename: versionName,
          now: deps.clock.now(),
        });
        try {
          await deps.jobs.enqueue(STUDY_UPLOAD_QUEUE, jobId, job);
        } catch (error) {
          await files.dropUploadJob(jobId);
          throw error;
        }
      } catch (error) {
        await storage.remove(job.storageKey).catch(() => undefined);
        throw error;
      }
      // A quick job answers its final state at once (and at the first poll); a slow one is polled.
      await deps.jobs.settled(jobId, uploadWaitMs, { check: () => files.uploadJobEnded(jobId) });
      const status = await uploadStatus(user, studyId, jobId);
      return {
        job_id: jobId,
        message:
          status.status === 'queued' || status.status === 'started'
            ? FILE_MESSAGES.checking(versionName)
            : status.high_msg,
      };
    },

    /**
     * The upload worker: checks the staged file (file-validation.ts) and records it as a version
     * (see the module note), ending the job finished or failed. An exception on the way removes the
     * staged bytes and fails the job with a clear message; nothing is half stored.
     */
    async processUpload(job: UploadJob): Promise<void> {
      if (!(await files.startUploadJob(job.jobId))) return;
      try {
        const bytes = await storage.get(job.storageKey);
        const found = await validateStudyFileOffThread({
          bytes,
          fileName: job.versionName,
          slotName: job.slotName,
          folder: job.folder,
        });
        // A results data file must be the study's own: refused, naming what differs, when it is not.
        let table: ResultsRows | null = null;
        if (job.folder === 'results' && isResultsDataCsv(job.slotName) && !hasBlockingErrors(found)) {
          table = readResultsRows(bytes, job.versionName);
          const context = table ? await files.resultsContext(job.studyId, job.slotName) : null;
          if (table && context) {
            const foreign = foreignToStudy(job.versionName, job.slotName, table, context);
            found.unshift(
              ...foreign.map((message, index) => ({
                id: index + 1,
                level: 'error' as const,
                high_msg: message,
                msg: message,
                event: VALIDATION_EVENT,
                error_file: job.versionName,
              })),
            );
            found.forEach((item, index) => (item.id = index + 1));
          }
        }
        const failed = hasBlockingErrors(found);
        const firstError = found.find((item) => item.level === 'error');
        const errorCount = found.filter((item) => item.level === 'error').length;
        const highMessage = firstError
          ? FILE_MESSAGES.rejected(job.versionName, firstError.high_msg, errorCount)
          : found.length > 0
            ? FILE_MESSAGES.uploadedWithWarnings(job.versionName, found.length)
            : STUDY_MESSAGES.uploaded(job.versionName);
        await files.addVersion(
          {
            studyId: job.studyId,
            folder: job.folder,
            fileType: job.fileType,
            slotName: job.slotName,
            extension: job.extension,
            versionName: job.versionName,
            storageKey: job.storageKey,
            size: job.size,
            errors: found,
            status: failed ? 'failed' : 'success',
            jobId: job.jobId,
            highMessage,
          },
          { userId: job.userId, userEmail: job.userEmail, now: new Date(job.uploadedAt) },
          (previous, added): StudyFieldChange[] => [
            {
              field: `file ${job.folder}/${job.slotName}`,
              old_value: versionLabel(previous),
              new_value: versionLabel(added),
            },
          ],
          // The analytics follow the results file that becomes current (its answers and statistics).
          table ? (tx, fileId) => followResults(tx, job.studyId, fileId, table) : undefined,
        );
      } catch (error) {
        console.error(`upload job ${job.jobId} failed:`, error);
        await storage.remove(job.storageKey).catch(() => undefined);
        await files.failUploadJob(job.jobId, {
          studyId: job.studyId,
          filename: job.versionName,
          highMessage: FILE_MESSAGES.processingFailed(job.versionName),
        });
      }
    },

    uploadStatus,

    async versionHistory(user: AuthUser, studyId: number, fileName: string, folder: StudyFolder) {
      return history(await fileInFolder(user, studyId, fileName, folder));
    },

    /** Makes a version current (admins); the history records the swap. */
    async swapVersion(
      user: AuthUser,
      studyId: number,
      fileName: string,
      versionId: number,
      body: SwapVersionRequest,
    ): Promise<SwapVersionResponse> {
      const file = await fileInFolder(user, studyId, fileName, body.foldertype);
      if (file.fileType !== body.filetype)
        throw errors.badRequest(FILE_MESSAGES.typeMismatch(file.name, file.fileType), [
          { path: 'filetype', message: FILE_MESSAGES.typeMismatch(file.name, file.fileType) },
        ]);
      let chosenName = '';
      let foreign: string[] = [];
      const swapped = await files
        .swapVersion(
          studyId,
          file.id,
          versionId,
          { userId: user.id, userEmail: user.email, now: deps.clock.now() },
          (previous, chosen) => {
            chosenName = chosen.name;
            return [
              {
                field: `file ${file.folder}/${file.name}`,
                old_value: versionLabel(previous),
                new_value: versionLabel(chosen),
              },
            ];
          },
          // A results data file made current again: checked against the study, then followed.
          file.folder === 'results' && isResultsDataCsv(file.name)
            ? async (tx, slot, chosen) => {
                const table = readResultsRows(await storage.get(chosen.storageKey), chosen.name);
                if (!table) return;
                const context = await studyResultsContext(tx, studyId, slot.id);
                if (!context) return;
                foreign = foreignToStudy(chosen.name, slot.name, table, context);
                if (foreign.length > 0) throw new ForeignResults();
                await replaceResultsAnswers(tx, studyId, table, context);
              }
            : undefined,
        )
        .catch((error: unknown) => {
          if (error instanceof ForeignResults) return 'foreign' as const;
          throw error;
        });
      if (swapped === 'foreign') {
        const message = FILE_MESSAGES.foreignVersion(foreign);
        throw errors.badRequest(message, [{ path: 'versionId', message }]);
      }
      if (swapped === 'missing') throw errors.notFound(FILE_MESSAGES.noSuchVersion);
      if (swapped !== 'swapped') {
        const firstError = errorsOf(swapped.failed.errors).find((entry) => entry.level === 'error');
        const message = FILE_MESSAGES.failedVersion(swapped.failed.name, firstError?.high_msg ?? null);
        throw errors.badRequest(message, [{ path: 'versionId', message }]);
      }
      const refreshed = checkVisible(user, await files.fileById(studyId, file.id, studyByIdScope(user)));
      return {
        message: STUDY_MESSAGES.swapped(chosenName || (refreshed.versionName ?? file.name)),
        ...(await history(refreshed)),
      };
    },
  };
}

export type StudyFilesService = ReturnType<typeof createStudyFilesService>;
