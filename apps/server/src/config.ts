/**
 * Configuration from the environment, read once at start-up. Every variable is documented in README.md.
 */
import os from 'node:os';
import path from 'node:path';
import { LOG_LEVELS, type LogLevel } from './plugins/request-log.ts';
import { DEFAULT_WEB_DIST } from './runtime/paths.ts';

export interface Config {
  port: number;
  host: string;
  /** Folder for the embedded database, file storage and mail outbox. */
  dataDir: string;
  /** PostgreSQL server; when unset the embedded PGlite in dataDir/db is used. */
  databaseUrl: string | undefined;
  /** SMTP server for mail; when unset mail goes to dataDir/outbox. */
  smtpUrl: string | undefined;
  demoPassword: string;
  /** Seed of the demo library generator. */
  seed: number;
  /** Studies in the demo library seeded into an empty database (0 seeds users only). */
  demoStudies: number;
  /** Built SPA served at /, when present. */
  webDist: string;
  /** Public address used in mailed links. */
  publicUrl: string;
  /** Further origins a password reset link may point at when the web client asks (RESET_LINK_ORIGINS). */
  resetLinkOrigins: string[];
  /** Sign-in (and reset-mail) requests allowed per minute from one address. */
  loginRateLimit: number;
  /**
   * Whether X-Forwarded-For names the client (Fastify's trustProxy): false by default, so a client
   * cannot pick the address its requests are counted under; true, a hop count, or the proxies'
   * addresses when the server runs behind a known reverse proxy.
   */
  trustProxy: boolean | number | string;
  /**
   * PostgreSQL streaming replicas (DATABASE_READ_URL, comma separated) that answer the read-only
   * queries of analytics and searches when they have replayed the library's latest writes.
   */
  databaseReadUrls: string[];
  /**
   * API processes serving PORT together (WEB_CONCURRENCY): on PostgreSQL the number of cores by
   * default; the embedded PGlite is one process's file, so there it is always 1.
   */
  webConcurrency: number;
  /**
   * Whether this server runs the job workers (ACCORD_JOB_WORKERS, default on): off for web
   * processes when `npm run worker` runs the jobs in a process of its own.
   */
  jobWorkers: boolean;
  /** Connections of each process to each database server (DATABASE_POOL_SIZE, default 10). */
  databasePoolSize: number;
  /** Whether caches are filled in the background at start (ACCORD_WARM_UP, default on). */
  warmUp: boolean;
  /** Level of the JSON log lines on stdout (LOG_LEVEL, default info: one line per request). */
  logLevel: LogLevel;
  /** Whether the web app's source maps are answered (ACCORD_SOURCE_MAPS, default off). */
  sourceMaps: boolean;
}

/** LOG_LEVEL: one of pino's levels (fatal, error, warn, info, debug, trace) or silent; default info. */
export function parseLogLevel(value: string | undefined): LogLevel {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '') return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(text))
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${value}"`);
  return text as LogLevel;
}

/** An on/off setting: unset or empty is the default; false, 0, no and off are off; anything else on. */
export function parseSwitch(value: string | undefined, fallback: boolean): boolean {
  const text = (value ?? '').trim();
  if (text === '') return fallback;
  return !/^(false|0|no|off)$/i.test(text);
}

/**
 * WEB_CONCURRENCY: a whole number of processes of at least 1; unset, the number of cores on
 * PostgreSQL and 1 on the embedded database (which a second process cannot open).
 */
export function parseWebConcurrency(
  value: string | undefined,
  databaseUrl: string | undefined,
  cores: number = os.availableParallelism(),
): number {
  if (!databaseUrl) return 1;
  const text = (value ?? '').trim();
  if (text === '') return Math.max(1, cores);
  const count = Number(text);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`WEB_CONCURRENCY must be a whole number of processes (1 or more), not "${text}"`);
  return count;
}

/** TRUST_PROXY: unset, empty, false or 0 is off; true or 1 trusts any proxy; a number >1 is hops; else addresses. */
export function parseTrustProxy(value: string | undefined): boolean | number | string {
  const text = (value ?? '').trim();
  if (text === '' || /^(false|0|no|off)$/i.test(text)) return false;
  if (/^(true|1|yes|on)$/i.test(text)) return true;
  if (/^\d+$/.test(text)) return Number(text);
  return text;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  // npm runs the server inside its workspace; relative paths mean the folder the user ran npm from.
  const dataDir = path.resolve(env.INIT_CWD ?? process.cwd(), env.DATA_DIR ?? 'data');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    demoPassword: env.ACCORD_DEMO_PASSWORD || 'accord-demo',
    seed: Number(env.ACCORD_SEED ?? 42),
    demoStudies: Number(env.ACCORD_DEMO_STUDIES ?? 200),
    webDist: path.resolve(env.WEB_DIST ?? DEFAULT_WEB_DIST),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    resetLinkOrigins: (env.RESET_LINK_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    loginRateLimit: Number(env.ACCORD_LOGIN_RATE_LIMIT ?? 30),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    databaseReadUrls: (env.DATABASE_READ_URL ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean),
    webConcurrency: parseWebConcurrency(env.WEB_CONCURRENCY, env.DATABASE_URL || undefined),
    jobWorkers: parseSwitch(env.ACCORD_JOB_WORKERS, true),
    databasePoolSize: Number(env.DATABASE_POOL_SIZE ?? 10),
    warmUp: parseSwitch(env.ACCORD_WARM_UP, true),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    sourceMaps: parseSwitch(env.ACCORD_SOURCE_MAPS, false),
  };
}
