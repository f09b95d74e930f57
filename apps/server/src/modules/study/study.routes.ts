import {
  ErrorResponse,
  IdParam,
  StudyDetailsResponse,
  StudyEditErrorResponse,
  StudyEditHistoryResponse,
  StudyEditResponse,
  StudyOptionsResponse,
  StudyTagEditRequest,
  StudyUpdateRequest,
} from '@accord/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, requirePermission, requireUser } from '../../plugins/auth.ts';
import type { StudyService } from './study.service.ts';

const readErrors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse };
const editErrors = {
  400: StudyEditErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};

/** The study page: details, details edit, tag edits, tag definitions, history (document 2 section 7). */
export const studyRoutes: FastifyPluginAsyncZod<{ study: StudyService }> = async (app, { study }) => {
  const tags = ['study'];

  app.get(
    '/study/options',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Tag definitions (field, label, type, options, multivalue, editable) of the edit screens',
        response: { 200: StudyOptionsResponse, 401: ErrorResponse },
      },
    },
    async (request) => study.options(currentUser(request)),
  );

  app.get(
    '/study/study_edit_history/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Edit history of a study, newest first: study (study-level changes, one per field) and grouped (every save of any type: study, fragrances, concepts)',
        params: IdParam,
        response: { 200: StudyEditHistoryResponse, ...readErrors },
      },
    },
    async (request) => study.history(currentUser(request), request.params.id),
  );

  app.get(
    '/study/:id',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'A study: grouped details, tags by tag group, fragrances, concepts, has_questions',
        params: IdParam,
        response: { 200: StudyDetailsResponse, ...readErrors },
      },
    },
    async (request) => study.details(currentUser(request), request.params.id),
  );

  app.put(
    '/study/:id',
    {
      preHandler: requirePermission('isAdmin'),
      schema: {
        tags,
        summary:
          'Details edit (admins): the changed fields with the values the page showed (oldData). A stored value that differs from oldData answers 409; ' +
          'incoherent region, country or methodology fields answer 400 with incoherent_fields (rules in coherence.ts). One transaction with one history row.',
        params: IdParam,
        body: StudyUpdateRequest,
        response: { 200: StudyEditResponse, ...editErrors },
      },
    },
    async (request) => study.update(currentUser(request), request.params.id, request.body),
  );

  app.put(
    '/study/:id/tags',
    {
      preHandler: requirePermission('isAdmin'),
      schema: {
        tags,
        summary:
          'Tag edit (admins): the fragrance table (type fragrances), the concept table (type concepts) or one study tag (type tag). One transaction with one history row.',
        params: IdParam,
        body: StudyTagEditRequest,
        response: { 200: StudyEditResponse, ...editErrors },
      },
    },
    async (request) => study.editTags(currentUser(request), request.params.id, request.body),
  );
};
