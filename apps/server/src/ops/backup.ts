/**
 * Backup and restore of Accord's whole state: the database and the stored files (DATA_DIR/files),
 * in one tar.gz archive, and back into an empty data folder or an empty database.
 *
 * The archive holds `manifest.json` (what it holds: the engine, every table's row count, the files'
 * count and bytes), the database and `files/`:
 * - embedded database (PGlite): `database.pglite.tar.gz`, PGlite's own dump of its data folder.
 *   PGlite serves one process, so the server must be stopped (the folder's lock refuses otherwise).
 * - PostgreSQL: `database.dump`, pg_dump's custom format, taken in the snapshot the row counts are
 *   read in, so they describe exactly what the dump holds. The server may run meanwhile. The files
 *   are listed after the dump: a file is stored before the row that names it, so every file the
 *   database names is in the archive.
 *
 * A restore refuses a target that holds anything (a non-empty database or files folder), restores
 * the database, then the files, and compares every table's row count and the files with the
 * manifest, failing loudly on any difference.
 */
import { spawn } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPgliteClient } from '../db/client.ts';
import { lockPgliteDir } from '../db/pglite-lock.ts';

export const BACKUP_FORMAT = 'accord-backup';
export const BACKUP_FORMAT_VERSION = 1;

export type Engine = 'pglite' | 'postgresql';

/** Where the state lives: DATA_DIR, and DATABASE_URL when the database is a PostgreSQL server. */
export interface StateLocation {
  dataDir: string;
  databaseUrl?: string;
}

export interface FilesSummary {
  count: number;
  bytes: number;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  engine: Engine;
  createdAt: string;
  appVersion: string;
  /** Row count of every table, by schema-qualified name. */
  tables: Record<string, number>;
  files: FilesSummary;
}

/** The reason a backup or restore was refused or failed, for the person running it. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

const DATABASE_FILE: Record<Engine, string> = {
  pglite: 'database.pglite.tar.gz',
  postgresql: 'database.dump',
};

/** A query runner, the one shape both engines give the row counting. */
type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Every table's row count (the application's, drizzle's migrations and the job queue's). */
export async function tableRowCounts(query: Query): Promise<Record<string, number>> {
  const { rows } = await query(
    `select table_schema as schema, table_name as name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
     order by 1, 2`,
  );
  const counts: Record<string, number> = {};
  for (const row of rows) {
    const name = `${String(row.schema)}.${String(row.name)}`;
    const { rows: counted } = await query(
      `select count(*)::int as n from ${quoteIdent(String(row.schema))}.${quoteIdent(String(row.name))}`,
    );
    counts[name] = Number(counted[0]!.n);
  }
  return counts;
}

/** Every file under a folder, relative to it, in a stable order; none when it does not exist. */
export async function listFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string) => {
    let entries;
    try {
      entries = await readdir(path.join(root, relative), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && relative === '') return;
      throw error;
    }
    for (const entry of entries) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  await walk('');
  return found.sort();
}

async function summarise(root: string, files: string[]): Promise<FilesSummary> {
  let bytes = 0;
  for (const file of files) bytes += (await stat(path.join(root, file))).size;
  return { count: files.length, bytes };
}

/** Runs a command; its error output becomes the error's message when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    });
    child.on('error', (error) =>
      reject(
        new BackupError(
          (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? `${command} was not found: install it (PostgreSQL's client programs for pg_dump and pg_restore).`
            : error.message,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${command} failed (exit ${code}): ${errors.trim()}`));
    });
  });
}

async function isEmptyFolder(folder: string): Promise<boolean> {
  try {
    return (await readdir(folder)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

/** The database URL without its password, for messages. */
const hidePassword = (url: string) => url.replace(/:\/\/([^:@/]+):[^@/]*@/, '://$1:***@');

export interface BackupResult {
  archive: string;
  manifest: BackupManifest;
}

