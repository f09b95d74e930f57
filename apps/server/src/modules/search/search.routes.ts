import {
  BulkEditRequest,
  BulkEditResponse,
  ConceptRow,
  DropdownOptionsResponse,
  ErrorResponse,
  FragranceExportRequest,
  FragranceRow,
  LibraryCounts,
  PAGINATION_HEADERS,
  SearchCounts,
  SearchFileRow,
  SearchFileTabParam,
  SearchPageQuery,
  SearchRequest,
  StudyExportRequest,
  StudySummaryRow,
  XLSX_CONTENT_TYPE,
  type PageInfo,
} from '@accord/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, requirePermission, requireUser, type AuthUser } from '../../plugins/auth.ts';
import { xlsxStream } from './export-xlsx.ts';
import type { SearchService, Spreadsheet } from './search.service.ts';

const errorResponses = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };
const PAGINATED =
  ' Page in ?page=&per_page= (default 1 and 10, at most 100); pagination in the per_page, total, page, has_prev, pages, has_next headers.';

function sendPage<Result extends { rows: unknown[]; page: PageInfo }>(
  reply: FastifyReply,
  result: Result,
): Result['rows'] {
  for (const header of PAGINATION_HEADERS) reply.header(header, String(result.page[header]));
  return result.rows;
}

function sendSpreadsheet(reply: FastifyReply, user: AuthUser, sheet: Spreadsheet) {
  const header = {
    title: sheet.title,
    source: sheet.source,
    author: user.email,
    date: new Date(),
    harmonised: false,
  };
  return reply
    .type(XLSX_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${sheet.fileName}"`)
    .send(xlsxStream(sheet.sheetName, header, sheet.columns, sheet.rows));
}

/** The study search, its result tabs, exports and bulk tag edit (document 2 section 7). */
export const searchRoutes: FastifyPluginAsyncZod<{ search: SearchService }> = async (app, { search }) => {
  const tags = ['search'];

  app.post(
    '/smartsearch/',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Count badges of every result tab for the filters',
        body: SearchRequest,
        response: { 200: SearchCounts, ...errorResponses },
      },
    },
    async (request) => search.counts(currentUser(request), request.body),
  );

  app.post(
    '/smartsearch/dropdown_options',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Option lists with counts under the current filters (each field under every other filter) and dependent lists',
        body: SearchRequest,
        response: { 200: DropdownOptionsResponse, ...errorResponses },
      },
    },
    async (request) => search.dropdownOptions(currentUser(request), request.body.query),
  );

  // The three result tables share one shape: filters in the body, the page in the query string.
  const tables = [
    {
      path: '/smartsearch/study_summarises',
      summary: 'Study summary rows the filters select, newest first.',
      row: StudySummaryRow,
      list: search.studySummaries,
    },
    {
      path: '/smartsearch/fragrances',
      summary: 'Fragrance rows meeting the fragrance filters, of the studies the filters select.',
      row: FragranceRow,
      list: search.fragrances,
    },
    {
      path: '/smartsearch/concepts',
      summary: 'Concept rows meeting the concept filters, of the studies the filters select.',
      row: ConceptRow,
      list: search.concepts,
    },
  ];
  for (const table of tables) {
    app.post(
      table.path,
      {
        preHandler: requireUser,
        schema: {
          tags,
          summary: `${table.summary}${PAGINATED}`,
          body: SearchRequest,
          querystring: SearchPageQuery,
          response: { 200: z.array(table.row), ...errorResponses },
        },
      },
      async (request, reply) =>
        sendPage(reply, await table.list(currentUser(request), request.body.query, request.query)),
    );
  }

  app.post(
    '/smartsearch/files/:fileType',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Files of one type (RDF_report: results and reports) of the studies the filters select, whose names hold every word of ' +
          `full_query.search_phrase. Results files (RDF) only for admins and users who may download.${PAGINATED}`,
        params: SearchFileTabParam,
        body: SearchRequest,
        querystring: SearchPageQuery,
        response: { 200: z.array(SearchFileRow), ...errorResponses },
      },
    },
    async (request, reply) =>
      sendPage(
        reply,
        await search.files(currentUser(request), request.params.fileType, request.body, request.query),
      ),
  );

  app.get(
    '/smartsearch/count',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Studies, fragrances and concepts you may see, without filters',
        response: { 200: LibraryCounts, 401: ErrorResponse },
      },
    },
    async (request) => search.libraryCounts(currentUser(request)),
  );

  app.put(
    '/smartsearch/update',
    {
      preHandler: requirePermission('isAdmin'),
      schema: {
        tags,
        summary:
          'Bulk edit of categorical tags on many studies, in one transaction with one history entry per changed study (admins only)',
        body: BulkEditRequest,
        response: { 200: BulkEditResponse, ...errorResponses },
      },
    },
    async (request) => search.bulkEdit(currentUser(request), request.body),
  );

  app.post(
    '/smartsearch/download_study_summarises',
    {
      preHandler: requirePermission('allowDownload'),
      schema: {
        tags,
        summary:
          'The study summaries the filters select as search-studies-result.xlsx (users who may download)',
        body: StudyExportRequest,
        response: errorResponses,
      },
    },
    async (request, reply) =>
      sendSpreadsheet(
        reply,
        currentUser(request),
        await search.exportStudies(currentUser(request), request.body),
      ),
  );

  app.post(
    '/smartsearch/download_fragrances',
    {
      preHandler: requirePermission('allowDownload'),
      schema: {
        tags,
        summary:
          'The fragrances (or, with type concept, the concepts) the filters select as search-fragrances-result.xlsx (users who may download)',
        body: FragranceExportRequest,
        response: errorResponses,
      },
    },
    async (request, reply) =>
      sendSpreadsheet(
        reply,
        currentUser(request),
        await search.exportFragrances(currentUser(request), request.body),
      ),
  );
};
