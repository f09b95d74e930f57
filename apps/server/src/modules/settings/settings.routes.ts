import { ErrorResponse, HelpUrl } from '@accord/contracts';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { siteSettings } from '../../db/schema.ts';
import { requirePermission, requireUser } from '../../plugins/auth.ts';

const HELP_URL_KEY = 'help_url';

export function createSettingsRepository(db: Db) {
  return {
    async get(key: string): Promise<string | null> {
      const [row] = await db
        .select({ value: siteSettings.value })
        .from(siteSettings)
        .where(eq(siteSettings.key, key));
      return row?.value ?? null;
    },
    async set(key: string, value: string): Promise<void> {
      await db
        .insert(siteSettings)
        .values({ key, value })
        .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: sql`now()` } });
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;

export const settingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsRepository }> = async (
  app,
  { settings },
) => {
  app.get(
    '/help-url',
    {
      preHandler: requireUser,
      schema: {
        tags: ['settings'],
        summary: 'The help view url (empty when none is set)',
        response: { 200: HelpUrl, 401: ErrorResponse },
      },
    },
    async () => ({ url: (await settings.get(HELP_URL_KEY)) ?? '' }),
  );

  app.post(
    '/help-url',
    {
      preHandler: requirePermission('canModifyHelpUrl'),
      schema: {
        tags: ['settings'],
        summary: 'Set the help view url',
        body: HelpUrl,
        response: { 200: HelpUrl, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => {
      await settings.set(HELP_URL_KEY, request.body.url);
      return { url: request.body.url };
    },
  );
};
