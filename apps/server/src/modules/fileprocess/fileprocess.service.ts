/**
 * Studies upload and verification (document 3 sections 2.7, 2.8, 4.7).
 *
 * The request refuses what it can see (no file, too large, not a zip, an unsafe zip directory: 400,
 * nothing stored), stores the zip, records the process (UPLOADED) and its task (job_results,
 * PENDING), and queues the task on pg-boss. The worker moves the process step by step, each step
 * a guarded status change, so a task that runs again (a retry after a crash) resumes where the
 * last one stopped:
 *   UPLOADED  -> unpack: every entry checked and inflated into storage       -> UNPACKED
 *   UNPACKED  -> validate (study-zip.ts); any error                          -> ERRORED (errors in the tree)
 *                                                       otherwise           -> VALIDATED
 *   VALIDATED -> inject, one transaction that also sets                      -> INJECTED
 *   INJECTED  ->                                                             -> SUCCEED
 * A failure anywhere ends the process ERRORED with a message for the user and the task FAILURE
 * with the same message. When the server starts, processes left on their way are resumed (their
 * job is still queued, or was interrupted and is retried) or, when no job will run them, end
 * ERRORED with STUDIES_UPLOAD_MESSAGES.restarted; an INJECTED one is already complete and
 * ends SUCCEED. Replacing a file of an ERRORED process and processing it again runs the pipeline
 * from UNPACKED.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  STUDIES_UPLOAD_KEEP_DAYS,
  STUDIES_UPLOAD_MESSAGES,
  STUDIES_UPLOAD_QUOTA_BYTES,
  type FileIssue,
  type FileProcessDetail,
  type FileProcessRow,
  type FileProcessStatus,
  type ProcessStudiesRequest,
  type ProcessStudiesResponse,
  type StudiesUploadFields,
  type StudiesUploadResponse,
} from '@accord/contracts';
import type { Database } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, errors, isDiskFull } from '../../lib/errors.ts';
import { displayFileName } from '../../lib/file-names.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { contentTypeOf, type Download } from '../study/study-files.service.ts';
import type {
  FileProcessRecord,
  FileProcessRepository,
  StoredNode,
  TaskRecord,
} from './fileprocess.repository.ts';
import { injectStudies, removeInjectedStudies, removeOrphanStudyFiles } from './inject.ts';
import { storedFiles, unpackZip, type UnpackedFile } from './unpack.ts';
import {
  parseStudyResultsOffThread,
  UploadMemoryError,
  validateStudiesOffThread,
} from '../../workers/pool.ts';
import type { ValidationResult, ZipFile } from './study-zip.ts';
import { fileSource, formatBytes, looksLikeZip, readZipDirectory, UnsafeZipError } from './zip-reader.ts';

export const FILE_PROCESS_QUEUE = 'studies-upload';

/** The file part of an upload, streamed to a temporary file on disk by the route. */
export interface ReceivedFile {
  fileName: string;
  /** The temporary file (the route removes it after the call). */
  path: string;
  size: number;
}

/** A task with the process it runs, as the status stream reads them. */
export interface TaskState {
  task: TaskRecord;
  process: FileProcessRecord | undefined;
}

/** What the worker needs (the pg-boss job's data). */
export interface FileProcessJob {
  processId: number;
  taskId: string;
  replaceExisting: boolean;
  /** Studies (CMI numbers) replacing the library's study of the same CMI number. */
  replaceCmis?: string[];
  /** The user confirmed studies that differ from the upload form: they are injected as they are. */
  confirmForm?: boolean;
}

/** A process stopped at VALIDATED with a message waits for the user to confirm form differences. */
export function awaitsConfirmation(process: Pick<FileProcessRecord, 'status' | 'message'>): boolean {
  return process.status === 'VALIDATED' && process.message !== null;
}

/** The studies (folders) with a warning that they differ from the upload form. */
function studiesDifferingFromForm(issues: readonly FileIssue[]): number {
  const folders = new Set(
    issues
      .filter((issue) => issue.high_msg === STUDIES_UPLOAD_MESSAGES.formMismatch)
      .map((issue) => issue.path.file.split('/')[0]),
  );
  return folders.size;
}

