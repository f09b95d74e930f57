/**
 * One database handle for both engines: PGlite (embedded, the default) and a PostgreSQL server
 * (DATABASE_URL). Both speak the same SQL and run the same migrations; only bulk loading and the
 * job queue's connection differ, and those differences stay in this file.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { routeReads } from './read-routing.ts';
import { createQueryTurns } from './background-queries.ts';
import { lockPgliteDir } from './pglite-lock.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Minimal SQL runner, the shape pg-boss and bulk loaders need. */
export interface SqlRunner {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface Database {
  engine: 'pglite' | 'postgresql';
  /** Where the data lives: the PGlite folder, or the server URL without its password. */
  location: string;
  db: Db;
  sql: SqlRunner;
  /** Rows of a raw query (tagged drizzle `sql`). */
  rows<T extends Record<string, unknown>>(query: SQL): Promise<T[]>;
  /** Bulk load CSV text into a table with COPY (the seed and uploads use it). */
  copyCsv(table: string, columns: string[], csv: string): Promise<void>;
  /** Read replicas configured (DATABASE_READ_URL); 0 on PGlite and without replicas. */
  readReplicas: number;
  /**
   * Runs a call whose plain reads may go to a read replica that has replayed every library write
   * (db/read-routing.ts); without replicas it simply runs it. After the call's first write its
   * reads go to the primary.
   */
  readFromReplica<T>(read: () => Promise<T>): Promise<T>;
  /**
   * Calls `onMessage` with the payload of each NOTIFY on `channel` from any process (PostgreSQL, on a
   * connection of its own); PGlite, one process, answers null. Close the answer to stop listening.
   */
  listen(channel: string, onMessage: (payload: string) => void): Promise<{ close(): Promise<void> } | null>;
  /** Statements read replicas have answered since the database was opened. */
  replicaReads(): number;
  /**
   * Runs `run` while holding the advisory lock `key` (PostgreSQL, on a connection of its own, so
   * processes starting together take turns); on PGlite, one process, the calls of this process take
   * turns.
   */
  withLock<T>(key: number, run: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export interface DatabaseOptions {
  /** postgres:// URL of a server; when absent, PGlite is used. */
  databaseUrl?: string;
  /** PGlite data folder; 'memory://' for a throwaway database. */
  dataDir?: string;
  /** PGlite: a dump (`dumpDataDir`) an empty data folder starts from, e.g. the API tests' template. */
  loadDataDir?: Blob;
  /** postgres:// URLs of streaming replicas of databaseUrl for read-only queries. */
  readUrls?: readonly string[];
  /** Connections of this process's pool (default 10; DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** Whether to run the migrations (default true; a process started after them may skip them). */
  migrate?: boolean;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options);
  return openPglite(options.dataDir ?? 'memory://', options.loadDataDir);
}

async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<Database> {
  let release = () => {};
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
    release = lockPgliteDir(dataDir);
  }
  let client: PGlite;
  try {
    client = await openPgliteClient(dataDir, loadDataDir);
  } catch (error) {
    release();
    throw error;
  }
  // Background work (the analytics warm-up) gives way to requests: see background-queries.ts.
  const turns = createQueryTurns();
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  client.query = ((...args: Parameters<typeof query>) => turns.run(() => query(...args))) as typeof query;
  client.exec = (...args: Parameters<typeof exec>) => turns.run(() => exec(...args));
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  const runner: SqlRunner = {
    async executeSql(text, values) {
      // pg-boss sends multi-statement scripts without parameters; PGlite runs those with exec.
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        const last = results[results.length - 1];
        return { rows: (last?.rows ?? []) as Record<string, unknown>[] };
      }
      const result = await client.query(text, values);
      return { rows: result.rows as Record<string, unknown>[] };
    },
  };
  const lockTurns = new Map<number, Promise<unknown>>();
  return {
    engine: 'pglite',
    location: dataDir,
    db,
    sql: runner,
    async rows<T extends Record<string, unknown>>(query: SQL) {
      const result = (await db.execute(query)) as unknown as { rows: T[] };
      return result.rows;
    },
    readReplicas: 0,
    readFromReplica: (read) => read(),
    replicaReads: () => 0,
    listen: async () => null,
    // One process holds the database: the sections of a key take turns within it.
    withLock(key, run) {
      const turn = (lockTurns.get(key) ?? Promise.resolve()).catch(() => undefined).then(run);
      lockTurns.set(key, turn);
      return turn;
    },
    async copyCsv(table, columns, csv) {
      const blob = new Blob([csv]);
      await client.query(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob' WITH (FORMAT csv)`, [], {
        blob,
      });
    },
    async close() {
      await client.close();
      release();
    },
  };
}

