/**
 * GET /api/smartsearch/count: what the library holds for the caller. Client and sales users see only
 * verified studies of their clients (as their search and a study's page show), so a study of their
 * client that is not verified yet is not counted for them.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studies } from '../../db/schema.ts';
import { createTestApp, type DemoRole, type TestApp } from '../../testing/test-app.ts';
import { seedSearchFixtures, type FixtureIds } from './search-fixtures.ts';

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

const counts = async (role: DemoRole) =>
  (await t.request({ method: 'GET', url: '/api/smartsearch/count', token: tokens[role] })).json();

describe('GET /api/smartsearch/count', () => {
  it("leaves a client's study that is not verified out of the client and sales users' counts", async () => {
    // s1 (Northwind, two fragrances, one concept) is seen by both the client and the sales user.
    await t.database.db.update(studies).set({ verified: false }).where(eq(studies.id, ids.s1));

    expect(await counts('client')).toEqual({ studies: 3, fragrances: 4, concepts: 1 });
    expect(await counts('sales')).toEqual({ studies: 2, fragrances: 3, concepts: 1 });
    // Admins see every study, verified or not.
    expect(await counts('admin')).toEqual({ studies: 6, fragrances: 8, concepts: 3 });
  });

  it('answers 401 without sign-in', async () => {
    expect((await t.request({ method: 'GET', url: '/api/smartsearch/count' })).statusCode).toBe(401);
  });
});
