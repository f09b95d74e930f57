// The change counters of migration 0008 on the real database (PGlite, and PostgreSQL when
// DATABASE_URL is set): raised once per committed writing transaction, never by a rolled-back one.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { dataFingerprint } from './data-versions.ts';
import { fieldOptions } from './schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const versions = async () =>
  Object.fromEntries(
    (await dataFingerprint(t.database.db, ['field_options', 'field_definitions', 'studies']))
      .split('|')
      .map((part) => part.split(':') as [string, string])
      .map(([table, version]) => [table, Number(version)]),
  );

async function firstOptions(count: number) {
  const rows = await t.database.db
    .select({ id: fieldOptions.id })
    .from(fieldOptions)
    .orderBy(fieldOptions.id);
  return rows.slice(0, count).map((row) => row.id);
}

describe('data_versions', () => {
  it('lists the asked tables in name order', async () => {
    expect(Object.keys(await versions())).toEqual(['field_definitions', 'field_options', 'studies']);
  });

  it('raises the written table once for a committed transaction of several statements', async () => {
    const before = await versions();
    const [first, second] = await firstOptions(2);
    await t.database.db.transaction(async (tx) => {
      await tx
        .update(fieldOptions)
        .set({ sortOrder: sql`${fieldOptions.sortOrder} + 1` })
        .where(eq(fieldOptions.id, first!));
      await tx
        .update(fieldOptions)
        .set({ sortOrder: sql`${fieldOptions.sortOrder} + 1` })
        .where(eq(fieldOptions.id, second!));
    });
    expect(await versions()).toEqual({ ...before, field_options: before.field_options! + 1 });
  });

  it('raises again for the next transaction, and not for a statement that changes no row', async () => {
    const before = await versions();
    await t.database.db.update(fieldOptions).set({ sortOrder: 0 }).where(eq(fieldOptions.id, -1));
    expect(await versions()).toEqual(before);
    const [first] = await firstOptions(1);
    await t.database.db.update(fieldOptions).set({ sortOrder: 3 }).where(eq(fieldOptions.id, first!));
    expect(await versions()).toEqual({ ...before, field_options: before.field_options! + 1 });
  });

  it('leaves the counter as it was when the transaction rolls back', async () => {
    const before = await versions();
    const [first] = await firstOptions(1);
    await expect(
      t.database.db.transaction(async (tx) => {
        await tx.update(fieldOptions).set({ sortOrder: 7 }).where(eq(fieldOptions.id, first!));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await versions()).toEqual(before);
  });

  it('answers reads of different tables asked at once each with its own tables, after every commit before them', async () => {
    const [first] = await firstOptions(1);
    const before = await versions();
    await t.database.db.update(fieldOptions).set({ sortOrder: 5 }).where(eq(fieldOptions.id, first!));
    const [options, studies, both] = await Promise.all([
      dataFingerprint(t.database.db, ['field_options']),
      dataFingerprint(t.database.db, ['studies']),
      dataFingerprint(t.database.db, ['studies', 'field_options', 'studies']),
    ]);
    expect(options).toBe(`field_options:${before.field_options! + 1}`);
    expect(studies).toBe(`studies:${before.studies}`);
    expect(both).toBe(`field_options:${before.field_options! + 1}|studies:${before.studies}`);
  });
});
