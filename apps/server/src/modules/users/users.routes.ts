import {
  CreateUserRequest,
  ErrorResponse,
  IdParam,
  PAGINATION_HEADERS,
  Role,
  UpdateUserRequest,
  User,
  UserListQuery,
} from '@accord/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, requirePermission, requireUser } from '../../plugins/auth.ts';
import type { UsersService } from './users.service.ts';

const errorResponses = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  const adminOnly = { preHandler: requirePermission('canModifyUsers') };

  app.get(
    '/users/',
    {
      ...adminOnly,
      schema: {
        tags: ['users'],
        summary: 'List users (pagination in the per_page, total, page, has_prev, pages, has_next headers)',
        querystring: UserListQuery,
        response: { 200: z.array(User), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await users.list(request.query);
      for (const header of PAGINATION_HEADERS) reply.header(header, String(result.page[header]));
      return result.users;
    },
  );

  app.get(
    '/users/roles/',
    {
      ...adminOnly,
      schema: {
        tags: ['users'],
        summary: 'The roles a user can have',
        response: { 200: z.array(Role), ...errorResponses },
      },
    },
    async () => users.roles(),
  );

  app.get(
    '/users/:id/',
    {
      preHandler: requireUser,
      schema: {
        tags: ['users'],
        summary: 'One user (admins, or the user themself)',
        params: IdParam,
        response: { 200: User, ...errorResponses },
      },
    },
    async (request) => users.get(currentUser(request), request.params.id),
  );

  app.post(
    '/users/',
    {
      ...adminOnly,
      schema: {
        tags: ['users'],
        summary: 'Create a user',
        body: CreateUserRequest,
        response: { 200: User, ...errorResponses },
      },
    },
    async (request) => users.create(request.body),
  );

  app.put(
    '/users/:id/',
    {
      preHandler: requireUser,
      schema: {
        tags: ['users'],
        summary: 'Update a user; deleting is an update with deleted true',
        params: IdParam,
        body: UpdateUserRequest,
        response: { 200: User, ...errorResponses },
      },
    },
    async (request) => users.update(currentUser(request), request.params.id, request.body),
  );
};
