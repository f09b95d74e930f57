import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fragrances, studies, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let clientClients: string[];

beforeAll(async () => {
  t = await createTestApp({
    seed: async (database) => {
      const [clientUser] = await database.db
        .select({ clients: users.clients })
        .from(users)
        .where(eq(users.email, 'client@accord.test'));
      clientClients = clientUser!.clients;
      const [first, second] = clientClients as [string, string];
      const rows = [
        { client: first, category: 'Fabric Care', region: ['South Asia'], year: 2015 },
        { client: first, category: 'Fabric Care', region: ['North Asia', 'Europe'], year: 2018 },
        { client: second, category: 'Hair Care', region: ['South East Asia'], year: 2020 },
        { client: 'Outsider Holdings', category: 'Home Care', region: ['Europe'], year: 2012 },
      ];
      let n = 0;
      for (const row of rows) {
        n += 1;
        const [study] = await database.db
          .insert(studies)
          .values({ projectName: `Fixture ${n}`, cMiNumber: `FX-${n}`, ...row })
          .returning({ id: studies.id });
        await database.db.insert(fragrances).values({
          studyId: study!.id,
          name: `Fragrance ${n}`,
          fragranceCode: `F${n}`,
          family: n % 2 ? 'Floral' : 'Woody',
        });
      }
    },
  });
});
afterAll(async () => {
  await t.close();
});

type Options = { value: string; count: number }[];
const optionsOf = (
  body: Record<string, { field: string; options: Options }[]>,
  group: string,
  field: string,
) => body[group]!.find((f) => f.field === field)!.options;
const countOf = (options: Options, value: string) => options.find((o) => o.value === value)?.count ?? 0;

describe('GET /api/smartsearch/fields', () => {
  it('answers grouped field definitions with counts from the data', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/api/smartsearch/fields',
      token: await t.login('researcher'),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['concept', 'demographics', 'fragrance', 'metadata', 'years']);
    expect(body.years).toEqual({ min: 2012, max: 2020 });
    const category = optionsOf(body, 'metadata', 'category');
    expect(countOf(category, 'Fabric Care')).toBe(2);
    expect(countOf(category, 'Home Care')).toBe(1);
    const region = optionsOf(body, 'metadata', 'region');
    expect(countOf(region, 'Europe')).toBe(2);
    // APAC counts its three sub-regions.
    expect(countOf(region, 'APAC')).toBe(
      countOf(region, 'South Asia') + countOf(region, 'South East Asia') + countOf(region, 'North Asia'),
    );
    expect(countOf(region, 'APAC')).toBe(3);
    const family = optionsOf(body, 'fragrance', 'family');
    expect(countOf(family, 'Floral')).toBe(2);
    const metadataFields = body.metadata.map((f: { field: string }) => f.field);
    for (const field of [
      'client',
      'product_area',
      'category',
      'product_type',
      'region',
      'country',
      'research_type',
      'cmi_tool_type',
      'design_method',
      'methodology',
    ]) {
      expect(metadataFields).toContain(field);
    }
  });

  it('counts only the studies of their clients for a client user', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/api/smartsearch/fields',
      token: await t.login('client'),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const clients = optionsOf(body, 'metadata', 'client').map((o: { value: string }) => o.value);
    expect(clients.sort()).toEqual([...clientClients].sort());
    expect(response.body).not.toContain('Outsider Holdings');
    expect(countOf(optionsOf(body, 'metadata', 'category'), 'Home Care')).toBe(0);
    expect(body.years).toEqual({ min: 2015, max: 2020 });
  });

  it('counts a new study at once (cached counts follow the data)', async () => {
    const token = await t.login('researcher');
    const before = (await t.request({ method: 'GET', url: '/api/smartsearch/fields', token })).json();
    await t.database.db.insert(studies).values({
      projectName: 'Fresh',
      cMiNumber: 'FX-NEW',
      client: 'Outsider Holdings',
      category: 'Home Care',
      year: 2021,
    });
    const after = (await t.request({ method: 'GET', url: '/api/smartsearch/fields', token })).json();
    expect(countOf(optionsOf(after, 'metadata', 'category'), 'Home Care')).toBe(
      countOf(optionsOf(before, 'metadata', 'category'), 'Home Care') + 1,
    );
    expect(after.years.max).toBe(2021);
  });

  it('answers 401 without sign-in', async () => {
    expect((await t.request({ method: 'GET', url: '/api/smartsearch/fields' })).statusCode).toBe(401);
  });
});

describe('GET /api/docs', () => {
  it('serves the OpenAPI document generated from the schemas', async () => {
    const response = await t.request({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/auth/login',
      '/api/users/',
      '/api/users/{id}/',
      '/api/smartsearch/fields',
      '/api/help-url',
      '/api/users/{userId}/searches/',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(Object.keys(doc.paths)).not.toContain('/api/test/age-user');
  });

  it('is a valid OpenAPI 3.1 document: 3.1 schemas only, every reference resolved, an operationId each', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const text = JSON.stringify(doc);
    // OpenAPI 3.0's nullable has no place in 3.1, which writes type: [..., 'null'].
    expect(text).not.toContain('"nullable"');
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]);
    expect(refs.length).toBeGreaterThan(0);
    const missing = [...new Set(refs)].filter((name) => !(name! in doc.components.schemas));
    expect(missing).toEqual([]);
    const operations = Object.entries(
      doc.paths as Record<string, Record<string, { operationId?: string }>>,
    ).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
        .map(([method, operation]) => ({ at: `${method} ${path}`, id: operation.operationId })),
    );
    expect(operations.filter((operation) => !operation.id).map((operation) => operation.at)).toEqual([]);
    const ids = operations.map((operation) => operation.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.find((operation) => operation.at === 'get /api/users/{userId}/searches/')?.id).toBe(
      'getUsersByUserIdSearches',
    );
  });
});
