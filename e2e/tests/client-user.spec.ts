import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { signIn, signOut, uniqueEmail } from '../support/session.ts';

const ANALYTICS_SECTIONS = ['Advanced Analytics', 'CICS', 'Studies Upload', 'Statistics Generator'];
const EVERYONE_SECTIONS = [
  'Search for Study',
  'Best/Worst Testers',
  'Fragrance Profile',
  'Category Profile',
  'Group Comparison',
  'Norms',
];

test('an admin creates a client user with two clients, who then sees the limited app', async ({ page }) => {
  const email = uniqueEmail('client');
  const password = 'client-pass-123';

  await signIn(page, DEMO_USERS.admin);
  await page
    .getByRole('banner')
    .getByRole('button', { name: /Ada Admin/ })
    .click();
  await page.getByRole('menuitem', { name: 'User list' }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole('heading', { level: 1, name: 'User list' })).toBeVisible();
  await expectAccessible(page, 'user list');

  await page.getByRole('link', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/users\/add$/);
  const form = page.getByRole('form', { name: 'Add user' });
  // New users start as enabled clients.
  await expect(form.getByRole('combobox', { name: 'Role' })).toHaveValue('Client');
  await expect(form.getByRole('combobox', { name: 'Status' })).toHaveValue('Enabled');
  await expectAccessible(page, 'add user');

  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await form.getByLabel('First name', { exact: true }).fill('Clara');
  await form.getByLabel('Last name', { exact: true }).fill('Client');
  await form.getByLabel(/^Password/).fill(password);
  // A sales user needs at least one client: the form says so before it sends anything.
  await form.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Sales' }).click();
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Choose at least one client for the sales role.')).toBeVisible();
  await expect(page).toHaveURL(/\/users\/add$/);
  await expectAccessible(page, 'add user with a validation error');
  await form.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Client' }).click();

  const clients = form.getByRole('combobox', { name: 'Clients' });
  await clients.click();
  await page.getByRole('option', { name: 'Northwind Consumer Goods' }).click();
  await page.getByRole('option', { name: 'Halden & Crane' }).click();
  await page.keyboard.press('Escape');
  await form.getByRole('button', { name: 'Submit' }).click();

  await expect(page).toHaveURL(/\/users$/);
  await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Client');
  await row.getByRole('link', { name: `View ${email}` }).click();
  await expect(page.getByRole('combobox', { name: 'Clients' })).toBeVisible();
  await expect(page.getByText('Northwind Consumer Goods')).toBeVisible();
  await expect(page.getByText('Halden & Crane')).toBeVisible();
  await expectAccessible(page, 'user page');

  await signOut(page, /Ada Admin/);
  await signIn(page, email, password);

  const navigation = page.getByRole('navigation', { name: 'Main navigation' });
  for (const section of EVERYONE_SECTIONS) {
    await expect(navigation.getByRole('link', { name: section })).toBeVisible();
    await expect(page.getByRole('main').getByRole('heading', { name: section })).toBeVisible();
  }
  for (const section of ANALYTICS_SECTIONS) {
    await expect(navigation.getByRole('link', { name: section })).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('heading', { name: section })).toHaveCount(0);
  }
  await expectAccessible(page, 'home of a client user');

  // A client has no admin entries in the user menu.
  await page
    .getByRole('banner')
    .getByRole('button', { name: /Clara Client/ })
    .click();
  await expect(page.getByRole('menuitem', { name: 'Profile settings' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Site settings' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'User list' })).toHaveCount(0);
  await expectAccessible(page, 'user menu of a client user');
});
