/**
 * Counts the statements a piece of code sends through a database handle: what tests of batched reads
 * (db/batched-read.ts) check, that requests arriving together share one query.
 */
import type { Db } from '../db/client.ts';

/** The statements sent through `db.execute` while `run` runs whose text matches `pattern`. */
export async function statementsDuring<T>(
  db: Db,
  pattern: RegExp,
  run: () => Promise<T>,
): Promise<{ result: T; count: number }> {
  const execute = db.execute.bind(db);
  let count = 0;
  db.execute = ((query: Parameters<typeof execute>[0]) => {
    const text = (query as { queryChunks?: unknown[] }).queryChunks
      ?.map((chunk) => (chunk && typeof chunk === 'object' && 'value' in chunk ? String(chunk.value) : ''))
      .join('');
    if (text && pattern.test(text)) count++;
    return execute(query);
  }) as typeof db.execute;
  try {
    return { result: await run(), count };
  } finally {
    db.execute = execute;
  }
}
