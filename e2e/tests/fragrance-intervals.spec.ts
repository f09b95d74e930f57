// The demo fragrance pooled over the most studies of one category and methodology: the page opens with
// the sentence a researcher reads, then the pooled mean with its Hartung-Knapp-Sidik-Jonkman interval
// and the prediction interval for a new test (from three studies; below that the page says so);
// strength is shown per test as shares, never pooled.
import type { FragranceResponse, FragranceRow } from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const two = (value: number) => value.toFixed(2);
const one = (value: number) => value.toFixed(1);

/** Every fragrance row of the study search the user may see, page by page. */
async function allFragranceRows(request: APIRequestContext, token: string): Promise<FragranceRow[]> {
  const rows: FragranceRow[] = [];
  for (let page = 1; ; page++) {
    const response = await request.post(`/api/smartsearch/fragrances?per_page=100&page=${page}`, {
      headers: auth(token),
      data: { query: {} },
    });
    expect(response.status(), await response.text()).toBe(200);
    const found = (await response.json()) as FragranceRow[];
    rows.push(...found);
    if (found.length < 100) return rows;
  }
}

/**
 * The code with the most verified tests of one methodology. The 20-study demo re-tests fragrances in
 * other categories, so an admin gives those tests the category of the first (one PUT per study, as
 * the study page would); `restore` puts the categories back.
 */
async function pooledCode(
  request: APIRequestContext,
  researcher: string,
  admin: string,
): Promise<{ code: string; restore: () => Promise<void> }> {
  const studies = new Map<string, Set<number>>();
  for (const row of await allFragranceRows(request, researcher))
    if (row.code) studies.set(row.code, (studies.get(row.code) ?? new Set()).add(row.study_id));
  let best: { code: string; tests: FragranceResponse['tests'] } | null = null;
  for (const [code, ids] of [...studies].sort((left, right) => left[0].localeCompare(right[0]))) {
    if (ids.size < 2 || ids.size <= (best?.tests.length ?? 0)) continue;
    const response = await request.get(`/api/fragrance/${code}`, { headers: auth(researcher) });
    expect(response.status()).toBe(200);
    const data = (await response.json()) as FragranceResponse;
    const byMethodology = new Map<string | null, FragranceResponse['tests']>();
    for (const entry of data.tests.filter((item) => item.verified)) {
      const list = byMethodology.get(entry.methodology) ?? [];
      if (!list.some((item) => item.study_id === entry.study_id)) list.push(entry);
      byMethodology.set(entry.methodology, list);
    }
    for (const tests of byMethodology.values())
      if (tests.length > (best?.tests.length ?? 0)) best = { code, tests };
  }
  expect(best?.tests.length ?? 0, 'a fragrance tested twice with one methodology').toBeGreaterThanOrEqual(2);
  const category = best!.tests[0]!.category;
  const moved = best!.tests.filter((entry) => entry.category !== category);
  const put = async (studyId: number, from: string | null, to: string | null) => {
    const response = await request.put(`/api/study/${studyId}`, {
      headers: auth(admin),
      data: { type: 'study', study: { category: to }, oldData: { category: from } },
    });
    expect(response.status(), await response.text()).toBe(200);
  };
  for (const entry of moved) await put(entry.study_id, entry.category, category);
  return {
    code: best!.code,
    restore: async () => {
      for (const entry of moved) await put(entry.study_id, category, entry.category);
    },
  };
}

test('a pooled fragrance shows the sentence, the HKSJ and the prediction intervals', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const researcher = await apiToken(request, DEMO_USERS.researcher);
  const admin = await apiToken(request, DEMO_USERS.admin);
  const { code, restore } = await pooledCode(request, researcher, admin);
  try {
    await checkPage(page, request, researcher, code);
  } finally {
    await restore();
  }
});

