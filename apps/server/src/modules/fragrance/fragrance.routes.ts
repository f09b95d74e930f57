import { ErrorResponse, FragranceParams, FragranceResponse } from '@accord/contracts';
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
          "Every test of a fragrance (by its 6-digit SAP code) in the studies you may see, with each test's study, market, year, methodology, base and main metrics; the DerSimonian-Laird random-effects pooling of the study means per metric (95 % interval, tau², Q, I²; verified studies); and the answers summed by market and by year",
        params: FragranceParams,
        response: {
          200: FragranceResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request) => fragrances.acrossTests(currentUser(request), request.params.code),
  );
};
