import type { StudyDetailsResponse, StudyFileEntry, StudySummaryRow } from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function summaries(request: APIRequestContext, token: string): Promise<StudySummaryRow[]> {
  const response = await request.post('/api/smartsearch/study_summarises?per_page=100', {
    headers: auth(token),
    data: { query: {} },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as StudySummaryRow[];
}

async function getJson<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const response = await request.get(`/api${path}`, { headers: auth(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

/** The first of the given studies (in search order) with fragrances and files. */
async function richStudy(request: APIRequestContext, token: string, rows: StudySummaryRow[]) {
  for (const row of rows) {
    const study = await getJson<StudyDetailsResponse>(request, token, `/study/${row.id}`);
    const files = await getJson<StudyFileEntry[]>(request, token, `/study/${row.id}/study-files/`);
    if (study.perfume_characteristics.length > 0 && files.length > 0) return { study, files };
  }
  throw new Error('No study with fragrances and files in the demo library');
}

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

test('an admin reads a study, bulk-edits its category and finds the change in the history', async ({
  page,
  request,
}) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  // Studies on the first page of results, skipping the two the search journey edits.
  const rows = (await summaries(request, admin)).slice(2, 10);
  const { study, files } = await richStudy(request, admin, rows);
  const oldCategory = study.details.product_categorization.category?.value;
  const categories = [...new Set((await summaries(request, admin)).map((row) => row.category))];
  const target = categories.find((category) => !!category && category !== oldCategory);
  expect(target).toBeTruthy();

  await signIn(page, DEMO_USERS.admin);
  await page.goto('/search?startSearch=true');
  await page.getByRole('link', { name: `Details of ${study.c_mi_number}` }).click();
  await expect(page).toHaveURL(new RegExp(`/study/${study.id}/?$`));

  await expect(page.getByRole('heading', { level: 1, name: study.project_name })).toBeVisible();
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(breadcrumb.getByRole('link', { name: 'Search' })).toBeVisible();
  await expect(breadcrumb).toContainText(study.c_mi_number);
  await expect(page.getByText(study.verified ? 'Verified' : 'Not verified', { exact: true })).toBeVisible();

  const info = section(page, 'Study Info');
  await expect(info).toContainText('CMI');
  await expect(info).toContainText(study.c_mi_number);
  await expect(info).toContainText(study.client);

  const fragrances = page.getByRole('table', { name: 'Fragrance Details' });
  await expect(page.locator('#fragrance')).toContainText('Fragrance Details');
  for (const header of [
    'Developer #',
    '6 Digit Code (SAP)',
    'Family',
    'Perfumer',
    'Level',
    'Dominant Notes',
  ]) {
    await expect(fragrances.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  }
  await expect(fragrances.getByRole('row')).toHaveCount(study.perfume_characteristics.length + 1);
  await expect(fragrances).toContainText(study.perfume_characteristics[0]!.name);
  await expect(page.locator('#concepts')).toContainText('Concepts');

  const fileTable = page.locator('#files').getByRole('table', { name: 'Related files' });
  await expect(fileTable.getByRole('row')).toHaveCount(files.length + 1);
  await expect(fileTable).toContainText(files[0]!.name);
  await expect(page.getByRole('link', { name: 'Mapping to questions' })).toHaveCount(
    study.has_questions ? 1 : 0,
  );
  await expectAccessible(page, 'study details (admin)');

  const downloading = page.waitForEvent('download');
  await fileTable
    .getByRole('button', { name: /^Download / })
    .first()
    .click();
  expect((await downloading).suggestedFilename()).toContain(files[0]!.name.replace(/\.[^.]+$/, ''));

  const edit = await request.put('/api/smartsearch/update', {
    headers: auth(admin),
    data: { studies: [study.id], data: [{ key: 'category', value: [target!] }] },
  });
  expect(edit.status(), await edit.text()).toBe(200);

  await page.reload();
  await expect(section(page, 'Product Categorization')).toContainText(target!);

  await page.getByRole('button', { name: 'Study history' }).click();
  const dialog = page.getByRole('dialog', { name: 'Study history' });
  const newest = dialog.getByRole('listitem').first();
  await expect(newest).toContainText(DEMO_USERS.admin);
  await expect(newest.getByRole('row').filter({ hasText: 'category' })).toContainText(
    `${typeof oldCategory === 'string' && oldCategory ? oldCategory : '-'} → ${target!}`,
  );
  await expectAccessible(page, 'study history');
  await dialog.getByRole('button', { name: /close/i }).click();
  await expect(dialog).toBeHidden();

  for (const name of ['Fragrances history', 'Concepts history']) {
    await page.getByRole('button', { name }).click();
    await expect(page.getByRole('dialog', { name })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name })).toBeHidden();
  }
});

test('a researcher sees the verified label and no change histories', async ({ page, request }) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  const rows = await summaries(request, admin);
  let verified: StudyDetailsResponse | undefined;
  for (const row of rows) {
    const study = await getJson<StudyDetailsResponse>(request, admin, `/study/${row.id}`);
    if (study.verified) {
      verified = study;
      break;
    }
  }
  if (!verified) {
    // No verified study in the demo library: mark the last one verified.
    const id = rows.at(-1)!.id;
    const response = await request.put(`/api/study/${id}`, {
      headers: auth(admin),
      data: { type: 'study', study: { verified: true }, oldData: { verified: false } },
    });
    expect(response.status(), await response.text()).toBe(200);
    verified = await getJson<StudyDetailsResponse>(request, admin, `/study/${id}`);
  }

  await signIn(page, DEMO_USERS.researcher);
  await page.goto(`/study/${verified.id}/`);
  await expect(page.getByRole('heading', { level: 1, name: verified.project_name })).toBeVisible();
  await expect(page.getByText('Verified', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /history/i })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Fragrance Details' })).toBeVisible();
  await expectAccessible(page, 'study details (researcher)');

  // Each field shows once: its card, or else its tag group.
  const labels = [
    ...Object.values(verified.details).flatMap((group) => Object.values(group).map((field) => field.label)),
    ...Object.values(verified.tags).flatMap((group) => group.map((tag) => tag.label)),
  ];
  const terms = await page.locator('dt').allTextContents();
  const repeated = [...new Set(labels)].filter(
    (label) => terms.filter((term) => term.trim().toLowerCase() === label.toLowerCase()).length > 1,
  );
  expect(repeated).toEqual([]);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/study-details-${width}.png`, fullPage: true });
  }
});

test("a client user opening another client's study sees 'Study not found'", async ({ page, request }) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  const client = await apiToken(request, DEMO_USERS.client);
  const own = new Set((await summaries(request, client)).map((row) => row.id));
  const foreign = (await summaries(request, admin)).find((row) => !own.has(row.id));
  expect(foreign).toBeDefined();

  await signIn(page, DEMO_USERS.client);
  await page.goto(`/study/${foreign!.id}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Study not found' })).toBeVisible();
  await expect(page.getByText(foreign!.project_name)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'study search' })).toBeVisible();
  await expectAccessible(page, 'study not found');
});
