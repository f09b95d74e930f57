/**
 * Every operation of the OpenAPI document gets an operationId, which client generators name their
 * functions by. A route may set its own (schema.operationId); the others get one from the method and
 * the path: GET /api/users/{userId}/searches/ is getUsersByUserIdSearches.
 */
import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';

const capitalise = (word: string) => (word ? word[0]!.toUpperCase() + word.slice(1) : '');

/** camelCase of a path's words: letters and digits kept, everything else splits words. */
const words = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(capitalise)
    .join('');

/** The operationId of a method and path (Fastify's :param or OpenAPI's {param} form; /api left out). */
export function operationIdOf(method: string, url: string): string {
  const segments = url
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^(?::(.+)|\{(.+)\})$/.exec(segment);
      return param ? `By${words(param[1] ?? param[2] ?? '')}` : words(segment);
    });
  return `${method.toLowerCase()}${segments.join('') || 'Root'}`;
}

/** Wraps a swagger transform so each route it documents carries an operationId. */
export function withOperationId<S extends FastifySchema>(
  transform: SwaggerTransform<S>,
): SwaggerTransform<S> {
  return (input) => {
    const result = transform(input);
    const schema = result.schema as FastifySchema & { operationId?: string };
    if (schema.operationId) return result;
    const methods = [input.route.method].flat();
    const method = methods.find((name) => name !== 'HEAD') ?? methods[0] ?? 'get';
    return { ...result, schema: { ...schema, operationId: operationIdOf(method, input.url) } };
  };
}
