import {
  ComparisonJobQueued,
  ErrorResponse,
  GroupComparisonRequest,
  GroupComparisonStatus,
  JobIdParam,
  TopFamilyFragrancesRequest,
  TopFamilyFragrancesStatus,
} from '@accord/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendEncodedJson } from '../../lib/json-text.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import { chooseEncoding } from '../../plugins/compress-answers.ts';
import type { ComparisonsService } from './comparisons.service.ts';

const errorResponses = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };
const statusErrors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const JOB_PROTOCOL =
  ' Answers a job id; GET the status with it (every 3 s): SUCCESS carries the result in result.json, FAILURE the error, anything else is progress. A job finishing within a few seconds is done at its first poll.';

/** Category Profile and Group Comparison (document 3 sections 2.5, 2.6): every signed-in user. */
export const comparisonsRoutes: FastifyPluginAsyncZod<{ comparisons: ComparisonsService }> = async (
  app,
  { comparisons },
) => {
  const tags = ['comparisons'];

  app.post(
    '/group-comparison',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Queue a group comparison: per group the fragrances of the studies you may see under its study, fragrance and respondent filters (or its chosen products), with liking, purchase intention and strength pooled per group, and per metric aggregation whether group 1 differs significantly from group 2 (Welch t-test for means, two-proportion z-test for boxes, two-sided, 99, 95 and 90 %).' +
          JOB_PROTOCOL,
        body: GroupComparisonRequest,
        response: { 200: ComparisonJobQueued, ...errorResponses },
      },
    },
    async (request) => comparisons.queueGroupComparison(currentUser(request), request.body),
  );

  app.get(
    '/group-comparison/:jobId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Status of a group comparison job (yours only); on SUCCESS result.json holds group1, group2 (metric search results) and differences',
        params: JobIdParam,
        // Documents the answer; it is sent as JSON text (comparisons.api.test.ts reads it through
        // this schema), not checked and written again through it: two whole searches, megabytes.
        response: { 200: GroupComparisonStatus, ...statusErrors },
      },
    },
    async (request, reply) => {
      const answer = await comparisons.groupComparisonStatusAnswer(
        currentUser(request),
        request.params.jobId,
        chooseEncoding(request.headers['accept-encoding']),
      );
      // Compressed already (once per comparison): the answers' compression leaves it as it is.
      return sendEncodedJson(reply, answer);
    },
  );

  app.post(
    '/category-profile/top-fragrances',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "Queue the top 5 fragrances of a family by top 2 box liking, among the fragrances of the studies you may see under the category profile's filters (the bar clicked; not 'No tag')." +
          JOB_PROTOCOL,
        body: TopFamilyFragrancesRequest,
        response: { 200: ComparisonJobQueued, ...errorResponses },
      },
    },
    async (request) => comparisons.queueTopFamily(currentUser(request), request.body),
  );

  app.get(
    '/category-profile/top-fragrances/:jobId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Status of a top fragrances job (yours only); on SUCCESS result.json holds the family and its fragrances, best first',
        params: JobIdParam,
        response: { 200: TopFamilyFragrancesStatus, ...statusErrors },
      },
    },
    async (request) => comparisons.topFamilyStatus(currentUser(request), request.params.jobId),
  );
};
