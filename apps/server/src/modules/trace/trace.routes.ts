import { Readable } from 'node:stream';
import { ErrorResponse, TRACE_ANSWERS_FILE_NAME, TraceRequest, TraceResponse } from '@accord/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import { createTraceRepository } from './trace.repository.ts';
import { createTraceService, type TraceService } from './trace.service.ts';

const errorResponses = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** The trace service over a database. */
export const traceDeps = (db: Db) => ({ trace: createTraceService({ trace: createTraceRepository(db) }) });

/** "How was this computed?" of any aggregate on screen, and its answers as csv: every signed-in user. */
export const traceRoutes: FastifyPluginAsyncZod<{ trace: TraceService }> = async (app, { trace }) => {
  const tags = ['trace'];

  app.post(
    '/trace',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'How an aggregate was computed (a metric search cell, a profile row, a group comparison value), recomputed from its answers: metric and question texts per study, the original scales and their harmonisation, the respondent filters in words, the base (respondents, answers, products, studies), the low-base flag, the test behind a significance mark with its p-value, and the results files. Products outside your studies answer 404.',
        body: TraceRequest,
        response: { 200: TraceResponse, ...errorResponses },
      },
    },
    async (request) => trace.trace(currentUser(request), request.body),
  );

  app.post(
    '/trace/answers.csv',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: `The answers an aggregate is computed from as ${TRACE_ANSWERS_FILE_NAME} (study, respondent, product, question, question text, raw and harmonised value), streamed; users with the download right only. Same body as POST /trace.`,
        body: TraceRequest,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const lines = await trace.answersCsv(currentUser(request), request.body);
      // A stream, not a body of the typed error responses: the plain reply sends it as it is read.
      return (reply as FastifyReply)
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${TRACE_ANSWERS_FILE_NAME}"`)
        .send(Readable.from(lines));
    },
  );
};
