import type { StudyFileNode, StudySummaryRow, VersionHistoryResponse } from '@accord/contracts';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS, TMP_DIR } from '../support/env.ts';
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

async function fileTree(request: APIRequestContext, token: string, studyId: number): Promise<StudyFileNode> {
  const response = await request.get(`/api/study/${studyId}/related-study-files/`, { headers: auth(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as StudyFileNode;
}

const VALID_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);

/** Chooses a file through the Upload button's file dialog. */
async function chooseFile(page: Page, button: Locator, name: string, buffer: Buffer) {
  const chooser = page.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles({ name, mimeType: 'application/pdf', buffer });
}

const folderToggle = (page: Page, folder: string) =>
  page.getByRole('button', { name: new RegExp(`^${folder} \\d+ items?$`) });

async function screenshots(page: Page, name: string) {
  await page.screenshot({ path: `${TMP_DIR}/screens/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // The phone layout opens with the navigation shown; close it to see the page itself.
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

test('an admin uploads a new version of a report, reverts it, and sees a broken upload fail with its errors', async ({
  page,
  request,
}) => {
  // A long journey (three uploads, two modals, four accessibility checks) on a shared machine.
  test.setTimeout(180_000);
  const admin = await apiToken(request, DEMO_USERS.admin);
  // A study late in the search order, away from the studies other journeys edit.
  const rows = await summaries(request, admin);
  const study = rows[rows.length - 2]!;
  const tree = await fileTree(request, admin, study.id);
  const reportFolder = tree.children.find((node) => node.name === 'report')!;
  const report = reportFolder.children[0]!;

  await signIn(page, DEMO_USERS.admin);
  await page.goto(`/study/${study.id}/`);
  await page.getByRole('link', { name: 'Open the files page' }).click();
  await expect(page).toHaveURL(new RegExp(`/study/${study.id}/structure/?$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Study Files' })).toBeVisible();
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(breadcrumb.getByRole('link', { name: 'Search' })).toBeVisible();
  await expect(breadcrumb).toContainText(tree.name);

  // Folders sorted by name, collapsed until opened.
  const list = page.getByRole('list', { name: `Files of ${tree.name}` });
  // The folders are read once the tree has arrived (the heading shows before it).
  await expect(list.locator(':scope > li[data-folder="report"]')).toBeVisible();
  const folderNames = await list
    .locator(':scope > li[data-folder]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-folder')));
  expect(folderNames).toEqual([...folderNames].sort());
  expect(folderNames).toEqual(expect.arrayContaining(['questionnaire', 'report', 'results']));
  await expect(folderToggle(page, 'report')).toHaveAttribute('aria-expanded', 'false');
  await folderToggle(page, 'report').click();
  await expect(folderToggle(page, 'report')).toHaveAttribute('aria-expanded', 'true');
  await folderToggle(page, 'questionnaire').click();
  const row = page.locator(`li[data-file="${report.name}"]`);
  await expect(row).toBeVisible();
  await expectAccessible(page, 'study files page');

  // A new version: (old) and (new), Confirm, and the job finishes with the green check.
  await chooseFile(
    page,
    row.getByRole('button', { name: `Upload a new version of ${report.name}` }),
    'Final report v2.pdf',
    VALID_PDF,
  );
  await expect(row.getByText(`(old) ${report.name}`)).toBeVisible();
  await expect(row.getByText('(new) Final report v2.pdf')).toBeVisible();
  await row.getByRole('button', { name: 'Confirm' }).click();
  const finished = row.locator('[data-upload-status="finished"]');
  await expect(finished.getByRole('img', { name: 'Uploaded Final report v2.pdf.' })).toBeVisible();
  await expect(row.getByRole('button', { name: `Upload a new version of ${report.name}` })).toBeEnabled();

  // Version control: the upload is current, the earlier versions newest first; revert to the newest.
  await row.getByRole('button', { name: `Version control of ${report.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Version Control - ${report.name}` });
  await expect(dialog.getByRole('region', { name: 'Current file' })).toContainText('Final report v2.pdf');
  const history = dialog.getByRole('table', { name: 'Version history' });
  const historyRows = history.locator('tbody tr');
  const versions = (await (
    await request.post(`/api/study/${study.id}/version-history/${encodeURIComponent(report.name)}`, {
      headers: auth(admin),
      data: { foldertype: 'report' },
    })
  ).json()) as VersionHistoryResponse;
  const older = versions._source.file_history;
  expect(older.length).toBeGreaterThan(0);
  await expect(historyRows).toHaveCount(older.length);
  const dates = older.map((version) => Date.parse(version.date));
  expect(dates).toEqual([...dates].sort((a, b) => b - a));
  await expect(historyRows.first()).toContainText(report.name);
  await expect(historyRows.first()).toContainText('Success');
  await expectAccessible(page, 'version control');
  await screenshots(page, 'study-files-version-control');

  await expect(dialog.getByRole('button', { name: 'Revert' })).toBeDisabled();
  await historyRows.first().click();
  await expect(dialog.getByRole('region', { name: 'Selected file' })).toContainText(report.name);
  await dialog.getByRole('button', { name: 'Revert' }).click();
  await expect(dialog.getByRole('region', { name: 'Current file' })).toContainText(report.name);
  await expect(dialog.getByRole('region', { name: 'Current file' })).not.toContainText('Final report v2.pdf');
  await expect(historyRows.first()).toContainText('Final report v2.pdf');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // A broken file: the job fails, the tree shows why.
  await chooseFile(
    page,
    row.getByRole('button', { name: `Upload a new version of ${report.name}` }),
    'broken.pdf',
    Buffer.from('this is not a pdf'),
  );
  await row.getByRole('button', { name: 'Confirm' }).click();
  const failedMessage =
    'broken.pdf was not accepted: The file is not a valid PDF. The current file was kept.';
  await expect(
    row.locator('[data-upload-status="failed"]').getByRole('img', { name: failedMessage }),
  ).toBeVisible();
  await expect(row.getByRole('button', { name: `Error details of ${report.name}: 1 error` })).toBeVisible();
  const folderErrors = page.getByRole('table', { name: 'Error details of the report folder' });
  await expect(folderErrors).toContainText('The file is not a valid PDF');
  await expect(folderErrors).toContainText('broken.pdf has no %PDF- header');
  await page.getByRole('button', { name: 'Hide details of the report folder' }).click();
  await expect(folderErrors).toBeHidden();

  await row.getByRole('button', { name: `Show details of ${report.name}` }).click();
  const fileErrors = row.getByRole('table', { name: `Error details of ${report.name}` });
  await expect(fileErrors.getByRole('row').nth(1)).toContainText('Error');
  await expect(fileErrors).toContainText('validation');
  await expectAccessible(page, 'study files page with errors');
  await screenshots(page, 'study-files-errors');

  await row.getByRole('button', { name: `Error details of ${report.name}: 1 error` }).click();
  const errorDialog = page.getByRole('dialog', { name: 'Error details' });
  await expect(errorDialog.getByRole('table')).toContainText('The file is not a valid PDF');
  await expectAccessible(page, 'error details');
  await screenshots(page, 'study-files-error-details');
  await page.keyboard.press('Escape');

  // The version history keeps the failed upload, marked Failed; the current file is unchanged.
  await row.getByRole('button', { name: `Version control of ${report.name}` }).click();
  await expect(dialog.getByRole('region', { name: 'Current file' })).toContainText(report.name);
  const failedRow = historyRows.filter({ hasText: 'broken.pdf' });
  await expect(failedRow).toContainText('Failed');
  await failedRow.click();
  await expect(dialog.getByRole('table', { name: 'Error details of the selected file' })).toContainText(
    'The file is not a valid PDF',
  );
  // A refused version cannot become the current file: Revert is blocked and says why.
  const reason =
    'This version failed its checks, so it cannot be made the current file. Upload a corrected file instead.';
  await expect(dialog.getByText(reason)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Revert' })).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Revert' })).toHaveAccessibleDescription(reason);
  await expectAccessible(page, 'version control with a failed version');
  await screenshots(page, 'study-files-failed-version');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // A file type the folder does not take: the server's message shows as a warning.
  const addToReports = page.getByRole('button', { name: 'Upload a new file to the report folder' });
  await chooseFile(page, addToReports, 'notes.txt', Buffer.from('notes'));
  const reportItem = page.locator('li[data-folder="report"]');
  await expect(reportItem.getByText('(new) notes.txt')).toBeVisible();
  await expect(reportItem.getByText('(old)')).toHaveCount(0);
  await reportItem.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'The report folder does not take .txt files' }),
  ).toBeVisible();
  await expect(addToReports).toBeEnabled();

  // A new file of the folder appears in it once its upload finishes; Cancel forgets a choice.
  await chooseFile(page, addToReports, 'Appendix.pdf', VALID_PDF);
  await reportItem.getByRole('button', { name: 'Cancel' }).click();
  await expect(reportItem.getByText('(new) Appendix.pdf')).toBeHidden();
  await chooseFile(page, addToReports, 'Appendix.pdf', VALID_PDF);
  await reportItem.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.locator('li[data-file="Appendix.pdf"]')).toBeVisible();
  await expect(folderToggle(page, 'report')).toHaveAccessibleName('report 2 items');
});

test('a client user sees the files of their studies without the results files', async ({ page, request }) => {
  const client = await apiToken(request, DEMO_USERS.client);
  const admin = await apiToken(request, DEMO_USERS.admin);
  const [study] = await summaries(request, client);
  expect(study, 'the demo client has studies').toBeTruthy();
  const full = await fileTree(request, admin, study!.id);
  expect(full.children.map((node) => node.name)).toContain('results');

  await signIn(page, DEMO_USERS.client);
  await page.goto(`/study/${study!.id}/structure/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Study Files' })).toBeVisible();
  const list = page.getByRole('list', { name: `Files of ${full.name}` });
  await expect(list.locator(':scope > li[data-folder]').first()).toBeVisible();
  const folders = await list
    .locator(':scope > li[data-folder]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-folder')));
  expect(folders).not.toContain('results');
  for (const folder of folders) await folderToggle(page, folder!).click();
  await expect(page.locator('li[data-file]').first()).toBeVisible();
  await expect(page.locator('li[data-file$=".csv"]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Upload/ })).toHaveCount(0);
  await expectAccessible(page, 'study files page (client)');
  await screenshots(page, 'study-files-client');
});
