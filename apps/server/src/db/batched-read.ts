/**
 * Reads of one kind asked for within one turn of the event loop, sent as one query.
 *
 * Under load many requests ask the database the same kind of question at once (whose session is
 * this token, what are the change counters, what state is this job in). Each question alone costs
 * a round trip, the driver's work and the statement's parse and plan, mostly the same whatever the
 * number of keys. A batched read collects the keys asked for until the event loop has handled the
 * input that was ready (a `setImmediate`), then sends ONE query for all of them and hands each
 * caller its own answer. While that query is on its way, the keys asked for meanwhile are collected
 * for the next one, sent as soon as it is answered: one query of a kind at a time, so that the
 * busier the server, the more keys each query carries. Alone, a key is sent at the next turn.
 *
 * Nothing is cached: a key asked for while a query is already on its way is never joined to it (that
 * query may have started before the caller's request arrived, and so miss a commit the caller has
 * seen); it waits for the next query. Every caller therefore gets a read that started after it
 * asked. A failed query fails every caller of its batch, and only them.
 */
import { AsyncResource } from 'node:async_hooks';

/** Reads the answers of a batch of distinct keys; a key without an answer is simply left out. */
export type BatchReader<K, V> = (keys: readonly K[]) => Promise<ReadonlyMap<K, V>>;

interface Waiting<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

/**
 * A read of one key that shares its query with the other keys asked for in the same turn. Answers
 * the key's value, or undefined when the reader returned none for it.
 */
export function batchedRead<K, V>(read: BatchReader<K, V>): (key: K) => Promise<V | undefined> {
  /** The keys waiting for the next query, with their callers. */
  let batch = new Map<K, Waiting<V>[]>();
  /** A query on its way, or a send scheduled for the next turn. */
  let busy = false;

  // The query runs in the context the batched read was created in (not the first caller's), so no
  // caller's request context (read routing, logging) is lent to the others of its batch.
  const send = AsyncResource.bind(() => {
    const keys = batch;
    batch = new Map();
    if (keys.size === 0) {
      busy = false;
      return;
    }
    let answers: Promise<ReadonlyMap<K, V>>;
    try {
      answers = read([...keys.keys()]);
    } catch (error) {
      answers = Promise.reject(error);
    }
    answers
      .then(
        (found) => {
          for (const [key, waiting] of keys) for (const caller of waiting) caller.resolve(found.get(key));
        },
        (error: unknown) => {
          for (const waiting of keys.values()) for (const caller of waiting) caller.reject(error);
        },
      )
      // The keys asked for while this query was on its way go next.
      .finally(send);
  });

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      const waiting = batch.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else batch.set(key, [{ resolve, reject }]);
      if (!busy) {
        busy = true;
        setImmediate(send);
      }
    });
}

/**
 * A PostgreSQL text[] literal of the values, passed as ONE parameter (`${textArray(keys)}::text[]`),
 * so that a batched query keeps the same text whatever the number of its keys.
 */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`).join(',')}}`;
}
