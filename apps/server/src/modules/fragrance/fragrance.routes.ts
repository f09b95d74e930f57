import { ErrorResponse, FragranceParams, FragranceQuery, FragranceResponse } from '@accord/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import { createAnalyticsRepository } from '../analytics/analytics.repository.ts';
import { createFragranceRepository } from './fragrance.repository.ts';
import { createFragranceService } from './fragrance.service.ts';

/** One fragrance across all its tests: every signed-in user, within their studies. */
export const fragranceRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const fragrances = createFragranceService({
    fragrances: createFragranceRepository(db),
    analytics: createAnalyticsRepository(db),
  });

  app.get(
    '/fragrance/:code',
    {
      preHandler: requireUser,
      schema: {
        tags: ['profiles'],
        summary:
          "Every test of a fragrance (by its 6-digit SAP code) in the studies you may see, with each test's study, market, year, methodology, base and main metrics; the DerSimonian-Laird random-effects pooling of the study means of liking and purchase intention (Hartung-Knapp-Sidik-Jonkman 95 % interval, prediction interval from 3 studies, normal interval, tau², Q, I²) over the verified tests of one category and methodology (the query's, or the one with the most studies); strength is not pooled; and the answers of the pooled tests summed by market and by year",
        params: FragranceParams,
        querystring: FragranceQuery,
        response: {
          200: FragranceResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request) => fragrances.acrossTests(currentUser(request), request.params.code, request.query),
  );
};
