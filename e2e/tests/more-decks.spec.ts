// Download slides of the norms screen and of the Best/Worst results, clicked as a sales user (who may
// download but has no Advanced Analytics) and opened: the charts hold the numbers the screen shows,
// the base and the filters in words on the slides.
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
