import { Readable } from 'node:stream';
import {
  DRIVER_ANSWERS_FILE_NAME,
  DriverTraceQuery,
  DriverTraceResponse,
  ErrorResponse,
} from '@accord/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import type { DriverTraceService } from './driver-trace.service.ts';

const errorResponses = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const RULE =
  " Every signed-in user; client and sales users only for a base of at least 5 studies of at least 3 clients (403 otherwise), another client's study never named. An empty base answers 404, an attribute the drivers do not rank 400.";

/** "How was this computed?" of a driver of liking, and its paired answers as csv. */
export const driverTraceRoutes: FastifyPluginAsyncZod<{ driverTrace: DriverTraceService }> = async (
  app,
  { driverTrace },
) => {
  const tags = ['drivers', 'trace'];

  app.get(
    '/drivers/trace',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "How a driver's pooled correlation was computed, recomputed from its answers: per study and product Pearson r of liking with the attribute over the respondents, per study averaged on Fisher's z, pooled across studies (DerSimonian-Laird), beside the drivers answer's figure, with the studies, products and respondents counted." +
          RULE,
        querystring: DriverTraceQuery,
        response: { 200: DriverTraceResponse, ...errorResponses },
      },
    },
    async (request) => driverTrace.trace(currentUser(request), request.query),
  );

  app.get(
    '/drivers/trace/answers.csv',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: `The paired answers a driver is computed from as ${DRIVER_ANSWERS_FILE_NAME} (study, respondent, product, liking, attribute: each respondent's harmonised answers to one product, averaged over the metric's questions), the caller's own studies only; users with the download right only (403). Same query as GET /drivers/trace.${RULE}`,
        querystring: DriverTraceQuery,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const lines = await driverTrace.answersCsv(currentUser(request), request.query);
      // A stream, not a body of the typed error responses: the plain reply sends it as it is read.
      return (reply as FastifyReply)
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${DRIVER_ANSWERS_FILE_NAME}"`)
        .send(Readable.from(lines));
    },
  );
};
