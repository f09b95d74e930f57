import multipart from '@fastify/multipart';
import {
  ErrorResponse,
  FileProcessDetail,
  FileProcessIdParam,
  FileProcessRow,
  ProcessFileParams,
  ProcessStudiesRequest,
  ProcessStudiesResponse,
  ReplaceFileFields,
  STUDIES_UPLOAD_MESSAGES,
  STUDIES_UPLOAD_MAX_STREAMS,
  STUDIES_ZIP_MAX_BYTES,
  StudiesUploadFields,
  StudiesUploadResponse,
  TaskIdParam,
} from '@accord/contracts';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, errors, isMalformedMultipart, MALFORMED_MULTIPART_MESSAGE } from '../../lib/errors.ts';
import { currentUser, requirePermission } from '../../plugins/auth.ts';
import { contentDisposition } from '../study/study-files.routes.ts';
import type { Download } from '../study/study-files.service.ts';
import {
  STATUS_PROGRESS,
  type FileProcessService,
  type ReceivedFile,
  type TaskState,
} from './fileprocess.service.ts';
import { createTaskWatcher, type Reading } from './task-watcher.ts';

const readErrors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const writeErrors = { ...readErrors, 409: ErrorResponse };
const uploadErrors = { ...writeErrors, 413: ErrorResponse };
/** How often the status streams' shared watcher reads the task. */
const STREAM_POLL_MS = 250;
/** A comment line now and then keeps proxies from closing a quiet stream. */
const STREAM_KEEPALIVE_MS = 15_000;

function sendDownload(reply: FastifyReply, file: Download) {
  return reply
    .type(file.contentType)
    .header('content-length', String(file.size))
    .header('content-disposition', contentDisposition(file.fileName))
    .send(file.stream);
}

/**
 * Reads a multipart form: the text fields, and the one file part streamed to a temporary file on
 * disk (never held in memory), the size limit enforced while it streams: a larger file is refused
 * with 413 and nothing of it is kept. The caller removes the temporary file (`discard`).
 */
async function readForm(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ fields: Record<string, string>; file: ReceivedFile | undefined; discard: () => Promise<void> }> {
  if (!request.isMultipart()) throw errors.badRequest('Send the upload as multipart/form-data.');
  const fields: Record<string, string> = {};
  let file: ReceivedFile | undefined;
  const temporary: string[] = [];
  const discard = async () => {
    await Promise.all(temporary.map((name) => rm(name, { force: true })));
  };
  try {
    for await (const part of request.parts({
      limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 10_000 },
    })) {
      if (part.type === 'file') {
        const target = path.join(os.tmpdir(), `accord-upload-${randomUUID()}`);
        temporary.push(target);
        let size = 0;
        part.file.on('data', (chunk: Buffer) => {
          size += chunk.length;
        });
        await pipeline(part.file, createWriteStream(target));
        if (part.file.truncated)
          throw Object.assign(new Error('too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
        file = { fileName: part.filename, path: target, size };
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    await discard();
    const code = (error as { code?: string }).code ?? '';
    const tooLarge = STUDIES_UPLOAD_MESSAGES.tooLarge(Math.round(maxBytes / 1024 / 1024));
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(413, 'payload_too_large', tooLarge, [{ path: 'file', message: tooLarge }]);
    if (code.startsWith('FST_')) throw errors.badRequest((error as Error).message);
    if (isMalformedMultipart(error)) throw errors.badRequest(MALFORMED_MULTIPART_MESSAGE);
    throw error;
  }
  return { fields, file, discard };
}

function parseFields<T extends z.ZodType>(schema: T, fields: Record<string, string>): z.infer<T> {
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }));
    throw errors.badRequest(`${details[0]?.path}: ${details[0]?.message}`, details);
  }
  return parsed.data;
}

