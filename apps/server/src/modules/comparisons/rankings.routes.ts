import {
  ErrorResponse,
  JobIdParam,
  RankingJobQueued,
  RankingRequest,
  RankingStatus,
} from '@accord/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import type { AnalyticsService } from '../analytics/analytics.service.ts';
import { createRankingsService } from './rankings.service.ts';

const errorResponses = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };
const statusErrors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** Best/Worst Testers and Fragrance Attributes results (document 3 sections 2.3, 2.4): every signed-in user. */
export const rankingsRoutes: FastifyPluginAsyncZod<{
  analytics: Pick<AnalyticsService, 'queueMetricSearch' | 'metricSearchStatus'>;
}> = async (app, { analytics }) => {
  const rankings = createRankingsService({ analytics });
  const tags = ['comparisons'];

  app.post(
    '/rankings',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Queue a ranking from the Best/Worst Testers (kind testers: liking top 2 box for Explicit, mean EEG hedonic for Implicit, both for All) or Fragrance Attributes (kind attributes: top 2 box of the attribute) wizard: the best or worst fragrances or concepts of the studies you may see under the narrowing filters, a number of them or a percentage. Answers a job id; GET the status with it (every 3 s): SUCCESS carries the ranked list in result.json, FAILURE the error, anything else is progress. A job finishing within a few seconds is done at its first poll.',
        body: RankingRequest,
        response: { 200: RankingJobQueued, ...errorResponses },
      },
    },
    async (request) => rankings.queue(currentUser(request), request.body),
  );

  app.get(
    '/rankings/:jobId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Status of a ranking job (yours only); on SUCCESS result.json holds the ranked metric columns and the rows in ranking order (rank 1 first) with their values and bases',
        params: JobIdParam,
        response: { 200: RankingStatus, ...statusErrors },
      },
    },
    async (request) => rankings.status(currentUser(request), request.params.jobId),
  );
};