/** Writes the whole state to a new tar.gz archive at `archive` (refused when it exists). */
export async function createBackup(
  location: StateLocation,
  archive: string,
  options: { appVersion: string; log?: (line: string) => void },
): Promise<BackupResult> {
  const log = options.log ?? (() => {});
  const target = path.resolve(archive);
  if (await exists(target)) throw new BackupError(`${target} already exists: name a new archive.`);
  const staging = await mkdtemp(path.join(os.tmpdir(), 'accord-backup-'));
  const partial = `${target}.partial`;
  try {
    const engine: Engine = location.databaseUrl ? 'postgresql' : 'pglite';
    const databaseFile = path.join(staging, DATABASE_FILE[engine]);
    log(
      `Database: ${engine === 'pglite' ? path.join(location.dataDir, 'db') : hidePassword(location.databaseUrl!)}`,
    );
    const tables =
      engine === 'pglite'
        ? await dumpPglite(path.join(location.dataDir, 'db'), databaseFile)
        : await dumpPostgres(location.databaseUrl!, databaseFile);
    const rows = Object.values(tables).reduce((a, b) => a + b, 0);
    log(`Database dumped: ${Object.keys(tables).length} tables, ${rows.toLocaleString('en-US')} rows.`);

    const filesRoot = path.join(location.dataDir, 'files');
    const files = await listFiles(filesRoot);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      engine,
      createdAt: new Date().toISOString(),
      appVersion: options.appVersion,
      tables,
      files: await summarise(filesRoot, files),
    };
    await writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    // The files are named one by one (NUL separated), so the archive holds exactly those counted.
    const list = path.join(staging, 'files.list');
    await writeFile(list, files.map((file) => `files/${file}\0`).join(''));
    await mkdir(path.dirname(target), { recursive: true });
    await run('tar', [
      '-czf',
      partial,
      '-C',
      staging,
      'manifest.json',
      DATABASE_FILE[engine],
      '-C',
      location.dataDir,
      '--null',
      '--no-recursion',
      '-T',
      list,
    ]);
    await rename(partial, target);
    log(
      `Files: ${manifest.files.count.toLocaleString('en-US')} (${manifest.files.bytes.toLocaleString('en-US')} bytes).`,
    );
    log(`Backup written to ${target} (${(await stat(target)).size.toLocaleString('en-US')} bytes).`);
    return { archive: target, manifest };
  } finally {
    await rm(partial, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

/** PGlite's dump of its folder; answers the row counts read in the same (only) connection. */
async function dumpPglite(dbDir: string, file: string): Promise<Record<string, number>> {
  if (!(await exists(path.join(dbDir, 'PG_VERSION'))))
    throw new BackupError(`No embedded database in ${dbDir}: set DATA_DIR (or DATABASE_URL for PostgreSQL).`);
  const release = lockPgliteDir(dbDir);
  try {
    const client = await openPgliteClient(dbDir);
    try {
      const tables = await tableRowCounts((text) => client.query(text));
      const dump = await client.dumpDataDir('gzip');
      await writeFile(file, Buffer.from(await dump.arrayBuffer()));
      return tables;
    } finally {
      await client.close();
    }
  } finally {
    release();
  }
}

/**
 * pg_dump (custom format) of the database, in a snapshot exported by the transaction that counts
 * the rows: the counts and the dump see the same committed state while the server keeps writing.
 */
async function dumpPostgres(databaseUrl: string, file: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin transaction isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const tables = await tableRowCounts((text) => client.query(text));
    await run('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--snapshot=${rows[0]!.snapshot}`,
      `--file=${file}`,
      `--dbname=${databaseUrl}`,
    ]);
    await client.query('commit');
    return tables;
  } finally {
    await client.end();
  }
}

/** Reads an archive's manifest, checking it is an Accord backup. */
async function readManifest(folder: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError('This archive is not an Accord backup (it has no manifest.json).');
  }
  if (manifest.format !== BACKUP_FORMAT || manifest.formatVersion !== BACKUP_FORMAT_VERSION)
    throw new BackupError(
      `This archive is not an Accord backup of format ${BACKUP_FORMAT_VERSION} (${manifest.format} ${manifest.formatVersion}).`,
    );
  return manifest;
}

export interface RestoreResult {
  manifest: BackupManifest;
  tables: Record<string, number>;
  files: FilesSummary;
}

