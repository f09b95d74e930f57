// Named prepared statements (db/prepared.ts): both engines answer the rows a plain query answers, and
// on PostgreSQL the statement stays prepared on the connection that ran it, so it is parsed once.
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { textArrayLiteral } from './batched-read.ts';
import { preparedRows, type PreparedStatement } from './prepared.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const VERSIONS: PreparedStatement = {
  name: 'prepared_test_versions',
  text: 'select table_name, version from data_versions where table_name = any($1::text[]) order by table_name',
};

describe('prepared statements', () => {
  it('answer the rows of the same statement sent as text, on every call', async () => {
    const tables = ['studies', 'products', 'no_such_table'];
    const plain = (await t.database.db.execute(
      sql`select table_name, version from data_versions where table_name = any(${textArrayLiteral(tables)}::text[]) order by table_name`,
    )) as unknown as { rows: Record<string, unknown>[] };
    expect(plain.rows.map((row) => row.table_name)).toEqual(['products', 'studies']);
    for (let call = 0; call < 3; call++) {
      expect(await preparedRows(t.database.db, VERSIONS, [textArrayLiteral(tables)])).toEqual(plain.rows);
    }
  });

  it('send a statement without a name unprepared, with the same answer', async () => {
    const rows = await preparedRows<{ table_name: string }>(t.database.db, { ...VERSIONS, name: null }, [
      textArrayLiteral(['studies']),
    ]);
    expect(rows.map((row) => row.table_name)).toEqual(['studies']);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'stay prepared on the PostgreSQL connection that ran them',
    async () => {
      expect(t.database.engine).toBe('postgresql');
      await preparedRows(t.database.db, VERSIONS, ['{studies}']);
      await preparedRows(t.database.db, VERSIONS, ['{products}']);
      // The pool lends its most recently released connection first: the one that ran the statement.
      const pool = (t.database.db as unknown as { $client: pg.Pool }).$client;
      const client = await pool.connect();
      try {
        const prepared = await client.query<{ count: string }>(
          'select count(*)::text as count from pg_prepared_statements where name = $1',
          [VERSIONS.name],
        );
        expect(prepared.rows[0]?.count).toBe('1');
      } finally {
        client.release();
      }
    },
  );
});
