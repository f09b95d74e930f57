/**
 * One JSON line per answered request (pino, Fastify's logger): method, route (the pattern, e.g.
 * /api/study/:id, so no token or identifier written in a path or query reaches the log), status,
 * time in milliseconds, the signed-in user's id and, bound by Fastify to every line of a request, its
 * requestId (also the answer's x-request-id).
 * Bodies and headers, and with them passwords, tokens and the Authorization header, are never
 * logged. The level is LOG_LEVEL (info by default; warn keeps only failures, silent nothing).
 */
import type { FastifyInstance } from 'fastify';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function requestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const line = {
      method: request.method,
      route: request.routeOptions.url ?? '(no route)',
      status,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      userId: request.authUser?.id ?? null,
    };
    if (status >= 500) request.log.error(line, 'request failed');
    else request.log.info(line, 'request');
  });
}
