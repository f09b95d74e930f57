// A fragrance re-tested in three or more studies of one category and methodology: the page opens with
// the sentence a researcher reads, then the pooled mean with its Hartung-Knapp-Sidik-Jonkman interval
// and the prediction interval for a new test; strength is shown per test as shares, never pooled.
import type { FragranceResponse, FragranceRow } from '@accord/contracts';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const two = (value: number) => value.toFixed(2);
const one = (value: number) => value.toFixed(1);

/** A code whose default pooling group holds at least three studies with liking answers. */
async function retestedCode(request: APIRequestContext, token: string): Promise<FragranceResponse> {
  const response = await request.post('/api/smartsearch/fragrances?per_page=100', {
    headers: auth(token),
    data: { query: {} },
  });
  expect(response.status(), await response.text()).toBe(200);
  const studies = new Map<string, Set<number>>();
  for (const row of (await response.json()) as FragranceRow[])
    if (row.code) studies.set(row.code, (studies.get(row.code) ?? new Set()).add(row.study_id));
  const candidates = [...studies]
    .filter(([, ids]) => ids.size >= 3)
    .sort((left, right) => right[1].size - left[1].size || left[0].localeCompare(right[0]));
  for (const [code] of candidates) {
    const found = await request.get(`/api/fragrance/${code}`, { headers: auth(token) });
    expect(found.status()).toBe(200);
    const data = (await found.json()) as FragranceResponse;
    if ((data.pooled.find((entry) => entry.metric === 'liking')?.k ?? 0) >= 3) return data;
  }
  throw new Error('no fragrance of the demo library is pooled over three studies');
}

test('a fragrance pooled over three or more tests shows the sentence, the HKSJ and the prediction intervals', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const researcher = await apiToken(request, DEMO_USERS.researcher);
  const data = await retestedCode(request, researcher);
  const liking = data.pooled.find((entry) => entry.metric === 'liking')!;

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
  await expect(card).toContainText(
    `New test: 95% prediction ${two(liking.pi_low!)} to ${two(liking.pi_high!)}`,
  );
  await expect(card).toContainText(`normal interval ${two(liking.ci_low!)} to ${two(liking.ci_high!)}`);
  // The prediction interval is the wider one.
  expect(liking.pi_high! - liking.pi_low!).toBeGreaterThan(liking.hk_ci_high! - liking.hk_ci_low!);
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
});
