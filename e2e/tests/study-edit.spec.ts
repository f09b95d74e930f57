import type {
  StudyDetailsResponse,
  StudyOptionsResponse,
  StudySummaryRow,
  TagValue,
} from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const APAC = ['South Asia', 'South East Asia', 'North Asia'];

async function getJson<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const response = await request.get(`/api${path}`, { headers: auth(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

async function summaries(request: APIRequestContext, token: string): Promise<StudySummaryRow[]> {
  const response = await request.post('/api/smartsearch/study_summarises?per_page=100', {
    headers: auth(token),
    data: { query: {} },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as StudySummaryRow[];
}

const asList = (value: TagValue | undefined): string[] =>
  Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      : [];

/** A study with regions and countries, and a country of a region the study does not cover. */
async function studyForEditing(request: APIRequestContext, admin: string) {
  const options = await getJson<StudyOptionsResponse>(request, admin, '/study/options');
  const countries = options.metadata.find((definition) => definition.field === 'country')!.options;
  // The last studies of the list: other journeys work on the first ones.
  const rows = (await summaries(request, admin)).slice(-5).reverse();
  for (const row of rows) {
    const study = await getJson<StudyDetailsResponse>(request, admin, `/study/${row.id}`);
    const regions = asList(study.details.geography.region?.value);
    if (regions.length === 0 || asList(study.details.geography.country?.value).length === 0) continue;
    const covered = new Set(regions.flatMap((region) => (region === 'APAC' ? APAC : [region])));
    const foreign = countries.find((option) => option.parent && !covered.has(option.parent));
    if (foreign) return { study, foreignCountry: foreign.value };
  }
  throw new Error('No study with regions and countries in the demo library');
}

async function screenshot(page: Page, testInfo: TestInfo, name: string, fullPage = true) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage });
}

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const editSwitch = (page: Page) => page.getByRole('switch', { name: 'Edit mode' });
/** Flips the edit switch from the keyboard: far down the page the sticky header covers it. */
const toggleEdit = (page: Page) => editSwitch(page).press('Space');
const alertBar = (page: Page) => page.getByRole('alert').filter({ hasText: 'Failed!' });

test('an admin edits the study details and tags and finds every change in the history', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const admin = await apiToken(request, DEMO_USERS.admin);
  const { study, foreignCountry } = await studyForEditing(request, admin);
  const oldName = study.project_name;
  const newName = `${oldName} (edited ${Date.now().toString(36)})`;
  const oldCountries = asList(study.details.geography.country?.value);
  const sampleSize = study.tags.methodology.find((tag) => tag.field === 'study_sample_size');
  expect(sampleSize).toBeDefined();
  if (sampleSize!.value !== null) {
    // Set-up: the journey adds the sample size through 'Add info', so it starts empty.
    const cleared = await request.put(`/api/study/${study.id}`, {
      headers: auth(admin),
      data: {
        type: 'study',
        study: { study_sample_size: null },
        oldData: { study_sample_size: sampleSize!.value },
      },
    });
    expect(cleared.status(), await cleared.text()).toBe(200);
  }

  await signIn(page, DEMO_USERS.admin);
  await page.goto(`/study/${study.id}/`);
  await expect(page.getByRole('heading', { level: 1, name: oldName })).toBeVisible();
  const tags = page.getByRole('region', { name: 'Tags', exact: true });
  await expect(tags.getByRole('region', { name: 'Geography tags' })).toBeVisible();
  await expect(tags.getByRole('region', { name: 'Categorization tags' })).toBeVisible();
  await expect(tags.getByRole('region', { name: 'Methodology tags' })).toBeVisible();
  await screenshot(page, testInfo, 'study-read-1280');

  // Edit the project name; Enter saves.
  await toggleEdit(page);
  await expect(editSwitch(page)).toBeChecked();
  const projectName = card(page, 'Study Info').getByRole('textbox', { name: 'Project Name' });
  await expect(projectName).toHaveValue(oldName);
  await expect(card(page, 'Study Info').getByRole('textbox', { name: 'CMI #' })).toHaveAttribute(
    'readonly',
    '',
  );
  await expect(page.getByRole('button', { name: 'Add info: Geography' })).toBeDisabled();
  await expectAccessible(page, 'study details in edit mode');
  await screenshot(page, testInfo, 'study-edit-1280');
  await projectName.fill(newName);
  await projectName.press('Enter');
  const success = page.getByRole('status').filter({ hasText: 'Success!' });
  /** Each save says so; the alert is dismissed so the next save's alert is the only one. */
  const expectSaved = async () => {
    await expect(success).toContainText('Study data was updated successfully.');
    await success.getByRole('button', { name: 'Dismiss alert' }).click();
    await expect(success).toHaveCount(0);
  };
  await expectSaved();
  await expect(editSwitch(page)).not.toBeChecked();
  await expect(page.getByRole('heading', { level: 1, name: newName })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: newName })).toBeVisible();
  await expect(card(page, 'Study Info')).toContainText(newName);

  // A country outside the study's regions is refused and its field marked.
  await toggleEdit(page);
  const country = card(page, 'Geography').getByRole('combobox', { name: 'Country', exact: true });
  await country.click();
  await country.fill(foreignCountry);
  await page.getByRole('option', { name: foreignCountry, exact: true }).click();
  await page.keyboard.press('Escape');
  await toggleEdit(page);
  const refusal = alertBar(page);
  await expect(refusal).toContainText('The study data is not coherent');
  await expect(refusal).toContainText('. Bad fields: ');
  await expect(refusal).toContainText('Country');
  await expect(editSwitch(page)).toBeChecked();
  await expect(country).toHaveAttribute('aria-invalid', 'true');
  await expect(card(page, 'Geography')).toContainText(`${foreignCountry} is in`);
  await card(page, 'Geography').scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'study-refused-1280', false);

  // Escape restores the stored values.
  await card(page, 'Study Info').getByRole('textbox', { name: 'CX/Pace #' }).press('Escape');
  await expect(editSwitch(page)).not.toBeChecked();
  const geography = card(page, 'Geography');
  for (const name of oldCountries) await expect(geography).toContainText(name);
  await expect(geography).not.toContainText(foreignCountry);

  // The verified toggle reads Validated / Validation in progress; switching off saves it.
  await toggleEdit(page);
  const before = study.verified ? 'Validated' : 'Validation in progress';
  const after = study.verified ? 'Validation in progress' : 'Validated';
  await page.getByRole('switch', { name: before }).press('Space');
  await expect(page.getByRole('switch', { name: after })).toBeVisible();
  await toggleEdit(page);
  await expectSaved();
  await expect(editSwitch(page)).not.toBeChecked();
  await expect(page.getByText(study.verified ? 'Not verified' : 'Verified', { exact: true })).toBeVisible();

  // Add info lists only the empty fields; Add tag takes whole numbers of at least 1.
  await page.getByRole('button', { name: 'Add info: Methodology' }).click();
  const addInfo = page.getByRole('dialog', { name: 'Add info: Methodology' });
  await expect(addInfo.getByRole('button', { name: 'Study Sample Size' })).toBeVisible();
  for (const tag of study.tags.methodology.filter((entry) => asList(entry.value).length > 0)) {
    await expect(addInfo.getByRole('button', { name: tag.label, exact: true })).toHaveCount(0);
  }
  await expectAccessible(page, 'add info popup');
  await screenshot(page, testInfo, 'study-add-info-1280', false);
  await addInfo.getByRole('button', { name: 'Study Sample Size' }).click();
  const addTag = page.getByRole('dialog', { name: 'Add tag: Study Sample Size' });
  const addButton = addTag.getByRole('button', { name: 'Add tag' });
  await expect(addButton).toBeDisabled();
  const value = addTag.getByRole('textbox', { name: 'Study Sample Size' });
  for (const wrong of ['0', '2.5', 'many']) {
    await value.fill(wrong);
    await expect(addTag).toContainText('Study Sample Size must be a whole number of at least 1.');
    await expect(addButton).toBeDisabled();
  }
  await screenshot(page, testInfo, 'study-add-tag-invalid-1280', false);
  await value.fill('240');
  await expect(addButton).toBeEnabled();
  await expectAccessible(page, 'add tag popup');
  await screenshot(page, testInfo, 'study-add-tag-1280', false);
  await addButton.click();
  await expect(addTag).toBeHidden();
  await expectSaved();
  // The sample size shows once: in its card, not again among the tags.
  await expect(card(page, 'Methodological Details')).toContainText('240');
  await expect(tags.getByRole('region', { name: 'Methodology tags' })).not.toContainText('240');

  // The study history shows each change with its old and new value.
  await page.getByRole('button', { name: 'Study history' }).click();
  const history = page.getByRole('dialog', { name: 'Study history' });
  const entries = history.getByRole('listitem');
  await expect(entries.first()).toContainText(DEMO_USERS.admin);
  await expect(entries.nth(0).getByRole('row').filter({ hasText: 'Study Sample Size' })).toContainText(
    '- → 240',
  );
  await expect(entries.nth(1).getByRole('row').filter({ hasText: 'Verified' })).toContainText(
    study.verified ? 'Yes → No' : 'No → Yes',
  );
  await expect(entries.nth(2).getByRole('row').filter({ hasText: 'Project Name' })).toContainText(
    `${oldName} → ${newName}`,
  );
  await expectAccessible(page, 'study history after edits');
  await screenshot(page, testInfo, 'study-history-1280', false);
  await page.keyboard.press('Escape');
  await expect(history).toBeHidden();

  // Narrow screens, read and edit mode.
  await page.setViewportSize({ width: 390, height: 844 });
  const navigation = page.getByRole('button', { name: 'Toggle navigation' });
  if ((await navigation.getAttribute('aria-expanded')) === 'true') await navigation.click();
  await page.getByRole('navigation', { name: 'Breadcrumb' }).scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'study-read-390', false);
  await card(page, 'Geography').scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'study-read-390-geography', false);
  await toggleEdit(page);
  await expect(card(page, 'Study Info').getByRole('textbox', { name: 'Project Name' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Breadcrumb' }).scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'study-edit-390', false);
  await card(page, 'Geography').scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'study-edit-390-geography', false);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(editSwitch(page)).not.toBeChecked();
});

test('a researcher sees the verified label and no edit controls', async ({ page, request }) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  const { study } = await studyForEditing(request, admin);

  await signIn(page, DEMO_USERS.researcher);
  await page.goto(`/study/${study.id}/`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const current = await getJson<StudyDetailsResponse>(request, admin, `/study/${study.id}`);
  await expect(page.getByText(current.verified ? 'Verified' : 'Not verified', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Tags', exact: true })).toBeVisible();
  await expect(page.getByRole('switch')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /add info/i })).toHaveCount(0);
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await expectAccessible(page, 'study details (researcher)');
});
