// Respondent filters beyond gender and age (ethnicity, social class, BUMO, alone and with gender and
// age, as panel filters and results-table conditions) summed in memory from the respondent indexes:
// the numbers of the SQL path (analytics.answerSums over the answers table) for every product, on
// scale, yes/no, EEG and implicit metrics, and the respondent bases of a group comparison; a value
// nobody has gives empty bases; a search under them is answered within its POST unless it asks for
// more metrics than the indexes keep; a mapping edit refreshes them; the search stays the staff's.
import type { MetricSearchRequest, MetricSearchResult, MetricSearchStatus } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryTestApp, sqlRows } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';
import { createFieldsRepository } from '../fields/fields.repository.ts';
import {
  createAnalyticsContext,
  sumsOf,
  type AnalyticsContext,
  type SumsTable,
} from './analytics-context.ts';
import { EMPTY_SUMS, columnValue, type Sums } from './analytics-metrics.ts';
import type { MetricRecord, MetricSums } from './analytics-types.ts';
import { createAnalyticsRepository, respondentConditions } from './analytics.repository.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};
let query: ReturnType<typeof sqlRows>;
/** The SQL path itself, and how often a context of its own asked it for sums. */
let repository: ReturnType<typeof createAnalyticsRepository>;
let sqlSums = 0;
/** A context of its own over the app's database, whose reads of the answers are counted. */
let context: AnalyticsContext;
/** One metric with answers of each kind the library holds: scale, yes/no, EEG, implicit. */
let metrics: MetricRecord[];
/** The fragrance products of the library. */
let products: number[];
/** A value each of ethnicity, social class and BUMO held by the most respondents. */
let common: { ethnicity: string; socialClass: string; bumo: string };

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-respondent-filters-',
    { studies: 8, seed: 47, respondents: 60, lastYear: 2024 },
    tokens,
  );
  query = sqlRows(t);
  // Some respondents without a value, before anything is read: a missing value fails a condition.
  await query(`update respondents set ethnicity = null where id % 7 = 0`);
  await query(`update respondents set social_class = null where id % 11 = 0`);
  await query(`update respondents set bumo = null where id % 5 = 0`);
  repository = createAnalyticsRepository(t.database.db);
  context = createAnalyticsContext({
    analytics: {
      ...repository,
      answerSums: (...args: Parameters<typeof repository.answerSums>) => {
        sqlSums++;
        return repository.answerSums(...args);
      },
    },
    fields: createFieldsRepository(t.database.db),
  });
  const catalogue = await context.metricCatalogue();
  const answered = await query<{ metric_id: number }>(
    'select distinct metric_id from answers order by metric_id',
  );
  const withAnswers = catalogue.filter((metric) =>
    answered.some((row) => Number(row.metric_id) === metric.id),
  );
  metrics = ['hedonic', 'binary', 'eeg', 'implicit']
    .map((kind) =>
      kind === 'hedonic'
        ? withAnswers.find((metric) => metric.name === 'liking')
        : withAnswers.find((metric) => metric.kind === kind),
    )
    .filter((metric): metric is MetricRecord => metric !== undefined);
  products = (
    await query<{ id: number }>(`select id from products where kind = 'fragrance' order by id`)
  ).map((row) => Number(row.id));
  // The values most common among the respondents of the metric with the fewest answers (the
  // library's countries differ in their ethnicities and brands), so every metric keeps some answers.
  const counted = await query<{ metric_id: number; n: number }>(
    'select metric_id, count(*)::int as n from answers where metric_id = any($1) group by metric_id order by n limit 1',
    [metrics.map((metric) => metric.id)],
  );
  const rarest = Number(counted[0]!.metric_id);
  const mostCommon = async (column: string) =>
    (
      await query<{ value: string }>(
        `select r.${column} as value from answers a join respondents r on r.id = a.respondent_id
          where a.metric_id = $1 and r.${column} is not null
          group by r.${column} order by count(*) desc, r.${column} limit 1`,
        [rarest],
      )
    )[0]!.value;
  common = {
    ethnicity: await mostCommon('ethnicity'),
    socialClass: await mostCommon('social_class'),
    bumo: await mostCommon('bumo'),
  };
});

