import {
  CICS_MESSAGES,
  ROLE_RESEARCHER,
  parseQuestionText,
  type CicsOptionsResponse,
  type CicsQuestionStatistics,
  type CicsSearchResponse,
} from '@accord/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';
import { BRIGHTWELL, HALDEN, NORTHWIND, seedSearchFixtures } from '../search/search-fixtures.ts';
import { seedCicsFixtures, type CicsFixtureIds } from './cics-fixtures.ts';

let t: TestApp;
let q: CicsFixtureIds;
const tokens = {} as Record<DemoRole, string>;

beforeAll(async () => {
  t = await createTestApp({
    seed: async (database) => {
      q = await seedCicsFixtures(database, await seedSearchFixtures(database));
    },
  });
  for (const role of ['admin', 'researcher', 'client', 'sales'] as const) tokens[role] = await t.login(role);
});
afterAll(async () => {
  await t.close();
});

const post = (role: DemoRole | null, url: string, payload: unknown) =>
  t.request({ method: 'POST', url, payload, ...(role ? { token: tokens[role] } : {}) });

async function search(role: DemoRole, text: string, page = ''): Promise<CicsSearchResponse> {
  const response = await post(role, `/api/cics/search_bar/${page}`, {
    search_terms: parseQuestionText(text),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function inspect(role: DemoRole, id: number, filter: unknown = {}): Promise<CicsQuestionStatistics> {
  const response = await post(role, `/api/cics/inspect_question/${id}/`, { q: filter });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('POST /api/cics/search_bar/', () => {
  it('answers 401 without a session', async () => {
    const response = await post(null, '/api/cics/search_bar/', { search_terms: ['clean'] });
    expect(response.statusCode).toBe(401);
  });

  it('refuses an empty query with 400 and a message', async () => {
    for (const terms of [[], ['   '], ['""']]) {
      const response = await post('researcher', '/api/cics/search_bar/', { search_terms: terms });
      expect(response.statusCode).toBe(400);
      expect(errorBody(response).message).toBe(CICS_MESSAGES.emptyQuery);
    }
    const unknown = await post('researcher', '/api/cics/search_bar/', { search_terms: ['a'], extra: 1 });
    expect(unknown.statusCode).toBe(400);
    const tooMany = await post('researcher', '/api/cics/search_bar/', {
      search_terms: Array.from({ length: 21 }, (_, i) => `w${i}`),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(errorBody(tooMany).message).toContain(CICS_MESSAGES.tooManyTerms);
  });

  it('matches a quoted phrase as a whole term and loose words anywhere', async () => {
    const phrase = await search('researcher', '"clean fragrance"');
    expect(phrase.results.map((row) => row.id)).toEqual([q.phrase]);
    expect(phrase.terms).toEqual([{ term: 'clean fragrance', kind: 'phrase' }]);

    const words = await search('researcher', 'clean fragrance');
    // The clean question of s1 and s4 is one row (s1, newer, stands for it).
    expect(words.results.map((row) => row.id).sort()).toEqual([q.clean, q.phrase].sort());
    expect(words.terms).toEqual([
      { term: 'clean', kind: 'word' },
      { term: 'fragrance', kind: 'word' },
    ]);

    // Every term must match: a phrase and a word together narrow the list.
    const both = await search('researcher', '"smells clean" agree');
    expect(both.results.map((row) => row.id)).toEqual([q.clean]);
    expect((await search('researcher', '"smells clean" morning')).results).toEqual([]);
  });

  it('answers each question with q_id, q_text, question_type, values, score and its study', async () => {
    const body = await search('researcher', '"smells clean"');
    expect(body.total).toBe(1);
    const row = body.results.find((result) => result.id === q.clean)!;
    expect(row).toMatchObject({
      q_id: 'Q1',
      q_text: 'How much do you agree that this fragrance smells clean?',
      question_type: 'numerical',
      scale_min: 1,
      scale_max: 5,
      study: { client: NORTHWIND, c_mi_number: 'CMI-2015-001', year: 2015 },
    });
    expect(row.question_values).toHaveLength(5);
    expect(row.question_values[0]).toEqual({ name: 'Disagree strongly', value: 1 });
    expect(row.score).toBeGreaterThan(0);
  });

  it('ranks by relevance, best first, and finds near spellings of words', async () => {
    const body = await search('researcher', 'like dislike');
    expect(body.results[0]!.id).toBe(q.liking);
    const scores = (await search('researcher', 'fragrance clean')).results.map((row) => row.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);

    const misspelt = await search('researcher', 'smels');
    expect(misspelt.results.map((row) => row.id)).toEqual([q.clean]);
    // Phrases are exact: a misspelt phrase finds nothing.
    expect((await search('researcher', '"smels clean"')).results).toEqual([]);
  });

  it('lists a question several studies ask once, with each study and its question key', async () => {
    const [row] = (await search('researcher', '"smells clean"')).results;
    expect(row!.id).toBe(q.clean);
    expect(row!.studies.map((entry) => [entry.id, entry.q_id, entry.study.c_mi_number])).toEqual([
      [q.clean, 'Q1', 'CMI-2015-001'],
      [q.other, 'Q1', 'CMI-2012-004'],
    ]);
    // Every study's question can be inspected on its own.
    expect((await inspect('researcher', row!.studies[1]!.id)).question.study.c_mi_number).toBe(
      'CMI-2012-004',
    );
  });

  it('keeps only the questions answered by respondents of the geography, gender and age chosen', async () => {
    const ids = async (filter: unknown) => {
      const response = await post('researcher', '/api/cics/search_bar/', {
        search_terms: ['fragrance'],
        q: filter,
      });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as CicsSearchResponse).results.map((row) => row.id).sort();
    };
    // Answers: clean from r1-r5 (India and Brazil, 25 to 65), when from r1-r3 (India, 25 to 45).
    const everything = await ids({});
    expect(everything).toEqual([q.clean, q.phrase, q.when, q.liking].sort());
    expect(await ids({ Country: ['India'] })).toEqual([q.clean, q.when].sort());
    expect(await ids({ Country: ['Brazil'] })).toEqual([q.clean]);
    expect(await ids({ Gender: ['Male'], Age: [50, 60] })).toEqual([q.clean]);
    expect(await ids({ Country: ['France'] })).toEqual([]);
    expect(await ids({ Gender: ['Female'], Age: [70, 99] })).toEqual([]);
    const bad = await post('researcher', '/api/cics/search_bar/', {
      search_terms: ['fragrance'],
      q: { Age: [60, 20] },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('pages the results', async () => {
    const first = await search('researcher', 'fragrance', '?page=1&per_page=2');
    const second = await search('researcher', 'fragrance', '?page=2&per_page=2');
    // Five questions, four texts: the clean question of two studies is one row.
    expect(first.total).toBe(4);
    expect(second.total).toBe(4);
    expect(first.results).toHaveLength(2);
    expect(second.results).toHaveLength(2);
    const ids = [...first.results, ...second.results].map((row) => row.id);
    expect(new Set(ids).size).toBe(4);
    const bad = await post('researcher', '/api/cics/search_bar/?per_page=500', { search_terms: ['clean'] });
    expect(bad.statusCode).toBe(400);
  });

  it('answers every question to admins and researchers, whichever client its study has', async () => {
    const ids = async (role: DemoRole) =>
      (await search(role, '"smells clean"')).results
        .flatMap((row) => row.studies.map((entry) => entry.study.client))
        .sort();
    expect(await ids('admin')).toEqual([BRIGHTWELL, NORTHWIND]);
    expect(await ids('researcher')).toEqual([BRIGHTWELL, NORTHWIND]);
    expect((await search('researcher', 'dislike')).results.map((row) => row.study.client)).toEqual([HALDEN]);
  });

  it('finds near spellings of words in questions added or edited after the library was loaded', async () => {
    const [added] = await t.database.rows<{ id: number }>(sql`
      insert into questions (study_id, filename, path, qid, text, question_type, scale_min, scale_max, labels, sort_order)
      select study_id, filename, path, 'Q90', 'How noticeable was the vanillin note?', question_type,
             scale_min, scale_max, labels, 90
      from questions where id = ${q.clean}
      returning id`);
    const ids = async (text: string) => (await search('researcher', text)).results.map((row) => row.id);
    expect(await ids('vanillin')).toEqual([added!.id]);
    expect(await ids('vanilin')).toEqual([added!.id]);
    expect(await ids('noticeable vanilin')).toEqual([added!.id]);

    await t.database.rows(
      sql`update questions set text = 'How noticeable was the patchouli note?' where id = ${added!.id}`,
    );
    expect(await ids('patchoulli')).toEqual([added!.id]);
    expect(await ids('vanilin')).toEqual([]);
    await t.database.rows(sql`delete from questions where id = ${added!.id}`);
    expect(await ids('patchoulli')).toEqual([]);
  });
});

describe('POST /api/cics/inspect_question/{id}/', () => {
  it('answers 401 without a session, 400 for a bad id or filter, 404 for an unknown question', async () => {
    expect((await post(null, `/api/cics/inspect_question/${q.clean}/`, { q: {} })).statusCode).toBe(401);
    expect((await post('researcher', '/api/cics/inspect_question/abc/', { q: {} })).statusCode).toBe(400);
    const reversed = await post('researcher', `/api/cics/inspect_question/${q.clean}/`, {
      q: { Age: [60, 20] },
    });
    expect(reversed.statusCode).toBe(400);
    expect(errorBody(reversed).message).toContain('The lower age limit must not be above the higher.');
    const unknownKey = await post('researcher', `/api/cics/inspect_question/${q.clean}/`, {
      q: { City: ['x'] },
    });
    expect(unknownKey.statusCode).toBe(400);
    const missing = await post('researcher', '/api/cics/inspect_question/999999/', { q: {} });
    expect(missing.statusCode).toBe(404);
    expect(errorBody(missing).message).toBe(CICS_MESSAGES.questionNotFound);
  });

  it('answers counts, shares, mean and boxes on the 5-point scale with the base n', async () => {
    const body = await inspect('researcher', q.clean);
    expect(body.question).toMatchObject({ id: q.clean, q_id: 'Q1', study: { client: NORTHWIND } });
    expect(body.kind).toBe('scaled');
    expect(body.binary_scale).toBe(false);
    // Answers 5, 4, 4, 2, 1, 3 from five respondents (one rated two products).
    expect(body.statistics.n).toBe(6);
    expect(body.statistics.respondents).toBe(5);
    expect(body.statistics.mean).toBeCloseTo(19 / 6, 6);
    expect(body.statistics.top_box).toBeCloseTo(1 / 6, 6);
    expect(body.statistics.top_2_box).toBeCloseTo(3 / 6, 6);
    expect(body.statistics.just_right).toBeCloseTo(1 / 6, 6);
    expect(body.statistics.bottom_2_box).toBeCloseTo(2 / 6, 6);
    expect(body.statistics.bottom_box).toBeCloseTo(1 / 6, 6);
    expect(body.statistics.Answers).toEqual({
      'Disagree strongly': 1,
      'Disagree slightly': 1,
      Neither: 1,
      'Agree slightly': 2,
      'Agree strongly': 1,
    });
    expect(body.answers.map((answer) => answer.count)).toEqual([1, 1, 1, 2, 1]);
    expect(body.answers[3]!.share).toBeCloseTo(2 / 6, 6);
  });

  it('harmonises other scales: 9-point 9, 6 and 1 are 5, 3.5 and 1', async () => {
    const body = await inspect('researcher', q.liking);
    expect(body.statistics.n).toBe(3);
    expect(body.statistics.mean).toBeCloseTo((5 + 3.5 + 1) / 3, 6);
    expect(body.statistics.top_2_box).toBeCloseTo(2 / 3, 6);
    expect(body.statistics.top_box).toBeCloseTo(1 / 3, 6);
    expect(body.statistics.bottom_box).toBeCloseTo(1 / 3, 6);
  });

  it('counts a categorical question without mean or boxes', async () => {
    const body = await inspect('researcher', q.when);
    expect(body.kind).toBe('categorical');
    expect(body.statistics).toMatchObject({ n: 3, mean: null, top_box: null });
    expect(body.statistics.Answers).toEqual({ Morning: 2, Daytime: 0, Evening: 1, Night: 0 });
  });

  it('changes the statistics with gender, age and geography filters', async () => {
    const female = await inspect('researcher', q.clean, { Gender: ['Female'] });
    expect(female.statistics).toMatchObject({ n: 4, respondents: 3, mean: 4 });
    expect(female.statistics.top_2_box).toBeCloseTo(3 / 4, 6);

    const middle = await inspect('researcher', q.clean, { Age: [30, 50] });
    expect(middle.statistics).toMatchObject({ n: 2, respondents: 2, mean: 3 });
    // The full range 0-99 is no filter.
    expect((await inspect('researcher', q.clean, { Age: [0, 99] })).statistics.n).toBe(6);

    const india = await inspect('researcher', q.clean, { Country: ['India'] });
    expect(india.statistics).toMatchObject({ n: 4, respondents: 3 });
    expect(india.statistics.mean).toBeCloseTo(15 / 4, 6);

    const latam = await inspect('researcher', q.clean, { Region_new: ['Latin America'] });
    expect(latam.statistics).toMatchObject({ n: 2, mean: 2 });

    // Region: where the study was run; APAC stands for its sub-regions (s1 ran in South Asia).
    expect((await inspect('researcher', q.clean, { Region: ['South Asia'] })).statistics.n).toBe(6);
    expect((await inspect('researcher', q.clean, { Region: ['APAC'] })).statistics.n).toBe(6);
    const europe = await inspect('researcher', q.clean, { Region: ['Europe'] });
    expect(europe.statistics).toMatchObject({ n: 0, respondents: 0, mean: null, top_box: null });
    expect(europe.answers.every((answer) => answer.count === 0 && answer.share === null)).toBe(true);

    const combined = await inspect('researcher', q.clean, { Gender: ['Male'], Country: ['India'] });
    expect(combined.statistics).toMatchObject({ n: 1, mean: 2 });
  });
});

describe('CICS access', () => {
  it('answers 403 to client and sales users on every call: CICS is for analytics roles', async () => {
    for (const role of ['client', 'sales'] as const) {
      const calls = [
        await post(role, '/api/cics/search_bar/', { search_terms: ['clean'] }),
        await post(role, `/api/cics/inspect_question/${q.clean}/`, { q: {} }),
        await t.request({ method: 'GET', url: '/api/cics/options', token: tokens[role] }),
      ];
      expect(calls.map((response) => response.statusCode)).toEqual([403, 403, 403]);
    }
  });
});

describe('GET /api/cics/options', () => {
  it('answers 401 without a session', async () => {
    expect((await t.request({ method: 'GET', url: '/api/cics/options' })).statusCode).toBe(401);
  });

  it('answers the geography kinds with their values, genders and the age range', async () => {
    const response = await t.request({ method: 'GET', url: '/api/cics/options', token: tokens.researcher });
    expect(response.statusCode).toBe(200);
    const body: CicsOptionsResponse = response.json();
    expect(body.geo_types.map((type) => type.value)).toEqual(['Country', 'Region', 'Region_new']);
    const region = body.geo_types.find((type) => type.value === 'Region')!;
    expect(region.options).toContainEqual({ value: 'APAC', parent: null });
    expect(region.options).toContainEqual({ value: 'North Asia', parent: 'APAC' });
    expect(body.geo_types[0]!.options.map((option) => option.value)).toContain('India');
    expect(body.genders).toEqual(['Female', 'Male']);
    expect(body.age).toEqual({ min: 0, max: 99, mark_step: 5 });
  });
});

describe('saved CICS searches', () => {
  it('are kept apart from the study searches', async () => {
    const [user] = await t.database.rows<{ id: number }>(
      sql`select id from users where role_id = ${ROLE_RESEARCHER} order by id limit 1`,
    );
    const userId = user!.id;
    const filters = {
      geo_type: 'Country',
      geo_value: ['India'],
      gender: ['Female'],
      question: '"smells clean"',
    };
    const saved = await post('researcher', `/api/users/${userId}/searches/`, {
      slug: 'Clean in India',
      metadata_query: JSON.stringify(filters),
      search_type: 'cics',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const list = async (type: string) =>
      (
        await t.request({
          method: 'GET',
          url: `/api/users/${userId}/searches/?search_type=${type}`,
          token: tokens.researcher,
        })
      ).json() as { slug: string; metadata_query: string }[];
    expect((await list('cics')).map((row) => row.slug)).toEqual(['Clean in India']);
    expect(JSON.parse((await list('cics'))[0]!.metadata_query)).toEqual(filters);
    expect(await list('search')).toEqual([]);
  });
});
