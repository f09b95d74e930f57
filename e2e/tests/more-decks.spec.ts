// Download slides of the norms screen and of the Best/Worst results, clicked as a sales user (who may
// download but has no Advanced Analytics), and of the performance, top attributes and tendencies tabs, clicked as
// a researcher; each file opened: the charts hold what the screen shows, the base and the filters in
// words on the slides.
import type { NormOptionsResponse, NormResponse } from '@accord/contracts';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { readDeckFile } from '../support/deck.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a sales user downloads a category norm as slides, its percentiles as the screen shows them', async ({
  page,
  request,
}) => {
  const token = await apiToken(request, DEMO_USERS.sales);
  const headers = { Authorization: `Bearer ${token}` };
  const options = (await (
    await request.get('/api/norms/options', { headers })
  ).json()) as NormOptionsResponse;
  let shown: NormResponse | undefined;
  for (const category of options.categories) {
    const response = await request.get('/api/norms', {
      headers,
      params: { category, metric: 'liking', aggregation: 'top_2_box' },
    });
    const norm = (await response.json()) as NormResponse;
    if (norm.status === 'available') {
      shown = norm;
      break;
    }
  }
  expect(shown, 'a category of the journeys library holds a norm that may be shown').toBeDefined();

  await signIn(page, DEMO_USERS.sales);
  await page.goto('/norms');
  await choose(page, 'Category', shown!.base.category);
  await expect(page.getByTestId('norm-base-description')).toHaveText(shown!.base.description);
  const button = page.getByRole('button', { name: 'Download slides of the norm' });
  await expect(button).toBeVisible();
  await expectAccessible(page, 'norms screen with slides');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/norm-slides-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('norm.pptx');
  const slides = await readDeckFile((await download.path())!);
  expect(slides).toHaveLength(3);
  expect(slides[0]!.text.split('\n')[0]).toBe('Norm: Overall Liking, Top 2 box');
  for (const slide of slides) expect(slide.text).toContain(`Base: ${shown!.base.description}`);
  const scores = slides[1]!.charts[0]!;
  // The screen writes shares as percentages with one decimal; the chart holds the same numbers.
  expect(scores.values).toEqual(
    [shown!.mean!, ...shown!.lines.map((line) => line.value)].map((value) => Math.round(value * 1000) / 10),
  );
  const p50 = shown!.lines.find((line) => line.key === 'p50')!;
  await expect(
    page.getByRole('table', { name: 'Norm' }).getByRole('row', { name: /P50 \(median\)/ }),
  ).toContainText(`${scores.values[shown!.lines.indexOf(p50) + 1]!.toFixed(1)}%`);
  expect(slides[2]!.charts[0]!.values).toEqual(shown!.histogram.map((bin) => bin.count));
});

const WORST_5 = 'Worst 5 fragrances by top 2 box liking (Explicit), in every study you may see.';

test('a sales user downloads the worst 5 fragrances as slides, in the order the results list them', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_USERS.sales);
  await page.goto('/topworst');
  await page.getByRole('radio', { name: 'Worst' }).check();
  await page.getByLabel('Top amount').fill('5');
  await page.getByRole('radio', { name: 'Number' }).check();
  await page.getByRole('radio', { name: 'Fragrances' }).check();
  await page.getByRole('radio', { name: 'Explicit' }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Results' })).toBeVisible();
  const rows = page
    .getByRole('table', { name: WORST_5 })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });
  const listed = await Promise.all(
    (await rows.all()).map(async (row) => ({
      rank: Number(await row.locator('td').nth(0).textContent()),
      name: (await row.getByRole('link').innerText()).trim(),
      value: ((await row.locator('td').nth(3).textContent()) ?? '').trim(),
    })),
  );
  expect(listed.length).toBe(5);
  const button = page.getByRole('button', { name: 'Download slides of the results' });
  await expect(button).toBeVisible();
  await expectAccessible(page, 'best/worst results with slides');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/topworst-slides-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('ranking.pptx');
  const slides = await readDeckFile((await download.path())!);
  expect(slides[0]!.text.split('\n')[0]).toBe('Ranking: 5 fragrances');
  const chart = slides[1]!;
  expect(chart.text).toContain('Ranking: 5 fragrances in rank order, ranked by');
  // The bars in the list's order, each value as the list writes it ("23 % (n = 60)").
  expect(chart.charts[0]!.categories.map((name) => name.replace(/ \([^()\s]+\) \(n = [^)]*\)$/, ''))).toEqual(
    listed.map((row) => `${row.rank}. ${row.name}`),
  );
  expect(chart.charts[0]!.values).toEqual(listed.map((row) => Number(row.value.split(' ')[0])));
});

