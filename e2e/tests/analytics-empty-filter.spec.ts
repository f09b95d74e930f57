import type { AnalyticsOptionsResponse, DemographicCondition, ProfileResponse } from '@accord/contracts';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

test.describe.configure({ timeout: 300_000 });

const NO_DATA_AFTER_FILTERING = 'No data found after filtering. Please change filters and try again.';
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function choose(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

/** The navigation may be open over the page on a narrow screen; close it to look at the page. */
async function closeNavigation(page: Page) {
  const open = page
    .getByRole('button', { name: 'Toggle navigation', expanded: true })
    .filter({ visible: true });
  if ((await open.count()) > 0) await open.click();
}

test('a respondent filter that leaves no one says so in words, never as a table of dashes', async ({
  page,
  request,
}) => {
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Analytics' })).toBeVisible({
    timeout: 30_000,
  });
  await choose(page, 'Metric 1', 'Overall Liking');
  await choose(page, 'Aggregation 1', /^T2B/);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const table = page.getByRole('table', { name: 'fragrances found' });
  await expect(table).toBeVisible({ timeout: 90_000 });

  // The metrics tab's own search box stops at its limit like every free-text filter.
  const searchBox = page.getByRole('textbox', { name: 'Search query' });
  await expect(searchBox).toHaveAttribute('maxlength', '200');
  await searchBox.fill('q'.repeat(195));
  await searchBox.pressSequentially('q'.repeat(10), { delay: 0 });
  await expect(searchBox).toHaveValue('q'.repeat(200));
  await expect(searchBox).toHaveAccessibleDescription('Limit reached: at most 200 characters.');
  await searchBox.fill('');
  await expect(table).toBeVisible();

  // The first fragrance, and an ethnicity none of its respondents has (the profile's base says so).
  const firstRow = table.getByRole('row').nth(1);
  const href = (await firstRow.getByRole('link').first().getAttribute('href'))!;
  const [, studyId, code] = /\/analytics\/profile\/(\d+)\/([^?]+)/.exec(href)!;
  const token = await apiToken(request, DEMO_USERS.researcher);
  const likingBase = async (demographics: DemographicCondition[]) => {
    const response = await request.post(`/api/study/${studyId}/fragrance/${code}`, {
      headers: auth(token),
      data: { demographics },
    });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as ProfileResponse).result.find((row) => row.metric === 'liking')?.n ?? 0;
  };
  expect(await likingBase([])).toBeGreaterThan(0);
  const options = await request.get('/api/analytics/options', { headers: auth(token) });
  const ethnicity = ((await options.json()) as AnalyticsOptionsResponse).data.fields.demographics.find(
    (field) => field.field === 'ethnicity',
  )!;
  let absent: string | null = null;
  for (const option of ethnicity.options) {
    if ((await likingBase([{ field: 'ethnicity', filter: { type: 'equal', value: option.value } }])) === 0) {
      absent = option.label;
      break;
    }
  }
  expect(absent, 'an ethnicity none of the first fragrance’s respondents has').not.toBeNull();

  await firstRow.getByRole('checkbox').check();
  await choose(page, 'Ethnicity', absent!);
  await page.getByRole('button', { name: /^Filter 1/ }).click();
  await expect(page.getByRole('button', { name: 'Show all results' })).toBeVisible();
  // The fragrance is still chosen, but no respondent is left behind any of its numbers.
  const empty = page.getByRole('status').filter({ hasText: NO_DATA_AFTER_FILTERING });
  await expect(empty).toBeVisible({ timeout: 90_000 });
  await expect(empty).toHaveText(NO_DATA_AFTER_FILTERING);
  await expect(table).toHaveCount(0);
  await expect(page.getByRole('cell', { name: '-', exact: true })).toHaveCount(0);
  await expect(page.getByRole('figure').filter({ hasText: 'Overall Liking' })).toHaveCount(0);
  await expectAccessible(page, 'analytics, a filter that leaves no data');
  await page.setViewportSize({ width: 1440, height: 900 });
  await empty.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/analytics-empty-filter-1440.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await closeNavigation(page);
  await empty.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/analytics-empty-filter-390.png' });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Showing all results again brings the numbers back.
  await page.getByRole('button', { name: 'Show all results' }).click();
  await expect(table).toBeVisible({ timeout: 90_000 });
  await expect(empty).toHaveCount(0);
});

/** Opens a select and takes its first option. */
async function chooseFirst(page: Page, combobox: string) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option').first().click();
}

test('a study filter that finds no fragrance leaves every tab with words, not dashes', async ({ page }) => {
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Analytics' })).toBeVisible({
    timeout: 30_000,
  });
  await choose(page, 'Metric 1', 'Overall Liking');
  await choose(page, 'Aggregation 1', /^T2B/);
  await page.getByRole('tab', { name: 'Fragrance Details' }).click();
  await page.getByRole('textbox', { name: 'Fragrance Name' }).fill('No fragrance is called this');
  await page.getByRole('button', { name: 'Search', exact: true }).click();

  const noData = (name: string) => page.getByRole('tabpanel', { name: new RegExp(`^${name}`) });
  await expect(noData('Fragrances').getByText('No data', { exact: true })).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole('table', { name: 'fragrances found' })).toHaveCount(0);
  // The filters collapse after the search and the results scroll into view: a tab clicked while they
  // move can miss its click, so the tabs are used once the filters are collapsed.
  await expect(page.getByRole('button', { name: 'Show filters' })).toBeVisible();

  await page.getByRole('tab', { name: /^Fragrance Performance/ }).click();
  await expect(page.getByRole('tab', { name: /^Fragrance Performance/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await chooseFirst(page, 'Metadata Type');
  await chooseFirst(page, 'Metadata');
  await noData('Fragrance Performance').getByRole('button', { name: 'Run' }).click();
  await expect(
    noData('Fragrance Performance').getByText('No data available for provided filters.'),
  ).toBeVisible({ timeout: 90_000 });

  await page.getByRole('tab', { name: /^Top Attributes/ }).click();
  await chooseFirst(page, 'Attribute Type');
  await chooseFirst(page, 'Aggregation');
  await noData('Top Attributes').getByRole('button', { name: 'Run' }).click();
  await expect(noData('Top Attributes').getByText('No data available for provided filters.')).toBeVisible({
    timeout: 90_000,
  });

  await page.getByRole('tab', { name: /^Creative & Olfactive Tendencies/ }).click();
  const tendencies = noData('Creative & Olfactive Tendencies');
  await chooseFirst(page, 'Count');
  await chooseFirst(page, 'Metadata Type');
  await chooseFirst(page, 'Metadata');
  await tendencies.getByRole('button', { name: 'Run' }).click();
  await expect(tendencies.getByText('No data available for provided filters.')).toBeVisible({
    timeout: 90_000,
  });
  await expect(page.getByRole('cell', { name: '-', exact: true })).toHaveCount(0);
  await expectAccessible(page, 'analytics tabs without data');
});
