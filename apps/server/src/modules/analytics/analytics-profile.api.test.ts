// Fragrance and concept profiles through the running app: client scoping, validation, placeholders,
// numbers recomputed from the raw answers, and the real xlsx download.
import type { ProfileResponse } from '@accord/contracts';
import { harmoniseToFivePoint, summariseHarmonised } from '@accord/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../seed/users.ts';
import { openWorkbook, readReport } from '../../testing/report-table.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

interface ProductRow {
  id: number;
  study_id: number;
  code: string;
  client: string;
}

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-profile-',
    { studies: 8, seed: 3, respondents: 50, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

const clientUserClients = DEMO_USERS.find((user) => user.roleId === 3)!.clients;

async function productOf(kind: 'fragrance' | 'concept', visibleToClient: boolean): Promise<ProductRow> {
  const rows = await query<ProductRow>(
    `select p.id, p.study_id, p.code, s.client from products p join studies s on s.id = p.study_id
      where p.kind = $1 and (s.client = any($2::text[])) = $3
        and exists (select 1 from answers a where a.product_id = p.id)
      order by p.id limit 1`,
    [kind, clientUserClients, visibleToClient],
  );
  if (!rows[0]) throw new Error(`no ${kind} product (visible to the client user: ${visibleToClient})`);
  return rows[0];
}

async function harmonised(productId: number, metric: string, where = 'true'): Promise<number[]> {
  const rows = await query<{ raw_value: number; scale_min: number; scale_max: number }>(
    `select a.raw_value, q.scale_min, q.scale_max from answers a join questions q on q.id = a.question_id
      join metrics m on m.id = a.metric_id join respondents r on r.id = a.respondent_id
      where a.product_id = $1 and m.name = $2 and (${where})`,
    [productId, metric],
  );
  return rows.map((row) => harmoniseToFivePoint(Number(row.raw_value), row.scale_min, row.scale_max));
}

const profile = (product: ProductRow, kind: 'fragrance' | 'concept', body: unknown, role: DemoRole | null) =>
  t.request({
    method: 'POST',
    url: `/api/study/${product.study_id}/${kind}/${encodeURIComponent(product.code)}`,
    payload: body,
    token: role ? tokens[role] : undefined,
  });

describe('POST /api/study/{id}/fragrance/{code}', () => {
  it('needs a signed-in user and limits client and sales users to their clients', async () => {
    const own = await productOf('fragrance', true);
    const other = await productOf('fragrance', false);
    expect((await profile(own, 'fragrance', {}, null)).statusCode).toBe(401);
    expect((await profile(own, 'fragrance', {}, 'client')).statusCode).toBe(200);
    const hidden = await profile(other, 'fragrance', {}, 'client');
    expect(hidden.statusCode).toBe(404);
    expect(errorBody(hidden).message).toBe('Not found.');
    expect((await profile(other, 'fragrance', {}, 'researcher')).statusCode).toBe(200);
    expect((await profile({ ...own, code: 'no-such-code' }, 'fragrance', {}, 'admin')).statusCode).toBe(404);
    // A fragrance's code is not a concept's.
    expect((await profile(own, 'concept', {}, 'admin')).statusCode).toBe(404);
  });

  it('refuses malformed demographic conditions with a clear message', async () => {
    const own = await productOf('fragrance', true);
    const cases: [unknown, string][] = [
      [
        { demographics: [{ field: 'height', filter: { type: 'equal', value: '2' } }] },
        'field must be one of "gender", "ethnicity"',
      ],
      [
        { demographics: [{ field: 'age', filter: { type: 'range', from: 50, to: 20 } }] },
        'from must not be after to',
      ],
      [
        { demographics: [{ field: 'gender', filter: { type: 'equal', value: '' } }] },
        'value must not be empty.',
      ],
      [{ filters: [] }, 'filters'],
    ];
    for (const [body, message] of cases) {
      const response = await profile(own, 'fragrance', body, 'researcher');
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorBody(response).message).toContain(message);
    }
  });

  it('shows every metric from the raw answers, performance first, with the study details', async () => {
    const product = await productOf('fragrance', true);
    const response = await profile(product, 'fragrance', {}, 'researcher');
    const body = response.json<ProfileResponse>();
    expect(body.info).toMatchObject({ client: product.client, prod: product.code });
    expect(body.filters).toEqual(['gender', 'ethnicity', 'social_class', 'age']);
    expect(body.time_series).toEqual({});
    expect(body.result[0]?.metric).toBe('liking');
    const types = body.result.map((row) => row.metric_type);
    expect(types.indexOf('Attribute')).toBeGreaterThan(types.lastIndexOf('Performance'));
    expect(body.result.some((row) => row.is_binary_scale)).toBe(true);
    for (const row of body.result) {
      const expected = summariseHarmonised(await harmonised(product.id, row.metric));
      expect(row.n).toBe(expected.n);
      if (row.is_binary_scale) {
        // A yes/no row is its share selected (the answers at 5 of 1 or 5), never a mean or a box.
        expect(row.selected).toBeCloseTo(expected.top_box!, 9);
        const numbers = [
          row.mean,
          row.top_box,
          row.top_2_box,
          row.just_right,
          row.bottom_box,
          row.bottom_2_box,
        ];
        expect(numbers).toEqual([null, null, null, null, null, null]);
        continue;
      }
      expect(row.selected).toBeNull();
      expect(row.mean).toBeCloseTo(expected.mean!, 5);
      if (row.metric_type !== 'EEG') {
        expect(row.top_2_box).toBeCloseTo(expected.top_2_box!, 9);
        expect(row.bottom_box).toBeCloseTo(expected.bottom_box!, 9);
      }
    }
  });

  it('applies every demographic condition, and answers no rows when no respondent is left', async () => {
    const product = await productOf('fragrance', true);
    const response = await profile(
      product,
      'fragrance',
      {
        demographics: [
          { field: 'gender', filter: { type: 'equal', value: 'Female' } },
          { field: 'age', filter: { type: 'range', from: 20, to: 45 } },
        ],
      },
      'researcher',
    );
    const liking = response.json<ProfileResponse>().result.find((row) => row.metric === 'liking')!;
    const expected = summariseHarmonised(
      await harmonised(product.id, 'liking', `r.gender = 'Female' and r.age between 20 and 45`),
    );
    expect(liking.n).toBe(expected.n);
    expect(liking.top_2_box).toBeCloseTo(expected.top_2_box!, 9);
    const none = await profile(
      product,
      'fragrance',
      { demographics: [{ field: 'age', filter: { type: 'range', from: 0, to: 1 } }] },
      'researcher',
    );
    expect(none.json<ProfileResponse>().result).toEqual([]);
  });

  it('adds N/A rows for liking, strength or purchase intention without answers', async () => {
    const product = await productOf('fragrance', true);
    await query(
      `update answers set metric_id = null where product_id = $1 and metric_id = (select id from metrics where name = 'strength')`,
      [product.id],
    );
    const body = (await profile(product, 'fragrance', {}, 'researcher')).json<ProfileResponse>();
    expect(body.result.find((row) => row.metric === 'strength')).toEqual({
      metric: 'strength',
      metric_name: 'Strength',
      metric_type: 'Performance',
      mean: 'N/A',
      top_box: 'N/A',
      top_2_box: 'N/A',
      just_right: 'N/A',
      bottom_box: 'N/A',
      bottom_2_box: 'N/A',
      selected: null,
      is_binary_scale: false,
      n: 0,
    });
    expect(body.result.filter((row) => row.metric_type === 'Performance').map((row) => row.metric)).toEqual([
      'liking',
      'purchase_intention',
      'strength',
    ]);
  });
});

