import type { FastifyReply } from 'fastify';

/**
 * Sends JSON already written as text or as its UTF-8 bytes (a stored job result of megabytes):
 * Fastify sends a string with a JSON content type, or a buffer, as it is, without the response
 * schema's check and serialisation. The route's schema still documents the shape; the caller's tests
 * check the text against it.
 */
export function sendJsonText(reply: FastifyReply, text: string | Buffer): FastifyReply {
  // The reply's type is tied to the route's response schema, which the text follows but TypeScript
  // cannot see in a string.
  return reply.type('application/json; charset=utf-8').send(text as never);
}

/**
 * sendJsonText of an answer compressed already (once per stored result, in the encoding the client
 * accepts: plugins/compress-answers.ts chooseEncoding), which the answers' compression then leaves as
 * it is; encoding null: the text as it is, compressed on its way as any answer.
 */
export function sendEncodedJson(
  reply: FastifyReply,
  answer: { body: string | Buffer; encoding: 'br' | 'gzip' | null },
): FastifyReply {
  if (answer.encoding) reply.header('content-encoding', answer.encoding).header('vary', 'accept-encoding');
  return sendJsonText(reply, answer.body);
}
