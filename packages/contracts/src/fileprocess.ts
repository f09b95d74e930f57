/**
 * Studies upload and verification (document 3 sections 2.7, 2.8, 3.4, 4.7): a zip of studies goes
 * UPLOADED -> UNPACKED -> VALIDATED -> INJECTED -> SUCCEED, or ERRORED with its problems attached to
 * the file or folder they concern. The zip layout is docs/data-formats.md.
 */
import { z } from 'zod';
import { FILE_PROCESS_STATUSES } from './constants.ts';
import { numeric, refuseNulText } from './common.ts';

export type FileProcessStatus = (typeof FILE_PROCESS_STATUSES)[number];

/**
 * Largest zip the upload takes (compressed): the most a zip may unpack to (below), since a zip that
 * respects that limit is never larger than it. The upload streams to disk, so the size costs no memory.
 */
export const STUDIES_ZIP_MAX_BYTES = 1024 * 1024 * 1024;
/** A zip with more entries than this is refused. */
export const STUDIES_ZIP_MAX_ENTRIES = 10_000;
/**
 * A zip whose entries add up to more than this many bytes is refused before anything is unpacked, and
 * unpacking stops (removing what it wrote) when the bytes really inflated pass it (zip bombs).
 */
export const STUDIES_ZIP_MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
/** Longest path of a zip entry (characters); a longer one is a validation message. */
export const STUDIES_ZIP_MAX_PATH_LENGTH = 255;
/**
 * Bytes one user's uploads may keep in storage at a time (each upload's zip and unpacked files, until
 * they are removed STUDIES_UPLOAD_KEEP_DAYS after the upload ended).
 */
export const STUDIES_UPLOAD_QUOTA_BYTES = 10 * 1024 * 1024 * 1024;
/** Days the zip and unpacked files of an ended upload are kept (to download, replace and process again). */
export const STUDIES_UPLOAD_KEEP_DAYS = 7;
/** Open status streams (GET /fileprocess/{taskId}/status) one user may hold at a time. */
export const STUDIES_UPLOAD_MAX_STREAMS = 10;

/**
 * Limits of every table read from an upload (a csv, a sheet of a workbook): more rows, columns or
 * cells than these and the file is refused with a message naming it. They keep a small file that
 * declares a huge table (a sheet of 480,000 rows in 800 KB) from taking the server's memory and time.
 */
export const UPLOAD_TABLE_LIMITS = {
  /** Data rows of one table. */
  rows: 200_000,
  /** Columns of one table. */
  columns: 2_000,
  /** Cells of one table (rows times columns as written). */
  cells: 5_000_000,
  /** Rows of each sheet of a study's request form (a study has tens of products, not thousands). */
  requestFormRows: 10_000,
} as const;

/** The message of a table beyond UPLOAD_TABLE_LIMITS; `what` is "rows", "columns" or "cells". */
export const tableTooLarge = (file: string, what: 'rows' | 'columns' | 'cells', limit: number) =>
  `${file} has more than ${limit.toLocaleString('en-US')} ${what}, the most an upload may hold; split it or remove what is not needed.`;
/** Years offered by the upload form: the current year and the 15 before it. */
export const STUDIES_UPLOAD_YEAR_SPAN = 15;
/** Document folders of a study and the file types they take. */
export const STUDY_DOCUMENT_FOLDERS = ['report', 'questionnaire', 'protocol', 'screener'] as const;
export const STUDY_DOCUMENT_EXTENSIONS = ['doc', 'docx', 'ppt', 'pptx', 'pdf', 'xls', 'xlsx'] as const;

/** Years of the upload form, newest first. */
export function uploadYears(now: Date = new Date()): number[] {
  const current = now.getFullYear();
  return Array.from({ length: STUDIES_UPLOAD_YEAR_SPAN + 1 }, (_, i) => current - i);
}

export const STUDIES_UPLOAD_MESSAGES = {
  emptyField: (field: string) => `Empty ${field}`,
  fillAll: 'Please fill all data!',
  /** high_msg of the warning on a study whose client, region or year differs from the upload form. */
  formMismatch: 'Differs from the upload form',
  /** The process waits at VALIDATED: its studies differ from the form and are added only once confirmed. */
  confirmForm: (studies: number) =>
    `${studies === 1 ? '1 study differs' : `${studies} studies differ`} from the upload form (client, region or year). Check the differences and confirm to add ${studies === 1 ? 'it' : 'them'} to the library.`,
  notAwaitingConfirmation: 'This upload is not waiting for a confirmation.',
  failedToSend: 'Failed to send studies',
  failedToSendFile: 'Failed to send file',
  failedToProcess: 'Failed to process studies',
  taskError: (message: string) => `Error: ${message}`,
  stageUploading: 'Uploading data on the server',
  stageValidation: 'Validation and data injecting',
  stageDone: 'Done',
  stageFailed: 'Failed',
  notZip: 'The file is not a zip archive.',
  noFile: 'Choose a zip file to upload.',
  tooLarge: (mb: number) => `The zip is larger than ${mb} MB.`,
  noSuchProcess: 'No such file process.',
  noSuchTask: 'No such task.',
  noSuchFile: 'No such file in this upload.',
  busy: 'The studies of this upload are being processed; wait until it has finished.',
  alreadyInjected: 'The studies of this upload are already in the library.',
  restarted: 'The server restarted while the studies were processed. Process the studies again.',
  filesRemoved: `The files of this upload were removed ${STUDIES_UPLOAD_KEEP_DAYS} days after it ended. Upload the zip again.`,
  quotaExceeded: (used: string, needed: string, quota: string) =>
    `Your uploads keep ${used} of your ${quota} of upload storage and this zip needs ${needed} more. The files of an upload are removed ${STUDIES_UPLOAD_KEEP_DAYS} days after it ended; upload it again later or split it.`,
  tooManyStreams: (max: number) =>
    `You have ${max} upload progress streams open already; close a page that follows an upload and try again.`,
  diskFull:
    'The server has no room left to store this file. Try again later, or ask an administrator to free disk space.',
  unreadableTable: (file: string) => `${file} could not be read in the time and memory an upload may take.`,
} as const;

