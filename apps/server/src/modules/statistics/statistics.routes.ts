import multipart from '@fastify/multipart';
import {
  ErrorResponse,
  STATISTICS_MAX_CSV_BYTES,
  StatisticsFileResponse,
  StatisticsFolderParams,
  StatisticsForm,
  StatisticsProductCodeRequest,
  StatisticsProductCodeResponse,
  StatisticsResults,
  StatisticsScaleResponse,
  StatisticsStudyProducts,
  StatisticsStudyQuery,
  StatisticsUploadResponse,
  StudyIdParam,
} from '@accord/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors, isMalformedMultipart, MALFORMED_MULTIPART_MESSAGE } from '../../lib/errors.ts';
import { displayFileName } from '../../lib/file-names.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import { contentDisposition } from '../study/study-files.routes.ts';
import type { DownloadFile, StatisticsService, UploadedCsv } from './statistics.service.ts';

function sendFile(reply: FastifyReply, file: DownloadFile) {
  return reply
    .type(file.contentType)
    .header('content-disposition', contentDisposition(file.fileName))
    .header('cache-control', 'no-store')
    .send(file.bytes);
}

const callErrors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** The statistics generator is for admins and analytics users (document 1 section 4), checked before the body. */
export async function requireStatisticsUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const user = request.authUser;
  if (!user) throw errors.unauthorized();
  if (!user.permissions.isAdmin && !user.permissions.canAccessAnalytics) throw errors.forbidden();
}

/** Reads a multipart form with one csv part (any field name) and text fields. */
async function readCsvForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; file: UploadedCsv | undefined }> {
  if (!request.isMultipart()) throw errors.badRequest('Send the upload as multipart/form-data.');
  const fields: Record<string, string> = {};
  let file: UploadedCsv | undefined;
  try {
    for await (const part of request.parts({
      limits: { fileSize: STATISTICS_MAX_CSV_BYTES, files: 1, fields: 10, fieldSize: 10_000 },
    })) {
      if (part.type === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        file = {
          fileName: displayFileName(part.filename, 'upload.csv'),
          bytes: Buffer.concat(chunks),
          truncated: part.file.truncated,
        };
      } else fields[part.fieldname] = String(part.value);
    }
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw errors.badRequest('The csv is larger than 20 MB.');
    if (code.startsWith('FST_')) throw errors.badRequest((error as Error).message);
    if (isMalformedMultipart(error)) throw errors.badRequest(MALFORMED_MULTIPART_MESSAGE);
    throw error;
  }
  return { fields, file };
}

/** Statistics generator calls (document 3 section 7; paths in docs/statistics.md). */
export const statisticsRoutes: FastifyPluginAsyncZod<{ statistics: StatisticsService }> = async (
  app,
  { statistics },
) => {
  const tags = ['statistics'];
  await app.register(multipart, { throwFileSizeLimit: true });
  const multipartBody = {
    consumes: ['multipart/form-data'],
  };

  app.post(
    '/rdf/upload/',
    {
      onRequest: requireStatisticsUser,
      schema: {
        tags,
        summary:
          'Wizard step 0: multipart study_name and data_input (the data csv). Opens a private working folder and answers its name, the columns that may hold product codes, the product codes of product_code and the question columns.',
        ...multipartBody,
        response: { 200: StatisticsUploadResponse, ...callErrors },
      },
    },
    async (request) => {
      const form = await readCsvForm(request);
      return statistics.uploadData(currentUser(request), form.fields.study_name, form.file);
    },
  );

  app.put(
    '/rdf/upload/',
    {
      onRequest: requireStatisticsUser,
      schema: {
        tags,
        summary:
          'Wizard step 1: multipart folder_name and likert_scale (the scale csv), checked against the data file. Answers the questions with a scale.',
        ...multipartBody,
        response: { 200: StatisticsScaleResponse, ...callErrors },
      },
    },
    async (request) => {
      const form = await readCsvForm(request);
      return statistics.uploadScale(currentUser(request), form.fields.folder_name, form.file);
    },
  );

  app.post(
    '/rdf/upload/files/',
    {
      onRequest: requireStatisticsUser,
      schema: {
        tags,
        summary:
          'Wizard steps 4 and 5: multipart folder_name, kind (regression or names) and file: the regression csv (question_id, role) or the product names csv (product_code, product_name).',
        ...multipartBody,
        response: { 200: StatisticsFileResponse, ...callErrors },
      },
    },
    async (request) => {
      const form = await readCsvForm(request);
      return statistics.uploadFile(
        currentUser(request),
        form.fields.folder_name,
        form.fields.kind,
        form.file,
      );
    },
  );

  app.post(
    '/rdf/product-code/',
    {
      onRequest: requireStatisticsUser,
      schema: {
        tags,
        summary:
          'Wizard step 3 -> 4: checks the product code column of the working folder (or the study) and answers its product codes.',
        body: StatisticsProductCodeRequest,
        response: { 200: StatisticsProductCodeResponse, ...callErrors },
      },
    },
    async (request) => statistics.checkProductCode(currentUser(request), request.body),
  );

  app.post(
    '/rdf/results/',
    {
      onRequest: requireStatisticsUser,
      schema: {
        tags,
        summary:
          'Wizard step 5 -> results: the whole form with folder_name (new upload) or study_id (existing study). Answers the summary, correlations, regression, JAR and chart data; writes summary.xlsx, Regressions&Correlations.xlsx and chart_ppt.pptx into the folder.',
        body: StatisticsForm,
        response: { 200: StatisticsResults, ...callErrors },
      },
    },
    async (request) => statistics.generate(currentUser(request), request.body),
  );

  app.get(
    '/rdf/download_templates/:folder_name/:file',
    {
      onRequest: requireStatisticsUser,
      schema: {
        tags,
        summary:
          'A template made from the folder (scale_template.csv, reg_template.csv, prod_template.csv), a result file (summary.xlsx, Regressions&Correlations.xlsx, chart_ppt.pptx), or under the folder sample-files the sample inputs.',
        params: StatisticsFolderParams,
        response: callErrors,
      },
    },
    async (request, reply) => {
      const file = await statistics.download(
        currentUser(request),
        request.params.folder_name,
        request.params.file,
      );
      return sendFile(reply, file);
    },
  );

  app.post(
    '/statistics/:studyId/',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Study statistics page: the generator on the study’s own answers with the filter card’s options (query). Any user who can see the study.',
        params: StudyIdParam,
        body: StatisticsStudyQuery,
        response: { 200: StatisticsResults, ...callErrors },
      },
    },
    async (request) =>
      statistics.studyStatistics(
        currentUser(request),
        request.params.studyId,
        {
          ...request.body.query,
          study_name: '',
          study_id: request.params.studyId,
        },
        request.body.query.category,
      ),
  );

  app.get(
    '/statistics/:studyId/products/',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'The products of a study with their category (fragrance family): the options of the study statistics page’s category filter. Any user who can see the study.',
        params: StudyIdParam,
        response: { 200: StatisticsStudyProducts, ...callErrors },
      },
    },
    async (request) => statistics.studyProducts(currentUser(request), request.params.studyId),
  );
};