describe('POST /api/study/{id}/concept/{code}', () => {
  it('shows the concept with its name and code', async () => {
    const [concept] = await query<ProductRow & { name: string; concept_code: string }>(
      `select p.id, p.study_id, p.code, s.client, c.name, c.concept_code from products p
        join studies s on s.id = p.study_id join concepts c on c.id = p.concept_id
        where p.kind = 'concept' order by p.id limit 1`,
    );
    expect(concept).toBeDefined();
    const response = await profile(concept!, 'concept', {}, 'admin');
    expect(response.statusCode).toBe(200);
    const body = response.json<ProfileResponse>();
    expect(body.info).toMatchObject({ name: concept!.name, concept_code: concept!.concept_code, code: null });
    const liking = body.result.find((row) => row.metric === 'liking');
    const expected = summariseHarmonised(await harmonised(concept!.id, 'liking'));
    if (expected.n === 0) expect(liking?.mean ?? 'N/A').toBe('N/A');
    else expect(liking?.mean).toBeCloseTo(expected.mean!, 5);
  });
});

describe('POST /api/study/{id}/fragrance/{code}/xlsx', () => {
  const download = (product: ProductRow, role: DemoRole | null, body: unknown = {}) =>
    t.request({
      method: 'POST',
      url: `/api/study/${product.study_id}/fragrance/${encodeURIComponent(product.code)}/xlsx`,
      payload: body,
      token: role ? tokens[role] : undefined,
    });

  it('is for users who may download, within their clients', async () => {
    const own = await productOf('fragrance', true);
    expect((await download(own, null)).statusCode).toBe(401);
    expect((await download(own, 'client')).statusCode).toBe(403);
    const [salesHidden] = await query<ProductRow>(
      `select p.id, p.study_id, p.code, s.client from products p join studies s on s.id = p.study_id
        where p.kind = 'fragrance' and not (s.client = any($1::text[])) order by p.id limit 1`,
      [DEMO_USERS.find((user) => user.roleId === 4)!.clients],
    );
    expect((await download(salesHidden!, 'sales')).statusCode).toBe(404);
    expect((await download(own, 'researcher', { demographics: 'x' })).statusCode).toBe(400);
  });

  it('downloads fragrance_profile.xlsx holding the profile table', async () => {
    const product = await productOf('fragrance', true);
    const response = await download(product, 'researcher');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toBe('attachment; filename="fragrance_profile.xlsx"');
    const report = readReport(await openWorkbook(response.rawPayload));
    const profileBody = (await profile(product, 'fragrance', {}, 'researcher')).json<ProfileResponse>();
    const { info } = profileBody;
    expect(report.lines[0]).toBe(`Fragrance profile: ${info.name ?? info.prod} (product code ${info.prod})`);
    expect(report.lines[1]).toBe(`Study: ${info.project_name} (${info.c_mi_number}), ${info.client}`);
    expect(report.lines).toContain('Filters: No filters');
    // Human headings as the profile tables head them, the base n last.
    const boxes = ['Top Box', 'Top 2 Box', 'Neutral', 'Bottom Box', 'Bottom 2 Box'];
    // Yes/no rows: their share under "% selected", no mean or boxes.
    expect(profileBody.result.some((row) => row.is_binary_scale)).toBe(true);
    expect(report.headings).toEqual(['Type', 'Metric', '% selected', 'Mean', ...boxes, 'Base n']);
    const others = profileBody.result.filter((row) => row.metric !== 'strength');
    const cell = (value: number | 'N/A' | null) => (value === null ? undefined : value);
    const keys = [
      'selected',
      'mean',
      'top_box',
      'top_2_box',
      'just_right',
      'bottom_box',
      'bottom_2_box',
    ] as const;
    expect(report.rows).toEqual(
      others.map((row) => [
        row.metric_type,
        row.is_binary_scale ? `${row.metric_name}*` : row.metric_name,
        ...keys.map((key) => cell(row[key])),
        row.n,
      ]),
    );
    const first = others.findIndex((row) => typeof row.mean === 'number');
    expect(report.tableRows[first]!.getCell(4).numFmt).toMatch(/^0\.00/);
    expect(report.tableRows[first]!.getCell(5).numFmt).toMatch(/^0%/);
    const yesNo = others.findIndex((row) => row.is_binary_scale);
    expect(report.tableRows[yesNo]!.getCell(3).numFmt).toMatch(/^0%/);
    // The strength rows follow under the strength headings (METRICS.md section 1).
    const strength = profileBody.result.find((row) => row.metric === 'strength');
    expect(strength).toBeDefined();
    const at = report.footnotes.indexOf('Strength');
    expect(at).toBeGreaterThanOrEqual(0);
    const headingRow = report.sheet.getRow(report.headingRow + report.rows.length + 3);
    expect(headingRow.values).toEqual([
      undefined,
      'Type',
      'Metric',
      'Mean',
      'Too strong',
      'Strong',
      'Just right',
      'Too weak',
      'Weak',
      'Base n',
    ]);
  });
});

