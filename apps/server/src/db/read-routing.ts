/**
 * Read-only queries on PostgreSQL streaming replicas (DATABASE_READ_URL).
 *
 * A call that may read from a replica (an analytics job, a study search, analytics options) runs
 * inside `readFromReplica`. At its start the primary's change counters (data_versions: one per
 * library table, raised by every committed write) are compared with each replica's; the first replica
 * whose counters are the primary's has replayed every library write committed so far, so the call's
 * plain reads go there, and otherwise to the primary. Whoever wrote the library (the caller included)
 * therefore never reads an older library from a replica. Within a call, the first write (or
 * transaction) sends the call's further reads to the primary too, so a call reads back
 * what it wrote. Rows outside the library's counters that change under a reader's feet (job rows,
 * the job queue, sessions) are always read on the primary.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

interface ReadContext {
  /** Where this call's reads go; null once the call has written or when no replica is current. */
  replica: pg.Pool | null;
}

const contexts = new AsyncLocalStorage<ReadContext>();

/** Tables whose rows change outside the library's counters: never read on a replica. */
const PRIMARY_ONLY = /\b(job_results|pgboss|sessions?|session_tokens|data_versions)\b/i;
/** Words that make a statement write, lock or take a sequence value. */
const WRITES =
  /\b(insert|update|delete|merge|truncate|nextval|setval|lock|for\s+(no\s+key\s+)?update|for\s+(key\s+)?share|pg_advisory\w*|pg_notify|create|drop|alter|copy|set)\b/i;

/** Whether a statement only reads the library, so that a current replica may answer it. */
export function isReplicaRead(text: string): boolean {
  if (!/^\s*(\(\s*)*(select|with)\b/i.test(text)) return false;
  return !WRITES.test(text) && !PRIMARY_ONLY.test(text);
}

/** Whether a statement may change data (anything that is not a plain select). */
function mayWrite(text: string): boolean {
  if (!/^\s*(\(\s*)*(select|with|show)\b/i.test(text)) return true;
  return WRITES.test(text);
}

function statementText(config: unknown): string {
  if (typeof config === 'string') return config;
  if (config && typeof config === 'object' && 'text' in config) return String(config.text);
  return '';
}

/** The counters of every library table as one text, read on the given pool. */
const VERSIONS_SQL = `select coalesce(string_agg(table_name || ':' || version, '|' order by table_name), '') as versions from data_versions`;

export interface ReadRouting {
  /** Number of replicas configured. */
  replicas: number;
  /** Runs `read` with its plain reads on a current replica when there is one (see the module notes). */
  readFromReplica<T>(read: () => Promise<T>): Promise<T>;
  /** Statements answered by a replica since the start (tests and logs). */
  replicaReads(): number;
  close(): Promise<void>;
}

/**
 * Makes `primary` route the plain reads of calls run inside `readFromReplica` to `replicas`. The
 * primary pool stays a pg.Pool (transactions still take one of its clients).
 */
export function routeReads(primary: pg.Pool, replicas: pg.Pool[]): ReadRouting {
  const query = primary.query.bind(primary) as (...args: unknown[]) => unknown;
  const connect = primary.connect.bind(primary) as (...args: unknown[]) => unknown;
  primary.query = ((...args: unknown[]) => {
    const context = contexts.getStore();
    if (context) {
      const text = statementText(args[0]);
      if (context.replica && isReplicaRead(text)) {
        answeredOnReplicas++;
        return (context.replica.query as (...a: unknown[]) => unknown)(...args);
      }
      if (mayWrite(text)) context.replica = null;
    }
    return query(...args);
  }) as typeof primary.query;
  // A transaction (or COPY) takes a client of the primary: the call has written.
  primary.connect = ((...args: unknown[]) => {
    const context = contexts.getStore();
    if (context) context.replica = null;
    return connect(...args);
  }) as typeof primary.connect;

  let next = 0;
  let answeredOnReplicas = 0;
  const failedAt = new Map<number, number>();

  async function versionsOn(pool: pg.Pool, run = pool.query.bind(pool)): Promise<string> {
    const result = await run(VERSIONS_SQL);
    return String((result.rows[0] as { versions: string }).versions);
  }

  /** The first replica (round robin) whose counters are the primary's now, else null. */
  async function currentReplica(): Promise<pg.Pool | null> {
    if (replicas.length === 0) return null;
    const wanted = await versionsOn(primary, query as pg.Pool['query']);
    const start = next;
    next = (next + 1) % replicas.length;
    for (let offset = 0; offset < replicas.length; offset++) {
      const index = (start + offset) % replicas.length;
      // A replica that failed lately is left alone for a few seconds rather than asked each call.
      if (Date.now() - (failedAt.get(index) ?? 0) < 5000) continue;
      try {
        if ((await versionsOn(replicas[index]!)) === wanted) return replicas[index]!;
      } catch (error) {
        if (!failedAt.has(index) || Date.now() - failedAt.get(index)! > 60_000)
          console.error(`read replica ${index + 1}: ${(error as Error).message}; reading on the primary`);
        failedAt.set(index, Date.now());
      }
    }
    return null;
  }

  return {
    replicas: replicas.length,
    async readFromReplica(read) {
      // A call inside another keeps the outer one's choice.
      if (replicas.length === 0 || contexts.getStore()) return read();
      const replica = await currentReplica();
      return contexts.run({ replica }, read);
    },
    replicaReads: () => answeredOnReplicas,
    async close() {
      await Promise.all(replicas.map((pool) => pool.end()));
    },
  };
}
