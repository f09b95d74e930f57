import { ErrorResponse, MessageResponse, VersionResponse } from '@accord/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { errors } from '../../lib/errors.ts';

export const systemRoutes: FastifyPluginAsyncZod<{ version: string }> = async (app, { version }) => {
  app.get(
    '/',
    { schema: { tags: ['system'], summary: 'The API version', response: { 200: VersionResponse } } },
    async () => ({
      name: 'Accord API',
      version,
    }),
  );
};

/**
 * Hooks that browser journeys need to set up states a user cannot reach quickly (a user inactive for
 * 30 days). Registered only when ACCORD_TEST_HOOKS=1; never in a normal start.
 */
export const testHookRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
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
