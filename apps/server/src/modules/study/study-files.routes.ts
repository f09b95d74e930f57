import multipart from '@fastify/multipart';
import {
  ErrorResponse,
  IdParam,
  STUDY_MESSAGES,
  STUDY_UPLOAD_MAX_BYTES,
  StudyFileEntry,
  StudyFileNameParams,
  StudyFileNode,
  StudyFileParams,
  StudyUploadFields,
  SwapVersionParams,
  SwapVersionRequest,
  SwapVersionResponse,
  UploadJobParams,
  UploadJobStatus,
  UploadStartedResponse,
  VersionHistoryParams,
  VersionHistoryRequest,
  VersionHistoryResponse,
} from '@accord/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errors, isMalformedMultipart, MALFORMED_MULTIPART_MESSAGE } from '../../lib/errors.ts';
import { currentUser, requirePermission, requireUser } from '../../plugins/auth.ts';
import type { Download, StudyFilesService, UploadedFile } from './study-files.service.ts';

const readErrors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** attachment with an ASCII fallback name and the exact UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function sendDownload(reply: FastifyReply, file: Download) {
  return reply
    .type(file.contentType)
    .header('content-length', String(file.size))
    .header('content-disposition', contentDisposition(file.fileName))
    .send(file.stream);
}

/** Reads the upload form: the one file part and the text fields. */
async function readUploadForm(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ fields: Record<string, string>; file: UploadedFile | undefined }> {
  if (!request.isMultipart()) throw errors.badRequest('Send the upload as multipart/form-data.');
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  try {
    for await (const part of request.parts({
      limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 10_000 },
    })) {
      if (part.type === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        file = { fileName: part.filename, bytes: Buffer.concat(chunks), truncated: part.file.truncated };
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw errors.badRequest(STUDY_MESSAGES.tooLarge(Math.round(maxBytes / 1024 / 1024)), [
        { path: 'file', message: STUDY_MESSAGES.tooLarge(Math.round(maxBytes / 1024 / 1024)) },
      ]);
    if (code.startsWith('FST_')) throw errors.badRequest((error as Error).message);
    if (isMalformedMultipart(error)) throw errors.badRequest(MALFORMED_MULTIPART_MESSAGE);
    throw error;
  }
  return { fields, file };
}

/** A study's files, downloads, uploads and version control (document 2 section 7). */
export const studyFilesRoutes: FastifyPluginAsyncZod<{
  files: StudyFilesService;
  maxUploadBytes?: number;
}> = async (app, { files, maxUploadBytes }) => {
  const tags = ['study files'];
  const maxBytes = maxUploadBytes ?? STUDY_UPLOAD_MAX_BYTES;
  await app.register(multipart, { throwFileSizeLimit: true });

  app.get(
    '/study/:id/study-files/',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "The study's files (name, extension, type, id, category); RDF files only for admins and users who may download",
        params: IdParam,
        response: { 200: z.array(StudyFileEntry), ...readErrors },
      },
    },
    async (request) => files.list(currentUser(request), request.params.id),
  );

  app.get(
    '/study/:studyId/study-files/:fileId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "The file's current version as a download (users who may download)",
        params: StudyFileParams,
        response: readErrors,
      },
    },
    async (request, reply) =>
      sendDownload(
        reply,
        await files.downloadById(currentUser(request), request.params.studyId, request.params.fileId),
      ),
  );

  app.get(
    '/study/:id/related-study-files/',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'The files page tree: the study group (named by its CMI number) with one folder per file folder, folders and files sorted by name, each with its errors',
        params: IdParam,
        response: { 200: StudyFileNode, ...readErrors },
      },
    },
    async (request) => files.tree(currentUser(request), request.params.id),
  );

  app.get(
    '/study/:id/study-files-path/:file_name',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The named file of the study (current version) as a download (users who may download)',
        params: StudyFileNameParams,
        response: readErrors,
      },
    },
    async (request, reply) =>
      sendDownload(
        reply,
        await files.downloadByName(currentUser(request), request.params.id, request.params.file_name),
      ),
  );

  app.post(
    '/study/:id/upload',
    {
      preHandler: requirePermission('isAdmin'),
      schema: {
        tags,
        summary:
          'Upload a new version of a file (admins): multipart/form-data with the part file and the fields filename (the file it replaces), filetype and foldertype. ' +
          'Document folders take doc, docx, ppt, pptx, pdf, xls, xlsx; results takes csv, xlsx; at most 50 MB; never empty. ' +
          'The old version stays in the version history. The contents are checked (file-validation.ts): warnings stay with the new current version; ' +
          'errors make the job fail, keeping the upload as a failed version while the current file stays. Answers the job id to poll.',
        params: IdParam,
        response: { 200: UploadStartedResponse, ...readErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const form = await readUploadForm(request, maxBytes);
      const fields = StudyUploadFields.safeParse(form.fields);
      if (!fields.success) {
        const details = fields.error.issues.map((issue) => ({
          path: issue.path.join('.'),
          message: issue.message,
        }));
        throw errors.badRequest(`${details[0]?.path}: ${details[0]?.message}`, details);
      }
      return files.upload(user, request.params.id, fields.data, form.file);
    },
  );

  app.get(
    '/study/:studyId/upload/:jobId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "Status of an upload job (queued, started, failed, finished); 404 'No such job' for jobs that are not yours",
        params: UploadJobParams,
        response: { 200: UploadJobStatus, ...readErrors },
      },
    },
    async (request) => files.uploadStatus(currentUser(request), request.params.studyId, request.params.jobId),
  );

  app.post(
    '/study/:id/version-history/:filename',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The current version of a file and its other versions, newest first',
        params: VersionHistoryParams,
        body: VersionHistoryRequest,
        response: { 200: VersionHistoryResponse, ...readErrors },
      },
    },
    async (request) =>
      files.versionHistory(
        currentUser(request),
        request.params.id,
        request.params.filename,
        request.body.foldertype,
      ),
  );

  app.post(
    '/study/:id/swap-version-file/:filename/:versionId',
    {
      preHandler: requirePermission('isAdmin'),
      schema: {
        tags,
        summary: 'Make a version of a file the current one (admins); recorded in the edit history',
        params: SwapVersionParams,
        body: SwapVersionRequest,
        response: { 200: SwapVersionResponse, ...readErrors },
      },
    },
    async (request) =>
      files.swapVersion(
        currentUser(request),
        request.params.id,
        request.params.filename,
        request.params.versionId,
        request.body,
      ),
  );
};
