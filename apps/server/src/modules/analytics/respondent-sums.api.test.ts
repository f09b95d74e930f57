// Each respondent's sums for Calculate, held in memory per metric (respondent-sums.ts), against the
// grouped read of the answers they replace: the same cells without a filter, under gender and age
// filters and under others (ethnicity), the same marks through the running app, and fresh sums
// after a mapping edit moves answers out of the metric.
import type { SignificanceRequest, SignificanceStatus } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import type { DemoRole, TestApp } from '../../testing/test-app.ts';
import { createFieldsRepository } from '../fields/fields.repository.ts';
import { createAnalyticsContext, type AnalyticsContext } from './analytics-context.ts';
import type { MetricRecord } from './analytics-types.ts';
import { createAnalyticsRepository, respondentConditions } from './analytics.repository.ts';
import type { RespondentCells } from './respondent-cells.ts';
import { significanceOf } from './significance-tests.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};
/** A context of its own over the app's database, as another process would hold. */
let context: AnalyticsContext;
let liking: MetricRecord;
let strength: MetricRecord;

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-respondent-sums-',
    { studies: 6, seed: 31, respondents: 70, lastYear: 2024 },
    tokens,
  );
  context = createAnalyticsContext({
    analytics: createAnalyticsRepository(t.database.db),
    fields: createFieldsRepository(t.database.db),
  });
  const metrics = await context.metricCatalogue();
  liking = metrics.find((metric) => metric.name === 'liking')!;
  strength = metrics.find((metric) => metric.name === 'strength')!;
});

afterAll(() => t?.close());

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

const request = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, role: DemoRole = 'admin') =>
  t.request({ method, url, payload, token: tokens[role] });

/** Fragrance products with liking answers, by study (at least three a study). */
async function studies(): Promise<{ study: number; products: number[] }[]> {
  const rows = await query<{ study_id: number; ids: number[] }>(
    `select p.study_id, array_agg(distinct p.id order by p.id) as ids
       from products p join studies s on s.id = p.study_id
      where s.verified and p.kind = 'fragrance'
        and exists (select 1 from answers a where a.product_id = p.id and a.metric_id = $1)
      group by p.study_id having count(distinct p.id) >= 3 order by p.study_id`,
    [liking.id],
  );
  return rows.map((row) => ({ study: Number(row.study_id), products: row.ids.map(Number) }));
}

type Demographics = Parameters<typeof respondentConditions>[0];

/** The sums held in memory, once the respondents are read (each call waits a moment for the read). */
async function fromMemory(productIds: number[], metrics: MetricRecord[], demographics: Demographics) {
  const conditions = respondentConditions(demographics, []);
  for (let attempt = 0; attempt < 100; attempt++) {
    const sums = await context.respondentSums(productIds, metrics, conditions, await context.fingerprint());
    if (sums) return sums;
  }
  throw new Error('The respondents were not read');
}

/** The grouped read of the answers. */
const fromAnswers = (productIds: number[], metrics: MetricRecord[], demographics: Demographics) =>
  context.analytics.respondentCells(
    productIds,
    metrics.map((metric) => metric.id),
    [],
    respondentConditions(demographics, []),
  );

/** The cells as rows in (product, respondent) order, to compare two reads. */
function rowsOf(cells: RespondentCells | undefined) {
  if (!cells) return [];
  return Array.from(cells.product, (product, at) => ({
    product,
    respondent: cells.respondent[at]!,
    n: cells.n[at]!,
    sum: cells.sum[at]!,
    sumSq: cells.sumSq[at]!,
    boxes: [
      cells.nTopBox[at]!,
      cells.nTop2Box[at]!,
      cells.nJustRight[at]!,
      cells.nBottom2Box[at]!,
      cells.nBottomBox[at]!,
    ],
  })).sort((a, b) => a.product - b.product || a.respondent - b.respondent);
}

function expectSameCells(
  memory: Map<number, RespondentCells>,
  answers: Map<number, RespondentCells>,
  metricId: number,
) {
  const kept = rowsOf(memory.get(metricId));
  const read = rowsOf(answers.get(metricId));
  expect(kept.length).toBe(read.length);
  kept.forEach((row, at) => {
    const other = read[at]!;
    expect({ ...row, sum: 0, sumSq: 0 }).toEqual({ ...other, sum: 0, sumSq: 0 });
    expect(Math.abs(row.sum - other.sum)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(other.sum)));
    expect(Math.abs(row.sumSq - other.sumSq)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(other.sumSq)));
  });
}

async function calculate(body: SignificanceRequest): Promise<NonNullable<SignificanceStatus['result']>> {
  const queued = await request('POST', '/api/analytics/significance', body, 'researcher');
  expect(queued.statusCode, queued.body).toBe(200);
  const { job_id } = queued.json<{ job_id: string }>();
  const status = (
    await request('GET', `/api/analytics/significance/${job_id}`, undefined, 'researcher')
  ).json<SignificanceStatus>();
  expect(status.status, status.error ?? '').toBe('SUCCESS');
  return status.result!;
}

const METRICS = [
  { field: 'liking', aggregation: 'mean', confidence: true },
  { field: 'liking', aggregation: 'top_2_box', confidence: true },
  { field: 'strength', aggregation: 'just_right', confidence: true },
] as const;

