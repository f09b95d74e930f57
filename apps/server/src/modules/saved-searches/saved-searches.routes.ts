import {
  CreateSavedSearchRequest,
  DeleteSavedSearchRequest,
  ErrorResponse,
  MessageResponse,
  SavedSearch,
  SavedSearchQuery,
  UserIdParam,
} from '@accord/contracts';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { savedSearches } from '../../db/schema.ts';
import { errors } from '../../lib/errors.ts';
import { currentUser, requireUser, type AuthUser } from '../../plugins/auth.ts';

export const EMPTY_FILTERS_MESSAGE = "You can't save searches with empty filters!";

/** Whether a filter object holds any value a user chose (a non-empty text, a number, a list item). */
export function hasFilterValue(value: unknown): boolean {
  if (value === null || value === undefined || typeof value === 'boolean') return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.some(hasFilterValue);
  if (typeof value === 'object') return Object.values(value).some(hasFilterValue);
  return false;
}

function presentSavedSearch(row: typeof savedSearches.$inferSelect): SavedSearch {
  return {
    id: row.id,
    slug: row.slug,
    created_at: row.createdAt.toISOString(),
    metadata_query: row.metadataQuery,
    search_type: row.searchType,
  };
}

/** Saved searches belong to their user; an admin may manage anyone's. */
function assertOwner(actor: AuthUser, userId: number) {
  if (actor.id !== userId && !actor.permissions.isAdmin) throw errors.forbidden();
}

const errorResponses = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

export const savedSearchesRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/users/:userId/searches/',
    {
      preHandler: requireUser,
      schema: {
        tags: ['saved searches'],
        summary: 'Saved searches of a user, newest first',
        params: UserIdParam,
        querystring: SavedSearchQuery,
        response: { 200: z.array(SavedSearch), ...errorResponses },
      },
    },
    async (request) => {
      assertOwner(currentUser(request), request.params.userId);
      const rows = await db
        .select()
        .from(savedSearches)
        .where(
          and(
            eq(savedSearches.userId, request.params.userId),
            eq(savedSearches.searchType, request.query.search_type),
          ),
        )
        .orderBy(desc(savedSearches.createdAt), desc(savedSearches.id));
      return rows.map(presentSavedSearch);
    },
  );

  app.post(
    '/users/:userId/searches/',
    {
      preHandler: requireUser,
      schema: {
        tags: ['saved searches'],
        summary: 'Save a search',
        params: UserIdParam,
        body: CreateSavedSearchRequest,
        response: { 200: SavedSearch, ...errorResponses },
      },
    },
    async (request) => {
      assertOwner(currentUser(request), request.params.userId);
      if (!hasFilterValue(JSON.parse(request.body.metadata_query)))
        throw errors.badRequest(EMPTY_FILTERS_MESSAGE);
      const [row] = await db
        .insert(savedSearches)
        .values({
          userId: request.params.userId,
          slug: request.body.slug,
          searchType: request.body.search_type,
          metadataQuery: request.body.metadata_query,
        })
        .returning();
      return presentSavedSearch(row!);
    },
  );

  app.delete(
    '/users/:userId/searches/',
    {
      preHandler: requireUser,
      schema: {
        tags: ['saved searches'],
        summary: 'Delete a saved search',
        params: UserIdParam,
        body: DeleteSavedSearchRequest,
        response: { 200: MessageResponse, ...errorResponses },
      },
    },
    async (request) => {
      assertOwner(currentUser(request), request.params.userId);
      const deleted = await db
        .delete(savedSearches)
        .where(
          and(eq(savedSearches.id, request.body.searchId), eq(savedSearches.userId, request.params.userId)),
        )
        .returning({ id: savedSearches.id });
      if (deleted.length === 0) throw errors.notFound('Saved search not found.');
      return { message: 'Saved search deleted.' };
    },
  );
};
