/**
 * Making the database ready at start: migrations and the demo library, once per start (by the
 * primary of several web processes, before it forks them). Kept apart from serve.ts so that the
 * primary, which serves nothing, does not load the application.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { seedIfEmpty } from '../seed/seed-if-empty.ts';
import { createLocalFileStorage } from '../storage/file-storage.ts';

/** The server's version (apps/server/package.json). */
export const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Opens the configured database (PGlite in DATA_DIR, or PostgreSQL with its read replicas). */
export function openConfiguredDatabase(
  config: Config,
  options: { migrate?: boolean } = {},
): Promise<Database> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'db'),
    readUrls: config.databaseReadUrls,
    poolSize: config.databasePoolSize,
    migrate: options.migrate,
  });
}

/**
 * Migrates the database and seeds the demo library into an empty one; answers the open database and
 * whether it was seeded now (the demo logins are printed then, once, not at every start).
 */
export async function prepareDatabase(config: Config): Promise<{ database: Database; seeded: boolean }> {
  const database = await openConfiguredDatabase(config);
  console.log(`Database: ${database.engine} (${database.location}), migrated.`);
  const storage = createLocalFileStorage(path.join(config.dataDir, 'files'));
  const seeded = (await seedIfEmpty(database, storage, config)) !== undefined;
  return { database, seeded };
}
