import { readFile } from 'node:fs/promises';
import type {
  TendenciesRequest,
  TendenciesResponse,
  TopAttributesRequest,
  TopAttributesStatus,
} from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { readReportFile } from '../support/report.ts';
import { apiToken, signIn } from '../support/session.ts';

/**
 * The page-specific part of the journey: open Advanced Analytics and run a metric search, after which
 * the result tabs appear. Everything else reads only the two tabs.
 */
async function runAnalyticsSearch(page: Page) {
  await page.goto('/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Analytics' })).toBeVisible();
  // A search needs a metric: overall liking, top 2 box.
  await page.getByRole('combobox', { name: 'Metric 1', exact: true }).click();
  await page.getByRole('option', { name: 'Overall Liking' }).click();
  await page.getByRole('combobox', { name: 'Aggregation 1', exact: true }).click();
  await page.getByRole('option', { name: /^T2B/ }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Top Attributes' })).toBeVisible({ timeout: 90_000 });
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The top attributes the server answers for a body, polled as the tab polls them. */
async function topAttributes(request: APIRequestContext, token: string, body: TopAttributesRequest) {
  const queued = await request.post('/api/analytics/top-attributes', { headers: auth(token), data: body });
  expect(queued.status(), await queued.text()).toBe(200);
  const { jobid } = (await queued.json()) as { jobid: string };
  for (;;) {
    const response = await request.get(`/api/analytics/top-attributes/${jobid}`, { headers: auth(token) });
    expect(response.status()).toBe(200);
    const status = (await response.json()) as TopAttributesStatus;
    if (status.status === 'SUCCESS') return status.result!.json;
    expect(status.status, status.error ?? '').not.toBe('FAILURE');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Picks an option of a select by its visible text. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The navigation may be open over the page on a narrow screen; close it to use the page. */
async function closeNavigation(page: Page) {
  const open = page
    .getByRole('button', { name: 'Toggle navigation', expanded: true })
    .filter({ visible: true });
  if ((await open.count()) > 0) await open.click();
}

const percent = (share: number | null) => (share === null ? '-' : `${Math.round(share * 100)}%`);

async function expectXlsxDownload(page: Page, button: string, fileName: string) {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(fileName);
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
}

// Runs against the Advanced Analytics page (/analytics): its search, then the Top Attributes and the
// Creative & Olfactive Tendencies tabs.
test.describe('Advanced Analytics: top attributes and tendencies tabs', () => {
  test('a researcher ranks the attributes of a search, counts its fragrances by family and downloads both', async ({
    page,
    request,
  }) => {
    // Two tabs with their runs, downloads and axe checks: a loaded machine needs several minutes.
    test.setTimeout(360_000);
    const token = await apiToken(request, DEMO_USERS.researcher);
    await signIn(page, DEMO_USERS.researcher);
    await runAnalyticsSearch(page);

    // Top Attributes: empty until the settings are chosen; Run needs a type and an aggregation.
    await page.getByRole('tab', { name: 'Top Attributes' }).click();
    await expect(page.getByText('Select filters in order to see top attributes.')).toBeVisible();
    await expect(
      page.getByRole('tabpanel', { name: 'Top Attributes' }).getByRole('radio', { name: 'Best' }),
    ).toBeChecked();
    await expect(page.getByRole('textbox', { name: 'Attributes #' })).toHaveValue('10');
    const runAttributes = page.getByRole('button', { name: 'Run' });
    await expect(runAttributes).toBeDisabled();
    await choose(page, 'Attribute Type', 'Agreement scales');
    await expect(runAttributes).toBeDisabled();
    await choose(page, 'Aggregation', 'Top 2 Box');
    // Changing the type clears the aggregation.
    await choose(page, 'Attribute Type', 'All attributes');
    await expect(page.getByRole('combobox', { name: 'Aggregation', exact: true })).toHaveValue('');
    await expect(runAttributes).toBeDisabled();
    await choose(page, 'Aggregation', 'Top 2 Box');
    await expect(runAttributes).toBeEnabled();
    await expectAccessible(page, 'top attributes settings');

    const queued = page.waitForRequest(
      (sent) => sent.method() === 'POST' && sent.url().endsWith('/api/analytics/top-attributes'),
    );
    await runAttributes.click();
    const body = (await queued).postDataJSON() as TopAttributesRequest;
    expect(body.data).toEqual({ order: 'best', count: 10, attribute_type: 'all', aggregation: 'top_2_box' });
    const ranked = await topAttributes(request, token, body);
    // Scale and yes/no (CATA) attributes are ranked apart: up to 10 of each, in two tables.
    const expected = { ...ranked, attributes: ranked.attributes.filter((row) => !row.is_binary_scale) };
    const yesNo = ranked.attributes.filter((row) => row.is_binary_scale);
    expect(expected.attributes.length).toBeGreaterThan(0);
    expect(expected.attributes.length).toBeLessThanOrEqual(10);
    expect(yesNo.length).toBeLessThanOrEqual(10);

    const table = page.getByRole('table', { name: 'Top attributes', exact: true });
    await expect(table).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('heading', { name: 'Best 10 attributes by Top 2 Box' })).toBeVisible();
    await expect(page.getByText(`pooled over ${expected.fragrances} fragrances`)).toBeVisible();
    if (yesNo.length > 0) {
      // A yes/no attribute reads as its share selected, never a mean or a box.
      const shares = page.getByRole('table', { name: 'Yes/no attributes', exact: true });
      await expect(shares.getByRole('columnheader', { name: '% selected' })).toBeVisible();
      await expect(shares.getByRole('row')).toHaveCount(yesNo.length + 1);
      await expect(shares.getByRole('row').nth(1)).toContainText(`${yesNo[0]!.attribute}*`);
      await expect(shares.getByRole('row').nth(1)).toContainText(percent(yesNo[0]!.selected));
    }
    const rows = table.getByRole('row');
    await expect(rows).toHaveCount(expected.attributes.length + 1);
    for (const [index, attribute] of expected.attributes.entries()) {
      const row = rows.nth(index + 1);
      await expect(row.getByRole('rowheader')).toContainText(attribute.attribute);
      await expect(row.getByRole('img')).toHaveAttribute(
        'aria-label',
        new RegExp(
          `^T2B ${percent(attribute.top_2_box)}, .*B2B ${percent(attribute.bottom_2_box)}\\. Base: n = ${attribute.n}`,
        ),
      );
      // The bar prints its two ends, T2B first and B2B last, and no Neither/Nor number between them.
      const ends = [attribute.top_2_box, attribute.bottom_2_box].filter((share) => (share ?? 0) >= 0.005);
      await expect(row.getByRole('img')).toHaveText(ends.map(percent).join(''));
      await expect(row.getByRole('cell').nth(1)).toHaveText(
        attribute.mean === null ? '-' : attribute.mean.toFixed(2),
      );
      await expect(row.getByRole('cell').nth(2)).toHaveText(percent(attribute.top_box));
      await expect(row.getByRole('cell').nth(3)).toHaveText(percent(attribute.bottom_box));
    }
    // Best first: the T2B shares do not increase down the table.
    const shares = expected.attributes.map((attribute) => attribute.top_2_box!);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));

    // The base n shows on hover.
    await rows.nth(1).getByRole('cell').nth(1).getByText(/\d/).hover();
    await expect(page.getByRole('tooltip')).toContainText(`Base: n = ${expected.attributes[0]!.n}`);

    // Sorting by a column.
    const meanHeader = table.getByRole('columnheader', { name: 'Mean' });
    await meanHeader.getByRole('button').click();
    await expect(meanHeader).toHaveAttribute('aria-sort', 'descending');
    const byMean = [...expected.attributes].sort((a, b) => (b.mean ?? -1) - (a.mean ?? -1));
    await expect(rows.nth(1).getByRole('rowheader')).toContainText(byMean[0]!.attribute);
    await meanHeader.getByRole('button').click();
    await expect(meanHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(rows.nth(1).getByRole('rowheader')).toContainText(byMean.at(-1)!.attribute);
    await expectAccessible(page, 'top attributes results');
    await page.screenshot({ path: 'test-results/analytics-top-attributes-1280.png', fullPage: true });
    await expectXlsxDownload(page, 'Download the top attributes', 'fragrance_attributes.xlsx');

    // The side panel can be hidden and shown again.
    await page.getByRole('button', { name: 'Hide attribute settings' }).click();
    await expect(page.getByRole('combobox', { name: 'Attribute Type', exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Show attribute settings' }).click();
    await expect(page.getByRole('combobox', { name: 'Attribute Type', exact: true })).toBeVisible();

    // Creative & Olfactive Tendencies: Run needs Count, Metadata Type and Metadata.
    await page.getByRole('tab', { name: 'Creative & Olfactive Tendencies' }).click();
    await expect(page.getByText('Select filters in order to see tendencies data.')).toBeVisible();
    const runTendencies = page.getByRole('button', { name: 'Run' });
    await expect(runTendencies).toBeDisabled();
    await choose(page, 'Count', 'Top 10');
    await choose(page, 'Metadata Type', 'Olfactive');
    await expect(runTendencies).toBeDisabled();
    await choose(page, 'Metadata', 'Family');
    await expect(runTendencies).toBeEnabled();
    await expectAccessible(page, 'tendencies settings');

    const answered = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && response.url().endsWith('/api/analytics/tendencies'),
    );
    await runTendencies.click();
    const response = await answered;
    const sent = response.request().postDataJSON() as TendenciesRequest;
    // The call of document 3 section 7; Count keeps the 10 most frequent values of the answer.
    expect(sent.data).toEqual({ return: 'percentage', groupby: 'perfume_characteristics.family' });
    // A fragrance search sends its rows as frags, so the count is of exactly the fragrances it found.
    expect(Object.keys(sent).sort()).toEqual(['data', 'frags', 'q']);
    const replay = await request.post('/api/analytics/tendencies', { headers: auth(token), data: sent });
    const answer = (await replay.json()) as TendenciesResponse;
    expect(answer.chart_data.data).toEqual(answer.table_data.map((row) => row.percentage));
    const tendencies = { ...answer, table_data: answer.table_data.slice(0, 10) };
    expect(tendencies.table_data.length).toBeGreaterThan(0);

    const counts = page.getByRole('table', { name: 'Fragrances by family', exact: true });
    await expect(counts).toBeVisible();
    await expect(counts.getByRole('columnheader')).toHaveText([
      'Family',
      'Number of fragrances',
      'Percentage of fragrances',
    ]);
    const countRows = counts.getByRole('row');
    await expect(countRows).toHaveCount(tendencies.table_data.length + 1);
    for (const [index, entry] of tendencies.table_data.entries()) {
      const row = countRows.nth(index + 1);
      await expect(row.getByRole('rowheader')).toHaveText(entry.name);
      await expect(row.getByRole('cell')).toHaveText([
        String(entry.count),
        `${entry.percentage.toFixed(1)}%`,
      ]);
    }
    await expect(page.getByText(`${tendencies.total} fragrances counted`)).toBeVisible();
    const chart = page.getByTestId('tendencies-chart');
    await expect(chart.locator('svg')).toBeVisible();
    await expect(chart).toContainText(tendencies.table_data[0]!.name.slice(0, 15));
    await expectAccessible(page, 'tendencies results');
    await page.screenshot({ path: 'test-results/analytics-tendencies-1280.png', fullPage: true });
    await expectXlsxDownload(page, 'Download the tendencies', 'fragrance_tendencies.xlsx');

    // Changing the Metadata Type clears the Metadata and disables Run.
    await choose(page, 'Metadata Type', 'Creative');
    await expect(page.getByRole('combobox', { name: 'Metadata', exact: true })).toHaveValue('');
    await expect(runTendencies).toBeDisabled();

    // A phone-sized screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await closeNavigation(page);
    await choose(page, 'Metadata', 'Perfumer Name');
    await runTendencies.click();
    await expect(page.getByRole('table', { name: 'Fragrances by perfumer name', exact: true })).toBeVisible();
    await expectAccessible(page, 'tendencies at 390 px');
    await page.screenshot({ path: 'test-results/analytics-tendencies-390.png', fullPage: true });
    await page.getByRole('tab', { name: 'Top Attributes' }).click();
    await choose(page, 'Attribute Type', 'Agreement scales');
    await choose(page, 'Aggregation', 'Mean');
    await page
      .getByRole('tabpanel', { name: 'Top Attributes' })
      .getByRole('radio', { name: 'Worst' })
      .check();
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(page.getByRole('heading', { name: 'Worst 10 attributes by Mean' })).toBeVisible({
      timeout: 30_000,
    });
    await expectAccessible(page, 'top attributes at 390 px');
    await page.screenshot({ path: 'test-results/analytics-top-attributes-390.png', fullPage: true });
  });
});

/** The numbers of a column of the performance table, top to bottom ('-' as null). */
async function columnNumbers(page: Page, tableName: string, column: number) {
  const texts = await page
    .getByRole('table', { name: tableName, exact: true })
    .getByRole('row')
    .locator(`td:nth-child(${column + 1})`)
    .allTextContents();
  return texts.map((text) => (/\d/.test(text) ? Number(text.replace(/[^\d.-]/g, '')) : null));
}

test.describe('Advanced Analytics: performance tab', () => {
  test('a researcher breaks a search down by client, sorts the table and downloads it', async ({ page }) => {
    // Runs in about 50 s on a quiet machine; a loaded one needs more.
    test.setTimeout(180_000);
    await signIn(page, DEMO_USERS.researcher);
    await runAnalyticsSearch(page);

    const tab = page.getByRole('tab', { name: /Fragrance Performance/ });
    await tab.click();
    await expect(page.getByText('Select filters in order to see performance data.')).toBeVisible();
    await page.screenshot({ path: 'test-results/analytics-performance-empty-1280.png', fullPage: true });
    const breakdown = page.getByRole('complementary', { name: 'Data breakdown' });
    const run = breakdown.getByRole('button', { name: 'Run' });
    await expect(run).toBeDisabled();
    await choose(page, 'Metadata Type', 'Study metadata');
    await expect(run).toBeDisabled();
    await choose(page, 'Metadata', 'Client');
    await expect(run).toBeEnabled();
    await run.click();

    // The pooled table, its chart and the count on the tab, once the search has answered.
    const tableName = 'Fragrance performance by Client';
    const table = page.getByRole('table', { name: tableName, exact: true });
    await expect(table).toBeVisible({ timeout: 90_000 });
    await expect(page.getByRole('heading', { name: 'Fragrance Performance by Client' })).toBeVisible();
    await expect(page.getByTestId('performance-chart').locator('svg')).toBeVisible();
    const rows = table.getByRole('row');
    const count = (await rows.count()) - 1;
    expect(count).toBeGreaterThan(1);
    await expect(tab).toContainText(String(count));
    const metric = table.getByRole('columnheader', { name: 'T2B Overall Liking' });
    await expect(metric).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByTestId('performance-chart')).toContainText('T2B Overall Liking');
    await expectAccessible(page, 'performance results');

    // Best first; a click on the header turns the order round.
    const descending = await columnNumbers(page, tableName, 2);
    const known = descending.filter((value): value is number => value !== null);
    expect(known).toEqual([...known].sort((a, b) => b - a));
    const clients = await table.locator('tbody tr td:first-child').allTextContents();
    await metric.getByRole('button').click();
    await expect(metric).toHaveAttribute('aria-sort', 'ascending');
    const ascending = (await columnNumbers(page, tableName, 2)).filter(
      (value): value is number => value !== null,
    );
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    if (known[0] !== known.at(-1))
      await expect(table.locator('tbody tr td:first-child').first()).not.toHaveText(clients[0]!);

    // By name: A to Z on the second click.
    const byName = table.getByRole('columnheader', { name: 'Client' });
    await byName.getByRole('button').click();
    await byName.getByRole('button').click();
    await expect(byName).toHaveAttribute('aria-sort', 'ascending');
    const names = await table.locator('tbody tr td:first-child').allTextContents();
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en-GB', { numeric: true })));
    await page.screenshot({ path: 'test-results/analytics-performance-1280.png', fullPage: true });

    // The download holds the table as it is sorted.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the performance table' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('fragrance_performance.xlsx');
    const sheet = await readReportFile((await download.path())!);
    expect(sheet.lines[0]).toBe('Performance by Client');
    expect(sheet.headings).toEqual([
      'Client',
      'Products',
      'T2B Overall Liking',
      'Base n (T2B Overall Liking)',
    ]);
    expect(sheet.rows).toHaveLength(count);
    expect(sheet.rows.map((row) => row.Client)).toEqual(names);

    // A phone-sized screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await closeNavigation(page);
    await expect(table).toBeVisible();
    await expectAccessible(page, 'performance at 390 px');
    await page.screenshot({ path: 'test-results/analytics-performance-390.png', fullPage: true });
  });
});
