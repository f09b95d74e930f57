/**
 * Who is calling: resolves the bearer token to a live session and its user on every request, and
 * gives routes `requireUser` and `requirePermission` guards. Sessions are database rows, so logout,
 * disabling or deleting a user ends access at once.
 */
import { permissionsForRole, type Permissions } from '@accord/contracts';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../lib/errors.ts';
import type { SessionRepository } from '../modules/auth/session.repository.ts';

export interface AuthUser {
  id: number;
  email: string;
  roleId: number;
  clients: string[];
  sessionId: string;
  permissions: Permissions;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. Set before any handler runs. */
    authUser: AuthUser | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

export const authPlugin = fp<{ sessions: SessionRepository }>(async (app, { sessions }) => {
  app.decorateRequest('authUser', null);
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token) return;
    const found = await sessions.findByAccessToken(token);
    if (!found) return;
    request.authUser = { ...found, permissions: permissionsForRole(found.roleId) };
  });
  // A route names its guard as a preHandler, which Fastify runs after the body, query and path
  // are parsed and validated: an anonymous caller would learn what the operation expects (400)
  // before being told to sign in. The guards run at onRequest instead, right after the session
  // is resolved above, so who may call is decided before anything the caller sent is read.
  app.addHook('onRoute', (route) => {
    const preHandlers = asList(route.preHandler);
    const guards = preHandlers.filter(isGuard);
    if (guards.length === 0) return;
    route.preHandler = preHandlers.filter((handler) => !isGuard(handler));
    route.onRequest = [...asList(route.onRequest), ...(guards as unknown as onRequestHookHandler[])];
  });
});

const GUARD = Symbol('accord.guard');

function asList<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function isGuard(handler: unknown): boolean {
  return typeof handler === 'function' && GUARD in handler;
}

function guard<T extends (request: FastifyRequest, reply: FastifyReply) => Promise<void>>(check: T): T {
  return Object.assign(check, { [GUARD]: true });
}

/** Guard (given as a preHandler, run at onRequest): the caller must be signed in. */
export const requireUser = guard(async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
  if (!request.authUser) throw errors.unauthorized();
});

/** Guard factory (given as a preHandler, run at onRequest): the caller must be signed in and hold the permission. */
export function requirePermission(permission: keyof Permissions): preHandlerHookHandler {
  return guard(async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    if (!request.authUser) throw errors.unauthorized();
    if (!request.authUser.permissions[permission]) throw errors.forbidden();
  });
}

/** The signed-in user of a guarded route. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw errors.unauthorized();
  return request.authUser;
}