/** Restores an archive into an empty data folder (PGlite) or an empty database (PostgreSQL). */
export async function restoreBackup(
  location: StateLocation,
  archive: string,
  options: { log?: (line: string) => void } = {},
): Promise<RestoreResult> {
  const log = options.log ?? (() => {});
  const source = path.resolve(archive);
  if (!(await exists(source))) throw new BackupError(`${source} does not exist.`);
  const dataDir = path.resolve(location.dataDir);
  const filesRoot = path.join(dataDir, 'files');
  const dbDir = path.join(dataDir, 'db');
  if (!(await isEmptyFolder(filesRoot)))
    throw new BackupError(`${filesRoot} is not empty: restore into an empty data folder (DATA_DIR).`);
  if (!location.databaseUrl && !(await isEmptyFolder(dbDir)))
    throw new BackupError(`${dbDir} is not empty: restore into an empty data folder (DATA_DIR).`);

  // Unpacked beside the data folder, so the files move into it without a second copy.
  await mkdir(dataDir, { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(dataDir), `.${path.basename(dataDir)}-restore-`));
  try {
    await run('tar', ['-xzf', source, '-C', staging, 'manifest.json']).catch(() => {
      throw new BackupError(`${source} is not an Accord backup (no manifest.json in a tar.gz archive).`);
    });
    const manifest = await readManifest(staging);
    const engine: Engine = location.databaseUrl ? 'postgresql' : 'pglite';
    if (manifest.engine !== engine)
      throw new BackupError(
        manifest.engine === 'pglite'
          ? 'This backup holds an embedded (PGlite) database: restore it with DATABASE_URL unset, into an empty DATA_DIR.'
          : 'This backup holds a PostgreSQL database: restore it with DATABASE_URL set to an empty database.',
      );
    if (engine === 'postgresql') await refuseNonEmptyDatabase(location.databaseUrl!);
    log(`Unpacking ${source} (made ${manifest.createdAt}, Accord ${manifest.appVersion}).`);
    await run('tar', ['-xzf', source, '-C', staging]);

    const databaseFile = path.join(staging, DATABASE_FILE[engine]);
    const tables =
      engine === 'pglite'
        ? await loadPglite(dbDir, databaseFile)
        : await loadPostgres(location.databaseUrl!, databaseFile);
    const differences = Object.keys({ ...manifest.tables, ...tables })
      .sort()
      .filter((name) => manifest.tables[name] !== tables[name])
      .map(
        (name) =>
          `${name}: ${manifest.tables[name] ?? 'absent'} in the backup, ${tables[name] ?? 'absent'} restored`,
      );
    if (differences.length > 0)
      throw new BackupError(`The restored database differs from the backup: ${differences.join('; ')}.`);
    log(`Database restored: ${Object.keys(tables).length} tables, every row count as in the backup.`);

    const unpackedFiles = path.join(staging, 'files');
    if (await exists(unpackedFiles)) {
      await rm(filesRoot, { recursive: true, force: true });
      await rename(unpackedFiles, filesRoot);
    } else await mkdir(filesRoot, { recursive: true });
    const files = await summarise(filesRoot, await listFiles(filesRoot));
    if (files.count !== manifest.files.count || files.bytes !== manifest.files.bytes)
      throw new BackupError(
        `The restored files differ from the backup: ${files.count} files of ${files.bytes} bytes, ` +
          `${manifest.files.count} of ${manifest.files.bytes} in the backup.`,
      );
    log(
      `Files restored: ${files.count.toLocaleString('en-US')} (${files.bytes.toLocaleString('en-US')} bytes).`,
    );
    return { manifest, tables, files };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** A database holding any table (outside PostgreSQL's own schemas) is not a restore target. */
async function refuseNonEmptyDatabase(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from information_schema.tables
       where table_schema not in ('pg_catalog', 'information_schema')`,
    );
    if (rows[0]!.n > 0)
      throw new BackupError(
        `The database ${hidePassword(databaseUrl)} is not empty (${rows[0]!.n} tables): restore into an empty database (createdb).`,
      );
  } finally {
    await client.end();
  }
}

async function loadPglite(dbDir: string, file: string): Promise<Record<string, number>> {
  await mkdir(dbDir, { recursive: true });
  const release = lockPgliteDir(dbDir);
  try {
    const client = await openPgliteClient(dbDir, new Blob([await readFile(file)]));
    try {
      return await tableRowCounts((text) => client.query(text));
    } finally {
      await client.close();
    }
  } finally {
    release();
  }
}

async function loadPostgres(databaseUrl: string, file: string): Promise<Record<string, number>> {
  await run('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    `--dbname=${databaseUrl}`,
    file,
  ]);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await tableRowCounts((text) => client.query(text));
  } finally {
    await client.end();
  }
}