test('a researcher downloads the performance, top attributes and tendencies of a search as slides, as the tabs show them', async ({
  page,
}) => {
  test.setTimeout(360_000);
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/analytics');
  await page.getByRole('combobox', { name: 'Metric 1', exact: true }).click();
  await page.getByRole('option', { name: 'Overall Liking' }).click();
  await page.getByRole('combobox', { name: 'Aggregation 1', exact: true }).click();
  await page.getByRole('option', { name: /^T2B/ }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Top Attributes' })).toBeVisible({ timeout: 90_000 });

  const pick = async (label: string, option: string) => {
    await page.getByRole('combobox', { name: label, exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  await page.getByRole('tab', { name: /Fragrance Performance/ }).click();
  await pick('Metadata Type', 'Study metadata');
  await pick('Metadata', 'Client');
  await page
    .getByRole('complementary', { name: 'Data breakdown' })
    .getByRole('button', { name: 'Run' })
    .click();
  const performance = page.getByRole('table', { name: 'Fragrance performance by Client', exact: true });
  await expect(performance).toBeVisible({ timeout: 90_000 });
  const clients = (await performance.locator('tbody tr td:first-child').allTextContents()).map((name) =>
    name.trim(),
  );
  const performanceDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download slides of the performance' }).click();
  const performanceFile = await performanceDownload;
  expect(performanceFile.suggestedFilename()).toBe('fragrance_performance.pptx');
  const performanceSlides = await readDeckFile((await performanceFile.path())!);
  expect(performanceSlides[0]!.text.split('\n')[0]).toBe('Performance by Client');
  // One bar per client, in the table's order ("Acme (12 products) (n = 340)").
  const barClients = performanceSlides[1]!.charts[0]!.categories.map((name) =>
    name.replace(/ \(n = [^)]*\)$/, '').replace(/ \(\d+ products?\)$/, ''),
  );
  expect(barClients.length).toBeGreaterThan(1);
  expect(barClients).toEqual(clients.filter((client) => barClients.includes(client)));

  await page.getByRole('tab', { name: 'Top Attributes' }).click();
  await pick('Attribute Type', 'All attributes');
  await pick('Aggregation', 'Top 2 Box');
  await page.getByRole('button', { name: 'Run' }).click();
  const attributes = page.getByRole('table', { name: 'Top attributes', exact: true });
  await expect(attributes).toBeVisible({ timeout: 60_000 });
  const names = (await attributes.getByRole('rowheader').allInnerTexts()).map((name) => name.trim());
  expect(names.length).toBeGreaterThan(0);
  const attributesDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download slides of the top attributes' }).click();
  const attributesFile = await attributesDownload;
  expect(attributesFile.suggestedFilename()).toBe('fragrance_attributes.pptx');
  const attributeSlides = await readDeckFile((await attributesFile.path())!);
  expect(attributeSlides[1]!.text).toContain('Ranking: Best 10 by Top 2 Box, all attributes');
  // The bars in the table's rank order ("Fresh (n = 120)", a CATA attribute starred).
  expect(
    attributeSlides[1]!.charts[0]!.categories.map((name) => name.replace(/\*? \(n = [^)]*\)$/, '')),
  ).toEqual(names.map((name) => name.replace(/\*$/, '')));

  await page.getByRole('tab', { name: 'Creative & Olfactive Tendencies' }).click();
  await pick('Count', 'Top 10');
  await pick('Metadata Type', 'Olfactive');
  await pick('Metadata', 'Family');
  await page.getByRole('button', { name: 'Run' }).click();
  const counts = page.getByRole('table', { name: 'Fragrances by family', exact: true });
  await expect(counts).toBeVisible({ timeout: 60_000 });
  const shares = await counts
    .getByRole('row')
    .filter({ has: page.getByRole('cell') })
    .evaluateAll((rows) => rows.map((row) => row.querySelectorAll('td')[1]?.textContent ?? ''));
  expect(shares.length).toBeGreaterThan(0);
  const tendenciesDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download slides of the tendencies' }).click();
  const tendenciesFile = await tendenciesDownload;
  expect(tendenciesFile.suggestedFilename()).toBe('fragrance_tendencies.pptx');
  const tendencySlides = await readDeckFile((await tendenciesFile.path())!);
  expect(tendencySlides[0]!.text.split('\n')[0]).toBe('Tendencies: fragrances by Family');
  // The first values of the chart are the percentages the table writes (the deck keeps every value).
  expect(tendencySlides[1]!.charts[0]!.values.slice(0, shares.length)).toEqual(
    shares.map((share) => Number(share.replace('%', ''))),
  );
});
