// The significance of "Calculate" (METRICS.md section 2) through the running app on a generated
// library: each mark recomputed from the raw answers read in the test (harmonised from raw values and
// question scales) with the respondent-clustered tests of the statistics package, the
// Benjamini-Hochberg adjustment across the whole call, and no mark under 30 answers.
import {
  LOW_BASE,
  SIGNIFICANCE_NOT_TESTED,
  type SignificanceRequest,
  type SignificanceStatus,
} from '@accord/contracts';
import {
  benjaminiHochbergAdjust,
  classifySignificance,
  clusterContrastAvg,
  clusterTwoSample,
  compareSelectionVsRest,
  harmoniseToFivePoint,
} from '@accord/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-significance-',
    { studies: 8, seed: 23, respondents: 60, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

const post = (url: string, payload: unknown, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'POST', url, payload, token: role ? tokens[role] : undefined });
const get = (url: string, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'GET', url, token: role ? tokens[role] : undefined });

async function significance(body: SignificanceRequest): Promise<NonNullable<SignificanceStatus['result']>> {
  const queued = await post('/api/analytics/significance', body);
  expect(queued.statusCode, queued.body).toBe(200);
  const { job_id } = queued.json<{ job_id: string }>();
  const status = await get(`/api/analytics/significance/${job_id}`);
  expect(status.statusCode).toBe(200);
  const parsed = status.json<SignificanceStatus>();
  expect(parsed.status, parsed.error ?? '').toBe('SUCCESS');
  return parsed.result!;
}

interface Answer {
  product: number;
  respondent: number;
  value: number;
}

/** The harmonised liking answers of the products, in scale, recomputed from raw values and scales. */
async function likingAnswers(productIds: readonly number[], where = 'true'): Promise<Answer[]> {
  const rows = await query<{
    product_id: number;
    respondent_id: number;
    raw_value: number;
    scale_min: number;
    scale_max: number;
  }>(
    `select a.product_id, a.respondent_id, a.raw_value, q.scale_min, q.scale_max from answers a
      join questions q on q.id = a.question_id join metrics m on m.id = q.metric_id
      join respondents r on r.id = a.respondent_id
      where a.product_id = any($1::int[]) and m.name = 'liking' and (${where})`,
    [`{${productIds.join(',')}}`],
  );
  return rows
    .map((row) => ({
      product: Number(row.product_id),
      respondent: Number(row.respondent_id),
      value: harmoniseToFivePoint(Number(row.raw_value), row.scale_min, row.scale_max),
    }))
    .filter((answer) => answer.value >= 1 - 1e-9 && answer.value <= 5 + 1e-9);
}

/** Fragrance products of verified studies with liking answers, by study, the largest studies first. */
async function studiesWithProducts(): Promise<{ study: number; products: number[] }[]> {
  const rows = await query<{ study_id: number; ids: number[] }>(
    `select p.study_id, array_agg(distinct p.id order by p.id) as ids
       from products p join studies s on s.id = p.study_id
      where s.verified and p.kind = 'fragrance'
        and exists (select 1 from answers a join metrics m on m.id = a.metric_id
                     where a.product_id = p.id and m.name = 'liking')
      group by p.study_id having count(distinct p.id) >= 3
      order by count(distinct p.id) desc, p.study_id`,
  );
  return rows.map((row) => ({ study: Number(row.study_id), products: row.ids.map(Number) }));
}

const isT2b = (value: number) => (value >= 3.5 - 1e-9 ? 1 : 0);

