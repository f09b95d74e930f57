/**
 * Statements of fixed text a busy server sends at every request (the batched reads of sessions,
 * change counters and job rows, the ended job rows' insert), sent as named prepared statements.
 *
 * On PostgreSQL each statement sent by text is parsed and planned again by the backend, which costs
 * it more CPU than answering these small reads. A named statement is parsed and planned once per
 * connection (node-postgres remembers which connections hold it) and then only bound and executed.
 * The name stands for one text: two texts must never share a name. PGlite, one connection in the
 * process, runs the same text and values as a plain parameterised query; both answer the same rows.
 */
import type { Db } from './client.ts';

/**
 * A statement of fixed text with the name it is prepared under; null sends it unprepared (a text of
 * which too many variants exist to keep them all prepared on every connection).
 */
export interface PreparedStatement {
  readonly name: string | null;
  readonly text: string;
}

interface PgLikeClient {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

interface PgliteLikeClient {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Whether the handle's client is node-postgres (a pool, which takes a named query config). */
function isNodePostgres(client: unknown): client is PgLikeClient {
  return typeof client === 'object' && client !== null && 'totalCount' in client && 'idleCount' in client;
}

/** The rows of a prepared statement with its values, through the handle's own client. */
export async function preparedRows<T>(db: Db, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const client = (db as unknown as { $client: unknown }).$client;
  if (isNodePostgres(client)) {
    const result = await client.query(
      statement.name === null
        ? { text: statement.text, values }
        : { name: statement.name, text: statement.text, values },
    );
    return result.rows as T[];
  }
  // A transaction's handle has no client of its own: these statements are sent outside transactions.
  if (typeof (client as Partial<PgliteLikeClient> | undefined)?.query !== 'function')
    throw new Error(
      `prepared statement ${statement.name ?? statement.text}: the handle is not the database's`,
    );
  const result = await (client as PgliteLikeClient).query(statement.text, values);
  return result.rows as T[];
}
