// One fragrance across its tests through the running app: the pooled estimate, its Hartung-Knapp-
// Sidik-Jonkman and prediction intervals against a computation written here on study means recomputed
// from the raw answers of one category and methodology, client scoping of a code tested for several
// clients, and the refusals.
import {
  FRAGRANCE_MESSAGES,
  FRAGRANCE_POOL_CAUTIONS,
  FRAGRANCE_POOLED_METRICS,
  FragranceResponse,
  FRAGRANCE_TEST_METRICS,
  type FragrancePooled,
} from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DEMO_USERS } from '../../seed/users.ts';
import { createLibraryTestApp } from '../../testing/library-app.ts';
import { readDeck } from '../../testing/pptx-deck.ts';
import { errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens: Partial<Record<DemoRole, string>> = {};
const clientUserClients = DEMO_USERS.find((user) => user.roleId === 3)!.clients;

beforeAll(async () => {
  t = await createLibraryTestApp(
    'accord-fragrance-',
    { studies: 24, seed: 11, respondents: 40, lastYear: 2025 },
    tokens,
  );
});

afterAll(() => t?.close());

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await t.database.sql.executeSql(text, values);
  return rows as T[];
}

const get = (code: string, role: DemoRole | null, search = '') =>
  t.request({
    method: 'GET',
    url: `/api/fragrance/${encodeURIComponent(code)}${search}`,
    token: role ? tokens[role] : undefined,
  });

async function fragranceOf(code: string, role: DemoRole, search = ''): Promise<FragranceResponse> {
  const response = await get(code, role, search);
  expect(response.statusCode, response.body).toBe(200);
  return FragranceResponse.parse(response.json());
}

/**
 * Harmonised answers (METRICS.md section 1) of a metric per study for a code, from the raw answers;
 * `group` keeps the studies of one category and methodology.
 */
async function answersByStudy(
  code: string,
  metric: string,
  verifiedOnly: boolean,
  group?: { category: string | null; methodology: string | null },
  categoryOnly = false,
): Promise<Map<number, number[]>> {
  const rows = await query<{ study_id: number; raw_value: number; scale_min: number; scale_max: number }>(
    `select p.study_id, a.raw_value, q.scale_min, q.scale_max
      from answers a join questions q on q.id = a.question_id join metrics m on m.id = a.metric_id
      join products p on p.id = a.product_id join fragrances f on f.id = p.fragrance_id
      join studies s on s.id = p.study_id
      where f.code = $1 and m.name = $2 and (s.verified or not $3)
        and (not $4 or (s.category is not distinct from $5 and ($7 or s.methodology is not distinct from $6)))`,
    [
      code,
      metric,
      verifiedOnly,
      group !== undefined,
      group?.category ?? null,
      group?.methodology ?? null,
      categoryOnly,
    ],
  );
  const byStudy = new Map<number, number[]>();
  for (const row of rows) {
    const harmonised = 1 + (4 * (Number(row.raw_value) - row.scale_min)) / (row.scale_max - row.scale_min);
    const list = byStudy.get(Number(row.study_id)) ?? [];
    list.push(harmonised);
    byStudy.set(Number(row.study_id), list);
  }
  return byStudy;
}

/** DerSimonian-Laird random-effects pooling, written out from its definition. */
function dersimonianLaird(studies: { mean: number; variance: number }[]) {
  const k = studies.length;
  const w = studies.map((study) => 1 / study.variance);
  const sw = w.reduce((a, b) => a + b, 0);
  const fixed = studies.reduce((acc, study, i) => acc + w[i]! * study.mean, 0) / sw;
  const q = studies.reduce((acc, study, i) => acc + w[i]! * (study.mean - fixed) ** 2, 0);
  const c = sw - w.reduce((acc, wi) => acc + wi * wi, 0) / sw;
  const tau2 = Math.max(0, (q - (k - 1)) / c);
  const ws = studies.map((study) => 1 / (study.variance + tau2));
  const sws = ws.reduce((a, b) => a + b, 0);
  const estimate = studies.reduce((acc, study, i) => acc + ws[i]! * study.mean, 0) / sws;
  const se = Math.sqrt(1 / sws);
  // Hartung-Knapp-Sidik-Jonkman: the weighted spread of the study means around the estimate.
  const hkSe = Math.sqrt(
    studies.reduce((acc, study, i) => acc + ws[i]! * (study.mean - estimate) ** 2, 0) / ((k - 1) * sws),
  );
  return {
    estimate,
    se,
    tau2,
    q,
    i2: q > k - 1 ? (q - (k - 1)) / q : 0,
    low: estimate - 1.959963984540054 * se,
    high: estimate + 1.959963984540054 * se,
    hkSe,
    piHalf: (df: number) => T_975[df]! * Math.sqrt(tau2 + se * se),
    hkHalf: T_975[k - 1]! * hkSe,
  };
}

