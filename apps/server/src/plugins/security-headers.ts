/**
 * The security headers of every answer (Content-Security-Policy and the rest of helmet's set),
 * computed once at start.
 *
 * @fastify/helmet builds helmet's middleware again for every request (its options merged, every
 * CSP directive parsed and checked) before it sets the same headers with the same values. Here
 * helmet with the app's options answers one request of a private Fastify instance at start; the
 * headers it set are recorded with their names as helmet spells them, and every request of the app
 * then sets that list on its answer at the same point (onRequest), so a page, an API answer and an
 * error carry exactly what helmet gave them (`security-headers.api.test.ts`).
 */
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

type HeaderList = readonly (readonly [name: string, value: string | number | readonly string[]])[];

/** The headers helmet sets on an answer with these options, in its order and spelling. */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<HeaderList> {
  const probe = Fastify({ logger: false });
  let headers: HeaderList = [];
  try {
    await probe.register(helmet, options);
    // Runs after helmet's own onRequest hooks: the answer holds helmet's headers and nothing else yet.
    probe.addHook('onRequest', async (_request, reply) => {
      // Node's own spelling of each name (getHeaderNames answers them in lower case).
      const raw = reply.raw as typeof reply.raw & { getRawHeaderNames(): string[] };
      headers = raw.getRawHeaderNames().map((name) => [name, raw.getHeader(name)!] as const);
    });
    probe.get('/', async () => '');
    const answer = await probe.inject({ method: 'GET', url: '/' });
    if (answer.statusCode !== 200)
      throw new Error(`security headers: the probe answered ${answer.statusCode}`);
  } finally {
    await probe.close();
  }
  if (headers.length === 0) throw new Error('security headers: helmet set no header');
  return headers;
}

/** Sets helmet's headers, computed once from `options`, on every answer of the app. */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions,
): Promise<void> {
  const headers = await helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
