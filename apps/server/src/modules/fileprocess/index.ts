/** The studies upload module as the app registers it: its worker (unless disabled) and its routes. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { createFileProcessRepository } from './fileprocess.repository.ts';
import { fileProcessRoutes } from './fileprocess.routes.ts';
import { createFileProcessService, registerFileProcessJobs } from './fileprocess.service.ts';

export const fileProcessModule: FastifyPluginAsyncZod<{
  database: Database;
  storage: FileStorage;
  clock: Clock;
  jobs: JobQueue;
  workers: boolean;
  quotaBytes?: number;
  maxStatusStreams?: number;
}> = async (app, { database, storage, clock, jobs, workers, quotaBytes, maxStatusStreams }) => {
  const fileprocess = createFileProcessService({
    processes: createFileProcessRepository(database.db),
    database,
    storage,
    clock,
    jobs,
    quotaBytes,
  });
  if (workers) await registerFileProcessJobs(jobs, fileprocess);
  await app.register(fileProcessRoutes, { fileprocess, maxStatusStreams });
};
