// Drivers of liking through the running app on a generated library: sign-in and bad input; each
// study's correlation and the pooled figure recomputed here from the raw answers (Pearson per product,
// Fisher z, DerSimonian-Laird and Hartung-Knapp written out); the strength penalties; the norms rule
// for client users (a qualifying base shown without any foreign study, client or product named, a small
// base withheld); the workbook and the slides.
import ExcelJS from 'exceljs';
import { DRIVERS_MESSAGES, DriversResponse, NORM_RULE } from '@accord/contracts';
import { studentTQuantile } from '@accord/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../seed/users.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};
const CLIENT_CLIENTS = DEMO_USERS.find((user) => user.roleId === 3)!.clients;

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-drivers-',
    { studies: 36, seed: 18, respondents: 30, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

const get = (url: string, role: DemoRole | null = 'client') =>
  t.request({ method: 'GET', url, ...(role ? { token: tokens[role] } : {}) });
const qs = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(params)
      .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
      .map(([key, value]) => [key, String(value)] as [string, string]),
  ).toString();

async function categories() {
  return query<{ category: string; studies: number; clients: number }>(
    `select s.category, count(distinct s.id)::int as studies, count(distinct s.client)::int as clients
       from studies s join products p on p.study_id = s.id
      where s.verified and p.kind = 'fragrance' and s.category is not null
        and exists (select 1 from answers a join metrics m on m.id = a.metric_id
                     where a.product_id = p.id and m.name = 'liking')
      group by s.category order by studies desc, s.category`,
  );
}