/** Relative closeness within 1e-9 × max(1, |expected|). */
function expectClose(actual: number | null | undefined, expected: number, label: string): void {
  expect(actual, label).not.toBeNull();
  expect(Math.abs(actual! - expected), `${label}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
    1e-9 * Math.max(1, Math.abs(expected)),
  );
}

/** Each product's clustered test on the answers, for one outcome (harmonised value or T2B). */
function clusteredTests(
  answers: readonly Answer[],
  productIds: readonly number[],
  calculation: 'rest' | 'avg',
  outcome: (value: number) => number,
): { n: number; pValue: number; difference: number }[] {
  const values = answers.map((answer) => outcome(answer.value));
  const clusters = answers.map((answer) => answer.respondent);
  if (calculation === 'rest') {
    return productIds.map((id) => {
      const result = clusterTwoSample(
        values,
        answers.map((answer) => (answer.product === id ? 1 : 0)),
        clusters,
      );
      const n = answers.filter((answer) => answer.product === id).length;
      return { n, pValue: result.pValue, difference: result.difference };
    });
  }
  const contrast = clusterContrastAvg(
    values,
    answers.map((answer) => String(answer.product)),
    clusters,
  );
  return productIds.map((id) => {
    const at = contrast.products.indexOf(String(id));
    const n = answers.filter((answer) => answer.product === id).length;
    return { n, pValue: contrast.pValue[at]!, difference: contrast.difference[at]! };
  });
}

const LIKING_METRICS = [
  { field: 'liking', aggregation: 'mean', confidence: true },
  { field: 'liking', aggregation: 'top_2_box', confidence: true },
] as const;

describe('POST /api/analytics/significance, clustered by respondent', () => {
  it('needs a signed-in analytics user and a known correction', async () => {
    const [first] = await studiesWithProducts();
    const body = {
      data: first!.products.slice(0, 2).map((id) => ({ id })),
      calculation: 'rest',
      metrics: [...LIKING_METRICS],
    };
    expect((await post('/api/analytics/significance', body, null)).statusCode).toBe(401);
    // Client and sales users see no analytics at all (their clients' studies or any other).
    expect((await post('/api/analytics/significance', body, 'client')).statusCode).toBe(403);
    expect((await post('/api/analytics/significance', body, 'sales')).statusCode).toBe(403);
    const bad = await post('/api/analytics/significance', { ...body, correction: 'bonferroni' });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toContain('correction');
    const result = await significance({ ...body, correction: 'none' } as SignificanceRequest);
    expect(result.correction).toBe('none');
    expect(result.results.map((row) => row.id)).toEqual(first!.products.slice(0, 2));
  });

  it('marks a one-study list as the clustered tests on its raw answers, adjusted by Benjamini-Hochberg across the call', async () => {
    const { products } = (await studiesWithProducts())[0]!;
    const list = products.slice(0, 6);
    const answers = await likingAnswers(list);
    // Products of one study share their respondents: the case the clustered tests are for.
    const respondentsOf = (id: number) =>
      new Set(answers.filter((answer) => answer.product === id).map((answer) => answer.respondent));
    const shared = [...respondentsOf(list[0]!)].filter((r) => respondentsOf(list[1]!).has(r));
    expect(shared.length).toBeGreaterThan(10);
    for (const calculation of ['rest', 'avg'] as const) {
      const result = await significance({
        data: list.map((id) => ({ id })),
        calculation,
        metrics: [...LIKING_METRICS],
      });
      expect(result).toMatchObject({ calculation, correction: 'benjamini_hochberg' });
      const expected = {
        'liking.mean.confidence': clusteredTests(answers, list, calculation, (value) => value),
        'liking.top_2_box.confidence': clusteredTests(answers, list, calculation, isT2b),
      };
      // The family: every product × metric with a p-value, in the answer's order.
      const family: { key: keyof typeof expected; at: number }[] = [];
      for (const key of Object.keys(expected) as (keyof typeof expected)[])
        list.forEach((_, at) => {
          if (expected[key][at]!.n >= LOW_BASE) family.push({ key, at });
        });
      expect(family.length).toBeGreaterThan(4);
      const adjusted = benjaminiHochbergAdjust(family.map(({ key, at }) => expected[key][at]!.pValue));
      family.forEach(({ key, at }, index) => {
        const mark = result.results[at]![key]!;
        const test = expected[key][at]!;
        expect(mark).toMatchObject({
          n: test.n,
          correction: 'benjamini_hochberg',
          not_tested: null,
          test: calculation === 'rest' ? 'cluster-two-sample' : 'cluster-contrast-avg',
        });
        expectClose(mark.p_value, test.pValue, `${calculation} ${key} p`);
        expectClose(mark.adjusted_p_value, adjusted[index]!, `${calculation} ${key} adjusted p`);
        const significance = classifySignificance(adjusted[index]!, test.difference);
        expect(mark.level).toBe(significance?.level ?? null);
        expect(mark.table).toBe(significance?.direction ?? null);
      });
      // The adjustment is BH of the call's raw p-values, as the answer itself carries them.
      const answered = family.map(({ key, at }) => result.results[at]![key]!);
      expect(benjaminiHochbergAdjust(answered.map((mark) => mark.p_value!))).toEqual(
        answered.map((mark) => mark.adjusted_p_value),
      );
    }
  });

  it('reads the levels from the raw p-values with no correction', async () => {
    const { products } = (await studiesWithProducts())[0]!;
    const list = products.slice(0, 6);
    const result = await significance({
      data: list.map((id) => ({ id })),
      calculation: 'rest',
      correction: 'none',
      metrics: [...LIKING_METRICS],
    });
    const marks = result.results.flatMap((row) =>
      LIKING_METRICS.map((entry) => row[`liking.${entry.aggregation}.confidence`]!),
    );
    const tested = marks.filter((mark) => mark.p_value !== null);
    expect(tested.length).toBeGreaterThan(0);
    for (const mark of tested) {
      expect(mark).toMatchObject({ correction: 'none', adjusted_p_value: mark.p_value });
      const level = [0.01, 0.05, 0.1].find((candidate) => mark.p_value! < candidate) ?? null;
      expect(mark.level).toBe(level);
    }
  });

  it('tests dependent answers where the independent test does not see the difference', async () => {
    // A constructed study pair: every respondent rates two products; the second reads one point
    // higher for two respondents in three. Respondents differ widely, so pooled answers hide the
    // within-respondent difference that the clustered test finds.
    const { products } = (await studiesWithProducts()).at(-1)!;
    const [first, second] = products as [number, number];
    const ranges = await query<{ scale_min: number; scale_max: number }>(
      `select distinct q.scale_min, q.scale_max from answers a join questions q on q.id = a.question_id
        join metrics m on m.id = q.metric_id where a.product_id = any($1::int[]) and m.name = 'liking'`,
      [`{${first},${second}}`],
    );
    expect(ranges).toHaveLength(1);
    const { scale_min: min, scale_max: max } = ranges[0]!;
    expect(max - min).toBeGreaterThanOrEqual(4);
    await query(
      `update answers a set raw_value = v.raw, value = 1 + 4 * (v.raw - $2::int) / ($3::int - $2::int)::float8
         from (select a2.question_id, a2.product_id, a2.respondent_id,
                 $2::int + (a2.respondent_id % ($3::int - $2::int))
                   + case when a2.product_id = $4::int and a2.respondent_id % 3 <> 0 then 1 else 0 end as raw
                 from answers a2 join metrics m on m.id = a2.metric_id
                where m.name = 'liking' and a2.product_id = any($1::int[])) v
        where a.question_id = v.question_id and a.product_id = v.product_id
          and a.respondent_id = v.respondent_id`,
      [`{${first},${second}}`, min, max, second],
    );
    // Answers are written with their products (a results file that becomes current replaces both in
    // one transaction), whose counter the respondents and answers held in memory follow.
    await query(`update products set study_id = study_id where id = any($1::int[])`, [
      `{${first},${second}}`,
    ]);
    const answers = await likingAnswers([first, second]);
    const result = await significance({
      data: [{ id: first }, { id: second }],
      calculation: 'rest',
      correction: 'none',
      metrics: [{ field: 'liking', aggregation: 'mean', confidence: true }],
    });
    const mark = result.results[1]!['liking.mean.confidence']!;
    const [, clustered] = clusteredTests(answers, [first, second], 'rest', (value) => value);
    expectClose(mark.p_value, clustered!.pValue, 'clustered p');
    const independent = compareSelectionVsRest({
      kind: 'mean',
      selection: answers.filter((answer) => answer.product === second).map((answer) => answer.value),
      rest: answers.filter((answer) => answer.product === first).map((answer) => answer.value),
    });
    expect(independent.pValue!).toBeGreaterThan(0.01);
    expect(mark).toMatchObject({ level: 0.01, table: 'mt' });
    expect(mark.p_value!).toBeLessThan(independent.pValue! / 100);
  });

  it('leaves products under 30 answers unmarked: "low base: not tested"', async () => {
    const { products } = (await studiesWithProducts())[0]!;
    const list = products.slice(0, 6);
    const demographics = { startAge: 18, endAge: 30 };
    const answers = await likingAnswers(list, 'r.age between 18 and 30');
    const result = await significance({
      data: list.map((id) => ({ id })),
      calculation: 'avg',
      metrics: [...LIKING_METRICS],
      demographics,
    });
    let low = 0;
    result.results.forEach((row, at) => {
      const n = answers.filter((answer) => answer.product === list[at]).length;
      for (const entry of LIKING_METRICS) {
        const mark = row[`liking.${entry.aggregation}.confidence`]!;
        expect(mark.n).toBe(n);
        if (n >= LOW_BASE) continue;
        low++;
        expect(mark).toMatchObject({
          level: null,
          table: null,
          p_value: null,
          adjusted_p_value: null,
          not_tested: SIGNIFICANCE_NOT_TESTED.lowBase,
        });
      }
    });
    expect(low).toBeGreaterThan(0);
  });
});
