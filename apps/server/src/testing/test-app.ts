/**
 * A running Accord app on a real, fresh database for API tests: in-memory PGlite by default, or a
 * scratch database on the PostgreSQL server of DATABASE_URL (dropped afterwards). Tests talk to it
 * through `app.inject`, exactly as a browser would through HTTP.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type AppDeps } from '../app.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { startJobQueue, type JobQueue } from '../jobs/queue.ts';
import type { Clock } from '../lib/clock.ts';
import { createMailer } from '../lib/mailer.ts';
import { DEMO_USERS } from '../seed/users.ts';
import { createLocalFileStorage, type FileStorage } from '../storage/file-storage.ts';
import { seedTestBasics, TEMPLATE_ENV, templateDump, TEST_PASSWORD } from './template-database.ts';

export { TEST_PASSWORD };

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** The app's pg-boss queue on the same database. */
  jobs: JobQueue;
  outboxDir: string;
  clock: MutableClock;
  /** Signs in a demo user (admin, researcher, client, sales) and answers its bearer token. */
  login(role: DemoRole): Promise<string>;
  request(options: RequestOptions): Promise<LightMyRequestResponse>;
  /** The text of the newest mail in the outbox. */
  lastMail(): Promise<string>;
  /**
   * Another app on the same database with its own queue and nothing in memory, as a second server
   * process would be (`workers: false` for a web-only one). Close it before the test app.
   */
  secondProcess(options?: { workers?: boolean }): Promise<SecondProcess>;
  close(): Promise<void>;
}