/** t(0.975, df) for df 1-12 (SciPy's t.ppf(0.975, df)). */
const T_975: Record<number, number> = {
  1: 12.706204736174694,
  2: 4.302652729749462,
  3: 3.1824463052837078,
  4: 2.7764451051977934,
  5: 2.5705818356363146,
  6: 2.4469118511449786,
  7: 2.364624251592784,
  8: 2.306004135204166,
  9: 2.262157162798205,
  10: 2.228138851986274,
  11: 2.200985160091639,
  12: 2.1788128296672284,
};

function meanAndVariance(values: number[]) {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sampleVariance = values.reduce((acc, v) => acc + (v - mean) ** 2, 0) / (n - 1);
  return { mean, variance: sampleVariance / n, n };
}

/** One pooled metric equals DerSimonian-Laird, Hartung-Knapp and the prediction interval recomputed here. */
function expectPooledAsRecomputed(pooled: FragrancePooled, summaries: { mean: number; variance: number }[]) {
  const expected = dersimonianLaird(summaries);
  expect(pooled.estimate).toBeCloseTo(expected.estimate, 10);
  expect(pooled.std_error).toBeCloseTo(expected.se, 10);
  expect(pooled.ci_low).toBeCloseTo(expected.low, 10);
  expect(pooled.ci_high).toBeCloseTo(expected.high, 10);
  expect(pooled.tau2).toBeCloseTo(expected.tau2, 10);
  expect(pooled.q).toBeCloseTo(expected.q, 8);
  expect(pooled.i2).toBeCloseTo(expected.i2, 10);
  expect(pooled.hk_std_error).toBeCloseTo(expected.hkSe, 10);
  expect(pooled.hk_ci_low).toBeCloseTo(expected.estimate - expected.hkHalf, 8);
  expect(pooled.hk_ci_high).toBeCloseTo(expected.estimate + expected.hkHalf, 8);
  if (summaries.length >= 3) {
    expect(pooled.pi_low).toBeCloseTo(expected.estimate - expected.piHalf(summaries.length - 2), 8);
    expect(pooled.pi_high).toBeCloseTo(expected.estimate + expected.piHalf(summaries.length - 2), 8);
  } else {
    expect(pooled.pi_low).toBeNull();
  }
}

/** The code tested in the most verified studies of the demo library. */
async function mostTestedCode(): Promise<{ code: string; studies: number }> {
  const [row] = await query<{ code: string; studies: number }>(
    `select f.code, count(distinct f.study_id)::int as studies from fragrances f
      join studies s on s.id = f.study_id where s.verified
      group by f.code order by 2 desc, 1 limit 1`,
  );
  return { code: row!.code, studies: Number(row!.studies) };
}

/**
 * The code tested in the most verified studies, its studies given one category and methodology (the
 * small demo library spreads re-tests over categories); `restore` puts theirs back.
 */
async function retestedInOneGroup(): Promise<{
  code: string;
  studies: number;
  restore: () => Promise<void>;
}> {
  const { code, studies } = await mostTestedCode();
  const before = await query<{ id: number; category: string | null; methodology: string | null }>(
    `select distinct s.id, s.category, s.methodology from fragrances f join studies s on s.id = f.study_id
      where f.code = $1 and s.verified order by s.id`,
    [code],
  );
  await query(`update studies set category = $2, methodology = $3 where id = any($1::int[])`, [
    before.map((row) => row.id),
    before[0]!.category,
    before[0]!.methodology,
  ]);
  const restore = async () => {
    for (const row of before)
      await query(`update studies set category = $2, methodology = $3 where id = $1`, [
        row.id,
        row.category,
        row.methodology,
      ]);
  };
  return { code, studies, restore };
}

