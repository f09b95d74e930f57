import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { postJson } from '../support/api.ts';
import { DEMO_USERS, TMP_DIR } from '../support/env.ts';
import { showSearchFilters } from '../support/search.ts';
import { apiToken, signIn } from '../support/session.ts';

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${TMP_DIR}/screens/${name}-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${TMP_DIR}/screens/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

// Runs against the study search (/search): code filters, the result table's sorting and row links,
// filter tags by keyboard and the saved searches.
test('a researcher finds a study by the end of its CMI #, sorts the results and keeps the search', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const token = await apiToken(request, DEMO_USERS.researcher);
  const library = await postJson(
    request,
    token,
    '/api/smartsearch/study_summarises',
    { query: {} },
    { per_page: 100 },
  );
  expect(library.length).toBeGreaterThan(3);
  const wanted = library[1]!;
  // The digits users remember ("00187"), from the middle of CMI-2019-00187.
  const digits = wanted.c_mi_number.split('-').at(-1)!;

  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/search');
  // The filters collapse 0.8 s after the screen opens: open them again rather than race the collapse.
  await showSearchFilters(page);
  await page.getByRole('textbox', { name: 'CMI #' }).fill(digits);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const summaries = page.getByRole('table', { name: 'Study summaries' });
  await expect(summaries.getByRole('row')).toHaveCount(2);
  const row = summaries.getByRole('row').nth(1);
  // The CMI # cell holds the study's links as well.
  const cmiCell = row.getByRole('cell').first();
  await expect(cmiCell.getByRole('link', { name: wanted.c_mi_number, exact: true })).toBeVisible();
  for (const link of ['Details', 'Files', 'Statistics'])
    await expect(cmiCell.getByRole('link', { name: `${link} of ${wanted.c_mi_number}` })).toBeVisible();
  await expectAccessible(page, 'study search, one result');

  // A filter tag goes with the keyboard alone.
  const remove = page.getByRole('button', { name: /^Remove filter CMI/ });
  await expect(remove).not.toHaveAttribute('tabindex', '-1');
  await remove.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('list', { name: 'Chosen filters' })).toHaveCount(0);
  await expect(page.getByText('No filters chosen yet.')).toBeVisible();

  // Every verified study (a fresh screen: no filters), sorted by CMI # one way, then the other.
  await page.goto('/search');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('combobox', { name: 'Rows per page' }).click();
  await page.getByRole('option', { name: '100' }).click();
  await expect(summaries.getByRole('row')).toHaveCount(library.length + 1);
  const cmiHeading = summaries.getByRole('columnheader', { name: /^CMI #/ });
  const cmiNumbers = () =>
    summaries
      .getByRole('row')
      .filter({ has: page.getByRole('cell') })
      .evaluateAll((rows) => rows.map((r) => r.querySelector('td a')?.textContent ?? ''));
  const expectedOrder = library
    .map((study) => study.c_mi_number)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  await cmiHeading.getByRole('button').click();
  await expect(cmiHeading).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(cmiNumbers).toEqual(expectedOrder);
  await cmiHeading.getByRole('button').click();
  await expect(cmiHeading).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(cmiNumbers).toEqual([...expectedOrder].reverse());
  await expectAccessible(page, 'study summaries sorted');
  await screenshots(page, 'search-results-sorted');
});

test('saved searches ask before deleting and refuse a name already taken', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/search');
  await showSearchFilters(page);
  await page.getByRole('textbox', { name: 'CMI #' }).fill('CMI-20');
  const name = `Twenties ${Date.now().toString(36)}`;
  const nameBox = page.getByRole('textbox', { name: 'Search name' }).first();
  await nameBox.fill(name);
  await page.getByRole('button', { name: 'Save search' }).first().click();
  await expect(page.getByText(`Successfully saved current search as "${name}".`)).toBeVisible();
  // The confirmation is readable (axe checks its contrast).
  await expectAccessible(page, 'study search, search saved');

  // The same name again is refused with a warning, and nothing is saved twice.
  await nameBox.fill(name.toUpperCase());
  await page.getByRole('button', { name: 'Save search' }).first().click();
  await expect(
    page.getByText(`A saved search named "${name.toUpperCase()}" already exists. Choose another name.`),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Saved Searches' }).click();
  const panel = page.getByRole('dialog', { name: 'Saved Searches' });
  await expect(panel.getByRole('listitem').filter({ hasText: name })).toHaveCount(1);
  await panel.getByRole('button', { name: `Delete saved search ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete saved search?' });
  await expect(confirm).toContainText(`Delete the saved search "${name}"? This cannot be undone.`);
  await expectAccessible(page, 'delete saved search confirmation');
  await screenshots(page, 'saved-search-delete');
  // Cancel keeps it; Delete removes it.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(panel.getByRole('listitem').filter({ hasText: name })).toHaveCount(1);
  await panel.getByRole('button', { name: `Delete saved search ${name}` }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(panel.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
});
