import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concepts, fragrances, products, studies, studyEditHistory } from '../../db/schema.ts';
import { createTestApp, errorBody, type TestApp } from '../../testing/test-app.ts';
import { seedSearchFixtures, type FixtureIds } from '../search/search-fixtures.ts';

let t: TestApp;
let ids: FixtureIds;
let admin: string;
let researcher: string;
let client: string;

beforeAll(async () => {
  t = await createTestApp({
    seed: async (database) => {
      ids = await seedSearchFixtures(database);
    },
  });
  [admin, researcher, client] = await Promise.all([
    t.login('admin'),
    t.login('researcher'),
    t.login('client'),
  ]);
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, token?: string) => t.request({ method: 'GET', url, token });
const put = (url: string, token: string | undefined, payload: unknown) =>
  t.request({ method: 'PUT', url, token, payload });

async function studyRow(id: number) {
  const [row] = await t.database.db.select().from(studies).where(eq(studies.id, id));
  return row!;
}
async function historyRows(id: number) {
  return t.database.db
    .select()
    .from(studyEditHistory)
    .where(eq(studyEditHistory.studyId, id))
    .orderBy(asc(studyEditHistory.id));
}

describe('GET /api/study/:id', () => {
  it('needs a session', async () => {
    expect((await get(`/api/study/${ids.s1}`)).statusCode).toBe(401);
  });

  it('answers 400 for a bad id and 404 for an unknown study', async () => {
    expect((await get('/api/study/abc', admin)).statusCode).toBe(400);
    const missing = await get('/api/study/999999', admin);
    expect(missing.statusCode).toBe(404);
    expect(errorBody(missing).message).toBe('Study 999999 does not exist.');
  });

  it('hides studies of other clients from a client user (404)', async () => {
    expect((await get(`/api/study/${ids.s4}`, client)).statusCode).toBe(404);
    expect((await get(`/api/study/${ids.s5}`, client)).statusCode).toBe(404);
    expect((await get(`/api/study/${ids.s1}`, client)).statusCode).toBe(200);
  });

  it('answers grouped details, tags, fragrances, concepts and the header fields', async () => {
    const response = await get(`/api/study/${ids.s1}`, researcher);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      id: ids.s1,
      c_mi_number: 'CMI-2015-001',
      project_name: 'Breezia Detergent Test',
    });
    expect(Object.keys(body.details)).toEqual([
      'study_info',
      'product_categorization',
      'geography',
      'methodological_details_1',
      'methodological_details_2',
      'methodological_details_3',
      'methodological_details_4',
      'verified',
    ]);
    expect(Object.keys(body.details.study_info)).toEqual([
      'project_name',
      'client',
      'c_mi_number',
      'pace_number',
    ]);
    expect(body.details.study_info.c_mi_number).toEqual({
      label: 'CMI #',
      type: 'string',
      value: 'CMI-2015-001',
    });
    expect(body.details.product_categorization.product_area).toMatchObject({
      label: 'Business Unit',
      value: ['Home Care'],
    });
    expect(body.details.geography.region.value).toEqual(['South Asia']);
    expect(body.details.methodological_details_2.study_sample_size).toMatchObject({
      type: 'int',
      value: null,
    });
    expect(body.details.verified.verified).toMatchObject({ type: 'boolean', value: true });
    expect(body.tags.geography.map((tag: { field: string }) => tag.field)).toEqual(
      expect.arrayContaining(['region', 'country', 'lead_country']),
    );
    expect(body.tags.methodology.find((tag: { field: string }) => tag.field === 'age')).toMatchObject({
      value: null,
    });
    expect(body.perfume_characteristics).toHaveLength(2);
    const rose = body.perfume_characteristics[0];
    expect(Object.keys(rose)).toHaveLength(20); // id, the 18 fields, bench_create
    expect(rose).toMatchObject({
      name: 'Rose Dawn',
      fragrance_code: '101',
      level: 0.8,
      bench_create: 'creative',
    });
    expect(body.perfume_characteristics[1].bench_create).toBe('benchmark');
    expect(body.concepts).toEqual([
      expect.objectContaining({
        name: 'Calm Evening',
        concept_code: 'C1',
        region: 'South Asia',
        country: 'India',
      }),
    ]);
    expect(body.has_questions).toBe(false);
  });
});