describe('GET /api/study/{id}/demographic-options', () => {
  const options = (studyId: number, role: DemoRole | null) =>
    t.request({
      method: 'GET',
      url: `/api/study/${studyId}/demographic-options`,
      token: role ? tokens[role] : undefined,
    });

  it("offers the values of the study's own respondents, with their counts, and their age range", async () => {
    const product = await productOf('fragrance', true);
    const response = await options(product.study_id, 'client');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{
      demographics: { field: string; options: { value: string; count: number }[] }[];
      age: { min: number; max: number };
    }>();
    expect(body.demographics.map((definition) => definition.field).sort()).toEqual(
      ['age', 'ethnicity', 'gender', 'social_class'].sort(),
    );
    for (const definition of body.demographics.filter((entry) => entry.field !== 'age')) {
      const expected = await query<{ value: string; n: number }>(
        `select ${definition.field} as value, count(*)::int as n from respondents
          where study_id = $1 and ${definition.field} is not null group by 1 order by 1`,
        [product.study_id],
      );
      expect(
        definition.options.map((option) => [option.value, option.count]).sort(),
        definition.field,
      ).toEqual(expected.map((row) => [row.value, Number(row.n)]).sort());
    }
    const [ages] = await query<{ min: number; max: number }>(
      'select min(age)::int as min, max(age)::int as max from respondents where study_id = $1',
      [product.study_id],
    );
    expect(body.age).toEqual({ min: Math.max(18, ages!.min), max: Math.min(64, ages!.max) });
  });

  it('answers 401 without sign-in and 404 for a study out of scope or missing', async () => {
    const hidden = await productOf('fragrance', false);
    expect((await options(hidden.study_id, null)).statusCode).toBe(401);
    expect((await options(hidden.study_id, 'client')).statusCode).toBe(404);
    expect((await options(999_999, 'admin')).statusCode).toBe(404);
    expect((await options(hidden.study_id, 'researcher')).statusCode).toBe(200);
  });
});