/** Task progress (percent) once the process has reached each status. */
export const STATUS_PROGRESS: Record<FileProcessStatus, number> = {
  UPLOADED: 10,
  UNPACKED: 35,
  VALIDATED: 60,
  INJECTED: 90,
  SUCCEED: 100,
  ERRORED: 100,
};

const RUNNING: FileProcessStatus[] = ['UPLOADED', 'UNPACKED', 'VALIDATED', 'INJECTED'];

const FAILURE_MESSAGE = 'The studies could not be processed; nothing was added to the library.';

export const validationFailed = (errorCount: number, warningCount: number) =>
  `${errorCount} error${errorCount === 1 ? '' : 's'}${
    warningCount > 0 ? ` and ${warningCount} warning${warningCount === 1 ? '' : 's'}` : ''
  } found in the studies; see the file tree.`;

/** Folder of a process's files in storage. */
const folderOf = (process: FileProcessRecord) => path.posix.dirname(process.storageKey);
const filesPrefix = (process: FileProcessRecord) => `${folderOf(process)}/files`;

/** The tree of the unpacked files, folders first and by name, each node with its problems. */
export function buildTree(files: UnpackedFile[], issues: FileIssue[]): StoredNode[] {
  const root: StoredNode = { type: 'directory', name: '', file_path: '', children: [], errors: [] };
  const byPath = new Map<string, StoredNode>([['', root]]);
  const directory = (dirPath: string): StoredNode => {
    const known = byPath.get(dirPath);
    if (known) return known;
    const parent = directory(path.posix.dirname(dirPath) === '.' ? '' : path.posix.dirname(dirPath));
    const node: StoredNode = {
      type: 'directory',
      name: path.posix.basename(dirPath),
      file_path: dirPath,
      children: [],
      errors: [],
    };
    parent.children?.push(node);
    byPath.set(dirPath, node);
    return node;
  };
  for (const file of files) {
    const parentPath = path.posix.dirname(file.path);
    const node: StoredNode = {
      type: 'file',
      name: path.posix.basename(file.path),
      file_path: file.path,
      size: file.size,
      errors: [],
    };
    directory(parentPath === '.' ? '' : parentPath).children?.push(node);
    byPath.set(file.path, node);
  }
  for (const issue of issues) {
    const node = issue.path.file === '' ? undefined : byPath.get(issue.path.file);
    if (node && node !== root) node.errors.push(issue);
  }
  const sort = (nodes: StoredNode[]) => {
    nodes.sort((a, b) =>
      a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'directory' ? -1 : 1,
    );
    for (const node of nodes) if (node.children) sort(node.children);
  };
  sort(root.children ?? []);
  return root.children ?? [];
}

/** Every file node of a tree. */
export function treeFiles(nodes: StoredNode[]): StoredNode[] {
  return nodes.flatMap((node) => (node.type === 'file' ? [node] : treeFiles(node.children ?? [])));
}

const treeIssues = (nodes: StoredNode[]): FileIssue[] =>
  nodes.flatMap((node) => [...node.errors, ...treeIssues(node.children ?? [])]);

/** The problems of each study folder by the file they concern (the detail's errors). */
function studyErrors(tree: StoredNode[]): FileProcessDetail['errors'] {
  return tree
    .filter((node) => node.type === 'directory')
    .map((folder) => {
      const issues = treeIssues([folder]);
      return {
        path: folder.file_path,
        request_form: issues.filter((i) => i.path.file === `${folder.file_path}/request_form.xlsx`),
        results_file: issues.filter((i) => i.path.file.startsWith(`${folder.file_path}/results/`)),
      };
    })
    .filter((entry) => entry.request_form.length > 0 || entry.results_file.length > 0);
}

/** What leaves the server: the tree without the stored sizes. */
function presentTree(nodes: StoredNode[]): FileProcessDetail['file_process']['file_tree'] {
  return nodes.map((node) => ({
    type: node.type,
    name: node.name,
    file_path: node.file_path,
    ...(node.children ? { children: presentTree(node.children) } : {}),
    errors: node.errors,
  }));
}

