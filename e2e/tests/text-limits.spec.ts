import { MESSAGES, TEXT_LIMITS, type StudyDetailsResponse } from '@accord/contracts';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_STUDY_COUNT, DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

const limitReached = (max: number) => `Limit reached: at most ${max} characters.`;

/**
 * Fills the input to just under its limit, then types past it key by key: the input keeps `max`
 * characters and says so in its hint (its accessible description).
 */
async function typePastLimit(input: Locator, max: number, character = 'x'): Promise<void> {
  await expect(input).toHaveAttribute('maxlength', String(max));
  await input.fill(character.repeat(max - 5));
  await input.pressSequentially(character.repeat(15), { delay: 0 });
  await expect(input).toHaveValue(character.repeat(max));
  await expect(input).toHaveAccessibleDescription(limitReached(max));
}

async function expectNothingWentWrong(page: Page): Promise<void> {
  await expect(page.getByRole('dialog', { name: MESSAGES.somethingWentWrongTitle })).toHaveCount(0);
  await expect(page.getByText(MESSAGES.somethingWentWrongTitle)).toHaveCount(0);
}

/** The navigation may be open over the page on a narrow screen; close it to look at the page. */
async function closeNavigation(page: Page) {
  const open = page
    .getByRole('button', { name: 'Toggle navigation', expanded: true })
    .filter({ visible: true });
  if ((await open.count()) > 0) await open.click();
}

