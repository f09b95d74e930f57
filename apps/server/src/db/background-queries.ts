/**
 * Background work that gives way to requests on the embedded database. PGlite runs one query at a
 * time on the server's own thread, and its queries resolve without returning to the event loop: a
 * chain of background queries (the analytics warm-up at start) would hold off every request,
 * even the accepting of connections, until it ends, and a request's queries would queue behind the
 * background queries already asked. Work run by `inBackground` instead asks each query through
 * `backgroundTurn`: it first returns to the event loop (so requests are read), then waits while
 * requests' queries are under way or were until BACKGROUND_GRACE_MS ago (the gaps between one
 * search's queries), and runs one background query at a time. A request thus waits for one
 * background query at most, never for the queue of them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/** How long after a request's last query a background query still waits (a search's next query). */
export const BACKGROUND_GRACE_MS = 30;
/**
 * The longest a background query waits for requests: a request may wait for a load a background
 * query began (the caches share a load between callers), and must not wait for itself.
 */
export const BACKGROUND_MAX_WAIT_MS = 250;

const background = new AsyncLocalStorage<true>();
/** Requests' queries under way and when the last ended, over the databases of the process. */
const requests = { running: 0, endedAt: Number.NEGATIVE_INFINITY };

/** Runs `work` as background work: its queries (on PGlite) give way to the requests' queries. */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work);
}

/**
 * Resolves once no request's query has run for `quietMs` (at once when none ran lately): heavy
 * background steps, whose single queries take longer than a search, start while nobody is waiting.
 */
export async function requestsQuietFor(quietMs: number): Promise<void> {
  for (;;) {
    const quietFor = performance.now() - requests.endedAt;
    if (requests.running === 0 && quietFor >= quietMs) return;
    await sleep(requests.running > 0 ? quietMs : Math.max(1, quietMs - quietFor));
  }
}

/** The order of queries on one database: requests' queries first, background queries between them. */
export function createQueryTurns() {
  const clock = () => performance.now();
  let backgroundQueue: Promise<void> = Promise.resolve();

  /** Runs a query asked outside background work, counting it as a request's. */
  async function foreground<T>(query: () => Promise<T>): Promise<T> {
    requests.running++;
    try {
      return await query();
    } finally {
      requests.running--;
      requests.endedAt = clock();
    }
  }

  /** Runs a background query once the requests leave it a turn (one background query at a time). */
  function backgroundTurn<T>(query: () => Promise<T>): Promise<T> {
    const turn = backgroundQueue.then(async () => {
      const asked = clock();
      await nextTurn();
      while (clock() - asked < BACKGROUND_MAX_WAIT_MS) {
        const quietFor = clock() - requests.endedAt;
        if (requests.running === 0 && quietFor >= BACKGROUND_GRACE_MS) break;
        await sleep(requests.running > 0 ? 5 : Math.max(1, BACKGROUND_GRACE_MS - quietFor));
      }
      return query();
    });
    backgroundQueue = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  return {
    /** Runs a query in its turn: background work's after the requests', others at once. */
    run<T>(query: () => Promise<T>): Promise<T> {
      return background.getStore() ? backgroundTurn(query) : foreground(query);
    },
  };
}
