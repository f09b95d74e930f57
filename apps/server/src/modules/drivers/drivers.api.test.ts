// Drivers of liking through the running app on a generated library: sign-in and bad input; each
// study's correlation and the pooled figure recomputed here from the raw answers (Pearson per product,
// Fisher z, DerSimonian-Laird and Hartung-Knapp written out); the strength penalties; the norms rule
// for client users (a qualifying base shown without any foreign study, client or product named, a small
// base withheld); the workbook and the slides; "How was this computed?" recomputing a figure from its
// answers, scoped, with its answers as csv; the answer kept while the data version is unchanged.
import ExcelJS from 'exceljs';
import {
  DRIVER_ANSWERS_CSV_COLUMNS,
  DRIVERS_MESSAGES,
  DriversResponse,
  DriverTraceResponse,
  NORM_RULE,
  TRACE_MESSAGES,
} from '@accord/contracts';
import { studentTQuantile } from '@accord/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../seed/users.ts';
import { createLibraryTestApp, likingCategories, queryString, sqlRows } from '../../testing/library-app.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};
const CLIENT_CLIENTS = DEMO_USERS.find((user) => user.roleId === 3)!.clients;
const SALES_CLIENTS = DEMO_USERS.find((user) => user.roleId === 4)!.clients;

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-drivers-',
    { studies: 36, seed: 18, respondents: 30, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

const query = <T>(text: string, values: unknown[] = []) => sqlRows(t)<T>(text, values);

const get = (url: string, role: DemoRole | null = 'client') =>
  t.request({ method: 'GET', url, ...(role ? { token: tokens[role] } : {}) });
const qs = queryString;

const categories = () => likingCategories(t);

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

/** Names of studies, clients and products outside a user's scope (the client user's by default). */
async function foreignNames(clients: readonly string[] = CLIENT_CLIENTS): Promise<string[]> {
  const studies = await query<{ c_mi_number: string; project_name: string; client: string }>(
    `select c_mi_number, project_name, client from studies where not (client = any($1::text[]))`,
    [clients],
  );
  const products = await query<{ name: string }>(
    `select f.name from fragrances f join studies s on s.id = f.study_id
      where not (s.client = any($1::text[])) and f.name is not null and length(f.name) > 6`,
    [clients],
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

async function traceOf(params: Record<string, string | number | undefined>, role: DemoRole = 'client') {
  const response = await get(`/api/drivers/trace?${qs(params)}`, role);
  expect(response.statusCode, response.body).toBe(200);
  return { trace: DriverTraceResponse.parse(response.json()), body: response.body };
}

describe('drivers: how was this computed?', () => {
  it('recomputes the pooled figure from its answers, study by study, equal to the drivers answer', async () => {
    const big = await qualifying();
    const { drivers } = await driversOf({ category: big.category }, 'admin');
    for (const name of ['fresh', 'clean']) {
      const attribute = drivers.attributes.find((entry) => entry.metric.name === name)!;
      const { trace } = await traceOf({ category: big.category, attribute: name }, 'admin');
      expect(trace.attribute.name).toBe(name);
      expect(trace.shown.r).toBe(attribute.r);
      expect(trace.recomputed.r, name).toBeCloseTo(attribute.r, 12);
      expect(trace.recomputed.ci_low!).toBeCloseTo(attribute.ci_low!, 12);
      expect(trace.recomputed.ci_high!).toBeCloseTo(attribute.ci_high!, 12);
      expect(trace.equal).toBe(true);
      expect(trace.recomputed.studies).toBe(attribute.studies);
      expect(trace.recomputed.respondents).toBe(attribute.respondents);

      // The test's own recomputation from the raw answers: every study, its products, its pairs.
      const cells = await pairedAnswers(big.category, name);
      const expected = studyCorrelations(cells);
      expect(trace.studies).toHaveLength(expected.size);
      let pairs = 0;
      let products = 0;
      for (const study of trace.studies) {
        const own = expected.get(study.study.id!)!;
        expect(study.r, `${name} study ${study.study.id}`).toBeCloseTo(own.r, 12);
        expect(study.respondents).toBe(own.n);
        const rows = cells.filter((cell) => cell.study_id === study.study.id);
        const byProduct = groupBy(rows, (cell) => cell.product_id);
        expect(study.products).toHaveLength(byProduct.size);
        expect(study.products.reduce((sum, product) => sum + product.n, 0)).toBe(rows.length);
        pairs += rows.length;
        products += byProduct.size;
      }
      expect(trace.recomputed.pairs).toBe(pairs);
      expect(trace.recomputed.products).toBe(products);
      expect(pooled([...expected.values()]).r).toBeCloseTo(trace.recomputed.r, 12);
      expect(trace.download_note).toBeNull();
      expect(trace.can_download).toBe(true);
    }
  });

  it('needs a signed-in user (401), a ranked attribute (400) and a base the caller may read (403)', async () => {
    const big = await qualifying();
    for (const path of ['/api/drivers/trace', '/api/drivers/trace/answers.csv']) {
      const anonymous = await get(`${path}?${qs({ category: big.category, attribute: 'fresh' })}`, null);
      expect(anonymous.statusCode, path).toBe(401);
    }
    const cases: [Record<string, string | number | undefined>, string][] = [
      [{ category: big.category }, 'attribute'],
      [{ category: big.category, attribute: 'liking' }, DRIVERS_MESSAGES.notAttribute('liking')],
      [{ category: big.category, attribute: 'no_such' }, DRIVERS_MESSAGES.notAttribute('no_such')],
      [
        { category: big.category, attribute: 'fresh', year_from: 2024, year_to: 2020 },
        DRIVERS_MESSAGES.yearOrder,
      ],
    ];
    for (const [params, expected] of cases) {
      const response = await get(`/api/drivers/trace?${qs(params)}`);
      expect(response.statusCode, JSON.stringify(params)).toBe(400);
      expect(JSON.stringify(errorBody(response))).toContain(JSON.stringify(expected).slice(1, -1));
    }
    const small = (await categories()).find(
      (row) => row.studies < NORM_RULE.studies || row.clients < NORM_RULE.clients,
    )!;
    for (const path of ['/api/drivers/trace', '/api/drivers/trace/answers.csv']) {
      const withheld = await get(`${path}?${qs({ category: small.category, attribute: 'fresh' })}`, 'sales');
      expect(withheld.statusCode, path).toBe(403);
      expect(errorBody(withheld).message).toBe(DRIVERS_MESSAGES.withheld);
    }
    // The client user has no download right.
    const refused = await get(
      `/api/drivers/trace/answers.csv?${qs({ category: big.category, attribute: 'fresh' })}`,
    );
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).message).toBe(TRACE_MESSAGES.downloadNotAllowed);
  });

  it("never names another client's study or product to a client, and downloads only the caller's answers", async () => {
    const big = await qualifying();
    for (const [role, clients] of [
      ['client', CLIENT_CLIENTS],
      ['sales', SALES_CLIENTS],
    ] as const) {
      const { trace, body } = await traceOf({ category: big.category, attribute: 'fresh' }, role);
      for (const name of await foreignNames(clients)) expect(body, `${role}: ${name}`).not.toContain(name);
      const foreign = trace.studies.filter((study) => study.study.id === null);
      expect(foreign.length, role).toBeGreaterThan(0);
      expect(new Set(foreign.map((study) => study.study.label))).toEqual(
        new Set([DRIVERS_MESSAGES.otherClient]),
      );
      for (const study of foreign) {
        expect(study.products.map((product) => product.label)).toEqual(
          study.products.map((_, index) => `Product ${index + 1}`),
        );
      }
      expect(trace.download_note).toBe(DRIVERS_MESSAGES.otherClientAnswers);
      // The same figure as staff read: scoping hides names, never numbers.
      const staff = (await traceOf({ category: big.category, attribute: 'fresh' }, 'admin')).trace;
      expect(trace.recomputed).toEqual(staff.recomputed);
    }

    const csv = await get(
      `/api/drivers/trace/answers.csv?${qs({ category: big.category, attribute: 'fresh' })}`,
      'sales',
    );
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(DRIVER_ANSWERS_CSV_COLUMNS.join(','));
    const own = await query<{ c_mi_number: string }>(
      `select c_mi_number from studies where client = any($1::text[])`,
      [SALES_CLIENTS],
    );
    const ownNumbers = new Set(own.map((row) => row.c_mi_number));
    const ownIds = new Set(
      (
        await query<{ id: number }>(`select id from studies where client = any($1::text[])`, [SALES_CLIENTS])
      ).map((row) => row.id),
    );
    const cells = (await pairedAnswers(big.category, 'fresh')).filter((cell) => ownIds.has(cell.study_id));
    expect(lines).toHaveLength(cells.length + 1);
    const rows = lines.slice(1).map((line) => line.split(','));
    for (const row of rows) expect(ownNumbers.has(row[0]!), row[0]).toBe(true);
    // The file's answers give the same per-study correlations as the screen.
    const { trace } = await traceOf({ category: big.category, attribute: 'fresh' }, 'sales');
    const fromFile = groupBy(rows, (row) => row[0]!);
    const byNumber = new Map(
      (await query<{ id: number; c_mi_number: string }>(`select id, c_mi_number from studies`)).map((row) => [
        row.c_mi_number,
        row.id,
      ]),
    );
    for (const [number, studyRows] of fromFile) {
      const shown = trace.studies.find((study) => study.study.id === byNumber.get(number));
      if (!shown) continue;
      const recomputed = studyCorrelations(
        studyRows.map((row) => ({
          study_id: 0,
          product_id: row[2] as unknown as number,
          respondent_id: row[1] as unknown as number,
          liking: Number(row[3]),
          x: Number(row[4]),
        })),
      ).get(0)!;
      expect(recomputed.r, number).toBeCloseTo(shown.r, 12);
    }
  });
});

describe('drivers: kept while the data is unchanged', () => {
  it('answers a repeated call from its cache and refreshes after a change of the data', async () => {
    const big = await qualifying();
    const first = await driversOf({ category: big.category }, 'admin');
    const fresh = () => first.drivers.attributes.find((entry) => entry.metric.name === 'fresh')!;
    const studyId = fresh().per_study[0]!.study.id!;
    const flip = `update answers set value = 6 - value, raw_value = raw_value
       where study_id = $1 and metric_id = (select id from metrics where name = 'fresh')
         and value between 1 and 5`;
    // Answers carry no change counter: a write to them alone leaves the cached answer as it was.
    await query(flip, [studyId]);
    try {
      const again = await driversOf({ category: big.category }, 'admin');
      expect(again.body).toBe(first.body);
      const expected = pooled([...studyCorrelations(await pairedAnswers(big.category, 'fresh')).values()]);
      expect(Math.abs(expected.r - fresh().r)).toBeGreaterThan(1e-3);
      // The trace's recomputation is kept as well: the same figure as before the write.
      const kept = (await traceOf({ category: big.category, attribute: 'fresh' }, 'admin')).trace;
      expect(kept.recomputed.r).toBeCloseTo(fresh().r, 12);
      expect(kept.equal).toBe(true);

      // A write that raises a change counter (as every upload and edit does) refreshes it.
      await query(`update studies set project_name = project_name where id = $1`, [studyId]);
      const refreshed = await driversOf({ category: big.category }, 'admin');
      const after = refreshed.drivers.attributes.find((entry) => entry.metric.name === 'fresh')!;
      expect(after.r).toBeCloseTo(expected.r, 12);
      const traced = (await traceOf({ category: big.category, attribute: 'fresh' }, 'admin')).trace;
      expect(traced.recomputed.r).toBeCloseTo(expected.r, 12);
      expect(traced.equal).toBe(true);
    } finally {
      await query(flip, [studyId]);
      await query(`update studies set project_name = project_name where id = $1`, [studyId]);
    }
    // Restored (the database's sums may differ in their last digit from one run to the next).
    const restored = (await driversOf({ category: big.category }, 'admin')).drivers;
    const back = restored.attributes.find((entry) => entry.metric.name === 'fresh')!;
    expect(back.r).toBeCloseTo(fresh().r, 12);
  });
});