describe('GET /api/study/options', () => {
  it('needs a session', async () => {
    expect((await get('/api/study/options')).statusCode).toBe(401);
  });

  it('answers the tag definitions of the edit screens', async () => {
    const response = await get('/api/study/options', client);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    const field = (name: string) => body.metadata.find((def: { field: string }) => def.field === name);
    expect(field('region')).toMatchObject({ multivalue: true, editable: true, type: 'categorical' });
    expect(field('region').options.map((o: { value: string }) => o.value)).toContain('APAC');
    expect(field('study_sample_size')).toMatchObject({ type: 'int', whole_number: true });
    expect(field('age')).toMatchObject({ whole_number: true });
    expect(field('c_mi_number')).toMatchObject({ editable: false });
    expect(body.fragrance.map((def: { field: string }) => def.field)).toHaveLength(19);
    expect(body.concept.map((def: { field: string }) => def.field)).toContain('concept_code');
  });
});

describe('PUT /api/study/:id', () => {
  const url = () => `/api/study/${ids.s2}`;

  it('needs a session and admin rights', async () => {
    const payload = { type: 'study', study: { pace_number: 'X' }, oldData: { pace_number: 'PX-200' } };
    expect((await put(url(), undefined, payload)).statusCode).toBe(401);
    expect((await put(url(), researcher, payload)).statusCode).toBe(403);
    expect((await put(url(), client, payload)).statusCode).toBe(403);
  });

  it('answers 400 for a bad payload and 404 for an unknown study', async () => {
    const bad = await put(url(), admin, { type: 'study', study: {}, oldData: {} });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toMatch(/at least one field/);
    expect((await put(url(), admin, { study: { pace_number: 'X' } })).statusCode).toBe(400);
    const unknown = await put(url(), admin, {
      type: 'study',
      study: { colour: 'red' },
      oldData: { colour: null },
    });
    expect(unknown.statusCode).toBe(400);
    expect(errorBody(unknown).message).toBe('Unknown field "colour".');
    const locked = await put(url(), admin, {
      type: 'study',
      study: { c_mi_number: 'X' },
      oldData: { c_mi_number: 'CMI-2018-002' },
    });
    expect(locked.statusCode).toBe(400);
    const noOld = await put(url(), admin, { type: 'study', study: { pace_number: 'X' }, oldData: {} });
    expect(noOld.statusCode).toBe(400);
    expect(errorBody(noOld).message).toMatch(/oldData/);
    const missing = await put('/api/study/999999', admin, {
      type: 'study',
      study: { pace_number: 'X' },
      oldData: { pace_number: null },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses values outside the rules with a clear 400', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ study_sample_size: 0 }, /whole number of at least 1/],
      [{ study_sample_size: '2.5' }, /whole number of at least 1/],
      [{ category: 'Spaceships' }, /"Spaceships" is not an option of Category/],
      [{ project_name: '' }, /cannot be empty/],
    ];
    for (const [study, message] of cases) {
      const oldData = Object.fromEntries(Object.keys(study).map((key) => [key, null]));
      const response = await put(url(), admin, { type: 'study', study, oldData });
      expect(response.statusCode, JSON.stringify(study)).toBe(400);
      expect(errorBody(response).message).toMatch(message);
    }
  });

  it('saves only changed fields, splits region text, takes gender as a text, and writes one history row', async () => {
    t.clock.set(new Date('2031-05-06T07:08:09Z'));
    const response = await put(url(), admin, {
      type: 'study',
      study: {
        project_name: 'Calmwave Conditioner Screening II',
        region: 'North Asia, Europe, South Asia',
        country: ['China', 'France', 'India'],
        gender: 'Female',
        pace_number: 'PX-200',
        study_sample_size: '120',
      },
      oldData: {
        project_name: 'Calmwave Conditioner Screening',
        region: ['Europe', 'North Asia'],
        country: 'China, France',
        gender: [],
        pace_number: 'PX-200',
        study_sample_size: null,
      },
    });
    t.clock.reset();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('Study data was updated successfully.');
    const row = await studyRow(ids.s2);
    expect(row.projectName).toBe('Calmwave Conditioner Screening II');
    expect(row.region).toEqual(['North Asia', 'Europe', 'South Asia']);
    expect(row.gender).toEqual(['Female']);
    expect(row.studySampleSize).toBe(120);
    expect(row.updatedAt.toISOString()).toBe('2031-05-06T07:08:09.000Z');
    const history = await historyRows(ids.s2);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ type: 'study', userEmail: 'admin@accord.test' });
    expect((history[0]!.changes as { field: string }[]).map((change) => change.field)).toEqual([
      'project_name',
      'region',
      'country',
      'gender',
      'study_sample_size',
    ]);
  });

  it('answers 409 when the stored value differs from oldData, changing nothing', async () => {
    const before = await studyRow(ids.s2);
    const historyBefore = await historyRows(ids.s2);
    const response = await put(url(), admin, {
      type: 'study',
      study: { project_name: 'Someone else', pace_number: 'PX-201' },
      oldData: { project_name: 'Calmwave Conditioner Screening', pace_number: 'PX-200' },
    });
    expect(response.statusCode).toBe(409);
    expect(errorBody(response).message).toMatch(/changed by someone else.*project_name/);
    expect(await studyRow(ids.s2)).toEqual(before);
    expect(await historyRows(ids.s2)).toHaveLength(historyBefore.length);
  });

  it('refuses incoherent geography and methodology with incoherent_fields, changing nothing', async () => {
    const before = await studyRow(ids.s1);
    const geography = await put(`/api/study/${ids.s1}`, admin, {
      type: 'study',
      study: { country: ['India', 'France'] },
      oldData: { country: ['India'] },
    });
    expect(geography.statusCode).toBe(400);
    const body = geography.json();
    expect(body.error).toBe('incoherent_fields');
    expect(body.requestId).toEqual(expect.any(String));
    expect(body.incoherent_fields.country).toEqual([
      "France is in Europe, which is not one of the study's regions (South Asia).",
    ]);
    expect(Object.keys(body.incoherent_fields).sort()).toEqual(['country', 'region']);

    const methodology = await put(`/api/study/${ids.s1}`, admin, {
      type: 'study',
      study: { methodology: 'Neuro Lab (EEG)', design_method: 'Balanced Incomplete Block Design' },
      oldData: { methodology: 'Home Use Test', design_method: 'Monadic Sequential' },
    });
    expect(methodology.statusCode).toBe(400);
    expect(Object.keys(methodology.json().incoherent_fields).sort()).toEqual([
      'design_method',
      'methodology',
    ]);
    expect(await studyRow(ids.s1)).toEqual(before);
    expect(await historyRows(ids.s1)).toHaveLength(0);

    // APAC stands for its sub-regions; the country then fits.
    const apac = await put(`/api/study/${ids.s1}`, admin, {
      type: 'study',
      study: { region: ['APAC'], country: ['India', 'China'] },
      oldData: { region: ['South Asia'], country: ['India'] },
    });
    expect(apac.statusCode, apac.body).toBe(200);
    expect((await studyRow(ids.s1)).region).toEqual(['South Asia', 'South East Asia', 'North Asia']);
  });

  it('leaves the study as it was when the save fails half-way', async () => {
    // A trigger that fails the history insert, after the study row was already updated in the transaction.
    await t.database.rows(
      sql.raw(`create or replace function accord_fail_history() returns trigger as $$
      begin raise exception 'history store unavailable'; end $$ language plpgsql`),
    );
    await t.database.rows(
      sql.raw(`create trigger accord_fail_history before insert on study_edit_history
        for each row execute function accord_fail_history()`),
    );
    const before = await studyRow(ids.s3);
    try {
      const response = await put(`/api/study/${ids.s3}`, admin, {
        type: 'study',
        study: { project_name: 'Half saved' },
        oldData: { project_name: 'Velura Shampoo Benchmark' },
      });
      expect(response.statusCode).toBe(500);
    } finally {
      await t.database.rows(sql.raw('drop trigger accord_fail_history on study_edit_history'));
    }
    expect(await studyRow(ids.s3)).toEqual(before);
  });
});

