/** The CICS module as the app registers it: its routes over a service on the application database. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { createFieldsRepository } from '../fields/fields.repository.ts';
import { createCicsRepository } from './cics.repository.ts';
import { cicsRoutes } from './cics.routes.ts';
import { createCicsService } from './cics.service.ts';

export const cicsModule: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  await app.register(cicsRoutes, {
    cics: createCicsService({ cics: createCicsRepository(db), fields: createFieldsRepository(db) }),
  });
};
