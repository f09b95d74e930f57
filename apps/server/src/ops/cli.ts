/**
 * npm run backup -- PATH   writes the whole state (database and DATA_DIR/files) to a new tar.gz
 * npm run restore -- PATH  restores such an archive into an empty DATA_DIR or empty database
 *
 * The state is the configured one: DATABASE_URL (PostgreSQL) when set, else the embedded database
 * in DATA_DIR/db; the files in DATA_DIR/files. See docs/DEPLOYMENT.md, Backups.
 */
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { version } from '../runtime/prepare.ts';
import { BackupError, createBackup, restoreBackup } from './backup.ts';

const USAGE = 'Usage: npm run backup -- PATH.tar.gz | npm run restore -- PATH.tar.gz';

async function main(): Promise<void> {
  const [command, given, ...rest] = process.argv.slice(2);
  if ((command !== 'backup' && command !== 'restore') || !given || rest.length > 0) {
    console.error(USAGE);
    process.exit(2);
  }
  // npm runs the script in the project folder; a relative path means the folder npm was run from.
  const archive = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
  const config = loadConfig();
  const location = { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
  const log = (line: string) => console.log(line);
  const started = performance.now();
  if (command === 'backup') await createBackup(location, archive, { appVersion: version, log });
  else await restoreBackup(location, archive, { log });
  console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof BackupError ? error.message : error);
  process.exit(1);
});