describe('PUT /api/study/:id/tags', () => {
  const url = (id: number) => `/api/study/${id}/tags`;

  it('needs a session and admin rights, and a known study', async () => {
    const payload = { type: 'tag', field: 'base', value: 'All women' };
    expect((await put(url(ids.s3), undefined, payload)).statusCode).toBe(401);
    expect((await put(url(ids.s3), researcher, payload)).statusCode).toBe(403);
    expect((await put(url(999999), admin, payload)).statusCode).toBe(404);
    expect((await put(url(ids.s3), admin, { type: 'colours' })).statusCode).toBe(400);
  });

  it('adds single tags: whole numbers of at least 1, options, free text', async () => {
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ field: 'age', value: '0' }, /whole number of at least 1/],
      [{ field: 'number_of_products', value: 'many' }, /whole number of at least 1/],
      [{ field: 'study_sample_size', value: -4 }, /whole number of at least 1/],
      [{ field: 'design_method', value: 'Random' }, /not an option of Design Method/],
    ];
    for (const [tag, message] of refused) {
      const response = await put(url(ids.s3), admin, { type: 'tag', ...tag });
      expect(response.statusCode, JSON.stringify(tag)).toBe(400);
      expect(errorBody(response).message).toMatch(message);
    }
    for (const tag of [
      { field: 'age', value: '35' },
      { field: 'number_of_products', value: 4 },
      { field: 'base', value: 'Women 18-45 who use shampoo weekly' },
    ]) {
      const response = await put(url(ids.s3), admin, { type: 'tag', ...tag, old_value: null });
      expect(response.statusCode, response.body).toBe(200);
    }
    const row = await studyRow(ids.s3);
    expect(row).toMatchObject({ age: '35', numberOfProducts: 4, base: 'Women 18-45 who use shampoo weekly' });
    const stale = await put(url(ids.s3), admin, { type: 'tag', field: 'age', value: '40', old_value: null });
    expect(stale.statusCode).toBe(409);
    const history = await historyRows(ids.s3);
    expect(history.map((entry) => entry.type)).toEqual(['study', 'study', 'study']);
  });

  it('replaces the fragrance table: update, add, remove, with one history row', async () => {
    const before = await t.database.db
      .select()
      .from(fragrances)
      .where(eq(fragrances.studyId, ids.s4))
      .orderBy(asc(fragrances.id));
    expect(before).toHaveLength(1);
    const rose = before[0]!;
    const response = await put(url(ids.s4), admin, {
      type: 'fragrances',
      perfume_characteristics: [
        { name: 'Green Leaf', fragrance_code: '402', family: 'Green', bench_create: 'benchmark' },
        { name: 'Rose Garden', fragrance_code: '401', family: 'Floral', subfamily: 'Rose', level: '1.5' },
      ],
      changes: [{ field: 'level', old_value: null, new_value: '1.5' }],
    });
    expect(response.statusCode, response.body).toBe(200);
    const rows = await t.database.db
      .select()
      .from(fragrances)
      .where(eq(fragrances.studyId, ids.s4))
      .orderBy(asc(fragrances.id));
    expect(rows.map((row) => [row.id === rose.id, row.name, row.level, row.creative])).toEqual([
      [true, 'Rose Garden', 1.5, true],
      [false, 'Green Leaf', null, false],
    ]);
    const productCodes = await t.database.db
      .select({ code: products.code })
      .from(products)
      .where(eq(products.studyId, ids.s4));
    expect(productCodes.map((row) => row.code)).toContain('402');
    const history = await historyRows(ids.s4);
    expect(history).toHaveLength(1);
    expect(history[0]!.type).toBe('fragrances');
    expect(history[0]!.changes).toEqual(
      expect.arrayContaining([
        { field: 'fragrance', old_value: null, new_value: 'Green Leaf (402)' },
        { field: 'Rose Garden (401): level', old_value: null, new_value: 1.5 },
        { field: 'Rose Garden (401): perfumer_name', old_value: 'Anna Berg', new_value: null },
      ]),
    );

    // Removing a row: send the table without it.
    const removed = await put(url(ids.s4), admin, {
      type: 'fragrances',
      perfume_characteristics: [{ id: rose.id, name: 'Rose Garden', fragrance_code: '401', level: 1.5 }],
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().changes).toContainEqual({
      field: 'fragrance',
      old_value: 'Green Leaf (402)',
      new_value: null,
    });
  });

  it('requires the clear flag to remove every row, refuses repeated codes and foreign ids', async () => {
    const empty = await put(url(ids.s6), admin, { type: 'fragrances', perfume_characteristics: [] });
    expect(empty.statusCode).toBe(400);
    expect(errorBody(empty).message).toBe('To remove every row, send clear_perfume_characteristics: true.');
    const repeated = await put(url(ids.s6), admin, {
      type: 'fragrances',
      perfume_characteristics: [
        { name: 'A', fragrance_code: '1' },
        { name: 'B', fragrance_code: '1' },
      ],
    });
    expect(repeated.statusCode).toBe(400);
    const [foreign] = await t.database.db.select().from(fragrances).where(eq(fragrances.studyId, ids.s1));
    const stolen = await put(url(ids.s6), admin, {
      type: 'fragrances',
      perfume_characteristics: [{ id: foreign!.id, name: 'Stolen', fragrance_code: '9' }],
    });
    expect(stolen.statusCode).toBe(400);
    const cleared = await put(url(ids.s6), admin, {
      type: 'fragrances',
      clear_perfume_characteristics: true,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await t.database.db.select().from(fragrances).where(eq(fragrances.studyId, ids.s6))).toEqual([]);
  });

  it('replaces the concept table, tracking concept_code, country, name and region', async () => {
    const response = await put(url(ids.s1), admin, {
      type: 'concepts',
      concepts: [
        { name: 'Calm Evening', concept_code: 'C1', region: 'South Asia', country: 'India', theme: 'Sleep' },
        { name: 'Fresh Start', concept_code: 'C2', region: 'South Asia', country: 'India' },
      ],
      changes: [],
    });
    expect(response.statusCode, response.body).toBe(200);
    const rows = await t.database.db
      .select()
      .from(concepts)
      .where(eq(concepts.studyId, ids.s1))
      .orderBy(asc(concepts.id));
    expect(rows.map((row) => [row.conceptCode, row.theme, row.ingredient1])).toEqual([
      ['C1', 'Sleep', 'Lavender Oil'],
      ['C2', null, null],
    ]);
    const history = (await historyRows(ids.s1)).filter((entry) => entry.type === 'concepts');
    expect(history).toHaveLength(1);
    expect(history[0]!.changes).toEqual([
      { field: 'concept', old_value: null, new_value: 'Fresh Start (C2)' },
    ]);

    const cleared = await put(url(ids.s1), admin, { type: 'concepts', clear_concepts: true });
    expect(cleared.statusCode).toBe(200);
    expect(await t.database.db.select().from(concepts).where(eq(concepts.studyId, ids.s1))).toEqual([]);
  });
});

