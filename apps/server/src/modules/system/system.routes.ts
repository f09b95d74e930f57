import { ErrorResponse, HealthResponse, MessageResponse, VersionResponse } from '@accord/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Db } from '../../db/client.ts';
import { errors } from '../../lib/errors.ts';

/** A database that has not answered `select 1` within this time is reported unavailable. */
export const HEALTH_DATABASE_TIMEOUT_MS = 5_000;

export const systemRoutes: FastifyPluginAsyncZod<{
  version: string;
  database: Database;
  startedAt: number;
}> = async (app, { version, database, startedAt }) => {
  app.get(
    '/',
    { schema: { tags: ['system'], summary: 'The API version', response: { 200: VersionResponse } } },
    async () => ({
      name: 'Accord API',
      version,
    }),
  );

  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Whether this server and its database answer',
        description:
          'No sign-in needed. 200 when the database answered `select 1`, with its time; 503 when it did not.',
        security: [],
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (request, reply) => {
      const started = performance.now();
      let error: string | undefined;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          database.sql.executeSql('select 1 as up'),
          new Promise((_resolve, reject) => {
            timer = setTimeout(
              () => reject(new Error(`no answer within ${HEALTH_DATABASE_TIMEOUT_MS / 1000} s`)),
              HEALTH_DATABASE_TIMEOUT_MS,
            );
          }),
        ]);
      } catch (failure) {
        // The cause goes to the log; anonymous callers learn only that the database did not answer.
        request.log.error({ err: failure }, 'health: the database did not answer');
        error = 'The database did not answer.';
      } finally {
        clearTimeout(timer);
      }
      const latencyMs = Math.round((performance.now() - started) * 10) / 10;
      return reply.code(error === undefined ? 200 : 503).send({
        status: error === undefined ? 'ok' : 'unavailable',
        name: 'Accord API',
        version,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 100) / 10,
        database: {
          engine: database.engine,
          ok: error === undefined,
          latencyMs,
          ...(error === undefined ? {} : { error }),
        },
      });
    },
  );
};

/**
 * Hooks that browser journeys need to set up states a user cannot reach quickly (a user inactive for
 * 30 days). Registered only when ACCORD_TEST_HOOKS=1; never in a normal start.
 */
export const testHookRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  // A request that holds the database for a while (on PGlite, the whole process, as a heavy query
  // does): the stop tests send a few, then SIGTERM, and expect every one answered.
  app.post(
    '/test/sleep',
    {
      schema: {
        hide: true,
        body: z.object({ seconds: z.number().min(0).max(10) }),
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await db.execute(sql`select pg_sleep(${request.body.seconds})`);
      return { message: 'slept' };
    },
  );

  app.post(
    '/test/age-user',
    {
      schema: {
        hide: true,
        body: z.object({ email: z.string(), days: z.number().int().min(0).max(3650) }),
        response: { 200: MessageResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const { email, days } = request.body;
      const result = (await db.execute(
        sql`update users set last_login_at = now() - make_interval(days => ${days}), last_seen = now() - make_interval(days => ${days}),
            created_at = least(created_at, now() - make_interval(days => ${days})) where lower(email) = lower(${email}) returning id`,
      )) as unknown as { rows: unknown[] };
      if (result.rows.length === 0) throw errors.notFound('User not found.');
      return { message: 'aged' };
    },
  );
};
