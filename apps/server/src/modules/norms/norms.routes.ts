import {
  ErrorResponse,
  NORM_MESSAGES,
  NORMS_FILE_NAME,
  NormOptionsResponse,
  NormQuery,
  NormRankQuery,
  NormRankResponse,
  NormResponse,
  XLSX_CONTENT_TYPE,
} from '@accord/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors } from '../../lib/errors.ts';
import { reportBytes } from '../../lib/report-workbook.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import { normReport } from './norms.presenter.ts';
import type { NormsService } from './norms.service.ts';

const errorResponses = { 400: ErrorResponse, 401: ErrorResponse };
const RULE =
  ' Norms are anonymous aggregates of the whole library for every signed-in user; a norm whose base holds fewer than 5 studies of at least 3 clients is withheld: status "withheld" with the reason (its counts only for staff), never a number, product, study or client of it.';

/** A workbook as a download. */
function sendWorkbook(reply: FastifyReply, bytes: Buffer) {
  return reply
    .type(XLSX_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${NORMS_FILE_NAME}"`)
    .send(bytes);
}

/** Norms (METRICS.md section 5): every signed-in user. */
export const normsRoutes: FastifyPluginAsyncZod<{ norms: NormsService }> = async (app, { norms }) => {
  const tags = ['norms'];

  app.get(
    '/norms/options',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "The norms screen's choices: metrics with the aggregations they offer, and the categories, regions, product types, methodologies and years of the library's verified studies",
        response: { 200: NormOptionsResponse, 401: ErrorResponse },
      },
    },
    async () => norms.options(),
  );

  app.get(
    '/norms',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'A norm: over the products of a base (a category, optionally a region, product type, methodology and years), the number of products, studies and clients, the mean, P10/P25/P50/P75/P90 (linear interpolation) of the product scores of the metric search, the histogram and the action standards.' +
          RULE,
        querystring: NormQuery,
        response: { 200: NormResponse, ...errorResponses },
      },
    },
    async (request) => norms.norm(currentUser(request), request.query),
  );

  app.get(
    '/norms/rank',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "A product's percentile rank within a norm (by default its own category norm: its study's category, products of its kind): the share of the base scoring below it plus half the share scoring the same. The product must be one you may see (404 otherwise)." +
          RULE,
        querystring: NormRankQuery,
        response: { 200: NormRankResponse, ...errorResponses, 404: ErrorResponse },
      },
    },
    async (request) => norms.rank(currentUser(request), request.query),
  );

  app.get(
    '/norms/xlsx',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: `A norm as ${NORMS_FILE_NAME}: the base in words, counts, mean, percentiles and action standards, and the histogram. A withheld norm answers 403 with the reason; a norm without any score 404.`,
        querystring: NormQuery,
        response: { ...errorResponses, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const norm = await norms.norm(user, request.query);
      if (norm.status === 'withheld') throw errors.forbidden(NORM_MESSAGES.withheld);
      if (norm.status === 'empty') throw errors.notFound(norm.reason ?? undefined);
      const report = normReport(norm, { author: user.email, date: new Date() });
      return sendWorkbook(reply, await reportBytes('Norm', report.header, report.table));
    },
  );
};
