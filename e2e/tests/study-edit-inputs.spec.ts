import type { StudyDetailsResponse, StudySummaryRow } from '@accord/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A study whose respondents are of both genders (its gender tag holds two values). */
async function studyOfBothGenders(request: APIRequestContext, admin: string): Promise<StudyDetailsResponse> {
  const response = await request.post('/api/smartsearch/study_summarises?per_page=100', {
    headers: auth(admin),
    data: { query: {} },
  });
  expect(response.status(), await response.text()).toBe(200);
  const rows = (await response.json()) as StudySummaryRow[];
  // The middle of the list: other journeys edit the first and the last studies.
  for (const row of rows.slice(10, 40)) {
    const details = await request.get(`/api/study/${row.id}`, { headers: auth(admin) });
    const study = (await details.json()) as StudyDetailsResponse;
    const gender = study.details.methodological_details_2.gender?.value;
    if (Array.isArray(gender) && gender.length === 2) return study;
  }
  throw new Error('No study of both genders in the demo library');
}

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const editSwitch = (page: Page) => page.getByRole('switch', { name: 'Edit mode' });
const genderInput = (page: Page) =>
  page.locator('.mantine-InputWrapper-root', { has: page.getByLabel('Gender', { exact: true }) });

test('edit mode copies both genders into the input, and a refused save keeps edit mode and the inputs', async ({
  page,
  request,
}) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  const study = await studyOfBothGenders(request, admin);
  const genders = study.details.methodological_details_2.gender!.value as string[];

  await signIn(page, DEMO_USERS.admin);
  await page.goto(`/study/${study.id}/`);
  await expect(page.getByRole('heading', { level: 1, name: study.project_name })).toBeVisible();
  await editSwitch(page).press('Space');
  await expect(editSwitch(page)).toBeChecked();
  for (const gender of genders) await expect(genderInput(page)).toContainText(gender);
  await expectAccessible(page, 'study details in edit mode, both genders');

  // The server refuses the save: nothing the user typed is lost.
  await page.route(`**/api/study/${study.id}`, async (route) => {
    if (route.request().method() !== 'PUT') return route.fallback();
    await route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({
        error: 'bad_request',
        message: 'The study cannot be saved now.',
        statusCode: 400,
        requestId: 'req-13',
      }),
    });
  });
  const typed = `${study.project_name} (refused)`;
  const projectName = card(page, 'Study Info').getByRole('textbox', { name: 'Project Name' });
  await projectName.fill(typed);
  await projectName.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Failed!' })).toContainText(
    'There was an issue with your request, please try again later.',
  );
  await expect(page.getByRole('dialog', { name: 'Something went wrong!' })).toHaveCount(0);
  await expect(editSwitch(page)).toBeChecked();
  await expect(projectName).toHaveValue(typed);
  for (const gender of genders) await expect(genderInput(page)).toContainText(gender);

  // Once the server accepts, the same inputs are saved.
  await page.unroute(`**/api/study/${study.id}`);
  await projectName.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Success!' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: typed })).toBeVisible();
  const restored = await request.put(`/api/study/${study.id}`, {
    headers: auth(admin),
    data: { type: 'study', study: { project_name: study.project_name }, oldData: { project_name: typed } },
  });
  expect(restored.status(), await restored.text()).toBe(200);
});
