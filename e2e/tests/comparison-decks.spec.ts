// Download slides of the Category Profile and the Group Comparison, clicked as a researcher; each
// file opened: the charts hold the numbers the screen shows, with the filters and bases in words.
// And a long search followed step by step, then cancelled: the previous results come back.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { readDeckFile } from '../support/deck.ts';
import { DEMO_USERS } from '../support/env.ts';
import { signIn } from '../support/session.ts';

test.describe.configure({ timeout: 240_000 });

const SEARCH_TIMEOUT = 90_000;

/** The texts of a table's body cells, row by row. */
async function cellsOf(table: Locator): Promise<string[][]> {
  const rows = table.getByRole('row');
  const cells: string[][] = [];
  for (let index = 1; index < (await rows.count()); index++)
    cells.push(await rows.nth(index).getByRole('cell').allTextContents());
  return cells;
}

async function shoot(page: Page, name: string) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the category profile goes to slides: its families and a family’s top fragrances as shown', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/category-profile');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const families = page.getByRole('group', { name: /Click a bar, or choose a family here/ });
  await expect(families).toBeVisible({ timeout: SEARCH_TIMEOUT });
  const counted = Number(
    /\((\d+) fragrances counted\)/.exec((await page.getByText(/fragrances counted\)/).textContent())!)![1],
  );
  // The families as their buttons show them: name and whole percent.
  const buttons = await families.getByRole('button').allTextContents();
  const shown = buttons.map((text) => {
    const [, name, percent] = /^(.*) \((\d+) %\)$/.exec(text.trim())!;
    return { name: name!, percent: Number(percent) };
  });
  const family = shown.find((entry) => entry.name !== 'No tag')!.name;
  await families.getByRole('button', { name: new RegExp(`^${family} \\(`) }).click();
  const top = page.getByRole('table', { name: `Top ${family} fragrances based on T2B liking` });
  await expect(top).toBeVisible({ timeout: SEARCH_TIMEOUT });
  const topRows = await cellsOf(top);
  await expectAccessible(page, 'category profile with top fragrances');
  await shoot(page, 'category-profile-slides');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download slides of the families and the top ${family}` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('category_profile.pptx');
  const slides = await readDeckFile((await file.path())!);
  expect(slides).toHaveLength(3);
  expect(slides[0]!.text).toContain('Filters: No filters');
  expect(slides[0]!.text).toContain(`Fragrances counted: ${counted}`);
  const [familyChart] = slides[1]!.charts;
  expect(slides[1]!.text).toContain('Fragrance Families frequency (in %)');
  expect(familyChart!.categories.map((name) => name.replace(/ \(\d+ fragrances?\)$/, ''))).toEqual(
    shown.map((entry) => entry.name),
  );
  // The slide keeps one decimal where the buttons round to whole percents.
  familyChart!.values.forEach((value, index) => expect(Math.round(value!)).toBe(shown[index]!.percent));
  const [topChart] = slides[2]!.charts;
  expect(slides[2]!.text).toContain(`Family: ${family}`);
  expect(topChart!.values).toEqual(topRows.map((cells) => Number(/^(\d+) %/.exec(cells[3]!.trim())![1])));
  topRows.forEach((cells, index) => {
    expect(topChart!.categories[index]).toContain(`${index + 1}. ${cells[1]!.trim()} (${cells[2]!.trim()})`);
    expect(topChart!.categories[index]).toContain(`n = ${/\(n=(\d+)\)/.exec(cells[3]!)![1]}`);
  });
});

test('the group comparison goes to slides: both groups’ values as the differences table shows them', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/group-comparison');
  await page.getByRole('radiogroup', { name: 'Group to edit' }).getByText('Group 2').click();
  await page.getByRole('combobox', { name: 'Category', exact: true }).click();
  await page.getByRole('option', { name: /^Fabric Care/ }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const table = page.getByRole('table', { name: 'Differences between the groups' });
  await expect(table).toBeVisible({ timeout: SEARCH_TIMEOUT });
  const rows = await cellsOf(table);
  await expectAccessible(page, 'group comparison results');
  await shoot(page, 'group-comparison-slides');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download slides of the comparison' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('group_comparison.pptx');
  const slides = await readDeckFile((await file.path())!);
  expect(slides[0]!.text).toContain('Group 1: No filters');
  expect(slides[0]!.text).toContain('Group 2: Category: Fabric Care');
  // The means slide: per metric, group 1 then group 2, as the table's Mean rows write them.
  const means = slides.find((slide) => slide.text.startsWith('Means, group 1 against group 2'))!;
  expect(means.text).toContain('Group 2: Category: Fabric Care');
  const expected = rows
    .filter((cells) => cells[1]!.trim() === 'Mean')
    .flatMap((cells) => [cells[2]!, cells[3]!].map((cell) => /^-|^(\d+\.\d\d)/.exec(cell.trim())![1]))
    .filter((value): value is string => value !== undefined)
    .map(Number);
  expect(expected.length).toBeGreaterThan(0);
  expect(means.charts[0]!.values).toEqual(expected);
});

test('a long search shows how far it is and can be cancelled: the previous results come back', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/analytics');
  await page.getByRole('combobox', { name: 'Metric 1', exact: true }).click();
  await page.getByRole('option', { name: 'Overall Liking' }).click();
  await page.getByRole('combobox', { name: 'Aggregation 1', exact: true }).click();
  await page.getByRole('option', { name: /^T2B/ }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const table = page.getByRole('table', { name: 'fragrances found' });
  await expect(table).toBeVisible({ timeout: SEARCH_TIMEOUT });
  const before = await table.getByRole('row').count();

  // The journeys' library answers any search at once: its answer is held back here, so the screen
  // shows the search running as a long one does (the job's progress as its poll reports it).
  let holding = true;
  await page.route('**/api/analytics/fragrances/*/page*', async (route) => {
    while (holding) await new Promise((resolve) => setTimeout(resolve, 200));
    await route.continue().catch(() => undefined);
  });
  await page.getByRole('button', { name: 'Show filters' }).click();
  await page.getByRole('tab', { name: 'Essentials' }).click();
  await page.getByRole('combobox', { name: 'Category', exact: true }).click();
  await page.getByRole('option', { name: /^Hair Care/ }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  // Searching again asks whether to save the current search first.
  await page.getByRole('dialog').getByRole('button', { name: 'No', exact: true }).click();
  const progress = page.getByRole('status').filter({ hasText: 'Searching the fragrances' });
  await expect(progress).toBeVisible({ timeout: 15_000 });
  // Queued, its first poll not yet answered: the bar starts at the 0 % the server reported.
  await expect(page.getByRole('progressbar', { name: /Search progress, \d+ %/ })).toHaveAttribute(
    'aria-valuenow',
    /^\d+$/,
  );
  await expectAccessible(page, 'analytics, a search running');
  await shoot(page, 'analytics-search-progress');
  // The filters collapse after the search and the results scroll into view: Cancel is clicked once
  // they are collapsed, not while the button moves.
  await expect(page.getByRole('button', { name: 'Show filters' })).toBeVisible();

  const cancelled = page.waitForResponse(
    (response) =>
      response.request().method() === 'DELETE' && response.url().includes('/api/analytics/fragrances/'),
  );
  await page.getByRole('button', { name: 'Cancel search' }).click();
  expect((await cancelled).status()).toBe(200);
  holding = false;
  await expect(progress).toHaveCount(0);
  // The screen is usable again, with the results shown before the cancelled search.
  await expect(table).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(before);
  await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeEnabled();
});