/** Screenshots of the screen as it is at 1440 and 390 px wide, then back to the journeys' size. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await closeNavigation(page);
    await page.screenshot({ path: `test-results/text-limits-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the login and password forms stop at their limits and answer in words', async ({ page }) => {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
    await page.goto('/login');
    const email = page.getByLabel('Email', { exact: true });
    const password = page.getByLabel('Password', { exact: true });
    await typePastLimit(email, TEXT_LIMITS.email, 'a');
    await typePastLimit(password, TEXT_LIMITS.password, 'p');
    await expectAccessible(page, `login at its limits (${width} px)`);
    await page.screenshot({ path: `test-results/text-limits-login-${width}.png`, fullPage: true });
  }
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText(MESSAGES.loginUnauthorized)).toBeVisible();
  await expectNothingWentWrong(page);

  await page.goto('/login/reset');
  const address = page.getByLabel('Email address');
  await typePastLimit(address, TEXT_LIMITS.email, 'b');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  // Not an address: the server's answer is in words, the field named by its label, never by its key.
  const answer = page.getByRole('alert');
  await expect(answer).toHaveText('Email: Please enter a valid e-mail address');
  await expectNothingWentWrong(page);
  await expectAccessible(page, 'reset request at its limit');
  await shoot(page, 'reset-request');

  await page.goto('/login/reset/not-a-real-reset-token');
  await typePastLimit(page.getByLabel('New password'), TEXT_LIMITS.password, 'n');
  await typePastLimit(page.getByLabel('Repeat password'), TEXT_LIMITS.password, 'n');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: MESSAGES.resetTokenInvalid })).toBeVisible();
  await expectNothingWentWrong(page);
  await expectAccessible(page, 'new password at its limit');
  await shoot(page, 'new-password');
});

test('the fragrance and concept table editor stops every cell at its limit and saves', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await apiToken(request, DEMO_USERS.admin);
  // A study with a concept, away from the last one (the table journeys' own study).
  let study: StudyDetailsResponse | null = null;
  for (let id = DEMO_STUDY_COUNT - 1; id >= 1 && !study; id -= 1) {
    const response = await request.get(`/api/study/${id}`, { headers: { Authorization: `Bearer ${admin}` } });
    const found = (await response.json()) as StudyDetailsResponse;
    if (found.concepts.length >= 1 && found.perfume_characteristics.length >= 1) study = found;
  }
  expect(study, 'a study with fragrances and a concept').not.toBeNull();
  const fragranceCount = study!.perfume_characteristics.length;

  await signIn(page, DEMO_USERS.admin);
  await page.goto(`/study/${study!.id}/`);
  await expect(page.getByRole('heading', { level: 1, name: study!.project_name })).toBeVisible();
  const section = page.locator('#fragrance');
  const editTable = page.getByRole('table', { name: 'Fragrance Details (editing)' });
  await page.getByRole('switch', { name: 'Edit fragrances' }).click();
  await section.getByRole('button', { name: 'Add row' }).click();
  await typePastLimit(editTable.getByRole('textbox', { name: 'Name, row 1' }), TEXT_LIMITS.studyText, 'N');
  await typePastLimit(
    editTable.getByRole('textbox', { name: 'Fragrance Code, row 1' }),
    TEXT_LIMITS.productCode,
    'C',
  );
  await typePastLimit(
    editTable.getByRole('textbox', { name: 'Supplemental Info, row 1' }),
    TEXT_LIMITS.studyText,
    's',
  );
  // Every other cell, typed or picked from suggestions, carries the study text limit.
  for (const name of ['Developer #', 'Family', 'Country', 'Dominant Note 5'])
    await expect(editTable.getByLabel(`${name}, row 1`, { exact: true })).toHaveAttribute(
      'maxlength',
      String(TEXT_LIMITS.studyText),
    );
  await expectAccessible(page, 'fragrance table at its limits');
  await section.screenshot({ path: 'test-results/text-limits-fragrances-1440.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await closeNavigation(page);
  await section.screenshot({ path: 'test-results/text-limits-fragrances-390.png' });
  await page.setViewportSize({ width: 1440, height: 900 });

  // What the inputs took, the server takes: the save succeeds, then the row goes again.
  await page.getByRole('switch', { name: 'Edit fragrances' }).click();
  await expect(
    section.getByRole('status').filter({ hasText: 'Study data was updated successfully.' }),
  ).toBeVisible();
  await expectNothingWentWrong(page);
  const readTable = page.getByRole('table', { name: 'Fragrance Details', exact: true });
  await expect(readTable.getByRole('row')).toHaveCount(fragranceCount + 2);
  await page.getByRole('switch', { name: 'Edit fragrances' }).click();
  const row = editTable.getByRole('row').filter({ has: page.locator(`input[value="${'C'.repeat(100)}"]`) });
  await row.getByRole('button', { name: /^Delete row/ }).click();
  await page.getByRole('switch', { name: 'Edit fragrances' }).click();
  await expect(readTable.getByRole('row')).toHaveCount(fragranceCount + 1);

  const concepts = page.getByRole('table', { name: /Concept.*\(editing\)/ });
  await page.getByRole('switch', { name: 'Edit concepts' }).click();
  await expect(concepts.getByRole('textbox', { name: 'Concept Code, row 1' })).toHaveAttribute(
    'maxlength',
    String(TEXT_LIMITS.productCode),
  );
  await typePastLimit(concepts.getByRole('textbox', { name: 'Name, row 1' }), TEXT_LIMITS.studyText, 'K');
  await expectNothingWentWrong(page);
  await expectAccessible(page, 'concept table at its limit');
});

test('the filter boxes of a profile and the attribute search stop at 200 characters', async ({
  page,
  request,
}) => {
  const researcher = await apiToken(request, DEMO_USERS.researcher);
  const response = await request.get('/api/study/1', { headers: { Authorization: `Bearer ${researcher}` } });
  const study = (await response.json()) as StudyDetailsResponse;
  const fragrance = study.perfume_characteristics[0]!;
  await signIn(page, DEMO_USERS.researcher);

  await page.goto(`/analytics/profile/${study.id}/${encodeURIComponent(fragrance.fragrance_code)}`);
  const tableFilter = page.getByLabel('Filter tables');
  await typePastLimit(tableFilter, TEXT_LIMITS.filterText);
  await expectNothingWentWrong(page);
  await expectAccessible(page, 'profile table filter at its limit');
  await shoot(page, 'profile');

  await page.goto('/fragrance-profile');
  await page.getByRole('radio', { name: /Olfactive/ }).click();
  const search = page.getByLabel('Search attributes');
  await typePastLimit(search, TEXT_LIMITS.filterText);
  await expectNothingWentWrong(page);
  await expectAccessible(page, 'attribute search at its limit');
  await shoot(page, 'attributes');
});