/**
 * The PGlite client of a data folder, with the extensions the schema needs (pg_trgm: trigram
 * near-spelling search of the CICS question search); `loadDataDir` fills an empty folder from a
 * dump of another (a restore).
 */
export function openPgliteClient(dataDir: string, loadDataDir?: Blob): Promise<PGlite> {
  return PGlite.create(dataDir, { extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}) });
}

/** A pool that survives its server ending idle connections. */
function serverPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  // An idle connection the server ends (restart, failover, a dropped database) must not crash the
  // process: the pool replaces it on the next query.
  pool.on('error', (error: Error & { code?: string }) => {
    if (error.code !== '57P01') console.error('database pool:', error.message);
  });
  return pool;
}

/** Any number that identifies Accord's migration lock among the server's advisory locks. */
const MIGRATION_LOCK = 7_311_022;

async function openPostgres(options: DatabaseOptions): Promise<Database> {
  const databaseUrl = options.databaseUrl!;
  const max = options.poolSize ?? 10;
  const pool = serverPool(databaseUrl, max);
  if (options.migrate !== false) {
    // Several processes or hosts may start at once: one migrates while the others wait for it.
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg(client), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
  }
  const replicas = (options.readUrls ?? []).map((url) => serverPool(url, max));
  const routing = routeReads(pool, replicas);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const hidePassword = (url: string) => url.replace(/:\/\/([^:@/]+):[^@/]*@/, '://$1:***@');
  const location =
    hidePassword(databaseUrl) +
    (replicas.length > 0 ? `, reads also on ${(options.readUrls ?? []).map(hidePassword).join(', ')}` : '');
  return {
    engine: 'postgresql',
    location,
    db,
    readReplicas: replicas.length,
    readFromReplica: (read) => routing.readFromReplica(read),
    replicaReads: () => routing.replicaReads(),
    async withLock(key, run) {
      const client = new pg.Client({ connectionString: databaseUrl });
      client.on('error', () => undefined);
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        return await run();
      } finally {
        // Ending the connection releases the lock too.
        await client.end().catch(() => undefined);
      }
    },
    async listen(channel, onMessage) {
      const client = new pg.Client({ connectionString: databaseUrl });
      // A dropped listening connection must not crash the process; notices then stop (polling remains).
      client.on('error', (error) => console.error(`listening on ${channel}: ${error.message}`));
      client.on('notification', (message) => {
        if (message.channel === channel) onMessage(message.payload ?? '');
      });
      await client.connect();
      await client.query(`listen ${channel}`);
      return { close: () => client.end() };
    },
    sql: {
      async executeSql(text, values) {
        const result = await pool.query(text, values as unknown[] | undefined);
        return { rows: result.rows as Record<string, unknown>[] };
      },
    },
    async rows<T extends Record<string, unknown>>(query: SQL) {
      const result = (await db.execute(query)) as unknown as { rows: T[] };
      return result.rows;
    },
    async copyCsv(table, columns, csv) {
      const client = await pool.connect();
      try {
        const stream = client.query(
          copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN WITH (FORMAT csv)`),
        );
        await pipeline(Readable.from([Buffer.from(csv, 'utf8')]), stream);
      } finally {
        client.release();
      }
    },
    async close() {
      await routing.close();
      await pool.end();
    },
  };
}
