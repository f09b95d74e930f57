import { APAC_SUBREGIONS, type StudySearchQuery } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';
import {
  BRIGHTWELL,
  HALDEN,
  NORTHWIND,
  OUTSIDER,
  seedSearchFixtures,
  type FixtureIds,
} from './search-fixtures.ts';

let t: TestApp;
let ids: FixtureIds;
const tokens = {} as Record<DemoRole, string>;

beforeAll(async () => {
  t = await createTestApp({
    seed: async (database) => {
      ids = await seedSearchFixtures(database);
    },
  });
  for (const role of ['admin', 'researcher', 'client', 'sales'] as const) tokens[role] = await t.login(role);
});
afterAll(async () => {
  await t.close();
});

const post = (role: DemoRole | null, url: string, payload: unknown) =>
  t.request({ method: 'POST', url, payload, ...(role ? { token: tokens[role] } : {}) });

async function counts(role: DemoRole, query: StudySearchQuery = {}, searchPhrase = '') {
  const response = await post(role, '/api/smartsearch/', {
    query,
    full_query: { file_type: '', search_phrase: searchPhrase },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Record<string, number>;
}

type Option = { value: string; count: number; parent?: string | null };
type Field = { field: string; options: Option[] };
type Dropdowns = {
  data: {
    fields: Record<'metadata' | 'fragrance' | 'concept', Field[]>;
    dependencies: { group: string; field: string; parent: string; selected: string[]; values: string[] }[];
  };
};

async function dropdowns(role: DemoRole, query: StudySearchQuery = {}): Promise<Dropdowns> {
  const response = await post(role, '/api/smartsearch/dropdown_options', {
    query,
    full_query: { file_type: '', search_phrase: '' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const optionsOf = (body: Dropdowns, group: 'metadata' | 'fragrance' | 'concept', field: string) => {
  const found = body.data.fields[group].find((f) => f.field === field);
  if (!found) throw new Error(`no field ${group}.${field}`);
  return found.options;
};
const countOf = (options: Option[], value: string) => options.find((o) => o.value === value)?.count ?? 0;

describe('POST /api/smartsearch/ (tab counts)', () => {
  it('counts every tab over verified studies for staff', async () => {
    expect(await counts('admin')).toEqual({
      summaries: 5,
      fragrances: 7,
      concepts: 3,
      questionnaire: 3,
      screener: 2,
      protocol: 1,
      RDF_report: 7,
    });
    expect(await counts('researcher')).toEqual(await counts('admin'));
  });

  it('lets an admin search not verified studies only', async () => {
    const found = await counts('admin', { essentials: { verified: false } });
    expect(found).toMatchObject({ summaries: 1, fragrances: 1, concepts: 0, RDF_report: 1 });
  });

  it('limits a client user to their clients, even when filtering for another client', async () => {
    expect(await counts('client')).toEqual({
      summaries: 4,
      fragrances: 6,
      concepts: 2,
      questionnaire: 2,
      screener: 2,
      protocol: 1,
      RDF_report: 3,
    });
    const other = await counts('client', { essentials: { client: [BRIGHTWELL, OUTSIDER] } });
    expect(Object.values(other).every((n) => n === 0)).toBe(true);
    expect((await counts('client', { essentials: { client: [HALDEN] } })).summaries).toBe(2);
  });

  it('limits a sales user to their clients and shows them results files', async () => {
    // s1, s2 (Northwind) and s4 (Brightwell): reports 3 plus results files 2.
    expect(await counts('sales')).toMatchObject({ summaries: 3, fragrances: 5, concepts: 2, RDF_report: 5 });
  });

  it('narrows file counts to names holding every word of the search phrase', async () => {
    expect(await counts('admin', {}, 'final REPORT')).toMatchObject({
      RDF_report: 4,
      questionnaire: 0,
      screener: 0,
      protocol: 0,
    });
    expect(await counts('admin', {}, '2015 _results')).toMatchObject({ RDF_report: 1 });
  });

  // [filters, studies, fragrances, concepts] under the admin's view of the five verified studies.
  const cases: [string, StudySearchQuery, number, number?, number?][] = [
    ['client', { essentials: { client: [NORTHWIND] } }, 2, 4, 1],
    ['business unit (overlap)', { essentials: { businessUnit: ['Beauty & Personal Care'] } }, 1],
    ['category', { essentials: { category: ['Fabric Care'] } }, 3],
    ['categories are OR-ed', { essentials: { category: ['Fabric Care', 'Hair Care'] } }, 4],
    ['product type', { essentials: { product: ['Liquid Detergent'] } }, 2],
    ['region APAC means its sub-regions', { essentials: { region: ['APAC'] } }, 3],
    ['region (overlap)', { essentials: { region: ['Europe'] } }, 2],
    ['country', { essentials: { country: ['France'] } }, 1],
    ['start year', { essentials: { startYear: 2016 } }, 3],
    ['end year', { essentials: { endYear: 2015 } }, 2],
    ['year range', { essentials: { startYear: 2015, endYear: 2018 } }, 2],
    ['CMI # by prefix, any case', { essentials: { cmiNumber: 'cmi-2018' } }, 1],
    ['CMI # anywhere in the text', { essentials: { cmiNumber: '2018' } }, 1],
    ['CMI # by its trailing digits', { essentials: { cmiNumber: '-002' } }, 1],
    ['CX/Pace #', { essentials: { paceNumber: 'px-1' } }, 1],
    ['CX/Pace # anywhere in the text', { essentials: { paceNumber: '200' } }, 1],
    ['project name treats % and _ literally', { essentials: { projectName: '100%' } }, 1],
    ['project name treats _ literally', { essentials: { projectName: '100% pure_t' } }, 1],
    ['project name wildcard characters match nothing else', { essentials: { projectName: '1_0' } }, 0],
    ['project name prefix', { essentials: { projectName: '100' } }, 2],
    ['research type (overlap)', { methodology: { researchType: ['Fragrance Screening'] } }, 2],
    ['CMI tool type', { methodology: { cmiTool: ['Product in Use'] } }, 1],
    ['design method', { methodology: { designMethod: ['Monadic Sequential'] } }, 2],
    ['methodology', { methodology: { methodology: ['Online Survey'] } }, 1],
    ['panel profile', { methodology: { panelProfile: ['Category users'] } }, 1],
    [
      'objective and action standards (substring)',
      { methodology: { objectiveAndStandards: 'best FLORAL' } },
      1,
    ],
    ['fragrance family', { fragranceDetails: { family: ['Floral'] } }, 4, 4],
    ['fragrance name by prefix', { fragranceDetails: { fragranceName: 'rose' } }, 3, 3],
    ['perfumer by prefix, any case', { fragranceDetails: { perfumerName: 'ANNA' } }, 4, 4],
    ['SAP code', { fragranceDetails: { sapNumber: '123' } }, 1, 1],
    ['SAP code anywhere in the text', { fragranceDetails: { sapNumber: '432' } }, 1, 1],
    ['benchmarks', { fragranceDetails: { creative: false } }, 2, 2],
    [
      'creative and family hold on the same fragrance',
      { fragranceDetails: { creative: true, family: ['Woody'] } },
      0,
      0,
    ],
    ['fragrance region APAC', { fragranceDetails: { region: ['APAC'] } }, 3, 3],
    ['subfamily', { fragranceDetails: { subfamily: ['Rose'] } }, 2, 2],
    ['specifier', { fragranceDetails: { specifier: ['Essenza Labs'] } }, 1, 1],
    ['fragrance country', { fragranceDetails: { country: ['France'] } }, 2, 2],
    ['fragrance methodology', { fragranceDetails: { methodology: ['Home Use Test'] } }, 1, 1],
    ['concept theme', { conceptDetails: { theme: ['Care'] } }, 2, 3, 2],
    ['concept name by prefix', { conceptDetails: { name: 'calm' } }, 2, 3, 2],
    ['ingredient 1 (whole value, any case)', { conceptDetails: { ingredient1: 'green tea' } }, 1, 1, 1],
    ['ingredient 2', { conceptDetails: { ingredient2: 'Green Tea' } }, 1, 2, 1],
    ['concept region APAC', { conceptDetails: { region: ['APAC'] } }, 2, 3, 2],
    ['concept country', { conceptDetails: { country: ['Germany'] } }, 1, 1, 1],
    ['AND across fields', { essentials: { category: ['Fabric Care'], region: ['APAC'] } }, 2, 4, 1],
    [
      'AND across tabs',
      { essentials: { category: ['Fabric Care'] }, fragranceDetails: { family: ['Floral'] } },
      3,
      3,
    ],
    [
      'demographics and metrics are ignored',
      { demographics: { gender: ['Female'], startAge: 20, endAge: 30 }, metrics: { rdfType: 'eeg' } },
      5,
      7,
      3,
    ],
    [
      'empty values mean no filter',
      { essentials: { client: [], cmiNumber: '  ', startYear: null }, fragranceDetails: { creative: null } },
      5,
      7,
      3,
    ],
  ];
  it.each(cases)('filters by %s', async (_name, query, studies, fragranceCount, conceptCount) => {
    const found = await counts('admin', query);
    expect(found.summaries).toBe(studies);
    if (fragranceCount !== undefined) expect(found.fragrances).toBe(fragranceCount);
    if (conceptCount !== undefined) expect(found.concepts).toBe(conceptCount);
  });

  it('answers 401 without sign-in', async () => {
    expect((await post(null, '/api/smartsearch/', { query: {} })).statusCode).toBe(401);
  });

  it('answers 403 to a non-admin using concept filters or asking for not verified studies', async () => {
    const concept = await post('researcher', '/api/smartsearch/', {
      query: { conceptDetails: { theme: ['Care'] } },
    });
    expect(concept.statusCode).toBe(403);
    expect(errorBody(concept).message).toMatch(/admins only/i);
    const notVerified = await post('client', '/api/smartsearch/', {
      query: { essentials: { verified: false } },
    });
    expect(notVerified.statusCode).toBe(403);
    // An empty concept group is what every screen sends; it is fine.
    expect(
      (await post('researcher', '/api/smartsearch/', { query: { conceptDetails: { name: '', theme: [] } } }))
        .statusCode,
    ).toBe(200);
  });

  it('answers 400 with a clear message for bad filters', async () => {
    const wrongType = await post('admin', '/api/smartsearch/', {
      query: { essentials: { category: 'Fabric Care' } },
    });
    expect(wrongType.statusCode).toBe(400);
    // In words, by the field's label; the path stays in the details for programs.
    expect(errorBody(wrongType).message).toBe('Category must be a list.');
    expect(wrongType.json<{ details: { path: string }[] }>().details[0]?.path).toBe(
      'query.essentials.category',
    );
    const unknownKey = await post('admin', '/api/smartsearch/', {
      query: { essentials: { categories: ['Fabric Care'] } },
    });
    expect(unknownKey.statusCode).toBe(400);
    expect(errorBody(unknownKey).message).toMatch(/categories/);
    const years = await post('admin', '/api/smartsearch/', {
      query: { essentials: { startYear: 2020, endYear: 2010 } },
    });
    expect(years.statusCode).toBe(400);
    expect(errorBody(years).message).toMatch(/startYear must not be after endYear/);
    const blankValue = await post('admin', '/api/smartsearch/', { query: { essentials: { client: [''] } } });
    expect(blankValue.statusCode).toBe(400);
    // Too long a free text: the limit in words, never the path and zod's wording.
    const long = await post('admin', '/api/smartsearch/', {
      query: { essentials: { cmiNumber: 'C'.repeat(201) } },
    });
    expect(long.statusCode).toBe(400);
    expect(errorBody(long).message).toBe('CMI # must be at most 200 characters long.');
  });
});

describe('POST /api/smartsearch/dropdown_options', () => {
  it('counts each option under every other filter, APAC as the sum of its sub-regions', async () => {
    const all = await dropdowns('admin');
    expect(countOf(optionsOf(all, 'metadata', 'category'), 'Fabric Care')).toBe(3);
    const region = optionsOf(all, 'metadata', 'region');
    expect(countOf(region, 'APAC')).toBe(
      APAC_SUBREGIONS.reduce((sum, name) => sum + countOf(region, name), 0),
    );
    expect(countOf(region, 'APAC')).toBe(3);
    expect(countOf(optionsOf(all, 'fragrance', 'family'), 'Floral')).toBe(4);
    expect(countOf(optionsOf(all, 'fragrance', 'bench_create'), 'benchmark')).toBe(2);
    expect(countOf(optionsOf(all, 'concept', 'theme'), 'Care')).toBe(2);

    const fabric = await dropdowns('admin', { essentials: { category: ['Fabric Care'] } });
    // The field's own filter does not narrow its options, so other categories stay choosable.
    expect(countOf(optionsOf(fabric, 'metadata', 'category'), 'Hair Care')).toBe(1);
    expect(countOf(optionsOf(fabric, 'metadata', 'product_type'), 'Liquid Detergent')).toBe(2);
    expect(countOf(optionsOf(fabric, 'metadata', 'product_type'), 'Shampoo')).toBe(0);
    expect(countOf(optionsOf(fabric, 'metadata', 'client'), HALDEN)).toBe(1);
    expect(countOf(optionsOf(fabric, 'fragrance', 'family'), 'Floral')).toBe(3);

    const benchmarks = await dropdowns('admin', {
      fragranceDetails: { creative: false, family: ['Floral'] },
    });
    expect(countOf(optionsOf(benchmarks, 'fragrance', 'family'), 'Woody')).toBe(1);
    expect(countOf(optionsOf(benchmarks, 'fragrance', 'family'), 'Floral')).toBe(0);
    expect(countOf(optionsOf(benchmarks, 'fragrance', 'bench_create'), 'creative')).toBe(4);
    // Studies with a fragrance that is both Floral and a benchmark: none.
    expect(countOf(optionsOf(benchmarks, 'metadata', 'category'), 'Fabric Care')).toBe(0);
  });

  it('agrees with the tab counts: choosing an option finds as many as it showed', async () => {
    const region = ['APAC', 'Europe'];
    const checks: {
      base: StudySearchQuery;
      group: 'metadata' | 'fragrance';
      field: string;
      choose: (value: string) => StudySearchQuery;
      expected: Record<string, number>;
    }[] = [
      {
        base: {
          essentials: { region, category: ['Hair Care'] },
          fragranceDetails: { perfumerName: 'anna', family: ['Floral'] },
        },
        group: 'metadata',
        field: 'category',
        choose: (value) => ({
          essentials: { region, category: [value] },
          fragranceDetails: { perfumerName: 'anna', family: ['Floral'] },
        }),
        expected: { 'Fabric Care': 2, 'Home Care': 1, 'Hair Care': 0 },
      },
      {
        base: {
          essentials: { region, category: ['Fabric Care'] },
          fragranceDetails: { perfumerName: 'anna', family: ['Woody'] },
        },
        group: 'fragrance',
        field: 'family',
        choose: (value) => ({
          essentials: { region, category: ['Fabric Care'] },
          fragranceDetails: { perfumerName: 'anna', family: [value] },
        }),
        expected: { Floral: 2, Woody: 0 },
      },
      {
        base: { essentials: { region, country: ['Germany'] }, fragranceDetails: { family: ['Floral'] } },
        group: 'metadata',
        field: 'country',
        choose: (value) => ({
          essentials: { region, country: [value] },
          fragranceDetails: { family: ['Floral'] },
        }),
        expected: { India: 1, China: 1, France: 1, Germany: 1, Brazil: 0 },
      },
    ];
    for (const check of checks) {
      const options = optionsOf(await dropdowns('admin', check.base), check.group, check.field);
      for (const [value, count] of Object.entries(check.expected))
        expect(countOf(options, value), `${check.field} ${value}`).toBe(count);
      for (const option of options) {
        const found = await counts('admin', check.choose(option.value));
        expect(
          check.group === 'metadata' ? found.summaries : found.fragrances,
          `${check.field} ${option.value}`,
        ).toBe(option.count);
      }
    }
  });

  it('makes product types follow categories and countries follow regions', async () => {
    const body = await dropdowns('admin', {
      essentials: { category: ['Hair Care'], region: ['APAC'] },
      fragranceDetails: { family: ['Citrus'] },
    });
    const dependency = (group: string, field: string) =>
      body.data.dependencies.find((d) => d.group === group && d.field === field)!;
    const productTypes = dependency('metadata', 'product_type');
    expect(productTypes).toMatchObject({ parent: 'category', selected: ['Hair Care'] });
    expect(productTypes.values).toContain('Shampoo');
    expect(productTypes.values).not.toContain('Liquid Detergent');
    const countries = dependency('metadata', 'country');
    expect(countries.selected.sort()).toEqual([...APAC_SUBREGIONS].sort());
    expect(countries.values).toEqual(expect.arrayContaining(['India', 'China', 'Indonesia']));
    expect(countries.values).not.toContain('France');
    expect(dependency('fragrance', 'subfamily').values).toContain('Citrus Fresh');
    expect(dependency('fragrance', 'subfamily').values).not.toContain('Rose');
    // Nothing chosen: every option fits.
    expect(dependency('fragrance', 'country').values.length).toBeGreaterThan(10);
  });

  it('offers a client user only their clients and counts only their studies; concept fields only to admins', async () => {
    const body = await dropdowns('client', { essentials: { client: [BRIGHTWELL] } });
    expect(
      optionsOf(body, 'metadata', 'client')
        .map((o) => o.value)
        .sort(),
    ).toEqual([HALDEN, NORTHWIND]);
    expect(countOf(optionsOf(body, 'metadata', 'client'), NORTHWIND)).toBe(2);
    expect(countOf(optionsOf(body, 'metadata', 'category'), 'Home Care')).toBe(0);
    expect(body.data.fields.concept).toEqual([]);
    expect((await dropdowns('admin')).data.fields.concept.map((f) => f.field)).toContain('theme');
  });

  it('answers 401, 403 and 400', async () => {
    expect((await post(null, '/api/smartsearch/dropdown_options', { query: {} })).statusCode).toBe(401);
    expect(
      (
        await post('sales', '/api/smartsearch/dropdown_options', {
          query: { conceptDetails: { name: 'calm' } },
        })
      ).statusCode,
    ).toBe(403);
    const bad = await post('admin', '/api/smartsearch/dropdown_options', {
      query: { essentials: { startYear: 'soon' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toBe('Start year must be a number.');
  });
});

describe('POST /api/smartsearch/study_summarises', () => {
  it('answers summary rows newest first, with pagination headers', async () => {
    const response = await post('researcher', '/api/smartsearch/study_summarises?page=1&per_page=2', {
      query: {},
    });
    expect(response.statusCode).toBe(200);
    const rows = response.json();
    expect(rows.map((r: { id: number }) => r.id)).toEqual([ids.s6, ids.s3]);
    expect(response.headers).toMatchObject({
      per_page: '2',
      total: '5',
      page: '1',
      has_prev: 'false',
      pages: '3',
      has_next: 'true',
    });
    const last = await post('researcher', '/api/smartsearch/study_summarises?page=3&per_page=2', {
      query: {},
    });
    expect(last.json().map((r: { id: number }) => r.id)).toEqual([ids.s4]);
    expect(last.headers).toMatchObject({ has_prev: 'true', has_next: 'false' });
  });

  it('sorts by a column either way, empty values last, and refuses a column the table does not show', async () => {
    const sorted = async (url: string, key: string) => {
      const response = await post('researcher', url, { query: {} });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().map((row: Record<string, string | null>) => row[key]);
    };
    const byText = (a: string | null, b: string | null) =>
      a === null
        ? 1
        : b === null
          ? -1
          : a.toLowerCase() < b.toLowerCase()
            ? -1
            : a.toLowerCase() > b.toLowerCase()
              ? 1
              : 0;
    const cmis = await sorted(
      '/api/smartsearch/study_summarises?per_page=100&sort=c_mi_number',
      'c_mi_number',
    );
    expect(cmis).toHaveLength(5);
    expect(cmis).toEqual([...cmis].sort(byText));
    const down = await sorted(
      '/api/smartsearch/study_summarises?per_page=100&sort=c_mi_number&order=desc',
      'c_mi_number',
    );
    expect(down).toEqual([...cmis].reverse());
    const names = await sorted('/api/smartsearch/fragrances?per_page=100&sort=name&order=desc', 'name');
    expect(names).toEqual([...names].sort(byText).reverse());
    const wrong = await post('researcher', '/api/smartsearch/study_summarises?sort=file_name', { query: {} });
    expect(wrong.statusCode).toBe(400);
    expect(errorBody(wrong).message).toBe('This table cannot be sorted by file_name.');
  });

  it('answers exactly the fields of a study summary row', async () => {
    const response = await post('admin', '/api/smartsearch/study_summarises', {
      query: { essentials: { cmiNumber: 'CMI-2015' } },
    });
    expect(response.json()).toEqual([
      {
        id: ids.s1,
        category: 'Fabric Care',
        product_type: 'Liquid Detergent',
        client: NORTHWIND,
        c_mi_number: 'CMI-2015-001',
        project_name: 'Breezia Detergent Test',
        pace_number: 'PX-100',
        methodology: 'Home Use Test',
        design_method: 'Monadic Sequential',
        country: ['India'],
        region: ['South Asia'],
        lead_country: 'India',
        business_unit: ['Home Care'],
        research_type: ['Benchmarking'],
        cmi_tool_type: ['Blind Sniff'],
        evaluation: ['Neat', 'Wet Stage'],
      },
    ]);
  });

  it('never shows a client user another client’s study', async () => {
    const mine = await post('client', '/api/smartsearch/study_summarises?per_page=100', { query: {} });
    expect(
      mine
        .json()
        .map((r: { client: string }) => r.client)
        .sort(),
    ).toEqual([HALDEN, HALDEN, NORTHWIND, NORTHWIND]);
    const other = await post('client', '/api/smartsearch/study_summarises', {
      query: { essentials: { cmiNumber: 'CMI-2012' } },
    });
    expect(other.json()).toEqual([]);
    expect(other.headers.total).toBe('0');
  });

  it('answers 401, 403 and 400', async () => {
    expect((await post(null, '/api/smartsearch/study_summarises', { query: {} })).statusCode).toBe(401);
    expect(
      (
        await post('researcher', '/api/smartsearch/study_summarises', {
          query: { conceptDetails: { theme: ['Care'] } },
        })
      ).statusCode,
    ).toBe(403);
    const bad = await post('admin', '/api/smartsearch/study_summarises?per_page=1000', { query: {} });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toMatch(/per_page/);
  });
});

describe('POST /api/smartsearch/fragrances and /concepts', () => {
  it('lists the fragrances meeting the fragrance filters, with their study', async () => {
    const response = await post('admin', '/api/smartsearch/fragrances?per_page=10', {
      query: { fragranceDetails: { family: ['Floral'] }, essentials: { category: ['Fabric Care'] } },
    });
    expect(response.statusCode).toBe(200);
    const rows = response.json();
    expect(rows.map((r: { name: string }) => r.name)).toEqual(['Lavender Field', 'Rose Mist', 'Rose Dawn']);
    expect(response.headers.total).toBe('3');
    expect(rows[2]).toMatchObject({
      study_id: ids.s1,
      c_mi_number: 'CMI-2015-001',
      client: NORTHWIND,
      category: 'Fabric Care',
      product_type: 'Liquid Detergent',
      project_name: 'Breezia Detergent Test',
      ref_number: 'DEV-1',
      code: '123456',
      fragrance_code: '101',
      perfumer_name: 'Anna Berg',
      family: 'Floral',
      subfamily: 'Rose',
      level: 0.8,
      dominant_note_1: 'Rose',
      dominant_note_5: null,
    });
  });

  it('lists concepts with their study for everyone, concept filters only for admins', async () => {
    const all = await post('researcher', '/api/smartsearch/concepts', { query: {} });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toHaveLength(3);
    const care = await post('admin', '/api/smartsearch/concepts', {
      query: { conceptDetails: { theme: ['Care'], region: ['APAC'] } },
    });
    expect(care.json()).toEqual([
      {
        id: expect.any(Number),
        name: 'Calm Evening',
        concept_code: 'C1',
        region: 'South Asia',
        country: 'India',
        study_id: ids.s1,
        c_mi_number: 'CMI-2015-001',
        project_name: 'Breezia Detergent Test',
        client: NORTHWIND,
      },
    ]);
    const client = await post('client', '/api/smartsearch/concepts', { query: {} });
    expect(
      client
        .json()
        .map((r: { client: string }) => r.client)
        .sort(),
    ).toEqual([HALDEN, NORTHWIND]);
  });

  it('never lists another client’s fragrances to a sales user', async () => {
    const response = await post('sales', '/api/smartsearch/fragrances?per_page=100', {
      query: { essentials: { client: [HALDEN, BRIGHTWELL] } },
    });
    expect(response.json().map((r: { name: string }) => r.name)).toEqual(['Rose Garden']);
  });

  it('answers 401, 403 and 400', async () => {
    expect((await post(null, '/api/smartsearch/fragrances', { query: {} })).statusCode).toBe(401);
    expect((await post(null, '/api/smartsearch/concepts', { query: {} })).statusCode).toBe(401);
    expect(
      (await post('client', '/api/smartsearch/concepts', { query: { conceptDetails: { name: 'x' } } }))
        .statusCode,
    ).toBe(403);
    expect((await post('admin', '/api/smartsearch/fragrances?page=0', { query: {} })).statusCode).toBe(400);
    expect(
      (await post('admin', '/api/smartsearch/concepts', { query: { fragranceDetails: { creative: 'yes' } } }))
        .statusCode,
    ).toBe(400);
  });
});

describe('POST /api/smartsearch/files/{fileType}', () => {
  const files = (role: DemoRole | null, type: string, query: StudySearchQuery = {}, phrase = '') =>
    post(role, `/api/smartsearch/files/${type}?per_page=100`, {
      query,
      full_query: { file_type: type, search_phrase: phrase },
    });

  it('lists results and reports together under RDF_report', async () => {
    const response = await files('researcher', 'RDF_report');
    expect(response.statusCode).toBe(200);
    const rows = response.json();
    expect(rows).toHaveLength(7);
    expect(new Set(rows.map((r: { file_type: string }) => r.file_type))).toEqual(new Set(['RDF', 'report']));
    expect(
      rows.find(
        (r: { study_id: number; file_type: string }) => r.study_id === ids.s3 && r.file_type === 'report',
      ),
    ).toEqual({
      id: expect.any(Number),
      study_id: ids.s3,
      category: 'Hair Care',
      product_type: 'Shampoo',
      client: HALDEN,
      c_mi_number: 'CMI-2020-003',
      project_name: 'Velura Shampoo Benchmark',
      file_name: 'CMI-2020-003_Final_Report.pdf',
      file_type: 'report',
    });
  });

  it('matches the search phrase against file names, case-insensitively', async () => {
    const rows = (await files('admin', 'questionnaire', {}, 'QUESTIONNAIRE cmi-2018')).json();
    expect(rows.map((r: { file_name: string }) => r.file_name)).toEqual(['CMI-2018-002_questionnaire.docx']);
    expect((await files('admin', 'protocol', { essentials: { region: ['Europe'] } })).json()).toEqual([]);
  });

  it('keeps results files from users who may not download, and other clients’ files from client users', async () => {
    expect((await files('client', 'RDF')).statusCode).toBe(403);
    const mixed = (await files('client', 'RDF_report')).json();
    expect(mixed.map((r: { file_type: string }) => r.file_type)).toEqual(['report', 'report', 'report']);
    expect((await files('client', 'report', { essentials: { client: [BRIGHTWELL] } })).json()).toEqual([]);
    const sales = (await files('sales', 'RDF')).json();
    expect(sales.map((r: { client: string }) => r.client)).toEqual([NORTHWIND, NORTHWIND]);
  });

  it('answers 401 and 400', async () => {
    expect((await files(null, 'report')).statusCode).toBe(401);
    const unknownType = await files('admin', 'pdf');
    expect(unknownType.statusCode).toBe(400);
    expect(errorBody(unknownType).message).toMatch(/fileType/);
  });
});

describe('GET /api/smartsearch/count', () => {
  it('counts what the library holds for the user', async () => {
    const get = (role: DemoRole) =>
      t.request({ method: 'GET', url: '/api/smartsearch/count', token: tokens[role] });
    expect((await get('admin')).json()).toEqual({ studies: 6, fragrances: 8, concepts: 3 });
    expect((await get('client')).json()).toEqual({ studies: 4, fragrances: 6, concepts: 2 });
    expect((await get('sales')).json()).toEqual({ studies: 3, fragrances: 5, concepts: 2 });
  });

  it('answers 401 without sign-in', async () => {
    expect((await t.request({ method: 'GET', url: '/api/smartsearch/count' })).statusCode).toBe(401);
  });
});

describe('GET /api/docs/json', () => {
  it('documents every search call', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/docs/json' })).json();
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/api/smartsearch/',
      '/api/smartsearch/dropdown_options',
      '/api/smartsearch/study_summarises',
      '/api/smartsearch/fragrances',
      '/api/smartsearch/concepts',
      '/api/smartsearch/files/{fileType}',
      '/api/smartsearch/count',
      '/api/smartsearch/update',
      '/api/smartsearch/download_study_summarises',
      '/api/smartsearch/download_fragrances',
    ]) {
      expect(paths).toContain(path);
    }
    expect(JSON.stringify(doc.components.schemas.StudySearchQuery)).toContain('essentials');
  });
});
