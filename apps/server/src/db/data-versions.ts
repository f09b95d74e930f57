/**
 * Reading the change counters of migration 0008 (data_versions): one counter per library table,
 * raised once by every transaction that writes to the table, when it commits. Caches compare the
 * text this returns with the one their answer was computed under.
 */
import { batchedRead, textArrayLiteral } from './batched-read.ts';
import type { Db } from './client.ts';
import { preparedRows, type PreparedStatement } from './prepared.ts';

/** The counters of a list of tables (one text[] parameter), prepared once per connection. */
const VERSIONS_OF_TABLES: PreparedStatement = {
  name: 'data_versions_of_tables',
  text: 'select table_name, version from data_versions where table_name = any($1::text[])',
};

/** The tables with a change counter (each has the triggers of migration 0008). */
export type VersionedTable =
  'studies' | 'fragrances' | 'concepts' | 'products' | 'questions' | 'field_definitions' | 'field_options';

/**
 * The counters read in one query per turn of the event loop and handle (each request of a busy
 * server asks for them): a key is a list of tables joined by commas, the query reads every table
 * any key of the batch names. A read is never joined onto one already sent (db/batched-read.ts), so
 * it always sees every write committed before it was asked for.
 */
const readers = new WeakMap<Db, (tables: string) => Promise<string | undefined>>();

function readerOf(db: Db) {
  let reader = readers.get(db);
  if (!reader) {
    reader = batchedRead<string, string>(async (keys) => {
      const wanted = [...new Set(keys.flatMap((key) => key.split(',')))];
      const rows = await preparedRows<{ table_name: string; version: string | number }>(
        db,
        VERSIONS_OF_TABLES,
        [textArrayLiteral(wanted)],
      );
      const versions = new Map(rows.map((row) => [row.table_name, String(row.version)]));
      return new Map(
        keys.map((key) => [
          key,
          key
            .split(',')
            .filter((table) => versions.has(table))
            .map((table) => `${table}:${versions.get(table)}`)
            .join('|'),
        ]),
      );
    });
    readers.set(db, reader);
  }
  return reader;
}

/** The counters of the tables as one text ('concepts:4|studies:9'), changed by any committed write. */
export async function dataFingerprint(db: Db, tables: readonly VersionedTable[]): Promise<string> {
  const key = [...new Set(tables)].sort().join(',');
  return (await readerOf(db)(key)) ?? '';
}
