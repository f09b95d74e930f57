/**
 * The API tests' template database: migrated, with the reference data and the demo users, made once
 * per run (vitest's global setup) so that each test file's fresh database starts from a copy instead of
 * migrating and seeding again (about 2-3 s a file on PGlite). On PGlite the template is a dump of a data
 * folder; on a PostgreSQL server it is a database the scratch databases are created from.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, openPgliteClient, type Database } from '../db/client.ts';
import { seedReferenceData } from '../seed/reference-data.ts';
import { seedUsers } from '../seed/users.ts';

/** The demo users' password in the API tests. */
export const TEST_PASSWORD = 'test-password-1';

/** Where the test files find the template: a dump file on PGlite, a database name on a server. */
export const TEMPLATE_ENV = 'ACCORD_TEST_TEMPLATE';

/** What every test database holds before a test adds its own data. */
export async function seedTestBasics(database: Database): Promise<void> {
  await seedReferenceData(database);
  await seedUsers(database, { password: TEST_PASSWORD });
}

async function serverQuery(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Makes the template and answers how to remove it. */
export async function makeTemplate(): Promise<{ value: string; remove(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `accord_test_template_${process.pid}_${Date.now()}`;
    await serverQuery(serverUrl, `create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
    try {
      await seedTestBasics(database);
    } finally {
      await database.close();
    }
    return {
      value: name,
      remove: () => serverQuery(serverUrl, `drop database if exists ${name} with (force)`),
    };
  }
  const folder = await mkdtemp(path.join(os.tmpdir(), 'accord-template-'));
  const database = await openDatabase({ dataDir: path.join(folder, 'data') });
  try {
    await seedTestBasics(database);
  } finally {
    await database.close();
  }
  const client = await openPgliteClient(path.join(folder, 'data'));
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = path.join(folder, 'template.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await rm(path.join(folder, 'data'), { recursive: true, force: true });
  return { value: file, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** The PGlite template's dump, read once per test process. */
let dumpRead: Promise<Blob> | null = null;
export function templateDump(file: string): Promise<Blob> {
  return (dumpRead ??= readFile(file).then((bytes) => new Blob([bytes])));
}
