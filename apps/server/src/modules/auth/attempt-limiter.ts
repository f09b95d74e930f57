/**
 * Counts attempts per key (an account's e-mail) in a sliding time window, so that guesses at one
 * account are limited whatever address they come from. The attempts are rows of auth_attempts, so
 * every API process and host of a deployment counts the same attempts, and a restart forgets none.
 */
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authAttempts } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';

/** One attempt as counted: refused (retryAfterMs > 0, nothing recorded) or recorded. */
export interface Attempt {
  /** 0 when the attempt was recorded, else the milliseconds until the key may try again. */
  retryAfterMs: number;
  /** Forgets this attempt's row (it turned out not to be a failure); nothing for a refused one. */
  release(): Promise<void>;
}

export interface AttemptLimiter {
  /**
   * Records an attempt for the key, or refuses it with the time until the key may try again.
   * Checking and recording happen in one transaction holding a lock on the key, so concurrent
   * requests (in any process) cannot all slip in before the first one is counted.
   */
  attempt(key: string): Promise<Attempt>;
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
  const refused = (retryAfterMs: number): Attempt => ({ retryAfterMs, release: async () => {} });
  return {
    async attempt(key) {
      const now = clock.now().getTime();
      const id = await db.transaction(async (tx) => {
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
        if (times.length >= max) return -(times[times.length - max]! + windowMs - now);
        const [row] = await tx
          .insert(authAttempts)
          .values({ kind, key, at: new Date(now) })
          .returning({ id: authAttempts.id });
        return row!.id;
      });
      // A negative number is the wait of a refused attempt (ids are positive).
      if (id <= 0) return refused(Math.max(1, -id));
      return {
        retryAfterMs: 0,
        // Its own row: concurrent releases of one key each remove theirs.
        release: async () => {
          await db.delete(authAttempts).where(eq(authAttempts.id, id));
        },
      };
    },
  };
}
