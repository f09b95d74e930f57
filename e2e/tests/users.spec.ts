import { MESSAGES } from '@accord/contracts';
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, createUserViaApi, signIn } from '../support/session.ts';

test('the user list searches, pages and removes users', async ({ page, request }) => {
  // Twelve users are created through the API and the list is checked with axe on three screens.
  test.setTimeout(120_000);
  const admin = await apiToken(request, DEMO_USERS.admin);
  const tag = `batch${Date.now().toString(36)}`;
  const emails: string[] = [];
  for (let index = 1; index <= 12; index += 1) {
    const email = `${tag}-${String(index).padStart(2, '0')}@accord.test`;
    emails.push(email);
    await createUserViaApi(request, admin, { email, firstname: 'Batch', lastname: `Member ${index}` });
  }

  await signIn(page, DEMO_USERS.admin);
  await page.goto('/users');
  await expect(page.getByRole('heading', { level: 1, name: 'User list' })).toBeVisible();

  const search = page.getByRole('searchbox', { name: 'Search users' });
  await search.fill(tag);
  // The search waits for typing to settle before it asks the server: right after the keystrokes the
  // address has not changed yet (read once, without waiting, so a busy machine cannot mask it).
  expect(page.url()).not.toMatch(/search=/);
  await expect(page).toHaveURL(new RegExp(`search=${tag}`));
  await expect(page.getByText(`Showing 1–10 of 12 users`)).toBeVisible();
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByRole('row')).toHaveCount(11);

  const pages = page.getByRole('navigation', { name: 'User list pages' });
  await pages.getByRole('button', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(`Showing 11–12 of 12 users`)).toBeVisible();
  await expectAccessible(page, 'user list, page 2');

  await page.getByRole('combobox', { name: 'Rows per page' }).click();
  await page.getByRole('option', { name: '25' }).click();
  await expect(page).toHaveURL(/per_page=25/);
  await expect(page.getByText(`Showing 1–12 of 12 users`)).toBeVisible();

  const victim = emails[0]!;
  await table
    .getByRole('row')
    .filter({ hasText: victim })
    .getByRole('button', { name: `Remove ${victim}` })
    .click();
  const dialog = page.getByRole('dialog', { name: MESSAGES.userRemovalTitle });
  await expect(dialog.getByText(MESSAGES.userRemovalBody(victim))).toBeVisible();
  await expectAccessible(page, 'user removal confirmation');

  // Close keeps the user.
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(table.getByRole('row').filter({ hasText: victim })).toBeVisible();

  await table
    .getByRole('row')
    .filter({ hasText: victim })
    .getByRole('button', { name: `Remove ${victim}` })
    .click();
  await page
    .getByRole('dialog', { name: MESSAGES.userRemovalTitle })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(page.getByRole('dialog', { name: MESSAGES.userRemovalTitle })).toBeHidden();
  await expect(table.getByRole('row').filter({ hasText: victim })).toHaveCount(0);
  await expect(page.getByText(`Showing 1–11 of 11 users`)).toBeVisible();

  // The list state lives in the URL: a reload restores it.
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search users' })).toHaveValue(tag);
  await expect(page.getByText(`Showing 1–11 of 11 users`)).toBeVisible();
});

test('adding a user with an e-mail address already taken says so on the form', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);
  await page.goto('/users/add');
  const form = page.getByRole('form', { name: 'Add user' });
  await form.getByRole('textbox', { name: 'Email' }).fill(DEMO_USERS.researcher);
  await form.getByRole('textbox', { name: 'First name' }).fill('Second');
  await form.getByRole('textbox', { name: 'Last name' }).fill('Researcher');
  await form.locator('input[type="password"]').fill('a-long-password-2024');
  await form.getByRole('button', { name: 'Submit' }).click();
  const message = 'A user with this e-mail address already exists.';
  await expect(form.getByRole('alert').filter({ hasText: message }).first()).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(message);
  // Nothing was saved and the user stays on the form with what they typed.
  await expect(page).toHaveURL(/\/users\/add$/);
  await expect(form.getByRole('textbox', { name: 'First name' })).toHaveValue('Second');
  await expectAccessible(page, 'add user, e-mail taken');
});