/** The upload form (multipart text fields next to the part file). */
export const StudiesUploadFields = z
  .object({
    client: z.string().trim().min(1, 'Empty client'),
    study_type: z.string().trim().max(100).default(''),
    region: z.string().trim().min(1, 'Empty region'),
    year: numeric(
      z
        .number()
        .int('year must be a whole number')
        .min(1990, 'year must be 1990 or later')
        .max(2100, 'year must be 2100 or earlier'),
      'Empty year',
    ),
  })
  // Multipart fields are checked by this schema alone (not by the server's check of every body).
  .superRefine(refuseNulText);
export type StudiesUploadFields = z.infer<typeof StudiesUploadFields>;

export const StudiesUploadResponse = z.object({
  task_id: z.string(),
  file_process_id: z.number().int(),
});
export type StudiesUploadResponse = z.infer<typeof StudiesUploadResponse>;

export const ProcessStudiesRequest = z
  .object({
    /** Studies whose CMI number is already in the library replace the library's study. */
    replace_existing: z.boolean().default(false),
    /**
     * The studies differ from the upload form (client, region or year) and the user confirms they
     * go to the library as they are: an upload waiting at VALIDATED for this is injected.
     */
    confirm_form: z.boolean().default(false),
    /** Only these studies (CMI numbers) replace the library's study of the same CMI number. */
    replace_cmis: z
      .array(z.string().trim().min(1, 'Empty CMI number').max(200, 'CMI number too long'))
      .max(10_000, 'Too many CMI numbers')
      .default([]),
  })
  .default({ replace_existing: false, confirm_form: false, replace_cmis: [] });
export type ProcessStudiesRequest = z.infer<typeof ProcessStudiesRequest>;

export const ProcessStudiesResponse = z.object({ task_id: z.string() });
export type ProcessStudiesResponse = z.infer<typeof ProcessStudiesResponse>;

/** Where a problem is: the file and, inside it, sheet, row (1 = header) and column. */
export const FileIssuePath = z.object({
  file: z.string(),
  sheet: z.string().optional(),
  row: z.number().int().optional(),
  column: z.string().optional(),
});
export type FileIssuePath = z.infer<typeof FileIssuePath>;

export const FileIssue = z.object({
  level: z.enum(['error', 'warning']),
  high_msg: z.string(),
  msg: z.string(),
  path: FileIssuePath,
});
export type FileIssue = z.infer<typeof FileIssue>;

export interface FileTreeNode {
  type: 'directory' | 'file';
  name: string;
  /** Path inside the zip (slash separated). */
  file_path: string;
  children?: FileTreeNode[];
  errors: FileIssue[];
}
export const FileTreeNode: z.ZodType<FileTreeNode> = z
  .lazy(() =>
    z.object({
      type: z.enum(['directory', 'file']),
      name: z.string(),
      file_path: z.string(),
      children: z.array(FileTreeNode).optional(),
      errors: z.array(FileIssue),
    }),
  )
  // A named component: the tree refers to itself, which OpenAPI can only express by reference.
  .meta({ id: 'FileTreeNode' });

/** An upload history row. */
export const FileProcessRow = z.object({
  id: z.number().int(),
  created_at: z.string(),
  client: z.string(),
  study_type: z.string(),
  cmi: z.string().nullable(),
  year: z.number().int(),
  region: z.string(),
  status: z.enum(FILE_PROCESS_STATUSES),
});
export type FileProcessRow = z.infer<typeof FileProcessRow>;

/** The problems of one study folder, by the file they concern. */
export const StudyErrors = z.object({
  path: z.string(),
  request_form: z.array(FileIssue),
  results_file: z.array(FileIssue),
});
export type StudyErrors = z.infer<typeof StudyErrors>;

export const FileProcessDetail = z.object({
  file_process: FileProcessRow.extend({
    filename: z.string(),
    has_uploaded_new_file: z.boolean(),
    file_tree: z.array(FileTreeNode),
    study_ids: z.array(z.number().int()),
    message: z.string().nullable(),
  }),
  errors: z.array(StudyErrors),
});
export type FileProcessDetail = z.infer<typeof FileProcessDetail>;

export const FileProcessIdParam = z.object({ id: numeric(z.number().int().positive()) });
export const TaskIdParam = z.object({ taskId: z.string().uuid('No such task.') });
export const ProcessFileParams = z.object({
  processId: numeric(z.number().int().positive()),
  filePath: z.string().min(1),
});

/** Replace-file form: the part file and the field filepath (the file it replaces). */
export const ReplaceFileFields = z.object({
  filepath: z.string().trim().min(1, 'Empty filepath'),
});

/** Events of the task status stream (server-sent events). */
export const TaskProgressEvent = z.object({
  status: z.enum(FILE_PROCESS_STATUSES),
  progress: z.number(),
});
export const TaskResultEvent = z.object({
  file_process_id: z.number().int(),
  status: z.enum(FILE_PROCESS_STATUSES),
  study_ids: z.array(z.number().int()),
});
export const TaskErrorEvent = z.object({ message: z.string() });
export type TaskResultEvent = z.infer<typeof TaskResultEvent>;
export type TaskErrorEvent = z.infer<typeof TaskErrorEvent>;
