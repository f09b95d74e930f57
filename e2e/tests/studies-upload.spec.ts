import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { showSearchFilters } from '../support/search.ts';
import { DEMO_USERS, E2E_DIR, TMP_DIR } from '../support/env.ts';
import { signIn } from '../support/session.ts';

/** The samples of docs/data-formats.md, written by the demo generator. */
const SAMPLES = path.join(E2E_DIR, '..', 'docs', 'data-formats');
const WITH_ERRORS = readFileSync(path.join(SAMPLES, 'studies-with-errors.zip'));
const BAD_STUDY = 'CMI-2022-90004';
const OTHER_STUDY = 'CMI-2019-90003';
const RESULTS = `${BAD_STUDY}_results.csv`;
const FIXED_RESULTS = readFileSync(path.join(SAMPLES, RESULTS));

async function screenshots(page: Page, name: string) {
  await page.screenshot({ path: `${TMP_DIR}/screens/${name}-1280.png`, fullPage: true });
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

test.use({ actionTimeout: 15_000 });

async function choose(page: Page, label: string, value: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: value, exact: true }).click();
}

test('a researcher uploads studies with errors, sees them in the tree, replaces the bad file, processes them and finds the new study', async ({
  page,
}) => {
  // Two uploads, validations, injections and searches on a shared machine.
  test.setTimeout(420_000);
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/studies-upload');
  await expect(page.getByRole('heading', { level: 1, name: 'Studies Upload' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Upload History' })).toHaveCount(0);
  await expect(page.getByText('No studies have been uploaded yet.')).toBeVisible();
  const next = page.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();
  await expectAccessible(page, 'studies upload, empty');

  // A file but empty fields: one alert per field, then the summary.
  await page.getByRole('combobox', { name: 'Year', exact: true }).click();
  await expect(page.getByRole('option')).toHaveCount(16);
  await page.keyboard.press('Escape');
  await page.locator('input[type="file"]').setInputFiles({
    name: 'studies-with-errors.zip',
    mimeType: 'application/zip',
    buffer: WITH_ERRORS,
  });
  await expect(page.getByText('Chosen: studies-with-errors.zip')).toBeVisible();
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Empty client' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Empty region' })).toBeVisible();
  await expect(page.getByText('Please fill all data!')).toBeVisible();
  // Each field an alert names is marked, saying what to do rather than repeating the alert.
  await expect(page.getByRole('combobox', { name: 'Client', exact: true })).toHaveAccessibleDescription(
    'Choose a client',
  );
  await expect(page.getByRole('combobox', { name: 'Region', exact: true })).toHaveAccessibleDescription(
    'Choose a region',
  );
  await expect(page.getByText('Empty client', { exact: true })).toHaveCount(1);
  await expect(page.getByText('Empty region', { exact: true })).toHaveCount(1);
  await expect(page.getByRole('combobox', { name: 'Year', exact: true })).not.toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expectAccessible(page, 'studies upload, empty fields');

  // Clear files disables Next again.
  await page.getByRole('button', { name: 'Clear files' }).click();
  await expect(next).toBeDisabled();
  await page.locator('input[type="file"]').setInputFiles({
    name: 'studies-with-errors.zip',
    mimeType: 'application/zip',
    buffer: WITH_ERRORS,
  });
  await choose(page, 'Client', 'Northwind Consumer Goods');
  await choose(page, 'Region', 'Europe');
  await expect(page.getByRole('combobox', { name: 'Client', exact: true })).not.toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await screenshots(page, 'studies-upload-form');
  await next.click();

  const modal = page.getByRole('dialog', { name: 'Uploading files' });
  await expect(modal).toBeVisible();
  await expect(modal.getByText('Failed')).toBeVisible({ timeout: 60_000 });
  await expect(modal).toContainText(
    'Error: 3 errors and 8 warnings found in the studies; see the file tree.',
  );
  await expectAccessible(page, 'studies upload, failed modal');
  await modal.getByRole('button', { name: 'View File Tree' }).click();

  // Verify Studies: the problems sit on their files.
  await expect(page).toHaveURL(/\/studies-upload\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Verify Studies' })).toBeVisible();
  await expect(page.locator('[data-status="ERRORED"]')).toHaveText('errored');
  await expect(page.getByRole('button', { name: new RegExp(`^${BAD_STUDY}`) })).toBeVisible();
  await expect(page.getByRole('button', { name: new RegExp(`^${OTHER_STUDY}`) })).toBeVisible();
  const problems = page.getByRole('table', { name: `Problems of ${RESULTS}` });
  await expect(problems).toContainText('Value outside its scale');
  await expect(problems).toContainText('Unknown product code');
  await expect(problems).toContainText('Duplicate respondent');
  await expect(problems).toContainText('Unreadable age');
  await expect(
    page
      .getByRole('table', { name: 'Problems of request_form.xlsx' })
      .filter({ hasText: 'Unreadable level' }),
  ).toHaveCount(1);
  // The studies are not those the form named (Northwind Consumer Goods, Europe, this year): shown at once.
  const year = new Date().getFullYear();
  const mismatch = page.getByRole('alert').filter({ hasText: 'The studies differ from the upload form' });
  await expect(mismatch).toContainText(
    `${BAD_STUDY}: client is "Solace Beauty Group" in this study but "Northwind Consumer Goods" on the upload form.`,
  );
  await expect(mismatch).toContainText(
    `${BAD_STUDY}: region is "South East Asia; Latin America" in this study but "Europe" on the upload form.`,
  );
  await expect(mismatch).toContainText(
    `${OTHER_STUDY}: year is "2019" in this study but "${year}" on the upload form.`,
  );
  await expect(
    page
      .getByRole('table', { name: 'Problems of request_form.xlsx' })
      .filter({ hasText: 'Differs from the upload form' }),
  ).toHaveCount(2);
  const processButton = page.getByRole('button', { name: 'Process Studies' });
  await expect(processButton).toBeDisabled();
  await expectAccessible(page, 'verify studies with errors');
  await screenshots(page, 'verify-studies-errors');

  // Replace the bad results file: choose, then cancel, then choose again and upload.
  const replace = page.getByRole('button', { name: `Replace ${RESULTS}` });
  let chooser = page.waitForEvent('filechooser');
  await replace.click();
  await (await chooser).setFiles({ name: RESULTS, mimeType: 'text/csv', buffer: FIXED_RESULTS });
  await expect(page.getByText(`New file: ${RESULTS}`)).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText(`New file: ${RESULTS}`)).toHaveCount(0);
  // The picker keeps no file after a choice, so the same file chosen again is a new choice.
  expect(
    await page
      .locator('input[type="file"]')
      .evaluateAll((inputs) =>
        inputs.map((input) => (input as unknown as { files: { length: number } | null }).files?.length ?? 0),
      ),
  ).not.toContain(1);
  chooser = page.waitForEvent('filechooser');
  await replace.click();
  await (await chooser).setFiles({ name: RESULTS, mimeType: 'text/csv', buffer: FIXED_RESULTS });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText(`Replaced ${RESULTS}.`)).toBeVisible();
  await expect(page.getByRole('table', { name: `Problems of ${RESULTS}` })).toHaveCount(0);
  await expect(processButton).toBeEnabled();

  await processButton.click();
  // The studies differ from the upload form: processing them is confirmed with the differences in view.
  const confirmDialog = page.getByRole('dialog', { name: 'Check the studies before they are added' });
  await expect(confirmDialog).toContainText(`${BAD_STUDY}: client is "Solace Beauty Group" in this study`);
  await expectAccessible(page, 'verify studies, confirm the form differences');
  await screenshots(page, 'verify-studies-confirm');
  await confirmDialog.getByRole('button', { name: 'Confirm and process' }).click();
  const progress = page.getByRole('dialog', { name: 'Processing studies' });
  await expect(progress.getByText('Done')).toBeVisible({ timeout: 60_000 });
  await progress.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.locator('[data-status="SUCCEED"]')).toHaveText('succeed');
  await expect(page.getByText('2 studies were added')).toBeVisible();
  await screenshots(page, 'verify-studies-succeed');

  // The history lists the upload, and its menu leads back to the tree.
  await page.getByRole('button', { name: 'Back' }).click();
  const history = page.getByRole('table', { name: 'Upload History' });
  await expect(history.getByRole('row')).toHaveCount(2);
  await expect(history.getByRole('columnheader')).toHaveText([
    'Uploaded at',
    'Client',
    'Study type',
    'CMI #',
    'Year',
    'Region',
    'Status',
    'Actions',
  ]);
  await expect(history).toContainText('succeed');
  await expect(history).toContainText(BAD_STUDY);
  await screenshots(page, 'studies-upload-history');

  // The new study is in the search, and its details open.
  await page.goto('/search');
  await showSearchFilters(page);
  await page.getByRole('textbox', { name: 'CMI #' }).fill(BAD_STUDY);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const summaries = page.getByRole('table', { name: 'Study summaries' });
  await expect(summaries).toContainText(BAD_STUDY);
  const details = summaries.getByRole('link', { name: /^Details of/ });
  await expect(details).toHaveCount(1);
  await details.click();
  // Leaving a search with filters asks whether to save it first: the user answers No.
  await page.getByRole('dialog').getByRole('button', { name: 'No', exact: true }).click();
  await expect(page).toHaveURL(/\/study\/\d+\/?$/);
  await expect(page.getByText(BAD_STUDY).first()).toBeVisible();

  // The same studies again: each is already in the library, and replacing it is chosen per study.
  await page.goto('/studies-upload');
  await page.locator('input[type="file"]').setInputFiles({
    name: 'studies-with-errors.zip',
    mimeType: 'application/zip',
    buffer: WITH_ERRORS,
  });
  await choose(page, 'Client', 'Northwind Consumer Goods');
  await choose(page, 'Region', 'Europe');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(modal.getByText('Failed')).toBeVisible({ timeout: 60_000 });
  await modal.getByRole('button', { name: 'View File Tree' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Verify Studies' })).toBeVisible();
  const choices = page.getByRole('checkbox', { name: 'Replace the existing study' });
  await expect(choices).toHaveCount(2);
  await expect(choices.nth(0)).toHaveAccessibleDescription(
    `Study ${OTHER_STUDY} is already in the library; Process Studies replaces it with this one.`,
  );
  await expect(choices.nth(1)).toHaveAccessibleDescription(
    `Study ${BAD_STUDY} is already in the library; Process Studies replaces it with this one.`,
  );
  await expect(processButton).toBeDisabled();
  await choices.nth(1).check();
  await expect(processButton).toBeEnabled();
  await expectAccessible(page, 'verify studies, replace the existing study');
  await screenshots(page, 'verify-studies-replace');
  chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: `Replace ${RESULTS}` }).click();
  await (await chooser).setFiles({ name: RESULTS, mimeType: 'text/csv', buffer: FIXED_RESULTS });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText(`Replaced ${RESULTS}.`)).toBeVisible();
  await choices.nth(0).check();
  await processButton.click();
  await confirmDialog.getByRole('button', { name: 'Confirm and process' }).click();
  await expect(progress.getByText('Done')).toBeVisible({ timeout: 60_000 });
  await progress.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.locator('[data-status="SUCCEED"]')).toHaveText('succeed');
  await expect(page.getByText('2 studies were added')).toBeVisible();

  // Still one study of that CMI number in the search.
  await page.goto('/search');
  await showSearchFilters(page);
  await page.getByRole('textbox', { name: 'CMI #' }).fill(BAD_STUDY);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(summaries.getByRole('link', { name: /^Details of/ })).toHaveCount(1);
});
