/**
 * The built SPA at /: its text assets compressed at build (name.br, name.gz beside each, see
 * scripts/build.mjs) and sent compressed to a browser that accepts it; hashed assets (/assets/,
 * named by their content) cached for a year as immutable, everything else (index.html, the SPA's
 * history routes) revalidated at each load; source maps answered only when ACCORD_SOURCE_MAPS is on.
 */
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { MESSAGES } from '@accord/contracts';
import type { FastifyInstance } from 'fastify';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Vite names every file under assets/ by its content: a new build gives changed files new names. */
const isHashedAsset = (file: string, root: string) =>
  path.relative(root, file).split(path.sep)[0] === 'assets';

export async function webAppRoutes(
  app: FastifyInstance,
  options: { webDist: string; sourceMaps?: boolean },
): Promise<void> {
  const root = options.webDist;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    allowedPath: (pathName) =>
      // The compressed copies are chosen by the server, never asked for by name.
      !/\.(br|gz)$/.test(pathName) && (options.sourceMaps === true || !pathName.endsWith('.map')),
    setHeaders: (response, file) => {
      response.setHeader('cache-control', isHashedAsset(file, root) ? IMMUTABLE : REVALIDATE);
      // A cache between the browser and the server keeps the compressed and plain answers apart.
      response.setHeader('vary', 'accept-encoding');
    },
  });
  // History routing: every other GET that is not a file answers with the SPA; a missing asset (an
  // old build's, or one not answered, as source maps and the compressed copies) is a 404.
  app.setNotFoundHandler((request, reply) => {
    const pathName = request.url.split('?')[0] ?? '';
    if (request.method !== 'GET' || pathName.startsWith('/assets/') || /\.(map|br|gz)$/.test(pathName))
      return reply
        .code(404)
        .send({ error: 'not_found', message: MESSAGES.notFound, statusCode: 404, requestId: request.id });
    return reply.type('text/html').sendFile('index.html');
  });
}
