/**
 * Counts attempts per key (an account's e-mail) in a sliding time window, so that guesses at one
 * account are limited whatever address they come from. Kept in the memory of the server process:
 * a restart forgets the counts, and each process of a multi-process deployment counts its own.
 */
import type { Clock } from '../../lib/clock.ts';

export interface AttemptLimiter {
  /**
   * Records an attempt for the key and answers 0, or answers the milliseconds until the key may try
   * again (the attempt is then not recorded). Checking and recording happen in one synchronous step,
   * so concurrent requests cannot all slip in before the first one is counted.
   */
  attempt(key: string): number;
  /** Forgets the newest attempt of the key (one that turned out not to be a failure). */
  release(key: string): void;
}

/** Keys held before expired ones are swept, so made-up e-mails cannot grow the map without bound. */
const SWEEP_AT = 10_000;

export function createAttemptLimiter(options: {
  max: number;
  windowMs: number;
  clock: Clock;
}): AttemptLimiter {
  const { max, windowMs, clock } = options;
  /** Times (ms) of the attempts inside the window, oldest first. */
  const attempts = new Map<string, number[]>();

  function recent(key: string, now: number): number[] {
    const times = (attempts.get(key) ?? []).filter((time) => time > now - windowMs);
    if (times.length === 0) attempts.delete(key);
    else attempts.set(key, times);
    return times;
  }

  function sweep(now: number) {
    for (const key of [...attempts.keys()]) recent(key, now);
  }

  return {
    attempt(key) {
      const now = clock.now().getTime();
      const times = recent(key, now);
      if (times.length >= max) return times[times.length - max]! + windowMs - now;
      if (times.length === 0 && attempts.size >= SWEEP_AT) sweep(now);
      attempts.set(key, [...times, now]);
      return 0;
    },
    release(key) {
      const times = attempts.get(key);
      if (!times) return;
      times.pop();
      if (times.length === 0) attempts.delete(key);
    },
  };
}
