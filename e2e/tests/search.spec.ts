import {
  APAC_SUBREGIONS,
  type SearchCounts,
  type StudySearchQuery,
  type StudySummaryRow,
} from '@accord/contracts';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { readReportFile } from '../support/report.ts';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { showSearchFilters } from '../support/search.ts';
import { apiToken, signIn } from '../support/session.ts';

async function post<T>(request: APIRequestContext, token: string, path: string, data: unknown): Promise<T> {
  const response = await request.post(`/api${path}`, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

const countsFor = (request: APIRequestContext, token: string, query: StudySearchQuery) =>
  post<SearchCounts>(request, token, '/smartsearch/', { query });

const summariesFor = (request: APIRequestContext, token: string, query: StudySearchQuery) =>
  post<StudySummaryRow[]>(request, token, '/smartsearch/study_summarises?per_page=100', { query });

/** Picks an option of a multi-select filter by its value (options also show their counts). */
async function choose(page: Page, label: string, value: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page
    .getByRole('option', { name: new RegExp(`^${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`) })
    .click();
  await page.keyboard.press('Escape');
}

function resultTab(page: Page, name: string): Locator {
  return page.getByRole('tab', { name: new RegExp(`^${name.replace('/', '\\/')}`) });
}

test('searching by client and region, every result tab, saved searches and both spreadsheets', async ({
  page,
  request,
}) => {
  // A long journey: every result tab and two spreadsheets; a loaded machine needs more than a minute.
  test.setTimeout(180_000);
  const admin = await apiToken(request, DEMO_USERS.admin);
  // A client with studies in APAC, taken from the library itself.
  const apacStudies = await summariesFor(request, admin, { essentials: { region: ['APAC'] } });
  expect(apacStudies.length).toBeGreaterThan(0);
  const client = apacStudies[0]!.client;
  const expected = await countsFor(request, admin, { essentials: { client: [client], region: ['APAC'] } });

  await signIn(page, DEMO_USERS.admin);
  await page.goto('/search');
  await expect(page.getByRole('heading', { level: 1, name: 'Study Search' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Search');
  await expectAccessible(page, 'study search, empty');
  await showSearchFilters(page);

  await choose(page, 'Client', client);
  await choose(page, 'Region', 'APAC');
  // APAC brings its three sub-regions along.
  const chosen = page.getByRole('list', { name: 'Chosen filters' });
  for (const region of ['APAC', ...APAC_SUBREGIONS]) await expect(chosen).toContainText(region);
  await expect(page).toHaveURL(/q=/);
  await expectAccessible(page, 'study search with filters');

  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(resultTab(page, 'Study summaries')).toContainText(String(expected.summaries));
  await expect(page.getByRole('table', { name: 'Study summaries' }).getByRole('row')).toHaveCount(
    Math.min(expected.summaries, 10) + 1,
  );
  await expectAccessible(page, 'study summaries');
  const summaries = page.getByRole('table', { name: 'Study summaries' });
  await summaries.getByRole('button', { name: /^About Country/ }).hover();
  await expect(page.getByRole('tooltip')).toHaveText('Do not compare scores across different markets.');
  await summaries.getByRole('button', { name: /^About Design Method/ }).hover();
  await expect(page.getByRole('tooltip')).toContainText('Balanced Incomplete Block Design');

  const tabs: [string, keyof SearchCounts][] = [
    ['Fragrances', 'fragrances'],
    ['Concepts', 'concepts'],
    ['Screeners', 'screener'],
    ['Questionnaires', 'questionnaire'],
    ['Protocols', 'protocol'],
    ['Results/Reports', 'RDF_report'],
  ];
  for (const [name, key] of tabs) {
    await resultTab(page, name).click();
    await expect(resultTab(page, name)).toHaveAttribute('aria-selected', 'true');
    await expect(resultTab(page, name)).toContainText(String(expected[key]));
    const table = page.getByRole('table', { name });
    if (expected[key] === 0) await expect(table).toContainText('No data');
    else await expect(table.getByRole('row')).toHaveCount(Math.min(expected[key], 10) + 1);
    await expectAccessible(page, `result tab ${name}`);
  }

  // Both spreadsheets, opened with exceljs.
  await resultTab(page, 'Study summaries').click();
  const studiesDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download study summaries' }).click();
  const studies = await studiesDownload;
  expect(studies.suggestedFilename()).toBe('search-studies-result.xlsx');
  const studySheet = await readReportFile(await studies.path());
  expect(studySheet.rows).toHaveLength(expected.summaries);
  // The CMI # names a study first; no internal id.
  expect(studySheet.headings.slice(0, 2)).toEqual(['CMI #', 'Project Name']);
  expect(studySheet.lines[0]).toBe(
    `Study search: ${expected.summaries} ${expected.summaries === 1 ? 'study' : 'studies'}`,
  );

  await resultTab(page, 'Fragrances').click();
  const fragrancesDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download fragrances' }).click();
  const fragrances = await fragrancesDownload;
  expect(fragrances.suggestedFilename()).toBe('search-fragrances-result.xlsx');
  const fragranceSheet = await readReportFile(await fragrances.path());
  expect(fragranceSheet.rows).toHaveLength(expected.fragrances);
  expect(fragranceSheet.headings.slice(0, 2)).toEqual(['CMI #', 'Fragrance Name']);

  // Save the search under a name of our own.
  const name = `APAC ${client} ${Date.now().toString(36)}`;
  await page.getByRole('textbox', { name: 'Search name' }).first().fill(name);
  await page.getByRole('button', { name: 'Save search' }).first().click();
  await expect(page.getByText(`Successfully saved current search as "${name}".`)).toBeVisible();
  // The message goes when the user types again.
  await page.getByRole('textbox', { name: 'Search name' }).first().fill('x');
  await expect(page.getByText(`Successfully saved current search as "${name}".`)).toBeHidden();
  await page.getByRole('textbox', { name: 'Search name' }).first().fill('');

  // New search asks to save first; No clears filters and results.
  await page.getByRole('button', { name: 'New search' }).click();
  const popup = page.getByRole('dialog', { name: 'Save current search?' });
  await expect(popup).toContainText('The following action will clear filters and results');
  await expectAccessible(page, 'save-or-discard popup');
  await popup.getByRole('button', { name: 'No', exact: true }).click();
  await expect(popup).toBeHidden();
  await expect(page.getByText('No filters chosen yet.')).toBeVisible();
  await expect(page.getByRole('tab', { name: /^Study summaries/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New search' })).toHaveCount(0);

  // Saving with no filters is refused.
  await page.getByRole('textbox', { name: 'Search name' }).first().press('Enter');
  await expect(page.getByText("You can't save searches with empty filters!")).toBeVisible();

  // Apply the saved search again from the side panel.
  await page.getByRole('button', { name: 'Saved Searches' }).click();
  const panel = page.getByRole('dialog', { name: 'Saved Searches' });
  const entry = panel.getByRole('listitem').filter({ hasText: name });
  await expect(entry).toBeVisible();
  await entry.getByRole('button', { name: /Show filters/ }).click();
  await expect(entry).toContainText(`Client: ${client}`);
  await expectAccessible(page, 'saved searches panel');
  await entry.getByRole('button', { name: `Apply saved search ${name}` }).click();
  await expect(panel).toBeHidden();
  await expect(chosen).toContainText(client);
  await expect(resultTab(page, 'Study summaries')).toContainText(String(expected.summaries));

  // Leaving with filters set asks first; Cancel stays, No leaves.
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Home' }).click();
  await expect(popup).toBeVisible();
  await popup.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page).toHaveURL(/\/search/);
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Home' }).click();
  await popup.getByRole('button', { name: 'No', exact: true }).click();
  await expect(page).toHaveURL(/\/home\/$/);
});

test('an admin bulk-edits the category of two studies from the results', async ({ page, request }) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  const studies = await summariesFor(request, admin, {});
  expect(studies.length).toBeGreaterThanOrEqual(2);
  const [first, second] = studies as [StudySummaryRow, StudySummaryRow];
  const categories = [
    ...new Set(studies.map((study) => study.category).filter((value): value is string => !!value)),
  ];
  const target = categories.find((category) => category !== first.category && category !== second.category);
  expect(target).toBeDefined();

  await signIn(page, DEMO_USERS.admin);
  await page.goto('/search?startSearch=true');
  const table = page.getByRole('table', { name: 'Study summaries' });
  await expect(table.getByRole('row').filter({ hasText: first.c_mi_number })).toBeVisible({
    timeout: 30_000,
  });

  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
  await table.getByRole('checkbox', { name: `Select ${first.c_mi_number}` }).check();
  await expect(page.getByRole('button', { name: 'Edit 1 study' })).toBeVisible();
  await table.getByRole('checkbox', { name: `Select ${second.c_mi_number}` }).check();
  await page.getByRole('button', { name: 'Edit 2 studies' }).click();

  const dialog = page.getByRole('dialog', { name: 'Edit 2 studies' });
  // Two rows with no field chosen are refused.
  await dialog.getByRole('button', { name: 'Add row' }).click();
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog.getByText('Please fill all the form rows to save data')).toBeVisible();
  await expectAccessible(page, 'bulk edit popup');
  await dialog.getByRole('button', { name: 'Delete row 2' }).click();

  await dialog.getByLabel('Field of row 1').click();
  await page.getByRole('option', { name: 'Category', exact: true }).click();
  const values = dialog.getByLabel('Values of row 1');
  await values.fill(target!);
  await values.press('Enter');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toBeHidden();

  // The results refresh and show the new category on both studies.
  for (const study of [first, second]) {
    await expect(table.getByRole('row').filter({ hasText: study.c_mi_number })).toContainText(target!);
  }
  const changed = await summariesFor(request, admin, { essentials: { category: [target!] } });
  const ids = changed.map((study) => study.id);
  expect(ids).toContain(first.id);
  expect(ids).toContain(second.id);

  // Each study's history shows the change, by whom, from the old category to the new one.
  for (const study of [first, second]) {
    await page.goto(`/study/${study.id}`);
    await page.getByRole('button', { name: 'Study history' }).click();
    const history = page.getByRole('dialog', { name: 'Study history' });
    const newest = history.getByRole('listitem').first();
    await expect(newest).toContainText(DEMO_USERS.admin);
    await expect(newest.getByRole('row').filter({ hasText: 'category' })).toContainText(
      `${study.category || '-'} → ${target!}`,
    );
    await expectAccessible(page, 'study history after a bulk edit');
    await history.getByRole('button', { name: /close/i }).click();
  }
});
