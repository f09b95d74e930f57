import {
  ErrorResponse,
  IdParam,
  MappingUpdateRequest,
  MappingUpdateResponse,
  MetricsCatalogueResponse,
  StudyIdParam,
  StudyMetricsResponse,
  StudyQuestionsResponse,
} from '@accord/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors } from '../../lib/errors.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import type { MappingService } from './mapping.service.ts';

const readErrors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse };

/**
 * Mapping edits are for admins and analytics users. Checked when the request arrives, before the
 * body is validated, so a caller without the right is told so whatever they sent.
 */
export async function requireMappingEditor(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const user = request.authUser;
  if (!user) throw errors.unauthorized();
  if (!user.permissions.isAdmin && !user.permissions.canAccessAnalytics) throw errors.forbidden();
}

/** Question mapping of a study (document 2 sections 2 to 7). */
export const mappingRoutes: FastifyPluginAsyncZod<{ mapping: MappingService }> = async (app, { mapping }) => {
  const tags = ['mapping'];

  app.get(
    '/study/metrics/',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The metrics catalogue: every metric a question can be mapped to (name, label, type, kind)',
        response: { 200: MetricsCatalogueResponse, 401: ErrorResponse },
      },
    },
    async () => mapping.catalogue(),
  );

  app.get(
    '/study/metrics/:studyId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Metrics a study has questions mapped to (with the questions), its product codes and the product code column (document 3 section 3.5)',
        params: StudyIdParam,
        response: { 200: StudyMetricsResponse, ...readErrors },
      },
    },
    async (request) => mapping.studyMetrics(currentUser(request), request.params.studyId),
  );

  app.get(
    '/study/:id/questions/',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Questions of a study grouped by results file: domain, metric, suggested metric (computed from the text and scale), validation',
        params: IdParam,
        response: { 200: StudyQuestionsResponse, ...readErrors },
      },
    },
    async (request) => mapping.questions(currentUser(request), request.params.id),
  );

  app.put(
    '/study/:id/question/',
    {
      onRequest: requireMappingEditor,
      schema: {
        tags,
        summary:
          'Mapping update (admins and analytics users): metric (id, metric), constant value (id, value), validation (the question plus metric_validated) or a new constant question (no id). ' +
          'A metric is used once per file; a validated question keeps its metric. A metric change moves the answers and refreshes the product statistics in the same transaction.',
        params: IdParam,
        body: MappingUpdateRequest,
        response: {
          200: MappingUpdateResponse,
          ...readErrors,
          403: ErrorResponse,
        },
      },
    },
    async (request) => mapping.update(currentUser(request), request.params.id, request.body.q_upd),
  );
};
