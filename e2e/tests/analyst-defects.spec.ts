import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { StudyFileNode, StudySummaryRow } from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS, E2E_DIR, TMP_DIR } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

test.describe.configure({ timeout: 240_000 });

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const CLEAN_ZIP = readFileSync(path.join(E2E_DIR, '..', 'docs', 'data-formats', 'studies-clean.zip'));

async function choose(page: Page, combobox: string, option: string) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${TMP_DIR}/screens/${name}-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const navigation = page
    .getByRole('button', { name: 'Toggle navigation', expanded: true })
    .locator('visible=true');
  if ((await page.getByRole('dialog').count()) === 0 && (await navigation.count()) > 0) {
    await navigation.click();
    await expect(page.locator('#main-navigation')).not.toBeInViewport();
  }
  await page.screenshot({ path: `${TMP_DIR}/screens/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('Best-10 by liking, then Top Attributes and Tendencies computed on exactly those 10 fragrances', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.researcher);
  const request = {
    type: 'fragrances',
    q: {
      metrics: {
        rdfType: 'all',
        metricsList: [
          {
            metric: 'liking',
            aggregation: 'top_2_box',
            applyThreshold: true,
            threshold: { applyThreshold: true, amount: 10, desc: true, type: 'fragrances' },
          },
        ],
      },
    },
  };
  await page.goto(`/analytics?startSearch=true&q=${encodeURIComponent(JSON.stringify(request))}`);
  const fragrancesTab = page.getByRole('tab', { name: /^Fragrances/ });
  await expect(fragrancesTab).toHaveText(/Fragrances\s*10$/, { timeout: 90_000 });
  // Tabs not yet run say so, without a count.
  await expect(page.getByRole('tab', { name: /^Top Attributes/ })).toHaveText(/–not run yet$/);

  await page.getByRole('tab', { name: /^Top Attributes/ }).click();
  await choose(page, 'Attribute Type', 'All attributes');
  await choose(page, 'Aggregation', 'Top 2 Box');
  const run = page.getByRole('tabpanel', { name: /Top Attributes/ }).getByRole('button', { name: 'Run' });
  await expect(run).toBeEnabled();
  await run.click();
  await expect(page.getByText(/pooled over 10 fragrances/)).toBeVisible({ timeout: 60_000 });
  await expectAccessible(page, 'top attributes of a Best-10 search');
  await screenshots(page, 'best10-top-attributes');

  await page.getByRole('tab', { name: /^Creative & Olfactive Tendencies/ }).click();
  await choose(page, 'Count', 'All values');
  await choose(page, 'Metadata Type', 'Olfactive');
  await choose(page, 'Metadata', 'Family');
  await page
    .getByRole('tabpanel', { name: /Tendencies/ })
    .getByRole('button', { name: 'Run' })
    .click();
  await expect(page.getByText('10 fragrances counted')).toBeVisible({ timeout: 60_000 });
  const rows = page.getByRole('table', { name: 'Fragrances by family', exact: true }).getByRole('row');
  const counts = await rows.locator('td:nth-child(2)').allTextContents();
  expect(counts.reduce((sum, text) => sum + Number(text), 0)).toBe(10);
  await expectAccessible(page, 'tendencies of a Best-10 search');
  await screenshots(page, 'best10-tendencies');
});

async function resultsFiles(request: APIRequestContext, token: string) {
  const response = await request.post('/api/smartsearch/study_summarises?per_page=100', {
    headers: auth(token),
    data: { query: {} },
  });
  const studies = (await response.json()) as StudySummaryRow[];
  const found: { id: number; name: string; cmi: string }[] = [];
  for (const study of studies.slice(-6)) {
    const tree = (await (
      await request.get(`/api/study/${study.id}/related-study-files/`, { headers: auth(token) })
    ).json()) as StudyFileNode;
    const results = tree.children.find((node) => node.name === 'results');
    const file = results?.children.find((node) => node.name.endsWith('_results.csv'));
    if (file) found.push({ id: study.id, name: file.name, cmi: file.name.replace('_results.csv', '') });
  }
  return found;
}

test("another study's results file is refused on the study files page, naming what differs", async ({
  page,
  request,
}) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  const [own, other] = await resultsFiles(request, admin);
  const foreign = await request.get(
    `/api/study/${other!.id}/study-files-path/${encodeURIComponent(other!.name)}`,
    { headers: auth(admin) },
  );
  expect(foreign.status()).toBe(200);

  await signIn(page, DEMO_USERS.admin);
  await page.goto(`/study/${own!.id}/structure/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Study Files' })).toBeVisible();
  await page.getByRole('button', { name: /^results \d+ items?$/ }).click();
  const row = page.locator(`li[data-file="${own!.name}"]`);
  const chooser = page.waitForEvent('filechooser');
  await row.getByRole('button', { name: `Upload a new version of ${own!.name}` }).click();
  await (await chooser).setFiles({ name: other!.name, mimeType: 'text/csv', buffer: await foreign.body() });
  await row.getByRole('button', { name: 'Confirm' }).click();
  const refused = row.locator('[data-upload-status="failed"]').getByRole('img', {
    name: new RegExp(
      `^${other!.name} was not accepted: The file is named for study ${other!.cmi}, not for this study \\(${own!.cmi}\\)`,
    ),
  });
  await expect(refused).toBeVisible({ timeout: 30_000 });
  await row.getByRole('button', { name: `Show details of ${own!.name}` }).click();
  const details = row.getByRole('table', { name: `Error details of ${own!.name}` });
  await expect(details).toContainText(`The file is named for study ${other!.cmi}`);
  await expectAccessible(page, 'study files, a foreign results file refused');
  // On a phone the error table scrolls sideways as a focusable region.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, 'study files at 390 px with an error table');
  await screenshots(page, 'study-files-foreign-results');
});

