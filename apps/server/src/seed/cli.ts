/**
 * npm run seed -- --studies N [--seed S] [--database-url URL] [--data-dir DIR] [--password P]
 *
 * Adds N generated studies (plus reference data and demo users when missing) to the database of
 * DATABASE_URL or --database-url, else to the embedded database in DATA_DIR/db. Files go to
 * DATA_DIR/files.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createLocalFileStorage } from '../storage/file-storage.ts';
import { seedDemoLibrary } from './library.ts';
import { createProgressBar, formatDuration } from './progress.ts';
import { seedReferenceData } from './reference-data.ts';
import { demoLoginsText } from './seed-if-empty.ts';
import { seedUsers } from './users.ts';

const USAGE =
  'Usage: npm run seed -- --studies N [--seed S] [--database-url URL] [--data-dir DIR] [--password P]\n' +
  '  [--products N] [--respondents N] [--questions N]';

function positiveInteger(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`--${name} must be a whole number, got "${text}"`);
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      studies: { type: 'string' },
      seed: { type: 'string' },
      'database-url': { type: 'string' },
      'data-dir': { type: 'string' },
      password: { type: 'string' },
      products: { type: 'string' },
      respondents: { type: 'string' },
      questions: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const studies = positiveInteger('studies', values.studies, config.demoStudies);
  const seed = positiveInteger('seed', values.seed, config.seed);
  const dataDir = path.resolve(values['data-dir'] ?? config.dataDir);
  const databaseUrl = values['database-url'] ?? config.databaseUrl;
  const password = values.password ?? config.demoPassword;

  const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: path.join(dataDir, 'db') });
  const storage = createLocalFileStorage(path.join(dataDir, 'files'));
  const started = performance.now();
  try {
    console.log(`Seeding ${studies} studies (seed ${seed}) into ${database.engine} at ${database.location}`);
    await seedReferenceData(database);
    const created = await seedUsers(database, { password });
    if (created.length > 0) console.log(`Created users: ${created.map((u) => u.email).join(', ')}`);
    const summary = await seedDemoLibrary(database, storage, {
      studies,
      seed,
      products: values.products ? positiveInteger('products', values.products, 8) : undefined,
      respondents: values.respondents ? positiveInteger('respondents', values.respondents, 150) : undefined,
      questions: values.questions ? positiveInteger('questions', values.questions, 25) : undefined,
      onProgress: createProgressBar(process.stdout, 'Seeding'),
    });
    const count = (n: number) => n.toLocaleString('en-US');
    console.log(
      `Added ${count(summary.studies)} studies (ids ${summary.firstStudyId}-${summary.lastStudyId}), ` +
        `${count(summary.products)} products, ${count(summary.respondents)} respondents, ` +
        `${count(summary.questions)} questions, ${count(summary.answers)} answers, ${count(summary.files)} files.`,
    );
    console.log(
      `Library loaded in ${formatDuration(summary.milliseconds)}; total ${formatDuration(performance.now() - started)}.`,
    );
    if (created.length > 0) process.stdout.write(demoLoginsText(password));
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exit(1);
});
