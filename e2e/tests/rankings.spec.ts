import type { RankingRequest, RankingResult, RankingStatus, SignedInUser } from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

// Users without analytics access (client, sales) see the Best/Worst Testers and Fragrance Attributes
// results on the wizard page itself; analytics users keep going to Advanced Analytics (wizards.spec.ts).

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A ranking through the API, for checking what the page lists. */
async function ranking(
  request: APIRequestContext,
  token: string,
  body: RankingRequest,
): Promise<RankingResult> {
  const queued = await request.post('/api/rankings', { headers: auth(token), data: body });
  expect(queued.status(), await queued.text()).toBe(200);
  const { jobid } = (await queued.json()) as { jobid: string };
  for (let attempt = 0; attempt < 40; attempt++) {
    const response = await request.get(`/api/rankings/${jobid}`, { headers: auth(token) });
    expect(response.status()).toBe(200);
    const status = (await response.json()) as RankingStatus;
    if (status.status === 'SUCCESS') return status.result!.json;
    expect(status.status).not.toBe('FAILURE');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the ranking did not finish');
}

async function clientsOf(request: APIRequestContext, email: string): Promise<string[]> {
  const response = await request.post('/api/auth/login', {
    data: { email, password: DEMO_PASSWORD, remember: false },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as SignedInUser).clients;
}

/** The navigation may be open over the page on a narrow screen; close it to look at the page. */
async function closeNavigation(page: Page) {
  const open = page
    .getByRole('button', { name: 'Toggle navigation', expanded: true })
    .filter({ visible: true });
  if ((await open.count()) > 0) await open.click();
}

/** The ranked rows shown: rank, name, CMI # and the first value in percent. */
async function listedRows(page: Page, name: string) {
  const rows = page.getByRole('table', { name }).getByRole('row');
  await expect(rows.nth(1)).toBeVisible({ timeout: 30_000 });
  const body = rows.filter({ has: page.getByRole('cell') });
  return Promise.all(
    (await body.all()).map(async (row) => {
      // By position, as narrow screens hide the CMI # column (and show it under the name).
      const cell = (index: number) => row.locator('td').nth(index);
      const value = ((await cell(3).textContent()) ?? '').trim();
      return {
        rank: Number(await cell(0).textContent()),
        name: (await row.getByRole('link').innerText()).trim(),
        cmi: ((await cell(2).textContent()) ?? '').trim(),
        percent: Number(value.split(' ')[0]),
        value,
      };
    }),
  );
}

const BEST_10_PERCENT = 'Best 10 % of fragrances by top 2 box liking (Explicit), in every study you may see.';

test("a client user's best 10 % fragrances by explicit liking are ranked on the wizard page, only their clients'", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const clients = await clientsOf(request, DEMO_USERS.client);
  const admin = await apiToken(request, DEMO_USERS.admin);
  const client = await apiToken(request, DEMO_USERS.client);
  const body: RankingRequest = {
    kind: 'testers',
    radioDesc: 'best',
    amount: 10,
    radioPercentType: 'percentage',
    type: 'fragrances',
    rdfType: 'rdf',
  };
  const everyone = await ranking(request, admin, { ...body, amount: 100 });
  const theirs = await ranking(request, admin, { ...body, amount: 100, narrowing: { client: clients } });
  const allowed = new Set(theirs.rows.map((row) => row.c_mi_number));
  expect(
    everyone.rows.some((row) => !allowed.has(row.c_mi_number)),
    'fragrances of other clients',
  ).toBe(true);
  const expected = await ranking(request, client, body);
  expect(expected.rows.length).toBe(Math.ceil(theirs.rows.length / 10));

  await signIn(page, DEMO_USERS.client);
  await page
    .getByRole('link', { name: /Best\/Worst Testers/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/topworst$/);
  await page.getByRole('radio', { name: 'Best' }).check();
  await page.getByLabel('Top amount').fill('10');
  await page.getByRole('radio', { name: 'Percentage (%)' }).check();
  await page.getByRole('radio', { name: 'Fragrances' }).check();
  await page.getByRole('radio', { name: 'Explicit' }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('combobox', { name: 'Client', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Search', exact: true }).click();

  // The results stay on the wizard page.
  await expect(page).toHaveURL(/\/topworst$/);
  await expect(page.getByRole('heading', { name: 'Results' })).toBeVisible();
  await expect(page.getByText(BEST_10_PERCENT, { exact: true })).toBeVisible();
  const listed = await listedRows(page, BEST_10_PERCENT);
  expect(listed.map((row) => row.rank)).toEqual(listed.map((_, index) => index + 1));
  expect(listed.map((row) => row.name)).toEqual(expected.rows.map((row) => row.name ?? row.prod));
  for (const row of listed) expect(allowed.has(row.cmi), `${row.cmi} is of the client's clients`).toBe(true);
  const percents = listed.map((row) => row.percent);
  expect(percents).toEqual([...percents].sort((a, b) => b - a));
  expect(listed[0]!.value).toMatch(/^\d+ % \(n = \d+\)$/);
  await expect(
    page.getByText('All scores and metrics have been harmonized to a common 5 point scale'),
  ).toBeVisible();
  await expectAccessible(page, 'best/worst results');
  await page.screenshot({ path: 'test-results/rankings-topworst-1280.png', fullPage: true });

  // Back to the choices, kept as they were.
  await page.getByRole('button', { name: 'Change choices' }).click();
  await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Top amount')).toHaveValue('10');
  await expect(page.getByRole('radio', { name: 'Percentage (%)' })).toBeChecked();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('table', { name: BEST_10_PERCENT }).getByRole('row').nth(1)).toBeVisible({
    timeout: 30_000,
  });
  await page.screenshot({ path: 'test-results/rankings-topworst-390.png', fullPage: true });

  // The profile of the best fragrance opens in a new tab, for the client user too. Last: the new tab
  // renews the shared session's token, which signs this tab out at its next call.
  const [profile] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('table', { name: BEST_10_PERCENT }).getByRole('link', { name: listed[0]!.name }).click(),
  ]);
  await expect(profile.getByRole('heading', { level: 1, name: listed[0]!.name })).toBeVisible({
    timeout: 30_000,
  });
  await expect(profile.getByRole('table', { name: 'Performance data' })).toBeVisible();
  await profile.close();
});

test('a sales user ranks fragrances by a mood attribute on the wizard page', async ({ page, request }) => {
  test.setTimeout(120_000);
  const sales = await apiToken(request, DEMO_USERS.sales);
  const expected = await ranking(request, sales, {
    kind: 'attributes',
    radioDesc: 'best',
    amount: 5,
    radioPercentType: 'number',
    attributeType: 'moods',
    attribute: 'relaxing',
  });
  expect(expected.rows.length).toBeGreaterThan(0);
  const sentence =
    'Best 5 fragrances by the top 2 box score of Relaxing (Moods), in every study you may see.';

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, DEMO_USERS.sales);
  await page.goto('/fragrance-profile');
  await closeNavigation(page);
  await page.getByRole('radio', { name: /Moods/ }).click();
  await page.getByRole('radio', { name: 'Relaxing', exact: true }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Top amount').fill('5');
  await page.getByRole('radio', { name: 'Number (#)' }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();

  await expect(page).toHaveURL(/\/fragrance-profile$/);
  await expect(page.getByText(sentence, { exact: true })).toBeVisible();
  const listed = await listedRows(page, sentence);
  expect(listed.map((row) => row.name)).toEqual(expected.rows.map((row) => row.name ?? row.prod));
  expect(listed.length).toBeLessThanOrEqual(5);
  const percents = listed.map((row) => row.percent);
  expect(percents).toEqual([...percents].sort((a, b) => b - a));
  await expect(page.getByText('* Based on top 2 box scores of the attribute.')).toBeVisible();
  await expectAccessible(page, 'attributes results');
  await page.screenshot({ path: 'test-results/rankings-attributes-390.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/rankings-attributes-1280.png', fullPage: true });

  await page.getByRole('button', { name: 'Change choices' }).click();
  await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeVisible();
});