afterAll(() => t?.close());

type Demographics = Parameters<typeof respondentConditions>[0];
type Conditions = Parameters<typeof respondentConditions>[1];

const GENDER_AGE = { gender: ['Female'], startAge: 25, endAge: 50 };

/** The filters compared: each trait alone, with gender and age, and as a results-table condition. */
const filters = (): { name: string; demographics: Demographics; conditions: Conditions }[] => [
  { name: 'ethnicity', demographics: { ethnicity: [common.ethnicity] }, conditions: [] },
  { name: 'social class', demographics: { socialClass: [common.socialClass] }, conditions: [] },
  { name: 'BUMO', demographics: { bumo: [common.bumo] }, conditions: [] },
  {
    name: 'ethnicity, gender and age',
    demographics: { ethnicity: [common.ethnicity], ...GENDER_AGE },
    conditions: [],
  },
  {
    name: 'social class, gender and age',
    demographics: { socialClass: [common.socialClass], ...GENDER_AGE },
    conditions: [],
  },
  { name: 'BUMO, gender and age', demographics: { bumo: [common.bumo], ...GENDER_AGE }, conditions: [] },
  {
    name: 'a results-table BUMO condition under the panel ethnicity',
    demographics: { ethnicity: [common.ethnicity] },
    conditions: [{ field: 'bumo', filter: { type: 'equal', value: common.bumo } }],
  },
];

const eegIds = () => metrics.filter((metric) => metric.kind === 'eeg').map((metric) => metric.id);

/** The SQL path's statistics, by product and metric. */
async function fromAnswers(list: MetricRecord[], demographics: Demographics, conditions: Conditions = []) {
  const rows = await repository.answerSums(
    products,
    list.map((metric) => metric.id),
    eegIds(),
    respondentConditions(demographics, conditions),
  );
  return new Map(rows.map((row) => [`${row.productId}:${row.metricId}`, row]));
}

/** The context's statistics once the respondents are in memory, with the reads of the answers they took. */
async function fromMemory(list: MetricRecord[], demographics: Demographics, conditions: Conditions = []) {
  const fingerprint = await context.fingerprint();
  await context.loadRespondents(list, fingerprint);
  sqlSums = 0;
  const sums = await context.loadSums(
    products,
    list,
    respondentConditions(demographics, conditions),
    new Set(),
    fingerprint,
  );
  return { sums, sqlReads: sqlSums };
}

/** Counts exactly, sums to the last bits a different order of adding may change. */
function expectSameSums(actual: Sums, expected: Sums, where: string) {
  const counts = (sums: Sums) => [
    sums.n,
    sums.nTopBox,
    sums.nTop2Box,
    sums.nJustRight,
    sums.nBottom2Box,
    sums.nBottomBox,
  ];
  expect(counts(actual), where).toEqual(counts(expected));
  expect(Math.abs(actual.sum - expected.sum), where).toBeLessThanOrEqual(
    1e-12 * Math.max(1, Math.abs(expected.sum)),
  );
  expect(Math.abs(actual.sumSq - expected.sumSq), where).toBeLessThanOrEqual(
    1e-12 * Math.max(1, Math.abs(expected.sumSq)),
  );
}

const onlySums = (row: MetricSums | undefined): Sums => {
  if (!row) return EMPTY_SUMS;
  const { productId: _product, metricId: _metric, ...sums } = row;
  return sums;
};

function expectAsAnswers(memory: SumsTable, answers: Map<string, MetricSums>, list: MetricRecord[]) {
  for (const productId of products)
    for (const metric of list)
      expectSameSums(
        sumsOf(memory, productId, metric.id),
        onlySums(answers.get(`${productId}:${metric.id}`)),
        `product ${productId}, ${metric.name}`,
      );
}

const request = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
  role: DemoRole | null = 'researcher',
) => t.request({ method, url, payload, ...(role ? { token: tokens[role] } : {}) });

