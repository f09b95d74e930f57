// The Category Profile and Group Comparison slides through the running app: the charts read back
// from the file hold the numbers the screens show (the families of POST /analytics/tendencies, the
// top fragrances job, the group comparison's differences table) with their bases, marks and the
// filters in words on every slide; users who may download; a job is only its owner's; a sales
// user's deck counts only their clients' studies.
import type {
  GroupComparisonRequest,
  GroupComparisonStatus,
  TendenciesResponse,
  TopFamilyFragrancesStatus,
} from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../seed/users.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { readDeck } from '../../testing/pptx-deck.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-comparison-decks-',
    { studies: 10, seed: 11, respondents: 60, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

const request = (method: 'GET' | 'POST', url: string, role: DemoRole | null, payload?: unknown) =>
  t.request({ method, url, payload, ...(role ? { token: tokens[role] } : {}) });

const UNKNOWN_JOB = '00000000-0000-4000-8000-000000000000';
const SALES_CLIENTS = DEMO_USERS.find((user) => user.role === 'sales')!.clients;

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

/** The families chart as the screen asks for it. */
async function screenFamilies(essentials: Record<string, unknown>, role: DemoRole) {
  const response = await request('POST', '/api/analytics/tendencies', role, {
    q: { essentials },
    data: { return: 'percentage', groupby: 'perfume_characteristics.family' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TendenciesResponse>();
}

async function topFragrances(essentials: Record<string, unknown>, family: string, role: DemoRole) {
  const queued = await request('POST', '/api/category-profile/top-fragrances', role, { essentials, family });
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  const status = (
    await request('GET', `/api/category-profile/top-fragrances/${jobid}`, role)
  ).json<TopFamilyFragrancesStatus>();
  expect(status.status, status.error ?? '').toBe('SUCCESS');
  return { jobid, result: status.result!.json };
}

describe('POST /api/category-profile/pptx', () => {
  it('charts the families and the chosen family’s top fragrances as the screen shows them, filters in words', async () => {
    const { region } = (
      await query<{ region: string }>(
        `select unnest(region) as region from studies where verified group by 1 order by count(*) desc, 1 limit 1`,
      )
    )[0]!;
    const essentials = { region: [region] };
    const families = await screenFamilies(essentials, 'researcher');
    const family = families.table_data.find((row) => row.name !== 'No tag')!.name;
    const top = await topFragrances(essentials, family, 'researcher');
    expect(top.result.fragrances.length).toBeGreaterThan(0);

    const file = await request('POST', '/api/category-profile/pptx', 'researcher', {
      essentials,
      top: top.jobid,
    });
    expect(file.statusCode, file.body.slice(0, 300)).toBe(200);
    expect(file.headers['content-type']).toContain('presentationml.presentation');
    expect(file.headers['content-disposition']).toContain('category_profile.pptx');
    const slides = await readDeck(file.rawPayload);
    expect(slides).toHaveLength(3);
    expect(slides[0]!.text.split('\n')[0]).toBe('Category profile');
    expect(slides[0]!.text).toContain(`Filters: Region: ${region}`);
    expect(slides[0]!.text).toContain(`Fragrances counted: ${families.total}`);

    const [familySlide, topSlide] = [slides[1]!, slides[2]!];
    expect(familySlide.text.split('\n')[0]).toBe('Fragrance Families frequency (in %)');
    expect(familySlide.text).toContain(`Filters: Region: ${region}`);
    const familySeries = familySlide.charts[0]!.series[0]!;
    expect(familySeries.values).toEqual(
      families.table_data.map((row) => Math.round(row.percentage * 10) / 10),
    );
    expect(familySeries.categories).toEqual(
      families.table_data.map(
        (row) => `${row.name} (${row.count} ${row.count === 1 ? 'fragrance' : 'fragrances'})`,
      ),
    );

    expect(topSlide.text.split('\n')[0]).toBe(`Top ${family} fragrances based on T2B liking`);
    expect(topSlide.text).toContain(`Filters: Region: ${region}`);
    expect(topSlide.text).toContain(`Family: ${family}`);
    const shown = top.result.fragrances.filter((row) => row.top_2_box !== null);
    const topSeries = topSlide.charts[0]!.series[0]!;
    // The table writes T2B liking as a whole percent with its n.
    expect(topSeries.values).toEqual(shown.map((row) => Math.round(row.top_2_box! * 100)));
    shown.forEach((row, index) => {
      expect(topSeries.categories[index]).toContain(
        `${index + 1}. ${row.name ?? row.prod} (${row.c_mi_number})`,
      );
      expect(topSeries.categories[index]).toContain(`n = ${row.n}${row.n < 30 ? ', low base' : ''})`);
    });
    expect(topSlide.notes).toContain(`base n = ${shown[0]!.n}`);
  });

  it('without a family, charts the families only; a sales user’s deck counts only their clients’ studies', async () => {
    const mine = await screenFamilies({}, 'sales');
    const everyone = await screenFamilies({}, 'researcher');
    const { n } = (
      await query<{ n: number }>(
        `select count(*)::int as n from products p join studies s on s.id = p.study_id
        where s.verified and p.kind = 'fragrance' and s.client = any($1::text[])`,
        [SALES_CLIENTS],
      )
    )[0]!;
    expect(mine.total).toBe(n);
    expect(mine.total).toBeLessThan(everyone.total);
    const file = await request('POST', '/api/category-profile/pptx', 'sales', {});
    expect(file.statusCode, file.body.slice(0, 300)).toBe(200);
    const slides = await readDeck(file.rawPayload);
    expect(slides).toHaveLength(2);
    expect(slides[0]!.text).toContain(`Fragrances counted: ${mine.total}`);
    expect(slides[0]!.text).toContain('Filters: No filters');
    expect(slides[1]!.charts[0]!.series[0]!.values).toEqual(
      mine.table_data.map((row) => Math.round(row.percentage * 10) / 10),
    );
  });

  it('refuses anonymous callers (401), users who may not download (403), bad input (400) and another user’s job (404)', async () => {
    expect((await request('POST', '/api/category-profile/pptx', null, {})).statusCode).toBe(401);
    expect((await request('POST', '/api/category-profile/pptx', 'client', {})).statusCode).toBe(403);
    const badJob = await request('POST', '/api/category-profile/pptx', 'researcher', { top: 'not-a-job' });
    expect(badJob.statusCode).toBe(400);
    expect(errorBody(badJob).message).toContain('Not a job id');
    const unknownKey = await request('POST', '/api/category-profile/pptx', 'researcher', {
      family: 'Floral',
    });
    expect(unknownKey.statusCode).toBe(400);
    const adminOnly = await request('POST', '/api/category-profile/pptx', 'sales', {
      essentials: { verified: false },
    });
    expect(adminOnly.statusCode).toBe(403);
    expect(
      (await request('POST', '/api/category-profile/pptx', 'researcher', { top: UNKNOWN_JOB })).statusCode,
    ).toBe(404);
    const families = await screenFamilies({}, 'sales');
    const family = families.table_data.find((row) => row.name !== 'No tag')!.name;
    const { jobid } = await topFragrances({}, family, 'sales');
    expect(
      (await request('POST', '/api/category-profile/pptx', 'researcher', { top: jobid })).statusCode,
    ).toBe(404);
    expect((await request('POST', '/api/category-profile/pptx', 'sales', { top: jobid })).statusCode).toBe(
      200,
    );
  });
});

async function comparison(body: GroupComparisonRequest, role: DemoRole) {
  const queued = await request('POST', '/api/group-comparison', role, body);
  expect(queued.statusCode, queued.body).toBe(200);
  const { jobid } = queued.json<{ jobid: string }>();
  const status = (await request('GET', `/api/group-comparison/${jobid}`, role)).json<GroupComparisonStatus>();
  expect(status.status, status.error ?? '').toBe('SUCCESS');
  return { jobid, result: status.result!.json };
}

const AGGREGATIONS: Record<string, string> = {
  mean: 'Mean',
  top_2_box: 'Top 2 box',
  bottom_2_box: 'Bottom 2 box',
};

describe('GET /api/group-comparison/pptx/{jobId}', () => {
  it('charts the differences table: both groups’ values as the table writes them, their bases, group 1’s marks and both groups’ filters', async () => {
    const units = (
      await query<{ unit: string }>(
        `select distinct unnest(product_area) as unit from studies where verified order by 1`,
      )
    ).map((row) => row.unit);
    const { jobid, result } = await comparison(
      {
        group1: { essentials: { businessUnit: [units[0]!] } },
        group2: { essentials: { businessUnit: [units[1]!] }, demographics: { gender: ['Female'] } },
      },
      'researcher',
    );
    const file = await request('GET', `/api/group-comparison/pptx/${jobid}`, 'researcher');
    expect(file.statusCode, file.body.slice(0, 300)).toBe(200);
    expect(file.headers['content-disposition']).toContain('group_comparison.pptx');
    const slides = await readDeck(file.rawPayload);
    // Title, the means, then one slide of boxes per metric (liking, purchase intention, strength).
    expect(slides).toHaveLength(5);
    const title = slides[0]!.text;
    expect(title.split('\n')[0]).toBe('Group comparison: group 1 against group 2');
    expect(title).toContain(`Group 1: Business unit: ${units[0]}`);
    expect(title).toContain(`Group 2: Business unit: ${units[1]}; Gender: Female`);
    expect(title).toContain(
      `Bases: group 1 ${result.bases.group1.products} fragrances and ${result.bases.group1.respondents.toLocaleString('en-US')} respondents`,
    );
    expect(title).toContain('Test: the fragrance is the unit');

    const screenValue = (aggregation: string, value: number | null) =>
      value === null ? null : aggregation === 'mean' ? Number(value.toFixed(2)) : Math.round(value * 100);
    const means = result.differences.filter((row) => row.aggregation === 'mean');
    const chartRows = [
      { slide: slides[1]!, rows: means },
      ...['liking', 'purchase_intention', 'strength'].map((metric, index) => ({
        slide: slides[index + 2]!,
        rows: result.differences.filter((row) => row.metric === metric && row.aggregation !== 'mean'),
      })),
    ];
    expect(slides[1]!.text.split('\n')[0]).toBe('Means, group 1 against group 2');
    let marked = 0;
    for (const { slide, rows } of chartRows) {
      expect(slide.text).toContain(`Group 1: Business unit: ${units[0]}`);
      expect(slide.text).toContain(`Group 2: Business unit: ${units[1]}; Gender: Female`);
      const expected = rows.flatMap((row) =>
        [
          { value: screenValue(row.aggregation, row.group1), n: row.n1, people: row.respondents1, group: 1 },
          { value: screenValue(row.aggregation, row.group2), n: row.n2, people: row.respondents2, group: 2 },
        ].map((bar) => ({ ...bar, row })),
      );
      const drawn = expected.filter((bar) => bar.value !== null);
      const series = slide.charts[0]!.series[0]!;
      expect(series.values).toEqual(drawn.map((bar) => bar.value));
      drawn.forEach((bar, index) => {
        const category = series.categories[index]!;
        const name =
          bar.row.aggregation === 'mean'
            ? bar.row.label
            : bar.row.aggregation === 'just_right'
              ? 'Just right'
              : AGGREGATIONS[bar.row.aggregation]!;
        expect(category).toContain(`${name}, group ${bar.group} (${bar.n} fragrance`);
        expect(category).toContain(`${bar.people.toLocaleString('en-US')} respondent`);
        const mark = bar.group === 1 && bar.row.level !== null;
        if (mark) marked++;
        expect(category.includes('▲') || category.includes('▼')).toBe(mark);
        if (mark)
          expect(category).toContain(
            `${bar.row.table === 'mt' ? '▲' : '▼'} ${Math.round((1 - bar.row.level!) * 100)}%`,
          );
      });
    }
    expect(marked).toBe(result.differences.filter((row) => row.level !== null).length);
  });

  it('refuses anonymous callers (401), users who may not download (403), a bad id (400) and another user’s job (404); a sales user’s deck holds only their clients’ fragrances', async () => {
    const { jobid, result } = await comparison({ group1: {}, group2: {} }, 'sales');
    expect((await request('GET', `/api/group-comparison/pptx/${jobid}`, null)).statusCode).toBe(401);
    expect((await request('GET', `/api/group-comparison/pptx/${jobid}`, 'client')).statusCode).toBe(403);
    expect((await request('GET', '/api/group-comparison/pptx/not-a-job', 'sales')).statusCode).toBe(400);
    expect((await request('GET', `/api/group-comparison/pptx/${UNKNOWN_JOB}`, 'sales')).statusCode).toBe(404);
    expect((await request('GET', `/api/group-comparison/pptx/${jobid}`, 'researcher')).statusCode).toBe(404);
    const own = await request('GET', `/api/group-comparison/pptx/${jobid}`, 'sales');
    expect(own.statusCode).toBe(200);
    const { n } = (
      await query<{ n: number }>(
        `select count(distinct p.id)::int as n from products p join studies s on s.id = p.study_id
         join answers a on a.product_id = p.id join metrics m on m.id = a.metric_id
        where s.verified and p.kind = 'fragrance' and s.rdf_type = 'rdf' and s.client = any($1::text[])
          and m.name in ('liking', 'purchase_intention', 'strength')`,
        [SALES_CLIENTS],
      )
    )[0]!;
    expect(result.bases.group1.products).toBe(n);
    const slides = await readDeck(own.rawPayload);
    expect(slides[0]!.text).toContain(`Bases: group 1 ${n} fragrances`);
    expect(slides[0]!.text).toContain('Group 1: No filters');
  });
});