async function checkPage(page: Page, request: APIRequestContext, researcher: string, code: string) {
  const response = await request.get(`/api/fragrance/${code}`, { headers: auth(researcher) });
  expect(response.status()).toBe(200);
  const data = (await response.json()) as FragranceResponse;
  const liking = data.pooled.find((entry) => entry.metric === 'liking')!;
  expect(liking.k).toBeGreaterThanOrEqual(2);

  await signIn(page, DEMO_USERS.researcher);
  await page.goto(`/fragrance/${data.code}`);
  await expect(page.getByRole('heading', { level: 1, name: data.name })).toBeVisible();

  // The sentence first, with the HKSJ interval to one decimal.
  const sentence = page.getByTestId('fragrance-sentence');
  await expect(sentence).toContainText(`Across ${liking.k} tests`);
  await expect(sentence).toContainText(
    `liking is ${one(liking.estimate!)} (${one(liking.hk_ci_low!)}-${one(liking.hk_ci_high!)}); the tests`,
  );

  // The statistics below it: both intervals, the normal one only as a detail.
  const card = page.getByRole('region', { name: 'Pooled across studies' }).getByLabel('Pooled Liking');
  await expect(card.getByText(two(liking.estimate!), { exact: true })).toBeVisible();
  await expect(card).toContainText(`95% interval ${two(liking.hk_ci_low!)} to ${two(liking.hk_ci_high!)}`);
  if (liking.k >= 3) {
    await expect(card).toContainText(
      `Prediction interval for a new test: ${two(liking.pi_low!)} to ${two(liking.pi_high!)}`,
    );
    // The prediction interval is the wider one.
    expect(liking.pi_high! - liking.pi_low!).toBeGreaterThan(liking.hk_ci_high! - liking.hk_ci_low!);
  } else {
    expect(liking.pi_low).toBeNull();
    await expect(card).toContainText('Prediction interval for a new test: needs 3 studies');
  }
  await expect(card).toContainText(`normal interval ${two(liking.ci_low!)} to ${two(liking.ci_high!)}`);
  const group = data.pooling_group!;
  await expect(page.getByRole('region', { name: 'Pooled across studies' })).toContainText(
    `Pooled: the verified tests of one category and methodology, ${group.category ?? 'No category'} · ${group.methodology ?? 'No methodology'}`,
  );
  // Strength is not pooled: no pooled strength card, its shares per test.
  await expect(page.getByLabel('Pooled Strength')).toHaveCount(0);
  const tests = page.getByRole('table', { name: `Tests of fragrance ${data.code}` });
  await expect(tests.getByRole('columnheader', { name: 'Strength: just right' })).toBeVisible();
  await expect(tests.getByRole('columnheader', { name: 'Strength: strong or too strong' })).toBeVisible();
  await expectAccessible(page, 'fragrance pooled with its intervals');
}

/** The code tested in the most verified studies of the journeys' library (code 175, in five). */
async function mostTestedCode(request: APIRequestContext, researcher: string): Promise<string> {
  const studies = new Map<string, Set<number>>();
  for (const row of await allFragranceRows(request, researcher))
    if (row.code) studies.set(row.code, (studies.get(row.code) ?? new Set()).add(row.study_id));
  const [code, ids] = [...studies].sort(
    (left, right) => right[1].size - left[1].size || left[0].localeCompare(right[0]),
  )[0]!;
  expect(ids.size, 'a fragrance tested in several studies').toBeGreaterThanOrEqual(3);
  return code;
}

test('the analyst widens the pool to every test: the caution, the HKSJ and the prediction intervals', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const researcher = await apiToken(request, DEMO_USERS.researcher);
  const code = await mostTestedCode(request, researcher);
  const response = await request.get(`/api/fragrance/${code}?pool=all`, { headers: auth(researcher) });
  expect(response.status()).toBe(200);
  const widened = (await response.json()) as FragranceResponse;
  const liking = widened.pooled.find((entry) => entry.metric === 'liking')!;
  // Every verified test of the code, of whatever category and methodology: three or more.
  expect(liking.k).toBeGreaterThanOrEqual(3);

  await signIn(page, DEMO_USERS.researcher);
  await page.goto(`/fragrance/${code}`);
  await expect(page.getByRole('heading', { level: 1, name: widened.name })).toBeVisible();
  const pooledRegion = page.getByRole('region', { name: 'Pooled across studies' });
  // By default one category and methodology, and no caution.
  const pool = page.getByRole('radiogroup', { name: 'Tests pooled' });
  await expect(pool.getByRole('radio', { name: 'One category and methodology (default)' })).toBeChecked();
  await expect(pooledRegion).toContainText('Pooled: the verified tests of one category and methodology');
  await expect(page.getByTestId('fragrance-pool-caution')).toHaveCount(0);

  // Widened from the keyboard: the last choice pools every test.
  const every = pool.getByRole('radio', { name: 'Every test (all categories and methodologies)' });
  await every.focus();
  await page.keyboard.press('Space');
  await expect(every).toBeChecked();
  await expect(page.getByTestId('fragrance-pool')).toHaveText(
    `Pooled: every verified test, of every category and methodology (${liking.k} studies).`,
  );
  await expect(page.getByTestId('fragrance-pool-caution')).toHaveText(widened.pool_caution!);
  const card = pooledRegion.getByLabel('Pooled Liking');
  await expect(card.getByText(two(liking.estimate!), { exact: true })).toBeVisible();
  await expect(card).toContainText(`95% interval ${two(liking.hk_ci_low!)} to ${two(liking.hk_ci_high!)}`);
  await expect(card).toContainText(
    `Prediction interval for a new test: ${two(liking.pi_low!)} to ${two(liking.pi_high!)}`,
  );
  await expect(card).toContainText(`${liking.k} studies`);
  // Strength is still not pooled.
  await expect(page.getByLabel('Pooled Strength')).toHaveCount(0);
  await expectAccessible(page, 'fragrance pooled over every test');
  const folder = process.env.FRAGRANCE_SHOTS;
  if (folder) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await pooledRegion.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${folder}/fragrance-pool-1440.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await pooledRegion.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${folder}/fragrance-pool-390.png` });
  }
});
