/**
 * Configuration from the environment, read once at start-up. Every variable is documented in README.md.
 */
import path from 'node:path';

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
  /** Sign-in attempts allowed per minute for one address and e-mail. */
  loginRateLimit: number;
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
    webDist: path.resolve(env.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    loginRateLimit: Number(env.ACCORD_LOGIN_RATE_LIMIT ?? 10),
  };
}