describe('GET /api/fragrance/{code}', () => {
  it('needs a signed-in user, a 6-digit code and a test the user may see', async () => {
    const { code } = await mostTestedCode();
    expect((await get(code, null)).statusCode).toBe(401);
    for (const malformed of ['12345', '1234567', 'abcdef', '12 456']) {
      const response = await get(malformed, 'researcher');
      expect(response.statusCode, malformed).toBe(400);
      expect(errorBody(response).message).toContain(FRAGRANCE_MESSAGES.malformedCode);
    }
    // Demo codes start at 100000: this one exists nowhere.
    const unknown = await get('000001', 'researcher');
    expect(unknown.statusCode).toBe(404);
    expect(errorBody(unknown).message).toBe(FRAGRANCE_MESSAGES.notFound);
  });

  it('pools the study means of one category and methodology as DerSimonian-Laird does, with the HKSJ and prediction intervals, from the raw answers', async () => {
    const { code, studies, restore } = await retestedInOneGroup();
    // The demo library re-tests fragrances under the same code, three times or more.
    expect(studies).toBeGreaterThanOrEqual(3);
    onTestFinished(restore);
    const found = await fragranceOf(code, 'researcher');
    expect(new Set(found.tests.map((test) => test.study_id)).size).toBeGreaterThanOrEqual(studies);
    // The default group is the category and methodology with the most verified studies.
    const group = found.pooling_group!;
    expect(group.studies).toBe(Math.max(...found.pooling_groups.map((entry) => entry.studies)));
    expect(found.pooling_groups.reduce((acc, entry) => acc + entry.studies, 0)).toBeGreaterThanOrEqual(
      studies,
    );
    for (const test of found.tests) {
      const same = test.category === group.category && test.methodology === group.methodology;
      expect(test.pooled, test.c_mi_number).toBe(test.verified && same);
      expect(test.not_pooled_reason).toBe(
        test.pooled ? null : test.verified ? FRAGRANCE_MESSAGES.otherGroup : FRAGRANCE_MESSAGES.notPooled,
      );
    }
    // At least three studies in the group: both intervals show.
    expect(found.pooled.find((entry) => entry.metric === 'liking')!.k).toBeGreaterThanOrEqual(3);
    // Strength is never pooled as a mean.
    expect(found.pooled.map((entry) => entry.metric)).toEqual([...FRAGRANCE_POOLED_METRICS]);
    for (const metric of FRAGRANCE_POOLED_METRICS) {
      const byStudy = await answersByStudy(code, metric, true, group);
      const summaries = [...byStudy.values()].filter((values) => values.length >= 2).map(meanAndVariance);
      const pooled = found.pooled.find((entry) => entry.metric === metric)!;
      expect(pooled.k).toBe(summaries.length);
      if (summaries.length < 2) {
        expect(pooled.estimate).toBeNull();
        continue;
      }
      expectPooledAsRecomputed(pooled, summaries);
    }
    // Each test's mean and base are those of its own answers, pooled or not.
    for (const metric of FRAGRANCE_TEST_METRICS) {
      const all = await answersByStudy(code, metric, false);
      for (const test of found.tests) {
        const values = all.get(test.study_id);
        if (!values || found.tests.filter((other) => other.study_id === test.study_id).length > 1) continue;
        expect(test.scores[metric]!.n).toBe(values.length);
        expect(test.scores[metric]!.mean).toBeCloseTo(meanAndVariance(values).mean, 10);
      }
    }
    // The by-market and by-year groups hold every pooled study once.
    const pooledStudies = new Set(found.tests.filter((test) => test.pooled).map((test) => test.study_id))
      .size;
    expect(found.by_year.reduce((acc, entry) => acc + entry.tests, 0)).toBe(pooledStudies);
    expect(found.by_market.reduce((acc, entry) => acc + entry.tests, 0)).toBe(pooledStudies);
    const years = found.by_year.map((entry) => Number(entry.key));
    expect(years).toEqual([...years].sort((a, b) => a - b));
  });

  it('pools the category and methodology the user chooses, and refuses one without a verified test', async () => {
    const { code } = await mostTestedCode();
    // Give one verified test of the code its own category: a second group.
    const [moved] = await query<{ study_id: number; category: string | null; methodology: string | null }>(
      `select s.id as study_id, s.category, s.methodology from fragrances f join studies s on s.id = f.study_id
        where f.code = $1 and s.verified order by s.id limit 1`,
      [code],
    );
    await query(`update studies set category = 'Air Care (other)' where id = $1`, [moved!.study_id]);
    try {
      const search = `?category=${encodeURIComponent('Air Care (other)')}${
        moved!.methodology === null ? '' : `&methodology=${encodeURIComponent(moved!.methodology)}`
      }`;
      const chosen = await fragranceOf(code, 'researcher', search);
      expect(chosen.pooling_group).toEqual({
        category: 'Air Care (other)',
        methodology: moved!.methodology,
        studies: 1,
      });
      expect(chosen.tests.filter((test) => test.pooled).map((test) => test.study_id)).toEqual([
        moved!.study_id,
      ]);
      expect(chosen.pooled.every((entry) => entry.k <= 1 && entry.estimate === null)).toBe(true);
      const byDefault = await fragranceOf(code, 'researcher');
      expect(byDefault.pooling_groups.map((entry) => entry.category)).toContain('Air Care (other)');
      expect(byDefault.tests.find((test) => test.study_id === moved!.study_id)!.not_pooled_reason).toBe(
        FRAGRANCE_MESSAGES.otherGroup,
      );

      const unknown = await get(code, 'researcher', '?category=Nowhere');
      expect(unknown.statusCode).toBe(400);
      expect(errorBody(unknown).message).toBe(FRAGRANCE_MESSAGES.unknownGroup);
      const tooLong = await get(code, 'researcher', `?category=${'x'.repeat(200)}`);
      expect(tooLong.statusCode).toBe(400);
      expect((await get(code, null, search)).statusCode).toBe(401);
    } finally {
      await query(`update studies set category = $2 where id = $1`, [moved!.study_id, moved!.category]);
    }
  });

  it("widens the pool at the analyst's choice to every methodology of the category or every test, with its caution, pooled as DerSimonian-Laird, HKSJ and the prediction interval over the chosen tests", async () => {
    const { code, studies } = await mostTestedCode();
    expect(studies).toBeGreaterThanOrEqual(3);
    const byDefault = await fragranceOf(code, 'researcher');
    expect(byDefault).toMatchObject({
      pool: 'group',
      pool_label: 'One category and methodology',
      pool_caution: null,
    });
    const group = byDefault.pooling_group!;
    for (const pool of ['category', 'all'] as const) {
      const found = await fragranceOf(code, 'researcher', `?pool=${pool}`);
      expect(found.pool).toBe(pool);
      expect(found.pool_label).toBe(
        pool === 'all'
          ? 'Every test (all categories and methodologies)'
          : 'Every methodology of this category',
      );
      expect(found.pool_caution).toContain('a researcher may not want to pool');
      expect(found.pooling_group).toEqual(group);
      for (const test of found.tests) {
        const inPool = pool === 'all' || test.category === group.category;
        expect(test.pooled, test.c_mi_number).toBe(test.verified && inPool);
        expect(test.not_pooled_reason).toBe(
          test.pooled
            ? null
            : test.verified
              ? FRAGRANCE_MESSAGES.otherCategory
              : FRAGRANCE_MESSAGES.notPooled,
        );
      }
      // Strength stays unpooled, whatever the pool.
      expect(found.pooled.map((entry) => entry.metric)).toEqual([...FRAGRANCE_POOLED_METRICS]);
      for (const metric of FRAGRANCE_POOLED_METRICS) {
        const byStudy = await answersByStudy(
          code,
          metric,
          true,
          pool === 'all' ? undefined : group,
          pool === 'category',
        );
        const summaries = [...byStudy.values()].filter((values) => values.length >= 2).map(meanAndVariance);
        const pooled = found.pooled.find((entry) => entry.metric === metric)!;
        expect(pooled.k).toBe(summaries.length);
        if (summaries.length < 2) {
          expect(pooled.estimate).toBeNull();
          continue;
        }
        expectPooledAsRecomputed(pooled, summaries);
      }
    }
    // Every test of the code: all its verified studies pooled, so both intervals (from 3 studies).
    const all = await fragranceOf(code, 'researcher', '?pool=all');
    const liking = all.pooled.find((entry) => entry.metric === 'liking')!;
    expect(liking.k).toBe(studies);
    expect(liking.pi_low).not.toBeNull();
    expect(liking.pi_high! - liking.pi_low!).toBeGreaterThan(liking.hk_ci_high! - liking.hk_ci_low!);
    // The slides of the page under the same pool: the pool, its caution and both intervals.
    const deckResponse = await t.request({
      method: 'GET',
      url: `/api/fragrance/${code}/pptx?pool=all`,
      token: tokens.researcher,
    });
    expect(deckResponse.statusCode, deckResponse.body.slice(0, 300)).toBe(200);
    const [title] = await readDeck(deckResponse.rawPayload);
    expect(title!.text).toContain(
      'Pooled tests: Every test (all categories and methodologies); verified studies only; strength is not pooled',
    );
    expect(title!.text).toContain(`Caution: ${FRAGRANCE_POOL_CAUTIONS.all}`);
    const two = (value: number | null) => value!.toFixed(2);
    expect(title!.text).toContain(
      `${liking.label}: ${two(liking.estimate)} (95% interval ${two(liking.hk_ci_low)} to ${two(liking.hk_ci_high)}, Hartung-Knapp; prediction interval for a new test ${two(liking.pi_low)} to ${two(liking.pi_high)}), ${liking.k} studies`,
    );

    // The category alone names the category pooled; an unknown pool or category is refused.
    const ofCategory = await fragranceOf(
      code,
      'researcher',
      `?pool=category&category=${encodeURIComponent(group.category ?? '')}`,
    );
    if (group.category !== null) expect(ofCategory.pooling_group!.category).toBe(group.category);
    const badPool = await get(code, 'researcher', '?pool=everything');
    expect(badPool.statusCode).toBe(400);
    expect(errorBody(badPool).message).toContain('pool');
    const nowhere = await get(code, 'researcher', '?pool=category&category=Nowhere');
    expect(nowhere.statusCode).toBe(400);
    expect(errorBody(nowhere).message).toBe(FRAGRANCE_MESSAGES.unknownGroup);
    expect((await get(code, null, '?pool=all')).statusCode).toBe(401);
  });

  it('shows a client user only the tests of their clients, never another client test of the same code', async () => {
    // A fragrance of a verified study of the client user, and the same code given to a fragrance of
    // another client's study and to one of an unverified study of the client user.
    const [own] = await query<{ code: string; study_id: number }>(
      `select f.code, f.study_id from fragrances f join studies s on s.id = f.study_id
        where s.verified and s.client = any($1::text[]) order by f.id limit 1`,
      [clientUserClients],
    );
    const [foreign] = await query<{ id: number; study_id: number; client: string; project_name: string }>(
      `select f.id, f.study_id, s.client, s.project_name from fragrances f join studies s on s.id = f.study_id
        where s.verified and not (s.client = any($1::text[])) order by f.id limit 1`,
      [clientUserClients],
    );
    const [unverified] = await query<{ id: number; study_id: number }>(
      `select f.id, f.study_id from fragrances f join studies s on s.id = f.study_id
        where s.client = any($1::text[]) and s.id <> $2 order by f.id desc limit 1`,
      [clientUserClients, own!.study_id],
    );
    await query(`update fragrances set code = $1 where id = any($2::int[])`, [
      own!.code,
      [foreign!.id, unverified!.id],
    ]);
    await query(`update studies set verified = false where id = $1`, [unverified!.study_id]);

    const seen = await fragranceOf(own!.code, 'client');
    expect(seen.tests.map((test) => test.study_id)).toEqual([own!.study_id]);
    expect(seen.tests.every((test) => clientUserClients.includes(test.client))).toBe(true);
    const text = JSON.stringify(seen);
    expect(text).not.toContain(foreign!.client);
    expect(text).not.toContain(foreign!.project_name);
    // One study: nothing to pool.
    for (const pooled of seen.pooled) {
      expect(pooled.k).toBeLessThanOrEqual(1);
      expect(pooled.estimate).toBeNull();
      expect(pooled.i2).toBeNull();
    }

    // Every test pooled: still only the client's own tests, so nothing to pool.
    const widened = await fragranceOf(own!.code, 'client', '?pool=all');
    expect(widened.tests.map((test) => test.study_id)).toEqual([own!.study_id]);
    expect(JSON.stringify(widened)).not.toContain(foreign!.project_name);
    expect(widened.pooled.every((pooled) => pooled.k <= 1 && pooled.estimate === null)).toBe(true);

    const all = await fragranceOf(own!.code, 'researcher');
    expect(new Set(all.tests.map((test) => test.study_id))).toEqual(
      new Set([own!.study_id, foreign!.study_id, unverified!.study_id]),
    );
    const hidden = all.tests.find((test) => test.study_id === unverified!.study_id)!;
    expect(hidden).toMatchObject({ verified: false, pooled: false });
    const sameGroup =
      all.tests.find((test) => test.study_id === own!.study_id)!.pooled ===
      all.tests.find((test) => test.study_id === foreign!.study_id)!.pooled;
    expect(all.pooled.find((entry) => entry.metric === 'liking')!.k).toBe(sameGroup ? 2 : 1);

    // A code tested only for other clients is not found for the client user.
    await query(`update fragrances set code = '999999' where id = $1`, [foreign!.id]);
    const elsewhere = await get('999999', 'client');
    expect(elsewhere.statusCode).toBe(404);
    expect(errorBody(elsewhere).message).toBe(FRAGRANCE_MESSAGES.notFound);
    expect((await get('999999', 'researcher')).statusCode).toBe(200);
  });
});