/** Calculate through the app equals the tests run on the grouped read of the answers. */
async function expectMarksOfAnswers(
  productIds: number[],
  demographics: Demographics,
  calculation: 'rest' | 'avg',
) {
  const result = await calculate({
    data: productIds.map((id) => ({ id })),
    calculation,
    metrics: [...METRICS],
    demographics,
  } as SignificanceRequest);
  const expected = significanceOf({
    calculation,
    correction: 'benjamini_hochberg',
    productIds,
    tests: METRICS.map((entry) => {
      const metric = entry.field === 'liking' ? liking : strength;
      return {
        key: `${entry.field}.${entry.aggregation}.confidence`,
        metricId: metric.id,
        kind: metric.kind,
        aggregation: entry.aggregation,
      };
    }),
    cells: await fromAnswers(productIds, [liking, strength], demographics),
  });
  expect(result.results.map((row) => row.id)).toEqual(productIds);
  let tested = 0;
  result.results.forEach((row, at) => {
    for (const entry of METRICS) {
      const key = `${entry.field}.${entry.aggregation}.confidence`;
      const mark = row[key]!;
      const want = expected.results[at]![key]!;
      expect({ ...mark, p_value: null, adjusted_p_value: null }).toEqual({
        ...want,
        p_value: null,
        adjusted_p_value: null,
      });
      if (want.p_value === null) {
        expect(mark.p_value).toBeNull();
        continue;
      }
      tested++;
      expect(Math.abs(mark.p_value! - want.p_value)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(mark.adjusted_p_value! - want.adjusted_p_value!)).toBeLessThanOrEqual(1e-12);
    }
  });
  return { result, tested };
}

describe('respondent sums held in memory for Calculate', () => {
  it('are the cells of the grouped read of the answers, without a filter and under gender and age', async () => {
    const list = (await studies()).flatMap((entry) => entry.products);
    expect(list.length).toBeGreaterThan(10);
    for (const demographics of [
      {},
      { gender: ['Female'] },
      { startAge: 25, endAge: 40 },
      { gender: ['Male'], endAge: 35 },
    ]) {
      const memory = await fromMemory(list, [liking, strength], demographics);
      const answers = await fromAnswers(list, [liking, strength], demographics);
      expect(rowsOf(answers.get(liking.id)).length).toBeGreaterThan(100);
      expectSameCells(memory, answers, liking.id);
      expectSameCells(memory, answers, strength.id);
    }
  });

  it('give the cells of the grouped read under filters beyond gender and age', async () => {
    const [first, second] = await studies();
    const list = [...first!.products, ...second!.products];
    for (const demographics of [{ ethnicity: ['White'] }, { ethnicity: ['White'], startAge: 18 }]) {
      const memory = await fromMemory(list, [liking], demographics);
      const answers = await fromAnswers(list, [liking], demographics);
      expect(rowsOf(answers.get(liking.id)).length).toBeGreaterThan(0);
      expectSameCells(memory, answers, liking.id);
    }
  });

  it('give the marks of the grouped read through the app: unfiltered, gender and age, and another filter', async () => {
    const [first, second] = await studies();
    const list = [...first!.products, ...second!.products.slice(0, 3)];
    for (const calculation of ['rest', 'avg'] as const) {
      expect((await expectMarksOfAnswers(list, {}, calculation)).tested).toBeGreaterThan(4);
      const filtered = await expectMarksOfAnswers(
        list,
        { gender: ['Female'], startAge: 18, endAge: 45 },
        calculation,
      );
      expect(filtered.tested).toBeGreaterThan(0);
      await expectMarksOfAnswers(list, { ethnicity: ['White'], startAge: 18 }, calculation);
    }
  });

  it('follow a mapping edit that moves answers out of the metric', async () => {
    const [first, second] = await studies();
    const list = [...first!.products, ...second!.products];
    const before = rowsOf((await fromMemory(list, [liking], {})).get(liking.id));
    const ofFirst = (rows: ReturnType<typeof rowsOf>) =>
      rows.filter((row) => first!.products.includes(row.product));
    expect(ofFirst(before).length).toBeGreaterThan(30);

    // The first study's liking questions leave the metric (validated ones are un-validated first).
    const questions = await query<{ id: number; metric_validated: boolean }>(
      `select id, metric_validated from questions where study_id = $1 and metric_id = $2`,
      [first!.study, liking.id],
    );
    expect(questions.length).toBeGreaterThan(0);
    for (const question of questions) {
      if (question.metric_validated) {
        const listed = (await request('GET', `/api/study/${first!.study}/questions/`)).json<{
          files: { questions: { id: number }[] }[];
        }>();
        const full = listed.files.flatMap((file) => file.questions).find((entry) => entry.id === question.id);
        const unvalidated = await request('PUT', `/api/study/${first!.study}/question/`, {
          q_upd: { ...full, metric_validated: false },
        });
        expect(unvalidated.statusCode, unvalidated.body).toBe(200);
      }
      const moved = await request('PUT', `/api/study/${first!.study}/question/`, {
        q_upd: { id: question.id, metric: null },
      });
      expect(moved.statusCode, moved.body).toBe(200);
    }

    const after = await fromMemory(list, [liking], {});
    expect(ofFirst(rowsOf(after.get(liking.id)))).toEqual([]);
    expect(rowsOf(after.get(liking.id))).toEqual(
      before.filter((row) => !first!.products.includes(row.product)),
    );
    expectSameCells(after, await fromAnswers(list, [liking], {}), liking.id);
    // Through the app: the first study's products have no liking answers left to test.
    const { result } = await expectMarksOfAnswers(list, {}, 'rest');
    for (const row of result.results.filter((entry) => first!.products.includes(entry.id)))
      expect(row['liking.mean.confidence']).toMatchObject({ n: 0, p_value: null, level: null });
  });
});