/** Studies upload and verification (document 3 section 7); admins and analytics users. */
export const fileProcessRoutes: FastifyPluginAsyncZod<{
  fileprocess: FileProcessService;
  maxUploadBytes?: number;
  /** Open status streams per user (default STUDIES_UPLOAD_MAX_STREAMS). */
  maxStatusStreams?: number;
}> = async (app, { fileprocess, maxUploadBytes, maxStatusStreams }) => {
  const tags = ['studies upload'];
  const guard = requirePermission('canAccessAnalytics');
  const maxBytes = maxUploadBytes ?? STUDIES_ZIP_MAX_BYTES;
  const maxStreams = maxStatusStreams ?? STUDIES_UPLOAD_MAX_STREAMS;
  await app.register(multipart, { throwFileSizeLimit: true });
  // One reading of a task per interval, shared by all its streams; open streams counted per user.
  const watcher = createTaskWatcher<TaskState | null>(
    (taskId) => fileprocess.taskState(taskId),
    STREAM_POLL_MS,
  );
  const openStreams = new Map<number, number>();

  app.post(
    '/fileprocess/studies_upload',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Upload a studies zip (multipart/form-data: the part file and the fields client, study_type, region, year). ' +
          "A file that is not a zip, or whose directory is unsafe (absolute or escaping paths, links, nested zips, more than 10,000 entries or 1 GiB unpacked, entry paths over 255 characters) is refused with 400; a file larger than the upload limit (STUDIES_ZIP_MAX_BYTES) with 413, as soon as it passes the limit; an upload beyond the user's storage quota (STUDIES_UPLOAD_QUOTA_BYTES) with 413; a full disk answers 507. " +
          'The file streams to disk, never held whole in memory. ' +
          'Answers the task to follow on the status stream and the new file process.',
        response: { 200: StudiesUploadResponse, ...uploadErrors },
      },
    },
    async (request) => {
      const form = await readForm(request, maxBytes);
      try {
        const fields = parseFields(StudiesUploadFields, form.fields);
        return await fileprocess.upload(currentUser(request), fields, form.file);
      } finally {
        await form.discard();
      }
    },
  );

  // A stopping server ends its open status streams, so the drain does not wait for them; the page's
  // EventSource reconnects, to another process or to the server once it is back.
  const streamEnds = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of streamEnds) end();
  });

  app.get(
    '/fileprocess/:taskId/status',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Server-sent events of a task: progress events ({ status, progress }) while it runs, then one result event ' +
          '({ file_process_id, status, study_ids }) or one error event ({ message }), after which the stream ends. ' +
          'A user holds at most STUDIES_UPLOAD_MAX_STREAMS streams at a time (429 beyond); all streams of a task share one reading of it.',
        params: TaskIdParam,
        response: { ...readErrors, 429: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { taskId } = request.params;
      // Answers 404 before the stream opens; its reading is the stream's first event.
      const first = await fileprocess.task(user, taskId);
      const open = openStreams.get(user.id) ?? 0;
      if (open >= maxStreams)
        throw new AppError(429, 'too_many_streams', STUDIES_UPLOAD_MESSAGES.tooManyStreams(maxStreams));
      openStreams.set(user.id, open + 1);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      const send = (event: string, data: unknown) =>
        raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      await new Promise<void>((resolve) => {
        let last = '';
        let keepalive = Date.now();
        let ended = false;
        let unsubscribe = () => undefined as void;
        const end = () => {
          if (ended) return;
          ended = true;
          streamEnds.delete(end);
          unsubscribe();
          const left = (openStreams.get(user.id) ?? 1) - 1;
          if (left > 0) openStreams.set(user.id, left);
          else openStreams.delete(user.id);
          raw.end();
          resolve();
        };
        /** Sends what a reading of the task tells; true when the stream has ended. */
        const show = (reading: Reading<TaskState | null>) => {
          if (ended) return;
          if (reading instanceof Error || !reading) {
            if (reading) request.log.error({ err: reading }, 'status stream failed');
            send('error', { message: STUDIES_UPLOAD_MESSAGES.failedToProcess });
            return end();
          }
          const { task, process } = reading;
          if (task.status === 'SUCCESS') {
            send('result', task.result);
            return end();
          }
          if (task.status === 'FAILURE' || task.status === 'REVOKED') {
            send('error', { message: task.error ?? STUDIES_UPLOAD_MESSAGES.failedToProcess });
            return end();
          }
          const status = process?.status ?? 'UPLOADED';
          const progress = Math.max(task.progress, STATUS_PROGRESS[status] ?? 0);
          const now = `${status}:${progress}`;
          if (now !== last) {
            send('progress', { status, progress });
            last = now;
            keepalive = Date.now();
          } else if (Date.now() - keepalive > STREAM_KEEPALIVE_MS) {
            raw.write(': keepalive\n\n');
            keepalive = Date.now();
          }
        };
        // The response closes when the page goes away (or once the stream has ended).
        raw.on('close', end);
        streamEnds.add(end);
        show(first);
        if (!ended) unsubscribe = watcher.subscribe(taskId, show);
      });
    },
  );

  app.get(
    '/fileprocess/file-processes',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          "The upload history, newest first: the caller's own uploads (every upload for admins). An upload is private to its owner and admins; another user's answers 404 on every call.",
        response: { 200: z.array(FileProcessRow), ...readErrors },
      },
    },
    async (request) => fileprocess.list(currentUser(request)),
  );

  app.get(
    '/fileprocess/file-process/:id',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'A file process: status, whether a new file was uploaded, the tree of found studies with the problems of each file or folder, and the problems by study',
        params: FileProcessIdParam,
        response: { 200: FileProcessDetail, ...readErrors },
      },
    },
    async (request) => fileprocess.detail(currentUser(request), request.params.id),
  );

  app.put(
    '/fileprocess/fileprocess/:id/replace_file',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Replace a file of an ERRORED upload (multipart/form-data: the field filepath, the path of the file in the zip, and the part file); answers the detail',
        params: FileProcessIdParam,
        response: { 200: FileProcessDetail, ...uploadErrors },
      },
    },
    async (request) => {
      const form = await readForm(request, maxBytes);
      try {
        const fields = parseFields(ReplaceFileFields, form.fields);
        return await fileprocess.replaceFile(
          currentUser(request),
          request.params.id,
          fields.filepath,
          form.file,
        );
      } finally {
        await form.discard();
      }
    },
  );

  app.post(
    '/fileprocess/fileprocess/:id/process_studies',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Validate and inject the studies of an ERRORED upload again (after replacing files); replace_existing replaces every study already in the library, replace_cmis only the studies of these CMI numbers. Answers the task.',
        params: FileProcessIdParam,
        body: ProcessStudiesRequest.optional(),
        response: { 200: ProcessStudiesResponse, ...writeErrors },
      },
    },
    async (request) =>
      fileprocess.processStudies(
        currentUser(request),
        request.params.id,
        request.body ?? { replace_existing: false, confirm_form: false, replace_cmis: [] },
      ),
  );

  app.get(
    '/fileprocess/:processId/:filePath/download',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: 'A file of an upload as a download; filePath is the base64 of its path in the zip',
        params: ProcessFileParams,
        response: readErrors,
      },
    },
    async (request, reply) => {
      const file = await fileprocess.download(
        currentUser(request),
        request.params.processId,
        request.params.filePath,
      );
      return sendDownload(reply, file);
    },
  );
};
