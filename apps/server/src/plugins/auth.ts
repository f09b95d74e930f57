/**
 * Who is calling: resolves the bearer token to a live session and its user on every request, and
 * gives routes `requireUser` and `requirePermission` guards. Sessions are database rows, so logout,
 * disabling or deleting a user ends access at once.
 */
import { permissionsForRole, type Permissions } from '@accord/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
});

/** preHandler: the caller must be signed in. */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.authUser) throw errors.unauthorized();
}

/** preHandler factory: the caller must be signed in and hold the permission. */
export function requirePermission(permission: keyof Permissions) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    if (!request.authUser) throw errors.unauthorized();
    if (!request.authUser.permissions[permission]) throw errors.forbidden();
  };
}

/** The signed-in user of a guarded route. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw errors.unauthorized();
  return request.authUser;
}
