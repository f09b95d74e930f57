/**
 * Backup and restore of the whole state: a library with its stored files is written to one archive
 * and restored into a fresh data folder (embedded database) and, when DATABASE_URL names a server,
 * into a fresh PostgreSQL database; every table's row count and every stored file are compared with
 * the original's. Targets that hold anything are refused.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { seedDemoLibrary } from '../seed/library.ts';
import { seedReferenceData } from '../seed/reference-data.ts';
import { seedUsers } from '../seed/users.ts';
import { createLocalFileStorage } from '../storage/file-storage.ts';
import { BackupError, createBackup, listFiles, restoreBackup, tableRowCounts } from './backup.ts';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'accord-backup-test-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A small library (users, reference data, three studies with their files) in the database. */
async function seedLibrary(database: Database, dataDir: string): Promise<void> {
  await seedReferenceData(database);
  await seedUsers(database, { password: 'backup-test-1' });
  const summary = await seedDemoLibrary(database, createLocalFileStorage(path.join(dataDir, 'files')), {
    studies: 3,
    seed: 7,
    products: 3,
    respondents: 12,
    questions: 6,
  });
  expect(summary.files).toBeGreaterThan(0);
}

const countsOf = (database: Database) =>
  tableRowCounts(async (text) => ({ rows: await database.sql.executeSql(text).then((r) => r.rows) }));

/** Every stored file by its path, as a hash of its bytes. */
async function filesOf(dataDir: string): Promise<Record<string, string>> {
  const root = path.join(dataDir, 'files');
  const files: Record<string, string> = {};
  for (const file of await listFiles(root))
    files[file] = createHash('sha256')
      .update(await readFile(path.join(root, file)))
      .digest('hex');
  return files;
}

describe('the embedded database (PGlite)', () => {
  let original: string;
  let archive: string;
  let counts: Record<string, number>;

  beforeAll(async () => {
    original = path.join(work, 'original');
    const database = await openDatabase({ dataDir: path.join(original, 'db') });
    try {
      await seedLibrary(database, original);
      counts = await countsOf(database);
    } finally {
      await database.close();
    }
  });

  it('refuses a backup while a process has the database open', async () => {
    const database = await openDatabase({ dataDir: path.join(original, 'db') });
    try {
      // The lock names this process, which may reopen its own folder; another process may not.
      // A second process is what the server would be: simulated by a lock file of a live process.
      await writeFile(path.join(original, 'db.pid'), `${process.ppid}\n`);
      await expect(
        createBackup({ dataDir: original }, path.join(work, 'refused.tar.gz'), { appVersion: 't' }),
      ).rejects.toThrow(/is open in process .* Stop that process first/);
    } finally {
      await database.close();
      await rm(path.join(original, 'db.pid'), { force: true });
    }
  });

  it('backs up then restores into a fresh folder with every row count and file equal', async () => {
    archive = path.join(work, 'pglite.tar.gz');
    const backup = await createBackup({ dataDir: original }, archive, { appVersion: 'test' });
    expect(backup.manifest.engine).toBe('pglite');
    expect(backup.manifest.tables).toEqual(counts);
    expect(backup.manifest.tables['public.studies']).toBe(3);
    expect(backup.manifest.files.count).toBe(Object.keys(await filesOf(original)).length);

    const fresh = path.join(work, 'fresh');
    const restored = await restoreBackup({ dataDir: fresh }, archive);
    expect(restored.tables).toEqual(counts);

    const reopened = await openDatabase({ dataDir: path.join(fresh, 'db') });
    try {
      expect(await countsOf(reopened)).toEqual(counts);
      const [study] = await reopened.rows<{ name: string }>(
        // A real read of the restored data, not only counts.
        (await import('drizzle-orm')).sql`select project_name as name from studies order by id limit 1`,
      );
      expect(study!.name.length).toBeGreaterThan(0);
    } finally {
      await reopened.close();
    }
    expect(await filesOf(fresh)).toEqual(await filesOf(original));
  });

  it('refuses a data folder that is not empty, and an existing archive name', async () => {
    await expect(restoreBackup({ dataDir: original }, archive)).rejects.toThrow(
      /files is not empty: restore into an empty data folder/,
    );
    const onlyDb = path.join(work, 'only-db');
    await mkdir(path.join(onlyDb, 'db'), { recursive: true });
    await writeFile(path.join(onlyDb, 'db', 'PG_VERSION'), '17\n');
    await expect(restoreBackup({ dataDir: onlyDb }, archive)).rejects.toThrow(
      /db is not empty: restore into an empty data folder/,
    );
    await expect(createBackup({ dataDir: original }, archive, { appVersion: 't' })).rejects.toThrow(
      /already exists: name a new archive/,
    );
  });

  it('refuses an archive that is not a backup, and a backup of the other engine', async () => {
    const stray = path.join(work, 'stray.tar.gz');
    await writeFile(stray, 'not an archive');
    await expect(restoreBackup({ dataDir: path.join(work, 'empty-1') }, stray)).rejects.toBeInstanceOf(
      BackupError,
    );
    await expect(
      restoreBackup(
        { dataDir: path.join(work, 'empty-2'), databaseUrl: 'postgres://nobody@localhost:1/none' },
        archive,
      ),
    ).rejects.toThrow(/embedded \(PGlite\) database: restore it with DATABASE_URL unset/);
  });
});

const serverUrl = process.env.DATABASE_URL;

describe.runIf(serverUrl)('a PostgreSQL database', () => {
  const created: string[] = [];
  const urlOf = (name: string) => {
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    return url.toString();
  };
  async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }
  async function scratch(): Promise<string> {
    const name = `accord_backup_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    await admin((client) => client.query(`create database ${name}`));
    created.push(name);
    return urlOf(name);
  }
  afterAll(async () => {
    for (const name of created)
      await admin((client) => client.query(`drop database if exists ${name} with (force)`));
  });

  it('backs up then restores into a fresh database with every row count and file equal', async () => {
    const original = path.join(work, 'pg-original');
    const sourceUrl = await scratch();
    const database = await openDatabase({ databaseUrl: sourceUrl });
    let counts: Record<string, number>;
    try {
      await seedLibrary(database, original);
      counts = await countsOf(database);
    } finally {
      await database.close();
    }
    const archive = path.join(work, 'postgres.tar.gz');
    const backup = await createBackup({ dataDir: original, databaseUrl: sourceUrl }, archive, {
      appVersion: 'test',
    });
    expect(backup.manifest.engine).toBe('postgresql');
    expect(backup.manifest.tables).toEqual(counts);

    const targetUrl = await scratch();
    const fresh = path.join(work, 'pg-fresh');
    const restored = await restoreBackup({ dataDir: fresh, databaseUrl: targetUrl }, archive);
    expect(restored.tables).toEqual(counts);
    const reopened = await openDatabase({ databaseUrl: targetUrl, migrate: false });
    try {
      expect(await countsOf(reopened)).toEqual(counts);
    } finally {
      await reopened.close();
    }
    expect(await filesOf(fresh)).toEqual(await filesOf(original));

    // The restored database now holds the library: a second restore into it is refused.
    await expect(
      restoreBackup({ dataDir: path.join(work, 'pg-again'), databaseUrl: targetUrl }, archive),
    ).rejects.toThrow(/is not empty \(\d+ tables\): restore into an empty database/);
  });
});