test('a studies upload whose studies differ from its form shows the differences and waits for a confirmation', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page, DEMO_USERS.admin);
  await page.goto('/studies-upload');
  await page.locator('input[type="file"]').setInputFiles({
    name: 'studies-clean.zip',
    mimeType: 'application/zip',
    buffer: CLEAN_ZIP,
  });
  await choose(page, 'Client', 'Northwind Consumer Goods');
  await choose(page, 'Region', 'Europe');
  await page.getByRole('button', { name: 'Next' }).click();
  const modal = page.getByRole('dialog', { name: 'Uploading files' });
  await expect(modal.getByText('Check the studies before they are added')).toBeVisible({ timeout: 90_000 });
  await expect(modal).toContainText('The studies differ from the upload form (client, region or year).');
  await expect(modal.getByText('Done')).toHaveCount(0);
  await expectAccessible(page, 'studies upload waiting for a confirmation');
  await modal.getByRole('button', { name: 'View File Tree' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Verify Studies' })).toBeVisible();
  await expect(page.locator('[data-status="VALIDATED"]')).toHaveText('validated');
  const differences = page.getByRole('alert').filter({ hasText: 'The studies differ from the upload form' });
  await expect(differences).toContainText('on the upload form.');
  await expect(differences).toContainText('Check the differences and confirm to add them to the library.');
  await expectAccessible(page, 'verify studies waiting for a confirmation');
  await screenshots(page, 'verify-studies-awaiting-confirmation');

  await differences.getByRole('button', { name: 'Confirm and add to the library' }).click();
  const progress = page.getByRole('dialog', { name: 'Processing studies' });
  await expect(progress.getByText('Done')).toBeVisible({ timeout: 90_000 });
  await progress.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.locator('[data-status="SUCCEED"]')).toHaveText('succeed');
  await expect(page.getByText('2 studies were added')).toBeVisible();
});

test('a bookmarked search link with a 300-character filter opens on its other filters and says what was wrong', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.researcher);
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/') && response.status() === 400) failures.push(response.url());
  });
  const query = { essentials: { cmiNumber: 'C'.repeat(300), region: ['Europe'] } };
  await page.goto(`/search?startSearch=true&q=${encodeURIComponent(JSON.stringify(query))}`);
  const notice = page.getByRole('alert').filter({ hasText: 'Part of this link could not be used' });
  await expect(notice).toContainText(
    'CMI # is 300 characters long, longer than the 200 a filter may be, so it was left out.',
  );
  await expect(notice).toContainText('The search opened with the other filters of the link.');
  await expect(page.getByText('Something went wrong!')).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Study summaries' })).toBeVisible({ timeout: 60_000 });
  expect(failures).toEqual([]);
  // The link in the address bar no longer carries the refused filter.
  expect(new URL(page.url()).searchParams.get('q')).not.toContain('CCCC');
  await expectAccessible(page, 'search opened from a link with a refused filter');
  await screenshots(page, 'search-link-refused-filter');
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
});

test('A filtered search names its region, gender and age in the criteria and under the results', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.researcher);
  const request = {
    type: 'fragrances',
    q: {
      essentials: { region: ['Europe'] },
      demographics: { gender: ['Female'], startAge: 25, endAge: 44 },
      metrics: { rdfType: 'all', metricsList: [{ metric: 'liking', aggregation: 'mean' }] },
    },
  };
  await page.goto(`/analytics?startSearch=true&q=${encodeURIComponent(JSON.stringify(request))}`);
  await expect(page.getByRole('tab', { name: /^Fragrances/ })).toHaveText(/Fragrances\s*\d+$/, {
    timeout: 90_000,
  });
  const summary = page.getByTestId('analytics-criteria-summary');
  await expect(summary).toContainText('Fragrances: M Overall Liking');
  await expect(summary).toContainText('Region: Europe; Gender: Female; Age: 25 to 44');
  await expect(summary).not.toContainText('M liking');
  await expect(page.getByTestId('results-filter-search-respondents')).toHaveText(
    'Respondents of the search: Gender: Female; Age: 25 to 44. A filter here narrows them further.',
  );
  await expectAccessible(page, 'analytics criteria in words');
  await screenshots(page, 'analytics-criteria-in-words');
});
