/**
 * Counts the statements a piece of code sends through a database handle: what tests of batched reads
 * (db/batched-read.ts) check, that requests arriving together share one query.
 */
import type { Db } from '../db/client.ts';

interface QueryClient {
  query: (...args: unknown[]) => unknown;
}

/** The text of a query's first argument: a text, or a config object with a text (node-postgres). */
function statementText(first: unknown): string {
  if (typeof first === 'string') return first;
  if (first && typeof first === 'object' && 'text' in first) return String((first as { text: unknown }).text);
  return '';
}

/**
 * The statements sent through the handle's client (drizzle's queries and the prepared statements of
 * db/prepared.ts alike) while `run` runs whose text matches `pattern`.
 */
export async function statementsDuring<T>(
  db: Db,
  pattern: RegExp,
  run: () => Promise<T>,
): Promise<{ result: T; count: number }> {
  const client = (db as unknown as { $client: QueryClient }).$client;
  const query = client.query;
  let count = 0;
  client.query = function (this: unknown, ...args: unknown[]) {
    if (pattern.test(statementText(args[0]))) count++;
    return query.apply(this, args);
  };
  try {
    return { result: await run(), count };
  } finally {
    client.query = query;
  }
}
