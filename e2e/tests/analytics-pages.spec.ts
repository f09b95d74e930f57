import type { SignificanceStatus } from '@accord/contracts';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { rowsSettled } from '../support/results-page.ts';
import { signIn } from '../support/session.ts';

test.describe.configure({ timeout: 420_000 });

const SEARCH_TIMEOUT = 90_000;
/** Rows of a page of the metrics table. */
const PAGE_SIZE = 50;
const LIKING = /^value-(\d+)-liking\.top_2_box$/;

async function choose(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

/** Five metrics: liking T2B (for significance), strength, purchase intention, long lasting, liking mean. */
async function chooseFiveMetrics(page: Page) {
  const entries: [string, RegExp][] = [
    ['Overall Liking', /^T2B/],
    ['Strength', /^M \(mean\)/],
    ['Purchase Intention', /^T2B/],
    ['Long lasting', /^T2B/],
    ['Overall Liking', /^M \(mean\)/],
  ];
  for (const [index, [metric, aggregation]] of entries.entries()) {
    if (index > 0) await page.getByRole('button', { name: 'Add metric' }).click();
    await choose(page, `Metric ${index + 1}`, metric);
    await choose(page, `Aggregation ${index + 1}`, aggregation);
  }
  await page.getByRole('checkbox', { name: 'Use metric 1 for significance' }).check();
}

/** The ids of the rows shown, in order. */
/** The links of the table that name a fragrance (beside them: icon links to its other tests). */
function nameLinks(table: Locator): Locator {
  return table.getByRole('link').filter({ hasText: /\S/ });
}

async function shownIds(table: Locator): Promise<number[]> {
  const ids = await table
    .getByTestId(LIKING)
    .evaluateAll((cells) => cells.map((cell) => cell.dataset.testid!));
  return ids.map((id) => Number(LIKING.exec(id)![1]));
}

/** The liking T2B shares shown, in order (null: no value). */
async function shownShares(table: Locator): Promise<(number | null)[]> {
  return (await table.getByTestId(LIKING).allTextContents()).map((text) =>
    /\d/.test(text) ? Number.parseInt(text, 10) : null,
  );
}

test('a whole-library search with five metrics pages, sorts, filters, selects all and calculates significance on the selection', async ({
  page,
}) => {
  // No answer of the screen may carry the whole result: measure every analytics answer.
  const largest = { url: '', bytes: 0 };
  page.on('response', async (response) => {
    if (!response.url().includes('/api/analytics/')) return;
    const body = await response.body().catch(() => null);
    if (body && body.length > largest.bytes)
      Object.assign(largest, { url: response.url(), bytes: body.length });
  });

  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Analytics' })).toBeVisible({
    timeout: 30_000,
  });
  await chooseFiveMetrics(page);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const table = page.getByRole('table', { name: 'fragrances found' });
  await expect(table).toBeVisible({ timeout: SEARCH_TIMEOUT });
  for (const heading of [
    'T2B Overall Liking',
    'M Strength',
    'T2B Purchase Intention',
    'T2B Long lasting',
    'M Overall Liking',
  ])
    await expect(table.getByRole('columnheader', { name: heading })).toBeVisible();
  const tab = page.getByRole('tab', { name: /Fragrances/ });
  await expect(tab).toContainText(/\d+/);
  const total = Number((await tab.textContent())!.replace(/\D/g, ''));
  // The library holds more fragrances than a page: the table shows the first page of them.
  expect(total).toBeGreaterThan(PAGE_SIZE);
  await expect(table.getByRole('row')).toHaveCount(PAGE_SIZE + 1);
  await expect(page.getByText(`fragrances 1–${PAGE_SIZE} of ${total}`, { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `0 of ${total} selected` })).toBeVisible();
  await expect(page.getByRole('figure').filter({ hasText: 'Overall Liking' }).first()).toBeVisible();
  await expectAccessible(page, 'analytics metrics, first page');

  // The other pages hold the rest, none of the first.
  const pageCount = Math.ceil(total / PAGE_SIZE);
  const firstPage = await shownIds(table);
  const seen = [...firstPage];
  const names = await nameLinks(table).allTextContents();
  for (let number = 2; number <= pageCount; number++) {
    await page.getByRole('button', { name: `Page ${number}` }).click();
    const last = Math.min(number * PAGE_SIZE, total);
    await expect(
      page.getByText(`fragrances ${(number - 1) * PAGE_SIZE + 1}–${last} of ${total}`, { exact: true }),
    ).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(last - (number - 1) * PAGE_SIZE + 1);
    await rowsSettled(page);
    seen.push(...(await shownIds(table)));
    names.push(...(await nameLinks(table).allTextContents()));
  }
  expect(new Set(seen).size).toBe(total);
  await page.getByRole('button', { name: 'Page 1' }).click();
  await expect(table.getByRole('row')).toHaveCount(PAGE_SIZE + 1);
  await rowsSettled(page);

  // Sorted by liking, largest first, across pages: the first page holds the largest values.
  const likingHeader = table.getByRole('columnheader', { name: 'T2B Overall Liking' });
  await likingHeader.getByRole('button').click();
  await expect(likingHeader).toHaveAttribute('aria-sort', 'descending');
  await rowsSettled(page);
  await expect
    .poll(async () => (await shownIds(table)).join(), { timeout: 30_000 })
    .not.toBe(firstPage.join());
  const sortedFirst = await shownShares(table);
  const sortedFirstIds = (await shownIds(table)).join();
  const present = sortedFirst.filter((value): value is number => value !== null);
  expect(present).toEqual([...present].sort((a, b) => b - a));
  await page.getByRole('button', { name: 'Page 2' }).click();
  // The second page has as many rows as the first: wait for its own rows before reading them.
  await expect(
    page.getByText(`fragrances ${PAGE_SIZE + 1}–${Math.min(2 * PAGE_SIZE, total)} of ${total}`, {
      exact: true,
    }),
  ).toBeVisible();
  await expect.poll(async () => (await shownIds(table)).join(), { timeout: 30_000 }).not.toBe(sortedFirstIds);
  await expect(table.getByRole('row')).toHaveCount(Math.min(PAGE_SIZE, total - PAGE_SIZE) + 1);
  const sortedSecond = (await shownShares(table)).filter((value): value is number => value !== null);
  expect(Math.max(...sortedSecond)).toBeLessThanOrEqual(Math.min(...present));
  // Ascending at the second click, back at the first page.
  await likingHeader.getByRole('button').click();
  await expect(likingHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByText(`fragrances 1–${PAGE_SIZE} of ${total}`, { exact: true })).toBeVisible();

  // A search text keeps the fragrances whose name holds it, on every page.
  const needle = pickNeedle(names);
  const matching = names.filter((name) => name.toLowerCase().includes(needle.toLowerCase()));
  await page.getByRole('textbox', { name: 'Search query' }).fill(needle);
  await expect(table.getByRole('row')).toHaveCount(matching.length + 1, { timeout: 30_000 });
  for (const name of await nameLinks(table).allTextContents())
    expect(name.toLowerCase()).toContain(needle.toLowerCase());
  const matchingIds = await shownIds(table);

  // Select all selects every matching fragrance, and those alone.
  await page.getByRole('button', { name: 'Select all' }).click();
  await expect(page.getByRole('button', { name: 'Deselect all' })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: `${matching.length} of ${total} selected` }),
  ).toBeVisible();
  await page.getByRole('textbox', { name: 'Search query' }).fill('');
  await expect(table.getByRole('row')).toHaveCount(PAGE_SIZE + 1, { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Select all' })).toBeVisible();
  const checked = await table
    .getByRole('row')
    .filter({ has: page.getByRole('checkbox', { checked: true }) })
    .count();
  expect(checked).toBeLessThanOrEqual(matching.length);

  // Significance compares exactly the selection.
  const significance = page.waitForResponse(
    async (response) =>
      /\/api\/analytics\/significance\/[0-9a-f-]+$/.test(response.url()) &&
      (await response.json()).status === 'SUCCESS',
    { timeout: SEARCH_TIMEOUT },
  );
  await page.getByRole('button', { name: 'Calculate' }).click();
  const result = ((await (await significance).json()) as SignificanceStatus).result!;
  expect(result.results.map((row) => row.id).sort((a, b) => a - b)).toEqual(
    [...matchingIds].sort((a, b) => a - b),
  );
  const tags = page.getByRole('group', { name: 'Show products by significance' });
  await expect(tags.getByRole('button', { name: `All (${total})` })).toBeVisible({ timeout: SEARCH_TIMEOUT });
  // Marks show on the selected fragrances alone.
  const markedIds = (
    await table
      .getByTestId(/^mark-\d+-/)
      .evaluateAll((cells) => cells.map((cell) => Number(cell.dataset.testid!.split('-')[1])))
  ).filter((id, index, list) => list.indexOf(id) === index);
  for (const id of markedIds) expect(matchingIds).toContain(id);
  await expectAccessible(page, 'analytics metrics, significance of the selection');
  await page.screenshot({ path: 'test-results/analytics-pages-1280.png', fullPage: true });

  // Nothing the screen received held every row (a page is tens of kilobytes).
  expect(largest.bytes, largest.url).toBeLessThan(200_000);
});

/** A few letters that some fragrance names hold but not all (several, fewer than a page). */
function pickNeedle(names: string[]): string {
  for (const name of names)
    for (let start = 0; start + 3 <= name.length; start++) {
      const needle = name.slice(start, start + 3);
      if (!/^[A-Za-z]{3}$/.test(needle)) continue;
      const count = names.filter((other) => other.toLowerCase().includes(needle.toLowerCase())).length;
      if (count >= 3 && count <= 20) return needle;
    }
  throw new Error('No search text fits the demo names');
}
