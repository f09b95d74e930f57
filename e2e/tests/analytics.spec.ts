import type { AnalyticsOptionsResponse, DemographicCondition, ProfileResponse } from '@accord/contracts';
import { readReportFile } from '../support/report.ts';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { rowsSettled } from '../support/results-page.ts';
import { apiToken, signIn } from '../support/session.ts';

test.describe.configure({ timeout: 420_000 });

const SEARCH_TIMEOUT = 90_000;

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function choose(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

/** Liking T2B with 'use this metric', and strength mean. */
async function chooseMetrics(page: Page) {
  await choose(page, 'Metric 1', 'Overall Liking');
  await choose(page, 'Aggregation 1', /^T2B/);
  await page.getByRole('checkbox', { name: 'Use metric 1 for significance' }).check();
  await page.getByRole('button', { name: 'Add metric' }).click();
  await choose(page, 'Metric 2', 'Strength');
  await choose(page, 'Aggregation 2', /^M \(mean\)/);
}

function resultsTable(page: Page): Locator {
  return page.getByRole('table', { name: 'fragrances found' });
}

/** The text of the tooltip a value shows on hover (the one matching `pattern`). */
async function tooltipOf(page: Page, target: Locator, pattern: RegExp): Promise<string> {
  const tooltip = page.getByRole('tooltip').filter({ hasText: pattern });
  // A table that has just re-rendered can drop the first hover: move away and hover again.
  await expect(async () => {
    await page.mouse.move(0, 0);
    await target.hover();
    await expect(tooltip).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  const text = (await tooltip.textContent()) ?? '';
  await page.mouse.move(0, 0);
  await expect(tooltip).toHaveCount(0);
  return text;
}

function baseOf(text: string): number {
  const match = /Base n = (\d+)/.exec(text);
  expect(match, text).not.toBeNull();
  return Number(match![1]);
}

test('a metric search with significance, a respondent filter and a profile link', async ({
  page,
  context,
  request,
}) => {
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Analytics' })).toBeVisible({
    timeout: 30_000,
  });
  await expectAccessible(page, 'analytics, empty');

  // Searching without a metric says what is missing.
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Choose at least one metric' })).toBeVisible();

  await chooseMetrics(page);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const table = resultsTable(page);
  // A cold library can take a while to answer the first search.
  await expect(table).toBeVisible({ timeout: SEARCH_TIMEOUT });
  await expect(table.getByRole('columnheader', { name: 'T2B Overall Liking' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'M Strength' })).toBeVisible();
  const tab = page.getByRole('tab', { name: /Fragrances/ });
  await expect(tab).toContainText(/\d+/);
  const total = Number((await tab.textContent())!.replace(/\D/g, ''));
  expect(total).toBeGreaterThan(3);
  await expect(page.getByRole('tab', { name: /Fragrance Performance/ })).toBeVisible();
  // The filters collapse after the search; the charts follow the table.
  await expect(page.getByRole('button', { name: 'Show filters' })).toBeVisible();
  await expect(page.getByRole('figure').filter({ hasText: 'Overall Liking' })).toBeVisible();
  await expectAccessible(page, 'analytics results');

  // Every number shows its base n.
  const firstRow = table.getByRole('row').nth(1);
  const firstValue = firstRow.getByTestId(/^value-\d+-liking\.top_2_box$/);
  await expect(firstValue).toHaveText(/^\d+%\*?$/);
  const baseBefore = baseOf(await tooltipOf(page, firstValue, /Base n/));
  expect(baseBefore).toBeGreaterThan(0);

  // Significance against the rest of the list: marks with their test, p-value and level.
  await choose(page, 'Compare', 'Selection vs Average of the rest');
  await page.getByRole('button', { name: 'Calculate' }).click();
  const tags = page.getByRole('group', { name: 'Show products by significance' });
  await expect(tags.getByRole('button', { name: `All (${total})` })).toBeVisible({ timeout: SEARCH_TIMEOUT });
  await expect(tags.getByRole('button', { name: /^99% higher \(\d+\)$/ })).toBeVisible();
  await expect(tags.getByRole('button', { name: /^99% lower \(\d+\)$/ })).toBeVisible();
  const mark = table.getByTestId(/^mark-\d+-liking\.top_2_box$/).first();
  await expect(mark).toBeVisible();
  expect(await tooltipOf(page, mark, /clustered by respondent/)).toMatch(
    /^Two-sample t-test clustered by respondent, n = \d+, p (=|<) [\d.]+, adjusted p (=|<) [\d.]+ \(Benjamini-Hochberg \(false discovery rate\)\), (99|95|90)% (higher|lower)$/,
  );
  // The higher-at-99 tag keeps only the products marked so.
  const higher = tags.getByRole('button', { name: /^99% higher/ });
  const higherCount = Number(/\((\d+)\)/.exec((await higher.textContent())!)![1]);
  await higher.click();
  // The table shows a page of 50 rows at most.
  await expect(table.getByRole('row')).toHaveCount(Math.min(higherCount, 50) + 1);
  await tags.getByRole('button', { name: /^All/ }).click();
  await expect(table.getByRole('row')).toHaveCount(Math.min(total, 50) + 1);
  await expectAccessible(page, 'analytics significance');
  await page.screenshot({ path: 'test-results/analytics-metrics-1280.png', fullPage: true });

  // The download carries the marks shown, right of the numbers they qualify, with their legend.
  const metricsDownloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the results' }).click();
  const metricsFile = await metricsDownloading;
  expect(metricsFile.suggestedFilename()).toBe('fragrance_metrics.xlsx');
  const sheet = await readReportFile((await metricsFile.path())!);
  expect(sheet.lines).toContain(
    'Significance: Selection vs Average of the rest, two-sided tests at 99, 95, 90 % confidence; correction: Benjamini-Hochberg (false discovery rate)',
  );
  const markColumn = sheet.headings.indexOf('Significance (T2B Overall Liking)');
  expect(sheet.headings[markColumn - 1]).toBe('T2B Overall Liking');
  const marked = sheet.rows.filter((row) =>
    /^[▲▼] (99|95|90)%$/.test(String(row[sheet.headings[markColumn]!] ?? '')),
  );
  // The table shows 50 rows a page: the marks shown are counted page by page.
  let shownMarks = 0;
  const pageCount = Math.ceil(total / 50);
  for (let number = 1; number <= pageCount; number++) {
    if (pageCount > 1) await page.getByRole('button', { name: `Page ${number}` }).click();
    const last = Math.min(number * 50, total);
    await expect(
      page.getByText(`fragrances ${(number - 1) * 50 + 1}–${last} of ${total}`, { exact: true }),
    ).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(last - (number - 1) * 50 + 1);
    await rowsSettled(page);
    shownMarks += await table.getByTestId(/^mark-\d+-liking\.top_2_box$/).count();
  }
  if (pageCount > 1) await page.getByRole('button', { name: 'Page 1' }).click();
  expect(marked.length).toBe(shownMarks);

  // The filter needs a selection first.
  const filterButton = page.getByRole('button', { name: /^Filter/ });
  await expect(filterButton).toHaveAttribute('aria-disabled', 'true');
  await filterButton.hover();
  await expect(page.getByRole('tooltip')).toHaveText(
    'Please select at least one fragrance to perform filtering.',
  );
  await page.mouse.move(0, 0);

  // Women 25 to 44 among the first three fragrances: fewer answers behind each number.
  const names: string[] = [];
  for (let index = 1; index <= 3; index += 1) {
    const row = table.getByRole('row').nth(index);
    names.push((await row.getByRole('link').first().textContent())!);
    await row.getByRole('checkbox').check();
  }
  await choose(page, 'Gender', 'Female');
  await page.getByRole('switch', { name: 'Age' }).check();
  const youngest = page.getByRole('slider', { name: 'Youngest respondent age' });
  await youngest.focus();
  for (let step = 0; step < 7; step += 1) await youngest.press('ArrowRight');
  const oldest = page.getByRole('slider', { name: 'Oldest respondent age' });
  await oldest.focus();
  for (let step = 0; step < 20; step += 1) await oldest.press('ArrowLeft');
  await expect(page.getByText('Age range 25–44')).toBeVisible();
  await filterButton.click();
  await expect(page.getByRole('button', { name: 'Show all results' })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(4, { timeout: SEARCH_TIMEOUT });
  for (const name of names) await expect(table.getByRole('link', { name, exact: true })).toBeVisible();
  const filteredValue = table
    .getByRole('row')
    .nth(1)
    .getByTestId(/^value-\d+-liking\.top_2_box$/);
  const baseAfter = baseOf(await tooltipOf(page, filteredValue, /Base n/));
  expect(baseAfter).toBeLessThan(baseBefore);
  expect(baseAfter).toBeGreaterThan(0);

  // A profile opens in a new tab with the chosen metrics.
  const link = table.getByRole('link', { name: names[0], exact: true });
  const [profile] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await expect(profile).toHaveURL(/\/analytics\/profile\/\d+\/[^?]+\?attributes=/);
  await expect(profile.getByRole('heading', { level: 1, name: names[0] })).toBeVisible({ timeout: 30_000 });

  // There, a demographic filter (category, then value) changes the numbers and their base: the
  // first value that some but not all of this fragrance's respondents have.
  const [, studyId, code] = /\/analytics\/profile\/(\d+)\/([^?]+)/.exec(profile.url())!;
  const profilePath = `/api/study/${studyId}/fragrance/${code}`;
  const token = await apiToken(request, DEMO_USERS.researcher);
  const likingOf = async (demographics: DemographicCondition[]) => {
    const response = await request.post(profilePath, { headers: auth(token), data: { demographics } });
    expect(response.status(), await response.text()).toBe(200);
    const body = (await response.json()) as ProfileResponse;
    return body.result.find((row) => row.metric === 'liking')?.n ?? 0;
  };
  const allBase = await likingOf([]);
  const optionsResponse = await request.get('/api/analytics/options', { headers: auth(token) });
  const { fields } = ((await optionsResponse.json()) as AnalyticsOptionsResponse).data;
  let narrowing: { category: string; value: string; base: number } | null = null;
  for (const definition of fields.demographics.filter((entry) =>
    ['gender', 'ethnicity'].includes(entry.field),
  )) {
    for (const option of definition.options) {
      const base = await likingOf([
        { field: definition.field, filter: { type: 'equal', value: option.value } } as DemographicCondition,
      ]);
      if (base > 0 && base < allBase) {
        narrowing = { category: definition.label, value: option.label, base };
        break;
      }
    }
    if (narrowing) break;
  }
  expect(narrowing, 'a demographic value some of the respondents have').not.toBeNull();

  const likingRow = profile
    .getByRole('table', { name: 'Performance data', exact: true })
    .getByRole('row', { name: /Overall Liking/ });
  const likingBase = likingRow.getByRole('cell').last();
  await expect(likingBase).toHaveText(new RegExp(`^${allBase}\\b`));
  await choose(profile, 'Demographic category', narrowing!.category);
  await choose(profile, 'Value', narrowing!.value);
  await profile.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(
    profile.getByText(`Respondents shown: ${narrowing!.category}: ${narrowing!.value}`),
  ).toBeVisible({
    timeout: 30_000,
  });
  await expect(likingBase).toHaveText(new RegExp(`^${narrowing!.base}\\b`));
  const filteredBase = narrowing!.base;
  await profile.screenshot({ path: 'test-results/analytics-profile-filtered-1280.png', fullPage: true });
  const shownMean = (await likingRow.getByRole('cell').nth(1).textContent())!.trim();

  // The spreadsheet holds the filtered numbers of this fragrance.
  const downloading = profile.waitForEvent('download');
  await profile.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('fragrance_profile.xlsx');
  const { headings, rows } = await readReportFile((await download.path())!);
  expect(headings).toContain('Metric');
  const liking = rows.find((row) => row.Metric === 'Overall Liking');
  expect(liking, 'the Overall Liking row of the spreadsheet').toBeDefined();
  expect(Number(liking!['Base n'])).toBe(filteredBase);
  if (shownMean !== 'N/A') expect(Number(liking!.Mean).toFixed(2)).toBe(shownMean);
  await profile.close();
});

test('an analytics search is saved, applied again, and leaving asks first', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);
  await page.goto('/analytics');
  await chooseMetrics(page);
  // Liking carries its own threshold: the best 3 fragrances by it.
  const likingRow = page.getByRole('listitem', { name: 'Metric row 1' });
  await likingRow.getByRole('switch', { name: 'Own threshold for metric 1' }).check();
  await expect(
    likingRow.getByRole('radiogroup', { name: 'Order for metric 1' }).getByRole('radio', { name: 'Best' }),
  ).toBeChecked();
  await likingRow.getByRole('textbox', { name: 'Amount for metric 1' }).fill('3');
  await expect(
    page.getByRole('listitem', { name: 'Metric row 2' }).getByRole('textbox', { name: /^Amount/ }),
  ).toHaveCount(0);
  await expectAccessible(page, 'analytics per-metric threshold');
  const name = `Liking ${Date.now()}`;
  await page.getByRole('textbox', { name: 'Search name' }).fill(name);
  await page.getByRole('button', { name: 'Save search' }).click();
  await expect(page.getByText(`Successfully saved current search as "${name}".`)).toBeVisible();

  // Leaving with filters set asks; Cancel stays.
  await page.getByRole('link', { name: 'Home' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Save current search?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/analytics$/);

  // A fresh screen, then the saved search runs again.
  await page.getByRole('link', { name: 'Home' }).first().click();
  await page
    .getByRole('dialog', { name: 'Save current search?' })
    .getByRole('button', { name: 'No' })
    .click();
  await expect(page).toHaveURL(/\/home\/$/);
  await page.goto('/analytics');
  await expect(page.getByRole('combobox', { name: 'Metric 1', exact: true })).toHaveValue('');
  await page.getByRole('button', { name: 'Saved Analytics' }).click();
  const panel = page.getByRole('dialog', { name: 'Saved Analytics' });
  await panel.getByRole('button', { name: `Apply saved search ${name}` }).click();
  const table = resultsTable(page);
  // A cold library can take a while to answer the first search.
  await expect(table).toBeVisible({ timeout: SEARCH_TIMEOUT });
  await expect(table.getByRole('columnheader', { name: 'T2B Overall Liking' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'M Strength' })).toBeVisible();
  // The threshold keeps the best three by liking, best first.
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(page.getByRole('tab', { name: /Fragrances/ })).toContainText('3');
  const shares = (await table.getByTestId(/^value-\d+-liking\.top_2_box$/).allTextContents()).map((text) =>
    Number.parseInt(text, 10),
  );
  expect(shares).toEqual([...shares].sort((a, b) => b - a));
  await page.getByRole('button', { name: 'Show filters' }).click();
  await expect(page.getByRole('checkbox', { name: 'Use metric 1 for significance' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Own threshold for metric 1' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Amount for metric 1' })).toHaveValue('3');
  await page.screenshot({ path: 'test-results/analytics-thresholds-1280.png', fullPage: true });

  // The region list shows APAC for its three sub-regions; choosing it shows one value.
  await page.getByRole('tab', { name: 'Essentials' }).click();
  const region = page.getByRole('combobox', { name: 'Region', exact: true });
  await region.click();
  await expect(page.getByRole('option', { name: /^APAC/ })).toBeVisible();
  for (const subregion of ['South Asia', 'South East Asia', 'North Asia'])
    await expect(page.getByRole('option', { name: new RegExp(`^${subregion}`) })).toHaveCount(0);
  await page.getByRole('option', { name: /^APAC/ }).click();
  await page.keyboard.press('Escape');
  const regionField = page.locator('.mantine-InputWrapper-root').filter({ has: region });
  await expect(regionField).toContainText('APAC');
  await expect(regionField).not.toContainText('South Asia');
  await page.getByRole('tab', { name: 'Metrics' }).click();

  // The diagnostics of the result.
  await page.getByRole('button', { name: 'Diagnostics' }).click();
  const diagnostics = page.getByRole('dialog', { name: 'Diagnostics' });
  await expect(diagnostics.getByText(/Studies found: \d+/)).toBeVisible();
  await expect(diagnostics.getByText(/Studies with anomalies: \d+/)).toBeVisible();
  await expectAccessible(page, 'analytics diagnostics');

  // The filters with a metric's own threshold on a phone-sized screen.
  await page.keyboard.press('Escape');
  await expect(diagnostics).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  // The navigation starts closed on a phone; close it if it is open.
  const navigationOpen = page
    .getByRole('button', { name: 'Toggle navigation', expanded: true })
    .filter({ visible: true });
  if ((await navigationOpen.count()) > 0) await navigationOpen.click();
  await expect(page.getByRole('textbox', { name: 'Amount for metric 1' })).toBeVisible();
  await expectAccessible(page, 'analytics thresholds at 390 px');
  await page.screenshot({ path: 'test-results/analytics-thresholds-390.png', fullPage: true });

  // On a phone the names keep their words whole, and the Saved tab lies over no part of the table.
  await page.getByRole('button', { name: 'Hide filters' }).click();
  await table.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  const nameCell = (await table.getByRole('row').nth(1).getByRole('cell').nth(1).boundingBox())!;
  expect(nameCell.width).toBeGreaterThanOrEqual(150);
  const tab = (await page.getByRole('button', { name: 'Saved Analytics' }).boundingBox())!;
  const shown = (await table.boundingBox())!;
  const overlaps =
    tab.x < Math.min(shown.x + shown.width, 390) &&
    shown.x < tab.x + tab.width &&
    tab.y < shown.y + shown.height &&
    shown.y < tab.y + tab.height;
  expect(overlaps).toBe(false);
  await page.screenshot({ path: 'test-results/analytics-results-390.png', fullPage: true });
});

test('a wizard opens the analytics screen with a search that runs at once', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);
  const query = {
    type: 'fragrances',
    q: { metrics: { metricsList: [{ metric: 'liking', aggregation: 'mean', confidence: false }] } },
  };
  const header = 'Confirm your selections:';
  await page.goto(
    `/analytics?startSearch=true&hideDescription=true&header=${encodeURIComponent(header)}&q=${encodeURIComponent(JSON.stringify(query))}`,
  );
  // The first screen of a fresh page can take a while on a loaded machine.
  await expect(page.getByText(header)).toBeVisible({ timeout: 30_000 });
  await expect(resultsTable(page).getByRole('columnheader', { name: 'M Overall Liking' })).toBeVisible({
    timeout: SEARCH_TIMEOUT,
  });
  await expect(page.getByRole('button', { name: 'Show filters' })).toBeVisible();
});

test('a client user without analytics access is told so and sees no products', async ({ page }) => {
  await signIn(page, DEMO_USERS.client);
  await page.goto('/analytics');
  await expect(
    page.getByText('Advanced Analytics is available to admins and users with analytics access.'),
  ).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await expectAccessible(page, 'analytics without access');
});
