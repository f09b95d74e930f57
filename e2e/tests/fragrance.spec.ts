// One fragrance across all its tests, opened from a study search result: the tests table, the pooled
// estimates (or the single-test state), the charts, and a client user's narrower view of the same code.
import type { FragranceResponse, FragranceRow } from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { showSearchFilters } from '../support/search.ts';
import { apiToken, signIn, signOut } from '../support/session.ts';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function fragranceRows(request: APIRequestContext, token: string): Promise<FragranceRow[]> {
  const response = await request.post('/api/smartsearch/fragrances?per_page=100', {
    headers: auth(token),
    data: { query: {} },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as FragranceRow[];
}

async function fragranceOf(request: APIRequestContext, token: string, code: string) {
  const response = await request.get(`/api/fragrance/${code}`, { headers: auth(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as FragranceResponse;
}

/** Opens the fragrance page of a code from the Fragrances tab of the study search. */
async function openFromSearch(page: Page, code: string) {
  await page.goto('/search');
  await expect(page.getByRole('heading', { level: 1, name: 'Study Search' })).toBeVisible();
  await showSearchFilters(page);
  await page.getByRole('tab', { name: 'Fragrance Details' }).click();
  await page.getByRole('textbox', { name: '6 Digit Code (SAP)' }).fill(code);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('tab', { name: /^Fragrances/ }).click();
  const link = page.getByRole('link', { name: code, exact: true }).first();
  await expect(link).toBeVisible();
  await link.click();
  // Leaving the search asks whether to save it first, as every way out of it does.
  await page
    .getByRole('dialog', { name: 'Save current search?' })
    .getByRole('button', { name: 'No', exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`/fragrance/${code}$`));
}

test("a fragrance's page from a search result, pooled for staff and scoped for a client", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const researcher = await apiToken(request, DEMO_USERS.researcher);
  const client = await apiToken(request, DEMO_USERS.client);
  // A code the demo library tests in several studies, one of them the client user's and one not.
  const clientStudies = new Set((await fragranceRows(request, client)).map((row) => row.study_id));
  const byCode = new Map<string, FragranceRow[]>();
  for (const row of await fragranceRows(request, researcher)) {
    if (!row.code) continue;
    byCode.set(row.code, [...(byCode.get(row.code) ?? []), row]);
  }
  const code = [...byCode]
    .filter(
      ([, rows]) =>
        rows.some((row) => clientStudies.has(row.study_id)) &&
        rows.some((row) => !clientStudies.has(row.study_id)),
    )
    .map(([found]) => found)
    .sort()[0];
  expect(code, 'a code re-tested for the client user and for another client').toBeDefined();
  const staffView = await fragranceOf(request, researcher, code!);
  const clientView = await fragranceOf(request, client, code!);
  expect(staffView.tests.length).toBeGreaterThan(clientView.tests.length);

  await signIn(page, DEMO_USERS.researcher);
  await openFromSearch(page, code!);
  await expect(page.getByRole('heading', { level: 1, name: staffView.name })).toBeVisible();
  const tests = page.getByRole('table', { name: `Tests of fragrance ${code}` });
  await expect(tests.getByRole('row')).toHaveCount(staffView.tests.length + 1);
  for (const entry of staffView.tests)
    await expect(tests.getByRole('link', { name: entry.c_mi_number, exact: true })).toBeVisible();
  const pooledStudies = new Set(
    staffView.tests.filter((entry) => entry.pooled).map((entry) => entry.study_id),
  );
  const pooled = page.getByRole('region', { name: 'Pooled across studies' });
  if (pooledStudies.size >= 2) {
    const liking = staffView.pooled.find((entry) => entry.metric === 'liking')!;
    await expect(pooled.getByText(liking.estimate!.toFixed(2), { exact: true })).toBeVisible();
    await expect(pooled.getByText(/^Tests (agree|differ)/).first()).toBeVisible();
    await expect(pooled).toContainText('I²');
  } else {
    await expect(pooled).toContainText(
      staffView.pooling_groups.length > 1
        ? 'One study of this category and methodology: there is nothing to pool.'
        : 'One study tested this fragrance: there is nothing to pool yet.',
    );
  }
  await expect(page.getByTestId('market-chart').locator('svg')).toBeVisible();
  await expect(page.getByTestId('trend-chart').locator('svg')).toBeVisible();
  await page
    .locator('label')
    .filter({ hasText: /^Purchase intention$/ })
    .click();
  await expect(page.getByRole('radio', { name: 'Purchase intention' })).toBeChecked();
  await expect(page.getByText('Purchase intention mean by market')).toBeAttached();
  await expectAccessible(page, 'fragrance across tests');

  // A test's profile is one click away.
  await tests
    .getByRole('link', { name: /^Profile of / })
    .first()
    .click();
  await expect(page).toHaveURL(/\/analytics\/profile\/\d+\//);
  await expect(page.getByRole('link', { name: code!, exact: true })).toBeVisible();

  // The client user sees only their clients' tests of the same code.
  await signOut(page, /Rita Researcher/);
  await signIn(page, DEMO_USERS.client);
  await openFromSearch(page, code!);
  const own = page.getByRole('table', { name: `Tests of fragrance ${code}` });
  await expect(own.getByRole('row')).toHaveCount(clientView.tests.length + 1);
  for (const entry of staffView.tests.filter((item) => !clientStudies.has(item.study_id))) {
    await expect(page.getByText(entry.c_mi_number)).toHaveCount(0);
    await expect(page.getByText(entry.client, { exact: true })).toHaveCount(0);
  }
  if (new Set(clientView.tests.map((entry) => entry.study_id)).size === 1)
    await expect(page.getByRole('region', { name: 'Pooled across studies' })).toContainText(
      'One study tested this fragrance: there is nothing to pool yet.',
    );
  await expectAccessible(page, 'fragrance across tests, client user');

  // A code nobody may see.
  await page.goto('/fragrance/000001');
  await expect(page.getByRole('heading', { level: 1, name: 'Fragrance not found' })).toBeVisible();
  await expectAccessible(page, 'fragrance not found');
});
