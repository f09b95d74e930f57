// The study planner through the running app on a generated library: sign-in, roles and bad input;
// the base's standard deviation, share and correlation recomputed here from the raw answers; the
// consumers needed checked against statsmodels' power formulas written out in this file; a base too
// small for a trustworthy estimate; the plan's workbook.
import ExcelJS from 'exceljs';
import { NORM_RULE, PLANNER_MESSAGES, type PlanResponse } from '@accord/contracts';
import { chiSquareCdf, normalCdf, normalQuantile, studentTQuantile } from '@accord/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryTestApp, likingCategories, queryString, sqlRows } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-planner-',
    { studies: 36, seed: 18, respondents: 30, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

const query = <T>(text: string, values: unknown[] = []) => sqlRows(t)<T>(text, values);

const get = (url: string, role: DemoRole | null = 'researcher') =>
  t.request({ method: 'GET', url, ...(role ? { token: tokens[role] } : {}) });
const qs = queryString;

const categories = () => likingCategories(t);

interface Answer {
  study_id: number;
  product_id: number;
  respondent_id: number;
  value: number;
}

/** The liking answers of the category's verified studies' fragrances, inside the 5-point scale. */
async function rawAnswers(category: string): Promise<Answer[]> {
  return query<Answer>(
    `select a.study_id, a.product_id, a.respondent_id, a.value
       from answers a join products p on p.id = a.product_id join studies s on s.id = p.study_id
       join metrics m on m.id = a.metric_id
      where s.verified and p.kind = 'fragrance' and m.name = 'liking' and s.category = $1
        and a.value between 1 - 1e-9 and 5 + 1e-9`,
    [category],
  );
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

const average = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function pearson(x: readonly number[], y: readonly number[]): number {
  const mx = average(x);
  const my = average(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  x.forEach((value, i) => {
    sxy += (value - mx) * (y[i]! - my);
    sxx += (value - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
}

/** The estimates recomputed from the raw answers, as docs/statistics.md defines them. */
function recompute(answers: readonly Answer[]) {
  // Standard deviation pooled within products: Σ(x − x̄ₚ)² / Σ(nₚ − 1).
  let squares = 0;
  let freedom = 0;
  let hits = 0;
  for (const rows of groupBy(answers, (row) => row.product_id).values()) {
    const values = rows.map((row) => row.value);
    const m = average(values);
    squares += values.reduce((sum, value) => sum + (value - m) ** 2, 0);
    freedom += values.length - 1;
    hits += values.filter((value) => value >= 3.5 - 1e-9).length;
  }
  // Correlation: complete-block studies, every pair of products, Fisher z weighted by n − 3.
  let weighted = 0;
  let weights = 0;
  const complete = new Set<number>();
  for (const [studyId, rows] of groupBy(answers, (row) => row.study_id)) {
    // One value per product and respondent (the mean of several questions of the metric).
    const cells = new Map<string, number[]>();
    for (const row of rows) {
      const key = `${row.product_id}:${row.respondent_id}`;
      cells.set(key, [...(cells.get(key) ?? []), row.value]);
    }
    const products = [...new Set(rows.map((row) => row.product_id))].sort((a, b) => a - b);
    const respondents = [...new Set(rows.map((row) => row.respondent_id))];
    if (products.length < 2) continue;
    const isComplete = respondents.every((r) => products.every((p) => cells.has(`${p}:${r}`)));
    if (!isComplete) continue;
    complete.add(studyId);
    for (let i = 0; i < products.length; i += 1) {
      for (let j = i + 1; j < products.length; j += 1) {
        const x = respondents.map((r) => average(cells.get(`${products[i]}:${r}`)!));
        const y = respondents.map((r) => average(cells.get(`${products[j]}:${r}`)!));
        const r = pearson(x, y);
        if (!Number.isFinite(r) || respondents.length <= 3) continue;
        weighted += (respondents.length - 3) * Math.atanh(r);
        weights += respondents.length - 3;
      }
    }
  }
  return {
    sd: Math.sqrt(squares / freedom),
    share: hits / answers.length,
    correlation: Math.tanh(weighted / weights),
    completeStudies: complete.size,
  };
}

/**
 * statsmodels' ttest_power written out: two-sided power of a t test with df degrees of freedom and
 * noncentrality nc, 1 − F(t₁₋α/₂) + F(tα/₂) under the noncentral t, with F(t) = E[Φ(t·√(V/df) − nc)]
 * for V chi-square with df degrees of freedom, summed here over 40,000 slices of V's distribution.
 */
function tPowerWrittenOut(nc: number, df: number, alpha: number): number {
  const cdf = (t: number) => {
    const top = df + 60 * Math.sqrt(2 * df) + 60;
    const slices = 40_000;
    let total = 0;
    let previous = 0;
    for (let i = 1; i <= slices; i += 1) {
      const v = (top * i) / slices;
      const mass = chiSquareCdf(v, df);
      const middle = (top * (i - 0.5)) / slices;
      total += (mass - previous) * normalCdf(t * Math.sqrt(middle / df) - nc);
      previous = mass;
    }
    return total;
  };
  const critical = studentTQuantile(1 - alpha / 2, df);
  return 1 - cdf(critical) + cdf(-critical);
}

async function planOf(params: Record<string, string | number | undefined>, role: DemoRole = 'researcher') {
  const response = await get(`/api/plan?${qs(params)}`, role);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PlanResponse>();
}

describe('planner: sign-in, roles and bad input', () => {
  const url = '/api/plan?category=Fabric%20Care&metric=liking&aggregation=mean&difference=0.3';

  it('needs a signed-in user (401)', async () => {
    expect((await get(url, null)).statusCode).toBe(401);
    expect((await get(url.replace('/plan?', '/plan/xlsx?'), null)).statusCode).toBe(401);
  });

  it('is for researchers and admins: client and sales users get 403', async () => {
    for (const role of ['client', 'sales'] as const) {
      expect((await get(url, role)).statusCode, role).toBe(403);
      expect((await get(url.replace('/plan?', '/plan/xlsx?'), role)).statusCode, role).toBe(403);
    }
    expect((await get(url, 'admin')).statusCode).toBe(200);
  });

  it('refuses missing or impossible choices (400)', async () => {
    const base = { category: 'Fabric Care', metric: 'liking', aggregation: 'mean', difference: 0.3 };
    const cases: [Record<string, string | number | undefined>, string][] = [
      [{ ...base, category: undefined }, 'category'],
      [{ ...base, difference: undefined }, 'difference'],
      [{ ...base, difference: 0 }, 'difference'],
      [{ ...base, difference: 5 }, PLANNER_MESSAGES.differenceTooLarge],
      [{ ...base, aggregation: 'variance' }, PLANNER_MESSAGES.varianceNotPlanned],
      [{ ...base, products: 1 }, 'products'],
      [{ ...base, alpha: 0.5 }, 'alpha'],
      [{ ...base, power: 1 }, 'power'],
      [{ ...base, design: 'crossover' }, 'design'],
      [{ ...base, correction: 'holm' }, 'correction'],
      [{ ...base, metric: 'no_such_metric' }, 'Unknown metric "no_such_metric".'],
    ];
    for (const [params, expected] of cases) {
      const response = await get(`/api/plan?${qs(params)}`);
      expect(response.statusCode, JSON.stringify(params)).toBe(400);
      expect(JSON.stringify(errorBody(response)), JSON.stringify(params)).toContain(
        JSON.stringify(expected).slice(1, -1),
      );
    }
  });
});

describe('planner: the numbers', () => {
  it('estimates the standard deviation, share and correlation as recomputed from the raw answers', async () => {
    const all = await categories();
    const big = all.find((row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients)!;
    const expected = recompute(await rawAnswers(big.category));
    expect(expected.completeStudies).toBeGreaterThan(0);
    const mean = await planOf({
      category: big.category,
      metric: 'liking',
      aggregation: 'mean',
      difference: 0.3,
      design: 'sequential_monadic',
    });
    expect(mean.status).toBe('available');
    expect(mean.estimates!.sd).toBeCloseTo(expected.sd, 9);
    expect(mean.estimates!.correlation).toBeCloseTo(expected.correlation, 9);
    expect(mean.estimates!.correlation_studies).toBe(expected.completeStudies);
    const share = await planOf({
      category: big.category,
      metric: 'liking',
      aggregation: 'top_2_box',
      difference: 10,
    });
    expect(share.estimates!.share).toBeCloseTo(expected.share, 9);
  });

  it("needs the consumers statsmodels' power formulas give, monadic and sequential monadic", async () => {
    const big = (await categories()).find(
      (row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients,
    )!;
    const { sd, correlation } = recompute(await rawAnswers(big.category));
    const common = { category: big.category, metric: 'liking', aggregation: 'mean', difference: 0.3 };

    // Monadic, 3 products, no correction: TTestIndPower, df = 2n − 2, nc = d·√(n/2), d = 0.3 / sd.
    const monadic = await planOf({ ...common, design: 'monadic', products: 3 });
    const d = 0.3 / sd;
    const plan = monadic.plan!;
    expect(plan.effect_size).toBeCloseTo(d, 9);
    expect(tPowerWrittenOut(d * Math.sqrt(plan.n / 2), 2 * plan.n - 2, 0.05)).toBeCloseTo(0.8, 6);
    expect(plan.per_product).toBe(Math.ceil(plan.n));
    expect(plan.total).toBe(Math.ceil(plan.n) * 3);
    expect(plan.comparisons).toBe(3);

    // Sequential monadic, 4 products, Bonferroni over 6 pairs: TTestPower, df = n − 1, nc = d·√n,
    // d = 0.3 / (sd·√(2(1 − ρ))), alpha 0.05 / 6.
    const sequential = await planOf({
      ...common,
      design: 'sequential_monadic',
      products: 4,
      correction: 'bonferroni',
      power: 0.9,
    });
    const paired = sequential.plan!;
    const dp = 0.3 / (sd * Math.sqrt(2 * (1 - correlation)));
    expect(paired.effect_size).toBeCloseTo(dp, 9);
    expect(paired.alpha_per_comparison).toBeCloseTo(0.05 / 6, 15);
    expect(tPowerWrittenOut(dp * Math.sqrt(paired.n), paired.n - 1, 0.05 / 6)).toBeCloseTo(0.9, 6);
    expect(paired.per_product).toBeNull();
    expect(paired.total).toBe(Math.ceil(paired.n));
    expect(paired.words).toContain('Bonferroni across 6 pairs');
    // Pairing with a positive correlation needs fewer consumers in all than 4 monadic cells.
    expect(sequential.curve.length).toBeGreaterThan(10);
    const differences = sequential.curve.map((point) => point.difference);
    expect([...differences].sort((a, b) => b - a)).toEqual(differences);

    // The action standard: one-sample t test against the base's P75, TTestPower with d = 0.3 / sd.
    const standard = monadic.action_standard!;
    expect(standard.plan.effect_size).toBeCloseTo(d, 9);
    expect(tPowerWrittenOut(d * Math.sqrt(standard.plan.n), standard.plan.n - 1, 0.05)).toBeCloseTo(0.8, 6);
    expect(standard.plan.words).toContain("beats the category's top quartile");
  });

  it('sizes a box share with the normal test on Cohen h', async () => {
    const big = (await categories()).find(
      (row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients,
    )!;
    const { share } = recompute(await rawAnswers(big.category));
    const plan = (
      await planOf({ category: big.category, metric: 'liking', aggregation: 'top_2_box', difference: 10 })
    ).plan!;
    const h = 2 * Math.asin(Math.sqrt(Math.min(1, share + 0.1))) - 2 * Math.asin(Math.sqrt(share));
    expect(plan.effect_size).toBeCloseTo(h, 9);
    // NormalIndPower: Φ(|h|·√(n/2) − z₀.₉₇₅) + Φ(−|h|·√(n/2) − z₀.₉₇₅) = 0.8.
    const z = normalQuantile(0.975);
    const reached = normalCdf(h * Math.sqrt(plan.n / 2) - z) + normalCdf(-h * Math.sqrt(plan.n / 2) - z);
    expect(reached).toBeCloseTo(0.8, 9);
    expect(plan.per_product).toBe(Math.ceil(plan.n));
    // A share and a difference that pass 100 %: no plan, said so.
    const beyond = await planOf({
      category: big.category,
      metric: 'liking',
      aggregation: 'top_2_box',
      difference: 99,
    });
    expect(beyond.status).toBe('available');
    expect(beyond.plan).toBeNull();
    expect(beyond.plan_reason).toBe(PLANNER_MESSAGES.beyondScale);
    expect(beyond.action_standard).toBeNull();
  });

  it('says a base is too small for a trustworthy estimate, with no plan', async () => {
    const small = (await categories()).find(
      (row) => row.studies < NORM_RULE.studies || row.clients < NORM_RULE.clients,
    );
    expect(small).toBeDefined();
    const plan = await planOf({
      category: small!.category,
      metric: 'liking',
      aggregation: 'mean',
      difference: 0.3,
    });
    expect(plan.status).toBe('withheld');
    expect(plan.reason).toBe(PLANNER_MESSAGES.tooSmall);
    expect(plan.plan).toBeNull();
    expect(plan.estimates).toBeNull();
    const file = await get(
      `/api/plan/xlsx?${qs({ category: small!.category, metric: 'liking', aggregation: 'mean', difference: 0.3 })}`,
    );
    expect(file.statusCode).toBe(404);
    expect(errorBody(file).message).toBe(PLANNER_MESSAGES.tooSmall);
  });

  it('writes the plan as a workbook with the same numbers', async () => {
    const big = (await categories()).find(
      (row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients,
    )!;
    const params = {
      category: big.category,
      metric: 'liking',
      aggregation: 'mean',
      difference: 0.3,
      design: 'sequential_monadic',
      products: 4,
    };
    const plan = await planOf(params);
    const file = await get(`/api/plan/xlsx?${qs(params)}`);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-disposition']).toContain('study-plan.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const cells = new Map<string, unknown>();
    workbook.worksheets[0]!.eachRow((row) => {
      const label = row.getCell(1).value;
      if (typeof label === 'string' && !cells.has(label)) cells.set(label, row.getCell(2).value);
    });
    expect(JSON.stringify([...cells.keys()])).toContain(plan.base.description);
    expect(cells.get('Consumers in all')).toBe(plan.plan!.total);
    expect(cells.get('Standard deviation of one answer (pooled within products)')).toBeCloseTo(
      plan.estimates!.sd!,
      12,
    );
  });
});

describe('planner: kept while the data is unchanged', () => {
  it('answers a repeated plan from its cache and refreshes after a change of the data', async () => {
    const all = await categories();
    const big = all.find((row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients)!;
    const params = {
      category: big.category,
      metric: 'liking',
      aggregation: 'mean',
      difference: 0.3,
      design: 'sequential_monadic',
    };
    const first = await planOf(params);
    // Reverse the liking answers of one product of a complete-block study: its pairs' correlations
    // change sign. Answers carry no change counter, so the cached plan stays as it was.
    const [product] = await query<{ id: number; study_id: number }>(
      `select a.product_id as id, min(a.study_id) as study_id from answers a
         join studies s on s.id = a.study_id join metrics m on m.id = a.metric_id
        where s.verified and s.category = $1 and m.name = 'liking'
        group by a.product_id order by a.product_id limit 1`,
      [big.category],
    );
    const flip = `update answers set value = 6 - value
       where product_id = $1 and metric_id = (select id from metrics where name = 'liking')
         and value between 1 and 5`;
    const bump = `update studies set project_name = project_name where id = $1`;
    await query(flip, [product!.id]);
    try {
      const expected = recompute(await rawAnswers(big.category));
      expect(Math.abs(expected.correlation - first.estimates!.correlation!)).toBeGreaterThan(1e-4);
      expect(await planOf(params)).toEqual(first);

      // A write that raises a change counter (as every upload and edit does) refreshes it.
      await query(bump, [product!.study_id]);
      const refreshed = await planOf(params);
      expect(refreshed.estimates!.correlation).toBeCloseTo(expected.correlation, 9);
      expect(refreshed.estimates!.correlation).not.toBeCloseTo(first.estimates!.correlation!, 4);
    } finally {
      await query(flip, [product!.id]);
      await query(bump, [product!.study_id]);
    }
    expect((await planOf(params)).estimates!.correlation).toBeCloseTo(first.estimates!.correlation!, 12);
  });
});
