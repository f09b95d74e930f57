/**
 * Counts attempts per key (an account's e-mail) in a sliding time window, so that guesses at one
 * account are limited whatever address they come from. The attempts are rows of auth_attempts, so
 * every API process and host of a deployment counts the same attempts, and a restart forgets none.
 */
import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authAttempts } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';

export interface AttemptLimiter {
  /**
   * Records an attempt for the key and answers 0, or answers the milliseconds until the key may try
   * again (the attempt is then not recorded). Checking and recording happen in one transaction
   * holding a lock on the key, so concurrent requests (in any process) cannot all slip in before
   * the first one is counted.
   */
  attempt(key: string): Promise<number>;
  /** Forgets the newest attempt of the key (one that turned out not to be a failure). */
  release(key: string): Promise<void>;
}

export function createAttemptLimiter(options: {
  /** Which count this is ('login', 'reset'): the kind of its rows. */
  kind: string;
  max: number;
  windowMs: number;
  clock: Clock;
  db: Db;
}): AttemptLimiter {
  const { kind, max, windowMs, clock, db } = options;
  return {
    async attempt(key) {
      const now = clock.now().getTime();
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${kind}:${key}`}))`);
        // Attempts past the window count for nobody: removed for every key, so made-up e-mails do
        // not pile up.
        await tx.delete(authAttempts).where(lte(authAttempts.at, new Date(now - windowMs)));
        const times = (
          await tx
            .select({ at: authAttempts.at })
            .from(authAttempts)
            .where(and(eq(authAttempts.kind, kind), eq(authAttempts.key, key)))
            .orderBy(authAttempts.at)
        ).map((row) => row.at.getTime());
        if (times.length >= max) return times[times.length - max]! + windowMs - now;
        await tx.insert(authAttempts).values({ kind, key, at: new Date(now) });
        return 0;
      });
    },
    async release(key) {
      const [newest] = await db
        .select({ id: authAttempts.id })
        .from(authAttempts)
        .where(and(eq(authAttempts.kind, kind), eq(authAttempts.key, key)))
        .orderBy(desc(authAttempts.at), desc(authAttempts.id))
        .limit(1);
      if (newest) await db.delete(authAttempts).where(eq(authAttempts.id, newest.id));
    },
  };
}
