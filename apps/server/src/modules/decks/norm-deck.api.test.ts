// The norm deck through the running app: the charts read back from the file hold the numbers the
// norms screen shows (GET /norms, shares in % to 1 decimal), the base and its counts are in words on
// every slide, a withheld norm answers 403 as its workbook does, and a bad query 400.
import { NORM_MESSAGES, NORM_RULE, type NormResponse } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { readDeck } from '../../testing/pptx-deck.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-norm-deck-',
    { studies: 36, seed: 18, respondents: 30, lastYear: 2024 },
    tokens,
  );
});

afterAll(() => t?.close());

const get = (url: string, role: DemoRole | null = 'client') =>
  t.request({ method: 'GET', url, ...(role ? { token: tokens[role] } : {}) });

/** Categories with the studies and clients of their fragrances with liking answers. */
async function categories() {
  const { rows } = await t.database.sql.executeSql(
    `select s.category, count(distinct s.id)::int as studies, count(distinct s.client)::int as clients
       from studies s join products p on p.study_id = s.id
      where s.verified and p.kind = 'fragrance' and s.category is not null
        and exists (select 1 from answers a join metrics m on m.id = a.metric_id
                     where a.product_id = p.id and m.name = 'liking')
      group by s.category order by studies desc, s.category`,
  );
  return rows as { category: string; studies: number; clients: number }[];
}

const qs = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('GET /api/norms/pptx', () => {
  it('needs a signed-in user (401) and a valid query (400)', async () => {
    expect(
      (await get('/api/norms/pptx?category=Fabric%20Care&metric=liking&aggregation=mean', null)).statusCode,
    ).toBe(401);
    const missing = await get('/api/norms/pptx?metric=liking&aggregation=mean');
    expect(missing.statusCode).toBe(400);
    const unknown = await get('/api/norms/pptx?category=Fabric%20Care&metric=liking&aggregation=nonsense');
    expect(unknown.statusCode).toBe(400);
  });

  it('charts the mean, percentiles and distribution the screen shows, the base in words on every slide', async () => {
    const big = (await categories()).find(
      (row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients,
    )!;
    const params = { category: big.category, metric: 'liking', aggregation: 'top_2_box' };
    const norm = (await get(`/api/norms?${qs(params)}`)).json<NormResponse>();
    expect(norm.status).toBe('available');
    const file = await get(`/api/norms/pptx?${qs(params)}`);
    expect(file.statusCode, file.body.slice(0, 300)).toBe(200);
    expect(file.headers['content-type']).toContain('presentationml.presentation');
    expect(file.headers['content-disposition']).toContain('norm.pptx');
    const slides = await readDeck(file.rawPayload);
    expect(slides).toHaveLength(3);
    expect(slides[0]!.text.split('\n')[0]).toBe(`Norm: ${norm.metric.label}, ${norm.aggregation.label}`);
    for (const slide of slides) expect(slide.text).toContain(`Base: ${norm.base.description}`);
    const counts = `${norm.products} fragrances with a score, ${norm.studies} studies, ${norm.clients} clients`;
    for (const slide of slides.slice(1)) expect(slide.text).toContain(`Counts: ${counts}`);

    const scores = slides[1]!.charts[0]!.series[0]!;
    // The action standards named short on the axis, and in full in the footnote.
    expect(scores.categories).toEqual([
      'Mean',
      ...norm.lines.map((line) =>
        line.action_standard
          ? line.label.replace(/^Action standard: (.+) \((P\d+)\)$/, '$2 ($1)')
          : line.label,
      ),
    ]);
    expect(scores.categories).toContain('P75 (top quartile)');
    expect(slides[1]!.text).toContain('Action standards: P75 (top quartile) and P90 (top decile), the score');
    // As the screen writes a share: a percentage with one decimal.
    expect(scores.values).toEqual(
      [norm.mean!, ...norm.lines.map((line) => line.value)].map((value) => Math.round(value * 1000) / 10),
    );
    expect(scores.values[norm.lines.findIndex((line) => line.key === 'p50') + 1]).toBe(
      Math.round(norm.percentiles!.p50 * 1000) / 10,
    );

    const bands = slides[2]!.charts[0]!.series[0]!;
    expect(bands.values).toEqual(norm.histogram.map((bin) => bin.count));
    expect(bands.values.reduce((sum: number, value) => sum + (value ?? 0), 0)).toBe(norm.products);
    expect(bands.categories[0]).toBe(
      `${(norm.histogram[0]!.from * 100).toFixed(1)}% to under ${(norm.histogram[0]!.to * 100).toFixed(1)}%`,
    );
  });

  it('writes means with 2 decimals, as the screen', async () => {
    const big = (await categories()).find(
      (row) => row.studies >= NORM_RULE.studies && row.clients >= NORM_RULE.clients,
    )!;
    const params = { category: big.category, metric: 'liking', aggregation: 'mean' };
    const norm = (await get(`/api/norms?${qs(params)}`, 'researcher')).json<NormResponse>();
    const slides = await readDeck((await get(`/api/norms/pptx?${qs(params)}`, 'researcher')).rawPayload);
    expect(slides[1]!.charts[0]!.series[0]!.values).toEqual(
      [norm.mean!, ...norm.lines.map((line) => line.value)].map((value) => Math.round(value * 100) / 100),
    );
  });

  it('answers 403 with the reason for a withheld norm, to clients and staff alike', async () => {
    const small = (await categories()).find(
      (row) => row.studies < NORM_RULE.studies || row.clients < NORM_RULE.clients,
    );
    expect(small).toBeDefined();
    const params = { category: small!.category, metric: 'liking', aggregation: 'top_2_box' };
    for (const role of ['client', 'sales', 'researcher'] as const) {
      const file = await get(`/api/norms/pptx?${qs(params)}`, role);
      expect(file.statusCode, role).toBe(403);
      expect(errorBody(file).message).toBe(NORM_MESSAGES.withheld);
    }
  });
});
