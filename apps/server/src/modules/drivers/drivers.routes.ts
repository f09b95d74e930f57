import {
  DRIVERS_FILE_NAME,
  DRIVERS_MESSAGES,
  DRIVERS_SLIDES_FILE_NAME,
  DriversQuery,
  DriversResponse,
  ErrorResponse,
  type ParsedDriversQuery,
  XLSX_CONTENT_TYPE,
} from '@accord/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors } from '../../lib/errors.ts';
import { sendJsonText } from '../../lib/json-text.ts';
import { reportBytes } from '../../lib/report-workbook.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { driversReport, driversSlides } from './drivers.presenter.ts';
import type { DriversService } from './drivers.service.ts';

const PPTX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const errorResponses = { 400: ErrorResponse, 401: ErrorResponse };
const RULE =
  ' Every signed-in user; for client and sales users only a base of at least 5 studies of at least 3 clients (status "withheld" with the reason otherwise, no number). Another client\'s study is never named ("Another client\'s study", no id); no product is named.';

function sendFile(reply: FastifyReply, type: string, name: string, bytes: Buffer) {
  return reply.type(type).header('content-disposition', `attachment; filename="${name}"`).send(bytes);
}

/** Drivers of liking: every signed-in user, with the norms rule for client and sales users. */
export const driversRoutes: FastifyPluginAsyncZod<{ drivers: DriversService }> = async (app, { drivers }) => {
  const tags = ['drivers'];

  /** The drivers a file is written from: 403 withheld, 404 empty. */
  async function shown(user: AuthUser, query: ParsedDriversQuery) {
    const answer = await drivers.drivers(user, query);
    if (answer.status === 'withheld') throw errors.forbidden(DRIVERS_MESSAGES.withheld);
    if (answer.status === 'empty') throw errors.notFound(answer.reason ?? undefined);
    return answer;
  }

  app.get(
    '/drivers',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "Drivers of liking in a base (chosen as for norms): each attribute's correlation with liking per study (Pearson per product, averaged on Fisher's z), pooled across studies (DerSimonian-Laird, Hartung-Knapp interval, prediction interval, I²) and ranked, with the studies behind each figure; the strength questions' penalty analysis pooled across the studies." +
          RULE,
        querystring: DriversQuery,
        response: { 200: DriversResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      sendJsonText(reply, await drivers.driversText(currentUser(request), request.query)),
  );

  app.get(
    '/drivers/xlsx',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: `Drivers of liking as ${DRIVERS_FILE_NAME}: the ranked attributes, the strength penalties and the studies behind each correlation. A withheld base answers 403, an empty one 404.${RULE}`,
        querystring: DriversQuery,
        response: { ...errorResponses, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const answer = await shown(user, request.query);
      const report = driversReport(answer, { author: user.email, date: new Date() });
      return sendFile(
        reply,
        XLSX_CONTENT_TYPE,
        DRIVERS_FILE_NAME,
        await reportBytes('Drivers', report.header, report.table),
      );
    },
  );

  app.get(
    '/drivers/pptx',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: `Drivers of liking as slides (${DRIVERS_SLIDES_FILE_NAME}): a title slide, the ranked correlations as a native chart with their intervals, the strength penalties. A withheld base answers 403, an empty one 404.${RULE}`,
        querystring: DriversQuery,
        response: { ...errorResponses, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const answer = await shown(user, request.query);
      return sendFile(
        reply,
        PPTX_CONTENT_TYPE,
        DRIVERS_SLIDES_FILE_NAME,
        await driversSlides(answer, { author: user.email, date: new Date() }),
      );
    },
  );
};