describe('GET /api/study/study_edit_history/:id', () => {
  it('needs a session; 404 for unknown and out-of-scope studies', async () => {
    expect((await get(`/api/study/study_edit_history/${ids.s2}`)).statusCode).toBe(401);
    expect((await get('/api/study/study_edit_history/999999', admin)).statusCode).toBe(404);
    expect((await get(`/api/study/study_edit_history/${ids.s4}`, client)).statusCode).toBe(404);
    expect((await get('/api/study/study_edit_history/x', admin)).statusCode).toBe(400);
  });

  it('answers study-level lines and every save grouped, newest first', async () => {
    const response = await get(`/api/study/study_edit_history/${ids.s1}`, researcher);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.grouped.map((entry: { type: string }) => entry.type)).toEqual([
      'concepts',
      'concepts',
      'study',
    ]);
    expect(body.grouped[2]).toMatchObject({
      user_email: { email: 'admin@accord.test' },
      changes: [
        {
          field: 'region',
          old_value: ['South Asia'],
          new_value: ['South Asia', 'South East Asia', 'North Asia'],
        },
        { field: 'country', old_value: ['India'], new_value: ['India', 'China'] },
      ],
    });
    expect(body.study).toEqual([
      expect.objectContaining({ field: 'region', user_email: { email: 'admin@accord.test' } }),
      expect.objectContaining({ field: 'country', new_value: ['India', 'China'] }),
    ]);
    expect(body.study[0].change_date).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
