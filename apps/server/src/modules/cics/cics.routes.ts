import {
  CicsInspectRequest,
  CicsOptionsResponse,
  CicsQuestionStatistics,
  CicsSearchPageQuery,
  CicsSearchRequest,
  CicsSearchResponse,
  ErrorResponse,
  IdParam,
} from '@accord/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, requirePermission } from '../../plugins/auth.ts';
import type { CicsService } from './cics.service.ts';

const errorResponses = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };
/** CICS is an analytics screen (document 1 section 6: roles 1 and 2); client and sales users get 403. */
const analyticsOnly = requirePermission('canAccessAnalytics');

/** CICS question search (document 2 section 7, "CICS"); every answer is limited to the caller's clients. */
export const cicsRoutes: FastifyPluginAsyncZod<{ cics: CicsService }> = async (app, { cics }) => {
  const tags = ['cics'];

  app.post(
    '/cics/search_bar/',
    {
      preHandler: analyticsOnly,
      schema: {
        tags,
        summary:
          'Questions of the library whose text matches every search term, by relevance (see CicsSearchRequest). Page in ?page=&per_page= (default 1 and 20, at most 100).',
        body: CicsSearchRequest,
        querystring: CicsSearchPageQuery,
        response: { 200: CicsSearchResponse, ...errorResponses },
      },
    },
    async (request) =>
      cics.search(currentUser(request), request.body.search_terms, request.query, request.body.q),
  );

  app.post(
    '/cics/inspect_question/:id/',
    {
      preHandler: analyticsOnly,
      schema: {
        tags,
        summary:
          'Answer statistics of one question (counts and shares per answer, mean and boxes on the 5-point scale, base n) under geography, gender and age filters',
        params: IdParam,
        body: CicsInspectRequest,
        response: { 200: CicsQuestionStatistics, 404: ErrorResponse, ...errorResponses },
      },
    },
    async (request) => cics.inspect(currentUser(request), request.params.id, request.body.q),
  );

  app.get(
    '/cics/options',
    {
      preHandler: analyticsOnly,
      schema: {
        tags,
        summary: 'Filter options of the CICS screen: geography kinds with their values, genders, age limits',
        response: { 200: CicsOptionsResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async () => cics.options(),
  );
};