export function presentRow(process: FileProcessRecord): FileProcessRow {
  return {
    id: process.id,
    created_at: process.createdAt.toISOString(),
    client: process.client,
    study_type: process.studyType,
    cmi: process.cmi,
    year: process.year,
    region: process.region,
    status: process.status,
  };
}

export interface FileProcessServiceDeps {
  processes: FileProcessRepository;
  database: Database;
  storage: FileStorage;
  clock: Clock;
  jobs: JobQueue;
  /** Bytes one user's uploads may keep in storage (default STUDIES_UPLOAD_QUOTA_BYTES). */
  quotaBytes?: number;
}

export function createFileProcessService(deps: FileProcessServiceDeps) {
  const { processes, storage, clock, jobs, database } = deps;
  const quotaBytes = deps.quotaBytes ?? STUDIES_UPLOAD_QUOTA_BYTES;

  /**
   * The upload as the user may reach it. An upload is private to the user who made it and to
   * admins, as a statistics working folder is: another user's answers 404, as an unknown id does.
   */
  const find = async (user: AuthUser, id: number) => {
    const process = await processes.get(id);
    if (!process || !mayReach(user, process)) throw errors.notFound(STUDIES_UPLOAD_MESSAGES.noSuchProcess);
    return process;
  };
  const mayReach = (user: AuthUser, process: FileProcessRecord) =>
    user.permissions.isAdmin || process.userId === user.id;

  const startTask = async (
    user: AuthUser,
    processId: number,
    replaceExisting: boolean,
    replaceCmis: string[] = [],
    confirmForm = false,
  ) => {
    const taskId = randomUUID();
    await processes.queueTask({ id: taskId, userId: user.id, processId, now: clock.now() });
    return {
      taskId,
      send: () =>
        jobs.enqueue<FileProcessJob>(FILE_PROCESS_QUEUE, taskId, {
          processId,
          taskId,
          replaceExisting,
          replaceCmis,
          confirmForm,
        }),
    };
  };

  /** Checks the zip's directory; answers the bytes its entries declare (what it unpacks to). */
  const checkZipFile = async (file: ReceivedFile | undefined): Promise<number> => {
    if (!file || file.size === 0)
      throw errors.badRequest(STUDIES_UPLOAD_MESSAGES.noFile, [
        { path: 'file', message: STUDIES_UPLOAD_MESSAGES.noFile },
      ]);
    const source = await fileSource(file.path);
    try {
      if (!looksLikeZip(await source.read(0, 4)))
        throw errors.badRequest(STUDIES_UPLOAD_MESSAGES.notZip, [
          { path: 'file', message: STUDIES_UPLOAD_MESSAGES.notZip },
        ]);
      const entries = await readZipDirectory(source);
      return entries.reduce((sum, entry) => sum + entry.size, 0);
    } catch (error) {
      if (error instanceof UnsafeZipError)
        throw errors.badRequest(error.message, [{ path: 'file', message: error.message }]);
      throw error;
    } finally {
      await source.close();
    }
  };

  /** Removes everything an upload keeps in storage (its zip and unpacked files). */
  const removeFiles = async (process: FileProcessRecord) => {
    for await (const entry of storage.list(`${folderOf(process)}/`)) await storage.remove(entry.key);
    await storage.remove(process.storageKey);
  };

  /**
   * Removes the files of uploads that ended more than STUDIES_UPLOAD_KEEP_DAYS ago (succeeded ones are
   * in the library; failed ones were abandoned): their rows stay in the history with a message.
   */
  const removeExpiredFiles = async () => {
    const before = new Date(clock.now().getTime() - STUDIES_UPLOAD_KEEP_DAYS * 24 * 60 * 60 * 1000);
    for (const process of await processes.endedBefore(before, STUDIES_UPLOAD_MESSAGES.filesRemoved)) {
      await removeFiles(process);
      await processes.update(process.id, { message: STUDIES_UPLOAD_MESSAGES.filesRemoved });
    }
  };

  /** Bytes a user's uploads keep in storage now: each kept upload's zip and unpacked files. */
  const storedBytesOf = async (userId: number) => {
    let total = 0;
    for (const process of await processes.keptOf(userId, STUDIES_UPLOAD_MESSAGES.filesRemoved)) {
      total += treeFiles(process.fileTree as StoredNode[]).reduce((sum, node) => sum + (node.size ?? 0), 0);
      if (await storage.exists(process.storageKey)) total += await storage.size(process.storageKey);
    }
    return total;
  };

  /** A process whose files were removed cannot be processed again: its zip is gone. */
  const requireFiles = async (process: FileProcessRecord) => {
    if (!(await storage.exists(process.storageKey)))
      throw errors.conflict(STUDIES_UPLOAD_MESSAGES.filesRemoved);
  };

  /**
   * Unpacks the stored zip into storage (through a temporary copy read at random offsets). When it
   * fails part way (a zip bomb, a full disk), the files it had written are removed again.
   */
  const unpack = async (process: FileProcessRecord): Promise<UnpackedFile[]> => {
    const temporary = path.join(os.tmpdir(), `accord-fileprocess-${process.id}-${randomUUID()}.zip`);
    const written: string[] = [];
    try {
      await pipeline(storage.stream(process.storageKey), createWriteStream(temporary));
      const source = await fileSource(temporary);
      try {
        const prefix = filesPrefix(process);
        return await unpackZip(source, (filePath, content) => {
          written.push(`${prefix}/${filePath}`);
          return storage.putStream(`${prefix}/${filePath}`, content);
        });
      } finally {
        await source.close();
      }
    } catch (error) {
      for (const key of written) await storage.remove(key).catch(() => undefined);
      throw error;
    } finally {
      await rm(temporary, { force: true });
    }
  };

  const filesOf = (process: FileProcessRecord): ZipFile[] => {
    const files = treeFiles(process.fileTree as StoredNode[]).map((node) => ({
      path: node.file_path,
      size: node.size ?? 0,
    }));
    return storedFiles(storage, filesPrefix(process), files);
  };

  const validate = async (process: FileProcessRecord, job: FileProcessJob) => {
    const files = filesOf(process);
    const ref = await processes.referenceData(clock.now().getFullYear());
    const result = await validateStudiesOffThread(files, ref, {
      replaceExisting: job.replaceExisting,
      replaceCmis: job.replaceCmis ?? [],
      form: { client: process.client, region: process.region, year: process.year },
    });
    return { files, result };
  };

  const fail = async (process: FileProcessRecord, taskId: string, message: string, tree?: StoredNode[]) => {
    await processes.moveStatus(process.id, RUNNING, {
      status: 'ERRORED',
      message,
      ...(tree ? { fileTree: tree } : {}),
    });
    await processes.endTask(taskId, { error: message });
  };

  return {
    async upload(
      user: AuthUser,
      fields: StudiesUploadFields,
      upload: ReceivedFile | undefined,
    ): Promise<StudiesUploadResponse> {
      const unpacked = await checkZipFile(upload);
      const file = upload as ReceivedFile;
      await removeExpiredFiles();
      const used = await storedBytesOf(user.id);
      if (used + file.size + unpacked > quotaBytes) {
        const message = STUDIES_UPLOAD_MESSAGES.quotaExceeded(
          formatBytes(used),
          formatBytes(file.size + unpacked),
          formatBytes(quotaBytes),
        );
        throw new AppError(413, 'quota_exceeded', message, [{ path: 'file', message }]);
      }
      const storageKey = `fileprocess/${randomUUID()}/upload.zip`;
      await storage.putStream(storageKey, createReadStream(file.path));
      let process: FileProcessRecord;
      try {
        process = await processes.create({
          userId: user.id,
          client: fields.client,
          studyType: fields.study_type,
          region: fields.region,
          year: fields.year,
          filename: displayFileName(file.fileName, 'studies.zip'),
          storageKey,
          status: 'UPLOADED',
          createdAt: clock.now(),
          updatedAt: clock.now(),
        });
      } catch (error) {
        await storage.remove(storageKey);
        throw error;
      }
      const task = await startTask(user, process.id, false);
      await processes.update(process.id, { taskId: task.taskId });
      await task.send();
      return { task_id: task.taskId, file_process_id: process.id };
    },

    /** The upload history: the user's own uploads, every upload for admins. */
    async list(user: AuthUser): Promise<FileProcessRow[]> {
      return (await processes.list(user.permissions.isAdmin ? undefined : user.id)).map(presentRow);
    },

    async detail(user: AuthUser, id: number): Promise<FileProcessDetail> {
      const process = await find(user, id);
      const tree = process.fileTree as StoredNode[];
      return {
        file_process: {
          ...presentRow(process),
          filename: process.filename,
          has_uploaded_new_file: process.hasUploadedNewFile,
          file_tree: presentTree(tree),
          study_ids: process.studyIds,
          message: process.message,
        },
        errors: studyErrors(tree),
      };
    },

    async replaceFile(
      user: AuthUser,
      id: number,
      filePath: string,
      upload: ReceivedFile | undefined,
    ): Promise<FileProcessDetail> {
      const process = await find(user, id);
      const tree = process.fileTree as StoredNode[];
      const node = treeFiles(tree).find((n) => n.file_path === filePath);
      if (!node) throw errors.notFound(STUDIES_UPLOAD_MESSAGES.noSuchFile);
      if (process.status === 'SUCCEED') throw errors.conflict(STUDIES_UPLOAD_MESSAGES.alreadyInjected);
      if (process.status !== 'ERRORED') throw errors.conflict(STUDIES_UPLOAD_MESSAGES.busy);
      await requireFiles(process);
      if (!upload || upload.size === 0)
        throw errors.badRequest(STUDIES_UPLOAD_MESSAGES.noFile, [
          { path: 'file', message: STUDIES_UPLOAD_MESSAGES.noFile },
        ]);
      node.size = await storage.putStream(
        `${filesPrefix(process)}/${filePath}`,
        createReadStream(upload.path),
      );
      node.errors = [];
      const moved = await processes.moveStatus(id, ['ERRORED'], { fileTree: tree, hasUploadedNewFile: true });
      if (!moved) throw errors.conflict(STUDIES_UPLOAD_MESSAGES.busy);
      return this.detail(user, id);
    },

    async processStudies(
      user: AuthUser,
      id: number,
      body: ProcessStudiesRequest,
    ): Promise<ProcessStudiesResponse> {
      const process = await find(user, id);
      if (process.status === 'SUCCEED') throw errors.conflict(STUDIES_UPLOAD_MESSAGES.alreadyInjected);
      // Studies that differ from the upload form wait at VALIDATED until the user confirms them.
      if (awaitsConfirmation(process)) {
        if (!body.confirm_form) {
          const message = STUDIES_UPLOAD_MESSAGES.confirmForm(
            studiesDifferingFromForm(treeIssues(process.fileTree as StoredNode[])),
          );
          throw errors.badRequest(message, [{ path: 'confirm_form', message }]);
        }
        await requireFiles(process);
        const task = await startTask(user, id, body.replace_existing, body.replace_cmis ?? [], true);
        const moved = await processes.moveStatus(id, ['VALIDATED'], { message: null, taskId: task.taskId });
        if (!moved) {
          await processes.endTask(task.taskId, { error: STUDIES_UPLOAD_MESSAGES.busy });
          throw errors.conflict(STUDIES_UPLOAD_MESSAGES.busy);
        }
        await task.send();
        return { task_id: task.taskId };
      }
      if (process.status !== 'ERRORED') throw errors.conflict(STUDIES_UPLOAD_MESSAGES.busy);
      await requireFiles(process);
      const task = await startTask(
        user,
        id,
        body.replace_existing,
        body.replace_cmis ?? [],
        body.confirm_form,
      );
      // A zip refused while unpacking has no files: it is unpacked again from the start.
      const from = treeFiles(process.fileTree as StoredNode[]).length > 0 ? 'UNPACKED' : 'UPLOADED';
      const moved = await processes.moveStatus(id, ['ERRORED'], {
        status: from,
        hasUploadedNewFile: false,
        message: null,
        taskId: task.taskId,
      });
      if (!moved) {
        await processes.endTask(task.taskId, { error: STUDIES_UPLOAD_MESSAGES.busy });
        throw errors.conflict(STUDIES_UPLOAD_MESSAGES.busy);
      }
      await task.send();
      return { task_id: task.taskId };
    },

    async download(user: AuthUser, id: number, encodedPath: string): Promise<Download> {
      const process = await find(user, id);
      const filePath = Buffer.from(encodedPath.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString(
        'utf8',
      );
      const node = treeFiles(process.fileTree as StoredNode[]).find((n) => n.file_path === filePath);
      if (!node) throw errors.notFound(STUDIES_UPLOAD_MESSAGES.noSuchFile);
      const key = `${filesPrefix(process)}/${filePath}`;
      if (!(await storage.exists(key))) throw errors.notFound(STUDIES_UPLOAD_MESSAGES.noSuchFile);
      return {
        fileName: node.name,
        contentType: contentTypeOf(node.name),
        size: await storage.size(key),
        stream: storage.stream(key),
      };
    },

    /** The task as its owner (or an admin) may read it; 404 otherwise. */
    async task(user: AuthUser, taskId: string): Promise<TaskState> {
      const state = await this.taskState(taskId);
      if (!state || (state.task.userId !== user.id && !user.permissions.isAdmin))
        throw errors.notFound(STUDIES_UPLOAD_MESSAGES.noSuchTask);
      return state;
    },

    /** A task and its process, whoever asks (the status streams' watcher, after task() let them in). */
    async taskState(taskId: string): Promise<TaskState | null> {
      const task = await processes.task(taskId);
      if (!task) return null;
      const processId = Number((task.result as { file_process_id?: number } | null)?.file_process_id);
      const process = await processes.get(processId);
      return { task, process };
    },

    /** The worker: runs the pipeline of the job's process from where it stands. */
    async runJob(job: FileProcessJob): Promise<void> {
      let process = await processes.get(job.processId);
      if (!process) {
        await processes.endTask(job.taskId, { error: STUDIES_UPLOAD_MESSAGES.noSuchProcess });
        return;
      }
      if (!(await processes.progressTask(job.taskId, STATUS_PROGRESS[process.status]))) return;
      let validated: { files: ZipFile[]; result: ValidationResult } | undefined;
      try {
        if (process.status === 'UPLOADED') {
          const files = await unpack(process);
          await processes.moveStatus(process.id, ['UPLOADED'], {
            status: 'UNPACKED',
            fileTree: buildTree(files, []),
          });
          await processes.progressTask(job.taskId, STATUS_PROGRESS.UNPACKED);
          process = (await processes.get(process.id)) as FileProcessRecord;
        }
        if (process.status === 'UNPACKED') {
          validated = await validate(process, job);
          const { issues, studies } = validated.result;
          const tree = buildTree(
            treeFiles(process.fileTree as StoredNode[]).map((n) => ({
              path: n.file_path,
              size: n.size ?? 0,
            })),
            issues,
          );
          const cmi = studies.map((s) => s.metadata?.cMiNumber ?? s.folder).join(', ') || null;
          const errorCount = issues.filter((i) => i.level === 'error').length;
          if (errorCount > 0) {
            const general = issues.filter((i) => i.path.file === '').map((i) => i.msg);
            const message = [validationFailed(errorCount, issues.length - errorCount), ...general].join(' ');
            await processes.moveStatus(process.id, ['UNPACKED'], { cmi });
            await fail(process, job.taskId, message, tree);
            return;
          }
          // Studies filed under another client, region or year than the form's wait for a confirmation.
          const differing = studiesDifferingFromForm(issues);
          if (differing > 0 && !job.confirmForm) {
            await processes.moveStatus(process.id, ['UNPACKED'], {
              status: 'VALIDATED',
              fileTree: tree,
              cmi,
              message: STUDIES_UPLOAD_MESSAGES.confirmForm(differing),
            });
            await processes.endTask(job.taskId, {
              result: { file_process_id: process.id, status: 'VALIDATED', study_ids: [] },
            });
            return;
          }
          await processes.moveStatus(process.id, ['UNPACKED'], { status: 'VALIDATED', fileTree: tree, cmi });
          await processes.progressTask(job.taskId, STATUS_PROGRESS.VALIDATED);
          process = (await processes.get(process.id)) as FileProcessRecord;
        }
        if (process.status === 'VALIDATED') {
          // After a restart the studies an interrupted injection had added are removed and the
          // validation runs again: the library may have changed meanwhile.
          if (process.studyIds.length > 0) await removeInjectedStudies(database, storage, process.id);
          validated ??= await validate(process, job);
          if (validated.result.issues.some((i) => i.level === 'error')) {
            await fail(process, job.taskId, validationFailed(validated.result.issues.length, 0));
            return;
          }
          const files = new Map(validated.files.map((f) => [f.path, f]));
          await injectStudies(database, storage, {
            processId: process.id,
            studies: validated.result.studies,
            files,
            parse: (study) => parseStudyResultsOffThread(study, files),
            replaceExisting: job.replaceExisting,
            replaceCmis: job.replaceCmis ?? [],
            userId: process.userId,
            now: clock.now(),
          });
          await processes.progressTask(job.taskId, STATUS_PROGRESS.INJECTED);
          process = (await processes.get(process.id)) as FileProcessRecord;
        }
        if (process.status === 'INJECTED') {
          await processes.moveStatus(process.id, ['INJECTED'], { status: 'SUCCEED' });
          await processes.endTask(job.taskId, {
            result: { file_process_id: process.id, status: 'SUCCEED', study_ids: process.studyIds },
          });
        }
      } catch (error) {
        const known = error instanceof UnsafeZipError || error instanceof UploadMemoryError;
        const message = known
          ? error.message
          : isDiskFull(error)
            ? STUDIES_UPLOAD_MESSAGES.diskFull
            : FAILURE_MESSAGE;
        if (!known) console.error('studies upload failed:', error);
        await fail(process, job.taskId, message);
      }
    },

    /**
     * After a (re)start: resumes what a queued or interrupted job will finish, completes injected
     * processes and ends the others ERRORED with a message.
     */
    async recover(): Promise<void> {
      await removeExpiredFiles();
      await removeOrphanStudyFiles(database, storage, clock.now());
      for (const process of await processes.unfinished()) {
        // Waiting for the user, not for a job: it stays as it is.
        if (awaitsConfirmation(process)) continue;
        if (process.status === 'INJECTED') {
          await processes.moveStatus(process.id, ['INJECTED'], { status: 'SUCCEED' });
          if (process.taskId)
            await processes.endTask(process.taskId, {
              result: { file_process_id: process.id, status: 'SUCCEED', study_ids: process.studyIds },
            });
          continue;
        }
        let state = process.taskId
          ? (await jobs.boss.getJobById(FILE_PROCESS_QUEUE, process.taskId))?.state
          : undefined;
        if (state === 'active' && process.taskId) {
          // Interrupted mid-step: failing it makes pg-boss retry it, and the retry resumes.
          await jobs.boss.fail(FILE_PROCESS_QUEUE, process.taskId, { message: 'server restarted' });
          state = (await jobs.boss.getJobById(FILE_PROCESS_QUEUE, process.taskId))?.state;
        }
        if (state === 'created' || state === 'retry') continue;
        await removeInjectedStudies(database, storage, process.id);
        await processes.moveStatus(process.id, RUNNING, {
          status: 'ERRORED',
          message: STUDIES_UPLOAD_MESSAGES.restarted,
        });
        if (process.taskId)
          await processes.endTask(process.taskId, { error: STUDIES_UPLOAD_MESSAGES.restarted });
      }
    },
  };
}

export type FileProcessService = ReturnType<typeof createFileProcessService>;

/** Registers the worker and resumes or ends what a previous run left on its way. */
export async function registerFileProcessJobs(jobs: JobQueue, service: FileProcessService): Promise<void> {
  await jobs.register<FileProcessJob>(FILE_PROCESS_QUEUE, (job) => service.runJob(job), {
    concurrency: 1,
    pollingIntervalSeconds: 2,
    retryLimit: 2,
    expireInSeconds: 30 * 60,
  });
  await service.recover();
}
