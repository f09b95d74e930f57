import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studies, studyEditHistory } from '../../db/schema.ts';
import { createTestApp, errorBody, type TestApp } from '../../testing/test-app.ts';
import { seedSearchFixtures, type FixtureIds } from './search-fixtures.ts';

let t: TestApp;
let ids: FixtureIds;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({
    seed: async (database) => {
      ids = await seedSearchFixtures(database);
    },
  });
  admin = await t.login('admin');
});
afterAll(async () => {
  await t.close();
});

const update = (token: string | undefined, payload: unknown) =>
  t.request({ method: 'PUT', url: '/api/smartsearch/update', token, payload });

async function tagsOf(studyIds: number[]) {
  return t.database.db
    .select({
      id: studies.id,
      category: studies.category,
      productArea: studies.productArea,
      region: studies.region,
      updatedAt: studies.updatedAt,
    })
    .from(studies)
    .where(inArray(studies.id, studyIds))
    .orderBy(asc(studies.id));
}

async function historyOf(studyIds: number[]) {
  return t.database.db
    .select()
    .from(studyEditHistory)
    .where(inArray(studyEditHistory.studyId, studyIds))
    .orderBy(asc(studyEditHistory.id));
}

describe('PUT /api/smartsearch/update', () => {
  it('sets categorical tags on every chosen study and writes one history entry per study', async () => {
    t.clock.set(new Date('2030-01-02T03:04:05Z'));
    const response = await update(admin, {
      studies: [ids.s1, ids.s2, ids.s1],
      data: [
        { key: 'product_area', value: ['Prestige', 'Home Care'] },
        { key: 'category', value: ['Air Care'] },
        { key: 'region', value: ['APAC'] },
      ],
    });
    t.clock.reset();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'Updated 2 studies.', updated: 2 });

    const rows = await tagsOf([ids.s1, ids.s2]);
    for (const row of rows) {
      expect(row.category).toBe('Air Care');
      expect(row.productArea).toEqual(['Prestige', 'Home Care']);
      // APAC is never stored: it becomes its three sub-regions.
      expect(row.region).toEqual(['South Asia', 'South East Asia', 'North Asia']);
      expect(row.updatedAt.toISOString()).toBe('2030-01-02T03:04:05.000Z');
    }

    const history = await historyOf([ids.s1, ids.s2]);
    expect(history).toHaveLength(2);
    const first = history.find((entry) => entry.studyId === ids.s1)!;
    expect(first).toMatchObject({ type: 'study', userEmail: 'admin@accord.test' });
    expect(first.changeDate.toISOString()).toBe('2030-01-02T03:04:05.000Z');
    expect(first.changes).toEqual([
      { field: 'product_area', old_value: ['Home Care'], new_value: ['Prestige', 'Home Care'] },
      { field: 'category', old_value: 'Fabric Care', new_value: 'Air Care' },
      {
        field: 'region',
        old_value: ['South Asia'],
        new_value: ['South Asia', 'South East Asia', 'North Asia'],
      },
    ]);
  });

  it('leaves studies that already hold the values untouched, without history', async () => {
    const before = await historyOf([ids.s1, ids.s3]);
    const response = await update(admin, {
      studies: [ids.s1, ids.s3],
      data: [{ key: 'category', value: ['Air Care'] }],
    });
    expect(response.json()).toEqual({ message: 'Updated 1 study.', updated: 1 });
    const added = (await historyOf([ids.s1, ids.s3])).slice(before.length);
    expect(added.map((entry) => entry.studyId)).toEqual([ids.s3]);
    expect(added[0]!.changes).toEqual([{ field: 'category', old_value: 'Hair Care', new_value: 'Air Care' }]);
  });

  it('shows the new tags in the option counts at once', async () => {
    const categoryCount = async (value: string) => {
      const response = await t.request({
        method: 'POST',
        url: '/api/smartsearch/dropdown_options',
        token: admin,
        payload: { query: {} },
      });
      const category = response
        .json()
        .data.fields.metadata.find((field: { field: string }) => field.field === 'category');
      return category.options.find((option: { value: string }) => option.value === value)?.count ?? 0;
    };
    const before = await categoryCount('Personal Wash');
    expect(await categoryCount('Personal Wash')).toBe(before);
    await update(admin, { studies: [ids.s6], data: [{ key: 'category', value: ['Personal Wash'] }] });
    expect(await categoryCount('Personal Wash')).toBe(before + 1);
  });

  it('clears a list tag with an empty value list', async () => {
    const response = await update(admin, { studies: [ids.s3], data: [{ key: 'research_type', value: [] }] });
    expect(response.statusCode).toBe(200);
    const [row] = await t.database.db
      .select({ researchType: studies.researchType })
      .from(studies)
      .where(eq(studies.id, ids.s3));
    expect(row!.researchType).toEqual([]);
  });

  it('changes nothing when one study does not exist', async () => {
    const before = await tagsOf([ids.s4, ids.s6]);
    const historyBefore = await historyOf([ids.s4, ids.s6]);
    const response = await update(admin, {
      studies: [ids.s4, 999_999, ids.s6],
      data: [{ key: 'category', value: ['Personal Wash'] }],
    });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).message).toBe('These studies do not exist or are not visible to you: 999999.');
    expect(await tagsOf([ids.s4, ids.s6])).toEqual(before);
    expect(await historyOf([ids.s4, ids.s6])).toEqual(historyBefore);
  });

  it.each([
    [{ studies: [1], data: [] }, /Nothing to change/],
    [{ studies: [], data: [{ key: 'category', value: ['Air Care'] }] }, /at least one study/],
    [{ studies: [1], data: [{ key: 'flavour', value: ['Mint'] }] }, /Unknown field "flavour"/],
    [{ studies: [1], data: [{ key: 'family', value: ['Floral'] }] }, /Unknown field "family"/],
    [
      { studies: [1], data: [{ key: 'project_name', value: ['New name'] }] },
      /"Project Name" is not a categorical tag/,
    ],
    [{ studies: [1], data: [{ key: 'verified', value: ['false'] }] }, /"Verified" is not a categorical tag/],
    [{ studies: [1], data: [{ key: 'rdf_type', value: ['eeg'] }] }, /"Results Type" cannot be edited/],
    [
      { studies: [1], data: [{ key: 'category', value: ['Air Care', 'Hair Care'] }] },
      /"Category" takes one value/,
    ],
    [{ studies: [1], data: [{ key: 'client', value: [] }] }, /"Client" needs a value/],
    [
      {
        studies: [1],
        data: [
          { key: 'category', value: ['A'] },
          { key: 'category', value: ['B'] },
        ],
      },
      /only once/,
    ],
    [{ studies: [1], data: [{ key: 'category', value: [''] }] }, /must not be empty/],
    [{ studies: ['one'], data: [{ key: 'category', value: ['A'] }] }, /studies/],
  ])('answers 400 for %j', async (payload, message) => {
    const response = await update(admin, payload);
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).message).toMatch(message);
  });

  it('answers 401 without sign-in and 403 to anyone but an admin', async () => {
    const payload = { studies: [ids.s1], data: [{ key: 'category', value: ['Air Care'] }] };
    expect((await update(undefined, payload)).statusCode).toBe(401);
    for (const role of ['researcher', 'client', 'sales'] as const) {
      const response = await update(await t.login(role), payload);
      expect(response.statusCode, role).toBe(403);
    }
  });

  it('rolls the whole change back when writing the history fails', async () => {
    // A database failure after the studies were updated: the transaction must undo the update.
    await t.database.sql.executeSql(`
      create function refuse_history() returns trigger language plpgsql as $$
      begin raise exception 'history refused'; end $$;
      create trigger refuse_history before insert on study_edit_history for each row execute function refuse_history();`);
    try {
      const before = await tagsOf([ids.s4, ids.s6]);
      const response = await update(admin, {
        studies: [ids.s4, ids.s6],
        data: [{ key: 'category', value: ['Personal Wash'] }],
      });
      expect(response.statusCode).toBe(500);
      expect(await tagsOf([ids.s4, ids.s6])).toEqual(before);
    } finally {
      await t.database.sql.executeSql(
        'drop trigger refuse_history on study_edit_history; drop function refuse_history();',
      );
    }
  });
});