export interface SecondProcess {
  /** A request to the second process, signed in with the token when given. */
  request(options: RequestOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export type DemoRole = 'admin' | 'researcher' | 'client' | 'sales';
const ROLE_IDS: Record<DemoRole, number> = { admin: 1, researcher: 2, client: 3, sales: 4 };

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  token?: string;
  payload?: unknown;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
}

export interface MutableClock extends Clock {
  set(date: Date): void;
  reset(): void;
}

function mutableClock(): MutableClock {
  let fixed: Date | null = null;
  return {
    now: () => fixed ?? new Date(),
    set: (date) => {
      fixed = date;
    },
    reset: () => {
      fixed = null;
    },
  };
}

/** The scratch database's address on each replica, once replication has created it there. */
async function replicasOf(name: string, readUrls: string | undefined): Promise<string[]> {
  const urls = (readUrls ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean)
    .map((text) => {
      const url = new URL(text);
      url.pathname = `/${name}`;
      return url.toString();
    });
  for (const url of urls) {
    for (let attempt = 0; ; attempt++) {
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.end();
        break;
      } catch (error) {
        await client.end().catch(() => undefined);
        if (attempt >= 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
  return urls;
}

async function scratchPostgres(
  serverUrl: string,
  template: string | undefined,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `accord_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      // The app's pool may still be closing its sockets: wait for them rather than kill them, which
      // would surface as an error on a client that is already being ended.
      for (let attempt = 0; ; attempt++) {
        try {
          await client.query(`drop database if exists ${name}${attempt >= 30 ? ' with (force)' : ''}`);
          break;
        } catch (error) {
          if (attempt >= 30) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      await client.end();
    },
  };
}

export async function createTestApp(
  options: {
    seed?: (database: Database) => Promise<void>;
    /** Wraps the file storage, e.g. to make the disk slow or failing for a test. */
    storage?: (storage: FileStorage) => FileStorage;
    /** Settings of the app as the environment would give them (address limit, proxy, reset origins). */
    settings?: Pick<
      AppDeps,
      | 'loginRateLimit'
      | 'trustProxy'
      | 'resetLinkOrigins'
      | 'logLevel'
      | 'logStream'
      | 'webDist'
      | 'sourceMaps'
    >;
    /** Limits of studies uploads other than the defaults. */
    uploads?: { quotaBytes?: number; maxStatusStreams?: number };
  } = {},
): Promise<TestApp> {
  const serverUrl = process.env.DATABASE_URL;
  // The run's template (global-setup.ts) already holds the reference data and the users.
  const template = process.env[TEMPLATE_ENV];
  const scratch = serverUrl ? await scratchPostgres(serverUrl, template) : null;
  // Streaming replicas of the server (DATABASE_READ_URL, scripts/replica-test.sh): the scratch
  // database reaches them by replication.
  const readUrls = scratch ? await replicasOf(scratch.name, process.env.DATABASE_READ_URL) : [];
  const database = await openDatabase(
    scratch
      ? { databaseUrl: scratch.url, readUrls }
      : { dataDir: 'memory://', loadDataDir: template ? await templateDump(template) : undefined },
  );
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'accord-test-'));
  const outboxDir = path.join(tempDir, 'outbox');
  if (!template) await seedTestBasics(database);
  await options.seed?.(database);
  const clock = mutableClock();
  const jobs = await startJobQueue(database);
  const storage = createLocalFileStorage(path.join(tempDir, 'files'));
  // A failed start must not leave the queue polling a database nobody closes.
  const app = await (async () => {
    try {
      const built = await buildApp({
        database,
        jobs,
        storage: options.storage ? options.storage(storage) : storage,
        mailer: createMailer({ outboxDir, from: 'Accord <no-reply@accord.test>' }),
        clock,
        version: '0.0.0-test',
        publicUrl: 'http://localhost:3000',
        loginRateLimit: Number(process.env.ACCORD_TEST_LOGIN_LIMIT ?? 1000),
        testHooks: true,
        ...options.settings,
        uploads: options.uploads,
      });
      await built.ready();
      return built;
    } catch (error) {
      await jobs.stop();
      await database.close();
      throw error;
    }
  })();

  const request = (opts: RequestOptions) => injectInto(app, opts);

  return {
    app,
    database,
    jobs,
    outboxDir,
    clock,
    request,
    async login(role) {
      const user = DEMO_USERS.find((u) => u.roleId === ROLE_IDS[role])!;
      const response = await request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: TEST_PASSWORD, remember: false },
      });
      const header = response.headers.authorization;
      if (response.statusCode !== 200 || typeof header !== 'string')
        throw new Error(`login as ${role} failed: ${response.body}`);
      return header.replace(/^Bearer /, '');
    },
    async lastMail() {
      const files = (await readdir(outboxDir)).sort();
      const last = files[files.length - 1];
      if (!last) throw new Error('no mail in the outbox');
      return readFile(path.join(outboxDir, last), 'utf8');
    },
    async secondProcess({ workers = true } = {}) {
      const otherJobs = await startJobQueue(database);
      const other = await buildApp({
        database,
        jobs: otherJobs,
        workers,
        storage,
        mailer: createMailer({ outboxDir, from: 'Accord <no-reply@accord.test>' }),
        clock,
        version: '0.0.0-test',
        publicUrl: 'http://localhost:3000',
        testHooks: true,
      }).catch(async (error: unknown) => {
        await otherJobs.stop();
        throw error;
      });
      return {
        request: (opts: RequestOptions) => injectInto(other, opts),
        async close() {
          await other.close();
          await otherJobs.stop();
        },
      };
    },
    async close() {
      await app.close();
      await jobs.stop();
      await database.close();
      await scratch?.drop();
      await rm(tempDir, { recursive: true, force: true });
    },
  };
}

function injectInto(app: FastifyInstance, opts: RequestOptions): Promise<LightMyRequestResponse> {
  return app.inject({
    method: opts.method,
    url: opts.url,
    payload: opts.payload as never,
    cookies: opts.cookies,
    headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
  });
}

/** Asserts the standard error body shape and answers it. */
export function errorBody(response: LightMyRequestResponse): {
  error: string;
  message: string;
  statusCode: number;
  requestId: string;
} {
  return response.json();
}