async function qualifying() {
  return (await categories()).find(
    (row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients,
  )!;
}

async function driversOf(params: Record<string, string | number | undefined>, role: DemoRole = 'client') {
  const response = await get(`/api/drivers?${qs(params)}`, role);
  expect(response.statusCode, response.body).toBe(200);
  // The answer leaves as text written once per base and audience: it must follow the contract.
  return { drivers: DriversResponse.parse(response.json()), body: response.body };
}

interface Cell {
  study_id: number;
  product_id: number;
  respondent_id: number;
  liking: number;
  x: number;
}

/**
 * Liking and a metric's answers of the same respondent for the same product, in the category's verified
 * studies' fragrances, inside the 5-point scale, each the mean of the metric's questions.
 */
async function pairedAnswers(category: string, metric: string): Promise<Cell[]> {
  return query<Cell>(
    `with a as (
       select a.study_id, a.product_id, a.respondent_id, m.name, avg(a.value) as v
         from answers a join products p on p.id = a.product_id join studies s on s.id = p.study_id
         join metrics m on m.id = a.metric_id
        where s.verified and p.kind = 'fragrance' and s.category = $1 and m.name in ('liking', $2)
          and a.value between 1 - 1e-9 and 5 + 1e-9
        group by 1, 2, 3, 4)
     select l.study_id, l.product_id, l.respondent_id, l.v as liking, x.v as x
       from a l join a x on x.product_id = l.product_id and x.respondent_id = l.respondent_id
      where l.name = 'liking' and x.name = $2`,
    [category, metric],
  );
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    groups.set(k, [...(groups.get(k) ?? []), row]);
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

/** Per study: Pearson per product, Fisher z averaged with weights n − 3; n the respondents. */
function studyCorrelations(cells: readonly Cell[]): Map<number, { r: number; n: number }> {
  const result = new Map<number, { r: number; n: number }>();
  for (const [studyId, rows] of groupBy(cells, (cell) => cell.study_id)) {
    let weighted = 0;
    let weights = 0;
    for (const product of groupBy(rows, (cell) => cell.product_id).values()) {
      const r = pearson(
        product.map((cell) => cell.liking),
        product.map((cell) => cell.x),
      );
      if (!Number.isFinite(r) || Math.abs(r) >= 1 || product.length <= 3) continue;
      weighted += (product.length - 3) * Math.atanh(r);
      weights += product.length - 3;
    }
    const n = new Set(rows.map((cell) => cell.respondent_id)).size;
    if (weights > 0 && n > 3) result.set(studyId, { r: Math.tanh(weighted / weights), n });
  }
  return result;
}

/** Fisher z, DerSimonian-Laird τ², Hartung-Knapp interval, written out. */
function pooled(studies: readonly { r: number; n: number }[]) {
  const z = studies.map((study) => Math.atanh(study.r));
  const w = studies.map((study) => study.n - 3);
  const sw = w.reduce((a, b) => a + b, 0);
  const fixed = z.reduce((sum, value, i) => sum + w[i]! * value, 0) / sw;
  const q = z.reduce((sum, value, i) => sum + w[i]! * (value - fixed) ** 2, 0);
  const k = studies.length;
  const c = sw - w.reduce((sum, value) => sum + value * value, 0) / sw;
  const tau2 = Math.max(0, (q - (k - 1)) / c);
  const ws = w.map((value) => 1 / (1 / value + tau2));
  const sws = ws.reduce((a, b) => a + b, 0);
  const estimate = z.reduce((sum, value, i) => sum + ws[i]! * value, 0) / sws;
  const hk = Math.sqrt(
    z.reduce((sum, value, i) => sum + ws[i]! * (value - estimate) ** 2, 0) / ((k - 1) * sws),
  );
  const tq = studentTQuantile(0.975, k - 1);
  return {
    r: Math.tanh(estimate),
    ciLow: Math.tanh(estimate - tq * hk),
    ciHigh: Math.tanh(estimate + tq * hk),
    i2: q > k - 1 ? (q - (k - 1)) / q : 0,
  };
}

/** Names of studies, clients and products outside the client user's scope. */
async function foreignNames(): Promise<string[]> {
  const studies = await query<{ c_mi_number: string; project_name: string; client: string }>(
    `select c_mi_number, project_name, client from studies where not (client = any($1::text[]))`,
    [CLIENT_CLIENTS],
  );
  const products = await query<{ name: string }>(
    `select f.name from fragrances f join studies s on s.id = f.study_id
      where not (s.client = any($1::text[])) and f.name is not null and length(f.name) > 6`,
    [CLIENT_CLIENTS],
  );
  return [
    ...new Set([
      ...studies.flatMap((study) => [study.c_mi_number, study.project_name, study.client]),
      ...products.map((product) => product.name),
    ]),
  ];
}

describe('drivers: sign-in and bad input', () => {
  it('needs a signed-in user (401)', async () => {
    for (const path of ['/api/drivers', '/api/drivers/xlsx', '/api/drivers/pptx']) {
      expect((await get(`${path}?category=Fabric%20Care`, null)).statusCode, path).toBe(401);
    }
  });

  it('refuses a missing category, a metric that is not liking and reversed years (400)', async () => {
    const cases: [Record<string, string | number | undefined>, string][] = [
      [{}, 'category'],
      [{ category: 'Fabric Care', liking: 'fresh' }, DRIVERS_MESSAGES.notLiking('fresh')],
      [{ category: 'Fabric Care', liking: 'no_such_metric' }, DRIVERS_MESSAGES.notLiking('no_such_metric')],
      [{ category: 'Fabric Care', year_from: 2024, year_to: 2020 }, DRIVERS_MESSAGES.yearOrder],
      [{ category: 'Fabric Care', colour: 'red' }, 'colour'],
    ];
    for (const [params, expected] of cases) {
      const response = await get(`/api/drivers?${qs(params)}`);
      expect(response.statusCode, JSON.stringify(params)).toBe(400);
      expect(JSON.stringify(errorBody(response)), JSON.stringify(params)).toContain(
        JSON.stringify(expected).slice(1, -1),
      );
    }
  });
});

describe('drivers: the numbers', () => {
  it("gives each study's correlation and the pooled figure as recomputed from the raw answers", async () => {
    const big = await qualifying();
    const { drivers } = await driversOf({ category: big.category }, 'admin');
    expect(drivers.status).toBe('available');
    expect(drivers.attributes.length).toBeGreaterThan(3);
    // Ranked by pooled correlation.
    const rs = drivers.attributes.map((attribute) => attribute.r);
    expect([...rs].sort((a, b) => b - a)).toEqual(rs);
    for (const name of ['fresh', 'clean', 'feminine']) {
      const attribute = drivers.attributes.find((entry) => entry.metric.name === name)!;
      expect(attribute, name).toBeDefined();
      const expected = studyCorrelations(await pairedAnswers(big.category, name));
      expect(attribute.per_study).toHaveLength(expected.size);
      for (const study of attribute.per_study) {
        const own = expected.get(study.study.id!)!;
        expect(study.r, `${name} study ${study.study.id}`).toBeCloseTo(own.r, 9);
        expect(study.n).toBe(own.n);
      }
      const figure = pooled([...expected.values()]);
      expect(attribute.r, name).toBeCloseTo(figure.r, 9);
      expect(attribute.ci_low!).toBeCloseTo(figure.ciLow, 9);
      expect(attribute.ci_high!).toBeCloseTo(figure.ciHigh, 9);
      expect(attribute.i2).toBeCloseTo(figure.i2, 9);
      expect(attribute.studies).toBe(expected.size);
      expect(attribute.respondents).toBe([...expected.values()].reduce((sum, study) => sum + study.n, 0));
    }
  });

  it('pools the strength penalties over the base', async () => {
    const big = await qualifying();
    const { drivers } = await driversOf({ category: big.category }, 'admin');
    const strength = drivers.strength.find((entry) => entry.metric.name === 'strength')!;
    expect(strength).toBeDefined();
    const cells = await pairedAnswers(big.category, 'strength');
    const weak = cells.filter((cell) => cell.x <= 2.5 + 1e-9);
    const strong = cells.filter((cell) => cell.x >= 3.5 - 1e-9);
    expect(strength.respondents).toBe(cells.length);
    expect(strength.too_weak.share).toBeCloseTo(weak.length / cells.length, 12);
    expect(strength.too_strong.share).toBeCloseTo(strong.length / cells.length, 12);
    // Drop per product (just right − group), weighted by the group's size.
    let weighted = 0;
    let weights = 0;
    for (const product of groupBy(cells, (cell) => cell.product_id).values()) {
      const right = product.filter((cell) => cell.x > 2.5 + 1e-9 && cell.x < 3.5 - 1e-9);
      const group = product.filter((cell) => cell.x <= 2.5 + 1e-9);
      if (right.length === 0 || group.length === 0) continue;
      weighted += group.length * (average(right.map((c) => c.liking)) - average(group.map((c) => c.liking)));
      weights += group.length;
    }
    expect(strength.too_weak.drop!).toBeCloseTo(weighted / weights, 9);
    expect(strength.too_weak.penalty!).toBeCloseTo((weighted / weights) * strength.too_weak.share, 9);
  });
});

describe('drivers: client scoping and the norms rule', () => {
  it('shows a client a qualifying base without naming another client, study or product', async () => {
    const big = await qualifying();
    const { drivers, body } = await driversOf({ category: big.category });
    expect(drivers.status).toBe('available');
    expect(drivers.reason).toBeNull();
    for (const name of await foreignNames()) expect(body, name).not.toContain(name);
    const entries = drivers.attributes.flatMap((attribute) => attribute.per_study);
    const foreign = entries.filter((entry) => entry.study.id === null);
    expect(foreign.length).toBeGreaterThan(0);
    expect(new Set(foreign.map((entry) => entry.study.label))).toEqual(
      new Set([DRIVERS_MESSAGES.otherClient]),
    );
    const own = await query<{ id: number }>(`select id from studies where client = any($1::text[])`, [
      CLIENT_CLIENTS,
    ]);
    const ownIds = new Set(own.map((row) => row.id));
    for (const entry of entries.filter((item) => item.study.id !== null)) {
      expect(ownIds.has(entry.study.id!)).toBe(true);
    }
    // The same numbers a researcher reads.
    const staff = (await driversOf({ category: big.category }, 'researcher')).drivers;
    expect(drivers.attributes.map((attribute) => attribute.r)).toEqual(staff.attributes.map((a) => a.r));
  });

  it('withholds a small base from client and sales users, and says so to staff', async () => {
    const small = (await categories()).find(
      (row) => row.studies < NORM_RULE.studies || row.clients < NORM_RULE.clients,
    )!;
    expect(small).toBeDefined();
    for (const role of ['client', 'sales'] as const) {
      const { drivers } = await driversOf({ category: small.category }, role);
      expect(drivers.status, role).toBe('withheld');
      expect(drivers.reason).toBe(DRIVERS_MESSAGES.withheld);
      expect(drivers.attributes).toEqual([]);
      expect(drivers.studies).toBeNull();
    }
    const file = await get(`/api/drivers/xlsx?${qs({ category: small.category })}`);
    expect(file.statusCode).toBe(403);
    expect(errorBody(file).message).toBe(DRIVERS_MESSAGES.withheld);
    const staff = (await driversOf({ category: small.category }, 'admin')).drivers;
    expect(staff.status).toBe('available');
    expect(staff.reason).toBe(DRIVERS_MESSAGES.staffOnly);
  });
});

describe('drivers: files', () => {
  it('writes the workbook with the ranked attributes and the slides', async () => {
    const big = await qualifying();
    const { drivers } = await driversOf({ category: big.category });
    const file = await get(`/api/drivers/xlsx?${qs({ category: big.category })}`);
    expect(file.statusCode, file.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const firstColumn: unknown[] = [];
    const values = new Map<string, unknown>();
    workbook.worksheets[0]!.eachRow((row) => {
      const label = row.getCell(1).value;
      firstColumn.push(label);
      if (typeof label === 'string' && !values.has(label)) values.set(label, row.getCell(2).value);
    });
    expect(JSON.stringify(firstColumn)).toContain(drivers.base.description);
    const top = drivers.attributes[0]!;
    expect(values.get(top.metric.label)).toBeCloseTo(top.r, 12);
    for (const name of await foreignNames()) expect(JSON.stringify(firstColumn)).not.toContain(name);

    const slides = await get(`/api/drivers/pptx?${qs({ category: big.category })}`);
    expect(slides.statusCode).toBe(200);
    expect(slides.headers['content-type']).toContain('presentationml');
    expect(slides.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
