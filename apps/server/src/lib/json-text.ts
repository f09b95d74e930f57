import type { FastifyReply } from 'fastify';

/**
 * Sends JSON already written as text, or its UTF-8 bytes (a stored job result of megabytes): Fastify
 * sends a string or a buffer with a JSON content type as it is, without the response schema's check
 * and serialisation. The route's schema still documents the shape; the caller's tests check the
 * text against it.
 */
export function sendJsonText(reply: FastifyReply, text: string | Buffer): FastifyReply {
  // The reply's type is tied to the route's response schema, which the text follows but TypeScript
  // cannot see in a string.
  return reply.type('application/json; charset=utf-8').send(text as never);
}
