// Study statistics read the design from the study's answers: an incomplete block study of the demo
// library gets the intra-block analysis and a design line; unpaired tests on a complete block warn;
// the filter card's products call says the design and leaves a fragrance test's concepts out.
import type { StatisticsResults, StatisticsStudyProducts } from '@accord/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, studies } from '../../db/schema.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};
let incomplete = 0;
let complete = 0;

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-statistics-design-',
    {
      studies: 4,
      seed: 3,
      lastYear: 2024,
      products: 6,
      respondents: 36,
      questions: 12,
    },
    tokens,
  );
  const rows = await t.database.db
    .select({ id: studies.id, design: studies.designMethod, rdfType: studies.rdfType })
    .from(studies)
    .orderBy(studies.id);
  incomplete = rows.find((row) => row.design === 'Balanced Incomplete Block Design')?.id ?? 0;
  complete =
    rows.find((row) => row.design === 'Balance Complete Block Design' && row.rdfType !== 'eeg')?.id ?? 0;
});
afterAll(async () => {
  await t.close();
});

const token = (role: DemoRole): string => tokens[role] ?? '';

async function mainQuestion(studyId: number): Promise<string> {
  const metrics = (
    await t.request({ method: 'GET', url: `/api/study/metrics/${studyId}`, token: token('admin') })
  ).json();
  return metrics.metrics.find((metric: { metric_type: string }) => metric.metric_type === 'Performance')
    .value;
}

const query = (main: string, extra: Record<string, unknown> = {}) => ({
  query: {
    product_order: 'Unspecified Product Order',
    main_question_column: main,
    test_types: ['two_95', 'two_90'],
    parametric: true,
    charts: false,
    replace_product_codes: true,
    ...extra,
  },
});

describe('study statistics read the design from the answers', () => {
  it('the demo library holds an incomplete block study and a complete block study', () => {
    expect(incomplete).toBeGreaterThan(0);
    expect(complete).toBeGreaterThan(0);
  });

  it('GET /api/statistics/:id/products/: the design found and the products of the test, concepts left out', async () => {
    expect(
      (await t.request({ method: 'GET', url: `/api/statistics/${incomplete}/products/` })).statusCode,
    ).toBe(401);
    const response = await t.request({
      method: 'GET',
      url: `/api/statistics/${incomplete}/products/`,
      token: token('researcher'),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<StatisticsStudyProducts>();
    expect(body.design.design).toMatch(/^(balanced_)?incomplete_block$/);
    expect(body.design.paired).toBe(true);
    expect(body.design.text).toMatch(/^Design found: (balanced )?incomplete block/);
    const kinds = await t.database.db
      .select({ code: products.code, kind: products.kind })
      .from(products)
      .where(eq(products.studyId, incomplete));
    const concepts = kinds.filter((row) => row.kind === 'concept').map((row) => row.code);
    expect(body.products.every((product) => product.kind === 'fragrance')).toBe(true);
    expect(body.products.some((product) => concepts.includes(product.code))).toBe(false);
    expect(body.design.products).toBe(body.products.length);
  });

  it('POST /api/statistics/:id/: an incomplete block study gets the intra-block analysis and a design line', async () => {
    const main = await mainQuestion(incomplete);
    expect(
      (await t.request({ method: 'POST', url: `/api/statistics/${incomplete}/`, payload: query(main) }))
        .statusCode,
    ).toBe(401);
    const bad = await t.request({
      method: 'POST',
      url: `/api/statistics/${incomplete}/`,
      token: token('researcher'),
      payload: query(main, { multiple_comparisons: 'everything' }),
    });
    expect(bad.statusCode).toBe(400);
    const response = await t.request({
      method: 'POST',
      url: `/api/statistics/${incomplete}/`,
      token: token('researcher'),
      payload: query(main),
    });
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json<StatisticsResults>();
    // Paired and Tukey HSD from the design and the tests, with no choice sent.
    expect(results.design.paired).toBe(true);
    expect(results.design.multiple_comparisons).toBe('tukey_hsd');
    expect(results.design.found).toMatch(
      /^Design found: (balanced )?incomplete block .*; 36 respondents, \d products\.$/,
    );
    expect(results.design.analysis.join(' ')).toMatch(/intra-block analysis of incomplete blocks/);
    expect(results.design.warnings).toEqual([]);
    expect(results.legend).toContain(results.design.found);
    const mainRows = results.summary.data.filter((row) => String(row[0]).startsWith(`${main}:`));
    const adjusted = mainRows.find((row) => row[1] === 'Adjusted mean');
    expect(adjusted?.slice(2).every((value) => typeof value === 'number')).toBe(true);
    const omnibus = String(mainRows.find((row) => row[1] === 'Omnibus test')?.[2]);
    expect(omnibus).toMatch(/^Intra-block ANOVA \(products adjusted for respondents\): F = /);
    // Never "not defined" for questions that have answers; no concept among the product columns.
    expect(results.summary.data.some((row) => /not defined/.test(String(row[2])))).toBe(false);
    const concepts = (
      await t.database.db
        .select({ code: products.code, kind: products.kind })
        .from(products)
        .where(eq(products.studyId, incomplete))
    )
      .filter((row) => row.kind === 'concept')
      .map((row) => row.code);
    expect(results.product_codes.some((code) => concepts.includes(code))).toBe(false);
  });

  it('POST /api/statistics/:id/: unpaired tests on a complete block carry a warning naming the design', async () => {
    const main = await mainQuestion(complete);
    const response = await t.request({
      method: 'POST',
      url: `/api/statistics/${complete}/`,
      token: token('admin'),
      payload: query(main, { paired: false }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json<StatisticsResults>();
    expect(results.design.found).toMatch(
      /^Design found: complete block \(every respondent rated every product\); 36 respondents/,
    );
    expect(results.design.paired).toBe(false);
    expect(results.design.warnings).toEqual([
      "Warning: unpaired tests were chosen, but the design found is complete block (every respondent rated every product): the tests treat each respondent's answers to different products as independent, which they are not. Choose paired tests.",
    ]);
    expect(results.legend).toContain(results.design.warnings[0]);
    // Left to the design, the same study is analysed paired, without a warning.
    const paired = await t.request({
      method: 'POST',
      url: `/api/statistics/${complete}/`,
      token: token('admin'),
      payload: query(main),
    });
    expect(paired.json<StatisticsResults>().design).toMatchObject({ paired: true, warnings: [] });
  });

  it('a client user sees only the studies of their clients', async () => {
    await t.database.db.update(studies).set({ client: 'Outsider Holdings' }).where(eq(studies.id, complete));
    const main = await mainQuestion(complete);
    const refused = await t.request({
      method: 'POST',
      url: `/api/statistics/${complete}/`,
      token: token('client'),
      payload: query(main),
    });
    expect(refused.statusCode).toBe(404);
    expect(errorBody(refused).message).toBe(`Study ${complete} does not exist.`);
    const hidden = await t.request({
      method: 'GET',
      url: `/api/statistics/${complete}/products/`,
      token: token('client'),
    });
    expect(hidden.statusCode).toBe(404);
  });
});
