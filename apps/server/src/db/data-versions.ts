/**
 * Reading the change counters of migration 0008 (data_versions): one counter per library table,
 * raised once by every transaction that writes to the table, when it commits. Caches compare the
 * text this returns with the one their answer was computed under.
 */
import { inArray, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { dataVersions } from './schema.ts';

/** The tables with a change counter (each has the triggers of migration 0008). */
export type VersionedTable =
  'studies' | 'fragrances' | 'concepts' | 'products' | 'questions' | 'field_definitions' | 'field_options';

/** The counters of the tables as one text ('concepts:4|studies:9'), changed by any committed write. */
export async function dataFingerprint(db: Db, tables: readonly VersionedTable[]): Promise<string> {
  const found = await db
    .select({ part: sql<string>`${dataVersions.tableName} || ':' || ${dataVersions.version}` })
    .from(dataVersions)
    .where(inArray(dataVersions.tableName, [...tables]))
    .orderBy(dataVersions.tableName);
  return found.map((row) => row.part).join('|');
}
