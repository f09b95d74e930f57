import type { StudyDetailsResponse, StudyOptionsResponse } from '@accord/contracts';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_STUDY_COUNT, DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

const SUCCESS = 'Study data was updated successfully.';
const FAILURE = 'There was an issue with your request, please try again later.';

async function getStudy(
  request: APIRequestContext,
  token: string,
  id: number,
): Promise<StudyDetailsResponse> {
  const response = await request.get(`/api/study/${id}`, { headers: auth(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as StudyDetailsResponse;
}

/**
 * A study with at least two fragrances and a concept, taken from the end of the library so that
 * the journeys editing the first studies are not disturbed. Read by id, not through the search,
 * whose default of verified studies only would miss a study another journey marked not verified.
 */
async function tableStudy(request: APIRequestContext, token: string): Promise<StudyDetailsResponse> {
  for (let id = DEMO_STUDY_COUNT; id >= 1; id -= 1) {
    const study = await getStudy(request, token, id);
    if (study.perfume_characteristics.length >= 2 && study.concepts.length >= 1) return study;
  }
  throw new Error('No study with two fragrances and a concept in the demo library');
}

const editSwitch = (page: Page, noun: 'fragrances' | 'concepts') =>
  page.getByRole('switch', { name: `Edit ${noun}` });

/** The 1-based row of the editing table whose Name input holds the given value. */
async function rowWithName(table: Locator, name: string): Promise<number> {
  const inputs = table.getByRole('textbox', { name: /^Name, row \d+$/ });
  const count = await inputs.count();
  for (let index = 0; index < count; index++) {
    if ((await inputs.nth(index).inputValue()) === name) return index + 1;
  }
  throw new Error(`No row named ${name}`);
}

async function expectSaved(page: Page, section: Locator) {
  const notice = section.getByRole('status').filter({ hasText: SUCCESS });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Success!');
}

test('an admin adds, deletes and restores fragrance rows and finds them in the history', async ({
  page,
  request,
}) => {
  // Many saves and reloads on a shared machine.
  test.setTimeout(180_000);
  const admin = await apiToken(request, DEMO_USERS.admin);
  const study = await tableStudy(request, admin);
  const fragranceCount = study.perfume_characteristics.length;
  const firstFragrance = study.perfume_characteristics[0]!;

  await signIn(page, DEMO_USERS.admin);
  await page.goto(`/study/${study.id}/`);
  await expect(page.getByRole('heading', { level: 1, name: study.project_name })).toBeVisible();

  const fragranceSection = page.locator('#fragrance');
  const readTable = page.getByRole('table', { name: 'Fragrance Details', exact: true });
  const editTable = page.getByRole('table', { name: 'Fragrance Details (editing)' });
  await expect(readTable.getByRole('row')).toHaveCount(fragranceCount + 1);

  // Add two rows at the top and save.
  await editSwitch(page, 'fragrances').click();
  await expect(editTable).toBeVisible();
  await expect(editTable.getByRole('row')).toHaveCount(fragranceCount + 1);
  await expect(editTable.getByRole('textbox', { name: 'Name, row 1' })).toHaveValue(firstFragrance.name);
  const addRow = fragranceSection.getByRole('button', { name: 'Add row' });
  await addRow.click();
  await expect(editTable.getByRole('textbox', { name: 'Name, row 1' })).toBeFocused();
  await page.keyboard.type('Amber Horizon E2E');
  await editTable.getByRole('textbox', { name: 'Fragrance Code, row 1' }).fill('E2E-F1');
  await editTable.getByRole('textbox', { name: 'Level, row 1' }).fill('7.5');
  await editTable.getByRole('textbox', { name: 'Dominant Note 1, row 1' }).fill('Amber');
  await addRow.click();
  await expect(editTable.getByRole('textbox', { name: 'Name, row 2' })).toHaveValue('Amber Horizon E2E');
  await editTable.getByRole('textbox', { name: 'Name, row 1' }).fill('Cedar Dusk E2E');
  // A new row needs a code: the save is held back and the field says why.
  await editSwitch(page, 'fragrances').click();
  await expect(editTable.getByText('Every fragrance needs a fragrance code.')).toBeVisible();
  await expect(editSwitch(page, 'fragrances')).toBeChecked();
  await expect(editTable.getByRole('textbox', { name: 'Fragrance Code, row 1' })).toBeFocused();
  await expect(fragranceSection.getByRole('alert')).toContainText('Check the marked fields');
  await fragranceSection.screenshot({ path: test.info().outputPath('study-tables-invalid-1280.png') });
  await page.keyboard.type('E2E-F2');
  await expect(editTable.getByText('Every fragrance needs a fragrance code.')).toHaveCount(0);
  await expect(fragranceSection.getByRole('alert')).toHaveCount(0);
  await expectAccessible(page, 'fragrance table in edit mode');
  await fragranceSection.screenshot({ path: test.info().outputPath('study-tables-edit-1280.png') });

  await editSwitch(page, 'fragrances').click();
  await expectSaved(page, fragranceSection);
  await expect(editSwitch(page, 'fragrances')).not.toBeChecked();
  await expect(readTable).toContainText('Amber Horizon E2E');
  await fragranceSection.screenshot({ path: test.info().outputPath('study-tables-saved-1280.png') });
  await page.reload();
  await expect(readTable.getByRole('row')).toHaveCount(fragranceCount + 3);
  await expect(readTable).toContainText('Amber Horizon E2E');
  await expect(readTable).toContainText('Cedar Dusk E2E');
  await expect(readTable.getByRole('row').filter({ hasText: 'Amber Horizon E2E' })).toContainText('7.5%');

  // Delete one row and save.
  await editSwitch(page, 'fragrances').click();
  const cedar = await rowWithName(editTable, 'Cedar Dusk E2E');
  await editTable.getByRole('button', { name: `Delete row ${cedar}` }).click();
  await expect(editTable.getByRole('row')).toHaveCount(fragranceCount + 2);
  await expect(fragranceSection).toContainText(
    '1 removed row will be deleted, with its answers, when you save.',
  );
  await editSwitch(page, 'fragrances').click();
  await expectSaved(page, fragranceSection);
  await page.reload();
  await expect(readTable.getByRole('row')).toHaveCount(fragranceCount + 2);
  await expect(readTable).not.toContainText('Cedar Dusk E2E');
  await expect(readTable).toContainText('Amber Horizon E2E');

  // Change, add and delete, then 'Reverse changes' brings the original rows back.
  await editSwitch(page, 'fragrances').click();
  const reverse = fragranceSection.getByRole('button', { name: 'Reverse changes' });
  await expect(reverse).toBeDisabled();
  await editTable.getByRole('textbox', { name: 'Name, row 1' }).fill('Changed E2E');
  await editTable.getByRole('button', { name: 'Delete row 2' }).click();
  await addRow.click();
  await expect(reverse).toBeEnabled();
  await reverse.click();
  await expect(editTable.getByRole('row')).toHaveCount(fragranceCount + 2);
  await expect(editTable.getByRole('textbox', { name: 'Name, row 1' })).toHaveValue(firstFragrance.name);
  await expect(editTable.getByRole('textbox', { name: 'Name, row 2' })).toHaveValue(
    study.perfume_characteristics[1]!.name,
  );
  await expect(reverse).toBeDisabled();
  await editSwitch(page, 'fragrances').click();
  await expect(readTable).toContainText(firstFragrance.name);
  await expect(readTable).not.toContainText('Changed E2E');

  // A save the server refuses keeps the working copy: the row was removed meanwhile by someone else.
  await editSwitch(page, 'fragrances').click();
  const current = await getStudy(request, admin, study.id);
  const removal = await request.put(`/api/study/${study.id}/tags`, {
    headers: auth(admin),
    data: {
      type: 'fragrances',
      perfume_characteristics: current.perfume_characteristics.filter(
        (row) => row.name !== 'Amber Horizon E2E',
      ),
    },
  });
  expect(removal.status(), await removal.text()).toBe(200);
  const amber = await rowWithName(editTable, 'Amber Horizon E2E');
  await editTable.getByRole('textbox', { name: `Name, row ${amber}` }).fill('Amber Late E2E');
  await editSwitch(page, 'fragrances').click();
  await expect(fragranceSection.getByRole('alert').filter({ hasText: FAILURE })).toBeVisible();
  await expect(editSwitch(page, 'fragrances')).toBeChecked();
  await expect(editTable.getByRole('textbox', { name: `Name, row ${amber}` })).toHaveValue('Amber Late E2E');
  await reverse.click();
  await editSwitch(page, 'fragrances').click();
  await page.reload();
  await expect(readTable.getByRole('row')).toHaveCount(fragranceCount + 1);
  await expect(readTable).not.toContainText('Amber Horizon E2E');
  await expect(readTable).not.toContainText('Amber Late E2E');

  // The history lists what was saved.
  await page.getByRole('button', { name: 'Fragrances history' }).click();
  const fragranceHistory = page.getByRole('dialog', { name: 'Fragrances history' });
  await expect(fragranceHistory.getByRole('listitem').first()).toContainText(DEMO_USERS.admin);
  await expect(
    fragranceHistory.getByRole('row').filter({ hasText: 'Cedar Dusk E2E (E2E-F2) → -' }),
  ).toHaveCount(1);
  await expect(
    fragranceHistory.getByRole('row').filter({ hasText: '- → Amber Horizon E2E (E2E-F1)' }),
  ).toHaveCount(1);
  await expectAccessible(page, 'fragrances history');
  await page.keyboard.press('Escape');
  await expect(fragranceHistory).toBeHidden();
});

test('an admin edits a concept, finds it in the history and clears the concepts', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = await apiToken(request, DEMO_USERS.admin);
  const study = await tableStudy(request, admin);
  await signIn(page, DEMO_USERS.admin);
  await page.goto(`/study/${study.id}/`);
  await expect(page.getByRole('heading', { level: 1, name: study.project_name })).toBeVisible();

  // Edit a concept.
  const conceptSection = page.locator('#concepts');
  const conceptTable = page.getByRole('table', { name: 'Concepts (editing)' });
  const concept = study.concepts[0]!;
  // A country the suggestions offer for the concept's region.
  const optionsResponse = await request.get('/api/study/options', { headers: auth(admin) });
  const countryOptions = ((await optionsResponse.json()) as StudyOptionsResponse).concept
    .find((definition) => definition.field === 'country')!
    .options.filter((option) => !concept.region || option.parent === concept.region)
    .map((option) => option.value);
  const newCountry = countryOptions.find((value) => value !== concept.country)!;
  expect(newCountry).toBeTruthy();
  await editSwitch(page, 'concepts').click();
  await expect(conceptTable.getByRole('textbox', { name: 'Concept Code, row 1' })).toHaveValue(
    concept.concept_code,
  );
  await conceptTable.getByRole('textbox', { name: 'Name, row 1' }).fill('Concept Renamed E2E');
  const country = conceptTable.getByLabel('Country, row 1');
  await country.fill('');
  await country.pressSequentially(newCountry.slice(0, 3));
  await expect(page.getByRole('option', { name: newCountry, exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('study-tables-concepts-1280.png') });
  await page.getByRole('option', { name: newCountry, exact: true }).click();
  await expect(country).toHaveValue(newCountry);
  await expectAccessible(page, 'concept table in edit mode');
  await editSwitch(page, 'concepts').click();
  await expectSaved(page, conceptSection);
  const concepts = page.getByRole('table', { name: 'Concepts', exact: true });
  await expect(concepts.getByRole('row').filter({ hasText: 'Concept Renamed E2E' })).toContainText(
    newCountry,
  );

  await page.getByRole('button', { name: 'Concepts history' }).click();
  const conceptHistory = page.getByRole('dialog', { name: 'Concepts history' });
  const newest = conceptHistory.getByRole('listitem').first();
  const renamed = `Concept Renamed E2E (${concept.concept_code})`;
  await expect(newest.getByRole('row').filter({ hasText: `${renamed}: name` })).toContainText(
    `${concept.name} → Concept Renamed E2E`,
  );
  await expect(newest.getByRole('row').filter({ hasText: `${renamed}: country` })).toContainText(
    `→ ${newCountry}`,
  );
  await page.keyboard.press('Escape');
  await expect(conceptHistory).toBeHidden();

  // Removing every concept clears the table, and the switch then stays off.
  await editSwitch(page, 'concepts').click();
  for (let left = study.concepts.length; left > 0; left--) {
    await conceptTable.getByRole('button', { name: 'Delete row 1' }).click();
  }
  await expect(conceptTable).toContainText('Every row was removed.');
  await editSwitch(page, 'concepts').click();
  await expectSaved(page, conceptSection);
  await expect(conceptSection).toContainText('This study has no concepts.');
  await expect(editSwitch(page, 'concepts')).toBeDisabled();

  // Put the concepts back for the journeys that follow (the demo library has few of them).
  const restore = await request.put(`/api/study/${study.id}/tags`, {
    headers: auth(admin),
    data: { type: 'concepts', concepts: study.concepts.map(({ id: _id, ...concept }) => concept) },
  });
  expect(restore.status(), await restore.text()).toBe(200);
});

test('the fragrance editor scrolls sideways on a 390 px screen', async ({ page, request }) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  const study = await tableStudy(request, admin);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, DEMO_USERS.admin);
  await page.goto(`/study/${study.id}/#fragrance`);
  // The navigation may open over the page on a small screen; close it to reach the study.
  const navigation = page.getByRole('button', { name: 'Toggle navigation' });
  if ((await navigation.getAttribute('aria-expanded')) === 'true') await navigation.click();
  await editSwitch(page, 'fragrances').click();
  const region = page.getByRole('region', { name: 'Fragrance Details, editing, scrollable' });
  await expect(region).toBeVisible();
  const widths = await region.evaluate((element) => ({
    scroll: element.scrollWidth,
    client: element.clientWidth,
    page: element.ownerDocument.documentElement.scrollWidth,
  }));
  expect(widths.scroll).toBeGreaterThan(widths.client);
  // Only the table scrolls, not the page.
  expect(widths.page).toBeLessThanOrEqual(390);
  await expect(page.getByRole('button', { name: 'Add row' })).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Delete row 1' })).toBeInViewport();
  // The keyboard scrolls the region too.
  await region.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  await expectAccessible(page, 'fragrance table in edit mode (390 px)');
  await region.evaluate((element) => (element.scrollLeft = 0));
  await page.locator('#fragrance').screenshot({ path: test.info().outputPath('study-tables-edit-390.png') });
  await editSwitch(page, 'fragrances').click();
  await expect(page.getByRole('table', { name: 'Fragrance Details', exact: true })).toBeVisible();
});

test('a researcher sees the tables without edit switches', async ({ page, request }) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  const study = await tableStudy(request, admin);
  await signIn(page, DEMO_USERS.researcher);
  await page.goto(`/study/${study.id}/`);
  await expect(page.getByRole('table', { name: 'Fragrance Details', exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Concepts', exact: true })).toBeVisible();
  await expect(page.getByRole('switch')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add row' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete row/ })).toHaveCount(0);
});
