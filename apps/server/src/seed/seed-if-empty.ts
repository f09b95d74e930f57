/**
 * First start: an empty database gets the reference data, the demo users and a demo library, so
 * `npm start` opens on a populated product.
 */
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import { seedDemoLibrary, type DemoLibrarySummary } from './library.ts';
import { createProgressBar, formatDuration, type ProgressOutput } from './progress.ts';
import { seedReferenceData } from './reference-data.ts';
import { DEMO_USERS, seedUsers } from './users.ts';

export { DEMO_USERS };

export type SeedConfig = Pick<Config, 'demoPassword' | 'seed' | 'demoStudies'>;

export interface SeedResult {
  library: DemoLibrarySummary | undefined;
  users: string[];
}

/**
 * When no user exists: seeds reference data, demo users and `config.demoStudies` studies (0 seeds
 * users only), printing a progress bar. Returns undefined when the database already had users;
 * the caller prints the demo logins (demoLoginsText).
 */
export async function seedIfEmpty(
  database: Database,
  storage: FileStorage,
  config: SeedConfig,
  output: ProgressOutput = process.stdout,
): Promise<SeedResult | undefined> {
  const { rows } = await database.sql.executeSql('SELECT 1 FROM users LIMIT 1');
  if (rows.length > 0) return undefined;

  await seedReferenceData(database);
  const created = await seedUsers(database, { password: config.demoPassword });
  let library: DemoLibrarySummary | undefined;
  if (config.demoStudies > 0) {
    output.write(
      `Empty database: seeding a demo library of ${config.demoStudies} studies (seed ${config.seed}).\n`,
    );
    library = await seedDemoLibrary(database, storage, {
      studies: config.demoStudies,
      seed: config.seed,
      onProgress: createProgressBar(output, 'Demo library'),
    });
    output.write(
      `Demo library: ${library.studies} studies, ${library.answers.toLocaleString('en-US')} answers ` +
        `in ${formatDuration(library.milliseconds)}.\n`,
    );
  }
  return { library, users: created.map((u) => u.email) };
}

/** The demo logins, one line per role. */
export function demoLoginsText(password: string): string {
  const lines = DEMO_USERS.map((u) => {
    const scope = u.clients.length > 0 ? ` (clients: ${u.clients.join(', ')})` : '';
    return `  ${u.roleName.padEnd(10)} ${u.email.padEnd(24)} ${password}${scope}`;
  });
  return `Demo logins:\n${lines.join('\n')}\n`;
}