/** The aggregations a search asks of a metric. */
const aggregationsOf = (metric: MetricRecord) =>
  metric.kind === 'eeg'
    ? (['eeg_mean', 'variance'] as const)
    : metric.kind === 'implicit'
      ? (['irt_yes', 'hi_yes'] as const)
      : metric.kind === 'binary'
        ? (['top_box', 'bottom_box'] as const)
        : (['top_2_box', 'mean', 'bottom_box'] as const);

const searchBody = (list: MetricRecord[], demographics: Demographics, conditions: Conditions = []) =>
  ({
    q: {
      demographics,
      metrics: {
        rdfType: 'all',
        metricsList: list.flatMap((metric) =>
          aggregationsOf(metric).map((aggregation) => ({ metric: metric.name, aggregation })),
        ),
      },
    },
    ...(conditions.length > 0 ? { demographics_fragrances: conditions } : {}),
  }) as MetricSearchRequest;

/** A metric search through the app without its cache, polled until it is done. */
async function search(body: MetricSearchRequest): Promise<MetricSearchResult> {
  const queued = await request('POST', '/api/analytics/fragrances?no_cache=true', body);
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  for (let attempt = 0; attempt < 600; attempt++) {
    const status = (await request('GET', `/api/analytics/fragrances/${jobid}`)).json<MetricSearchStatus>();
    if (status.status === 'SUCCESS') return status.result!.json;
    expect(status.status, status.error ?? '').not.toBe('FAILURE');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('The search did not finish');
}

/** Every row's bases and values equal those of the SQL path's statistics. */
function expectSearchAsAnswers(
  result: MetricSearchResult,
  answers: Map<string, MetricSums>,
  list: MetricRecord[],
) {
  expect(result.results.length).toBeGreaterThan(0);
  for (const row of result.results)
    for (const metric of list)
      for (const aggregation of aggregationsOf(metric)) {
        const sums = onlySums(answers.get(`${row.id}:${metric.id}`));
        const key = `${metric.name}.${aggregation}`;
        expect(row.bases[key], `product ${row.id}, ${key}`).toBe(sums.n);
        const expected = columnValue(sums, aggregation, metric.kind);
        if (expected === null) expect(row.values[key], `product ${row.id}, ${key}`).toBeNull();
        else expect(row.values[key], `product ${row.id}, ${key}`).toBeCloseTo(expected, 9);
      }
}

describe('respondent filters beyond gender and age, summed in memory', () => {
  it('holds a metric of each kind the library has, and respondents without a value', async () => {
    expect(metrics.map((metric) => metric.kind)).toEqual(
      expect.arrayContaining(['hedonic', 'binary', 'eeg']),
    );
    const missing = await query<{ n: number }>(
      'select count(*)::int as n from respondents where ethnicity is null or social_class is null or bumo is null',
    );
    expect(Number(missing[0]!.n)).toBeGreaterThan(0);
  });

  it('give the SQL path numbers for every product and metric, without reading the answers', async () => {
    const unfiltered = await fromAnswers(metrics, {});
    const sum = (list: number[]) => list.reduce((total, n) => total + n, 0);
    const keptAtMost: number[] = [];
    for (const filter of filters()) {
      const answers = await fromAnswers(metrics, filter.demographics, filter.conditions);
      const { sums, sqlReads } = await fromMemory(metrics, filter.demographics, filter.conditions);
      expect(sqlReads, filter.name).toBe(0);
      expectAsAnswers(sums, answers, metrics);
      // The filter keeps some answers and leaves some out.
      const keptOf = (sums: Map<string, MetricSums>, metric: MetricRecord) =>
        products.reduce((total, id) => total + (sums.get(`${id}:${metric.id}`)?.n ?? 0), 0);
      const kept = metrics.map((metric) => keptOf(answers, metric));
      const all = metrics.map((metric) => keptOf(unfiltered, metric));
      expect(Math.min(...kept.map((n, at) => all[at]! - n)), filter.name).toBeGreaterThanOrEqual(0);
      expect(sum(kept), filter.name).toBeGreaterThan(0);
      expect(sum(kept), filter.name).toBeLessThan(sum(all));
      kept.forEach((n, at) => (keptAtMost[at] = Math.max(keptAtMost[at] ?? 0, n)));
    }
    // Every metric is compared with some answers kept.
    expect(keptAtMost.every((n) => n > 0)).toBe(true);
  });

  it('count the respondent bases of the SQL path, per metric and for any', async () => {
    const fingerprint = await context.fingerprint();
    await context.loadRespondents(metrics, fingerprint);
    const metricIds = metrics.map((metric) => metric.id);
    const someProducts = products.filter((_, at) => at % 3 !== 0);
    for (const filter of [
      ...filters(),
      { name: 'nobody', demographics: { bumo: ['Nobody'] }, conditions: [] },
    ]) {
      const conditions = respondentConditions(filter.demographics, filter.conditions);
      const memory = await context.respondentCounts(someProducts, metrics, conditions, fingerprint);
      const read = await repository.respondentCounts(someProducts, metricIds, eegIds(), conditions);
      // The grouped SQL has no row for a metric nobody answered; memory counts it 0.
      for (const key of [null, ...metricIds])
        expect(memory.get(key) ?? 0, `${filter.name}, ${key}`).toBe(read.get(key) ?? 0);
      if (filter.name === 'nobody') expect(memory.get(null)).toBe(0);
      else expect(memory.get(null), filter.name).toBeGreaterThan(0);
    }
  });

  it('give the metric search through the app the SQL path numbers', async () => {
    for (const filter of filters()) {
      const body = searchBody(metrics, filter.demographics, filter.conditions);
      const answers = await fromAnswers(metrics, filter.demographics, filter.conditions);
      // The first search may be answered by the database while the app reads its indexes; the
      // second is summed in memory.
      expectSearchAsAnswers(await search(body), answers, metrics);
      const result = await search(body);
      expect(result.filtered).toBe(true);
      expectSearchAsAnswers(result, answers, metrics);
    }
  });

  it('answer the search within its POST, as gender and age: its first poll is SUCCESS, never queued', async () => {
    const jobsOf = async (jobid: string) =>
      Number(
        (
          await query<{ count: number }>('select count(*)::int as count from pgboss.job where id = $1', [
            jobid,
          ])
        )[0]!.count,
      );
    for (const filter of filters()) {
      const body = searchBody(metrics, filter.demographics, filter.conditions);
      const answers = await fromAnswers(metrics, filter.demographics, filter.conditions);
      const queued = await request('POST', '/api/analytics/fragrances?no_cache=true', body);
      expect(queued.statusCode, queued.body).toBe(200);
      const { jobid } = queued.json<{ jobid: string }>();
      const first = (await request('GET', `/api/analytics/fragrances/${jobid}`)).json<MetricSearchStatus>();
      expect(first.status, `${filter.name}: ${first.error ?? ''}`).toBe('SUCCESS');
      expectSearchAsAnswers(first.result!.json, answers, metrics);
      expect(await jobsOf(jobid), filter.name).toBe(0);
    }
    // More metrics than the respondent indexes keep ask the database: such a search is queued.
    const catalogue = await context.metricCatalogue();
    const many = catalogue.filter((metric) => metric.kind === 'hedonic').slice(0, 6);
    expect(many).toHaveLength(6);
    const body = searchBody(many, { ethnicity: [common.ethnicity] });
    const queued = await request('POST', '/api/analytics/fragrances?no_cache=true', body);
    expect(queued.statusCode, queued.body).toBe(200);
    const { jobid } = queued.json<{ jobid: string }>();
    expect(await jobsOf(jobid)).toBe(1);
    expectSearchAsAnswers(
      await search(body),
      await fromAnswers(many, { ethnicity: [common.ethnicity] }),
      many,
    );
  });

  it('give empty bases for a value no respondent has', async () => {
    const nobody = { ethnicity: ['No respondent has this'] };
    const { sums, sqlReads } = await fromMemory(metrics, nobody);
    expect(sqlReads).toBe(0);
    for (const productId of products)
      for (const metric of metrics) expect(sumsOf(sums, productId, metric.id)).toEqual(EMPTY_SUMS);
    for (let round = 0; round < 2; round++) {
      const result = await search(searchBody(metrics, nobody));
      expect(result.results.length).toBeGreaterThan(0);
      for (const row of result.results) {
        expect(Object.values(row.bases).every((n) => n === 0)).toBe(true);
        expect(Object.values(row.values).every((value) => value === null)).toBe(true);
      }
    }
  });

  it('follow a mapping edit: answers mapped to a metric are counted under the filter at once', async () => {
    const [study] = await query<{ id: number }>(
      `select s.id from studies s where exists (select 1 from questions q where q.study_id = s.id
          and q.metric_id is null and q.question_type = 'numerical')
        order by s.id limit 1`,
    );
    const [question] = await query<{ id: number }>(
      `select id from questions where study_id = $1 and metric_id is null and question_type = 'numerical'
        order by sort_order limit 1`,
      [study!.id],
    );
    const used = await query<{ metric_id: number }>(
      'select distinct metric_id from questions where study_id = $1 and metric_id is not null',
      [study!.id],
    );
    const catalogue = await context.metricCatalogue();
    const target = catalogue.find(
      (metric) => metric.kind === 'hedonic' && !used.some((row) => Number(row.metric_id) === metric.id),
    )!;
    const studyProducts = (
      await query<{ id: number }>(`select id from products where study_id = $1 and kind = 'fragrance'`, [
        study!.id,
      ])
    ).map((row) => Number(row.id));
    const [ethnicity] = await query<{ value: string }>(
      `select ethnicity as value from respondents where study_id = $1 and ethnicity is not null
        group by ethnicity order by count(*) desc, ethnicity limit 1`,
      [study!.id],
    );
    const filter = { ethnicity: [ethnicity!.value] };
    const baseOfStudy = (sums: SumsTable) =>
      studyProducts.reduce((total, id) => total + sumsOf(sums, id, target.id).n, 0);
    const searchedBases = (result: MetricSearchResult) =>
      result.results
        .filter((row) => studyProducts.includes(row.id))
        .reduce((total, row) => total + row.bases[`${target.name}.mean`]!, 0);

    // Read into memory before the edit, in this context and in the app's.
    expect(baseOfStudy((await fromMemory([target], filter)).sums)).toBe(0);
    for (let round = 0; round < 2; round++)
      expect(searchedBases(await search(searchBody([target], filter)))).toBe(0);

    const edited = await request('PUT', `/api/study/${study!.id}/question/`, {
      q_upd: { id: question!.id, metric: target.name },
    });
    expect(edited.statusCode, edited.body).toBe(200);

    const answers = await fromAnswers([target], filter);
    const { sums, sqlReads } = await fromMemory([target], filter);
    expect(sqlReads).toBe(0);
    expect(
      studyProducts.reduce((total, id) => total + (answers.get(`${id}:${target.id}`)?.n ?? 0), 0),
    ).toBeGreaterThan(0);
    expectAsAnswers(sums, answers, [target]);
    expect(baseOfStudy(sums)).toBeGreaterThan(0);
    for (let round = 0; round < 2; round++) {
      const result = await search(searchBody([target], filter));
      expect(searchedBases(result)).toBe(baseOfStudy(sums));
      expectSearchAsAnswers(result, answers, [target]);
    }
  });

  it('stays the staff search: signed in, analytics roles only, a valid filter', async () => {
    const body = searchBody(metrics, { ethnicity: [common.ethnicity] });
    expect((await request('POST', '/api/analytics/fragrances?no_cache=true', body, null)).statusCode).toBe(
      401,
    );
    for (const role of ['client', 'sales'] as const) {
      const refused = await request('POST', '/api/analytics/fragrances?no_cache=true', body, role);
      expect(refused.statusCode).toBe(403);
    }
    const bad = await request('POST', '/api/analytics/fragrances?no_cache=true', {
      ...body,
      q: { ...body.q, demographics: { ethnicity: 'not a list' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toBeTruthy();
    expect((await request('POST', '/api/analytics/fragrances?no_cache=true', body, 'admin')).statusCode).toBe(
      200,
    );
  });
});
