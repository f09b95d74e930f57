import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { signIn } from '../support/session.ts';

test.describe('Admin-only routes', () => {
  test('a non-admin who opens /users is sent back to where they were', async ({ page }) => {
    await signIn(page, DEMO_USERS.researcher);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Search for Study' })
      .click();
    await expect(page).toHaveURL(/\/search$/);
    await expect(page).toHaveTitle('Search for Study | Accord');
    await expectAccessible(page, 'search');

    // Following a link inside the app.
    await page.evaluate(
      "window.history.pushState({}, '', '/users'); window.dispatchEvent(new PopStateEvent('popstate'));",
    );
    await expect(page).toHaveURL(/\/search$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Study Search' })).toBeVisible();

    // Typing the address.
    await page.goto('/users');
    await expect(page).toHaveURL(/\/search$/);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/search$/);
    await page.goto('/users/add');
    await expect(page).toHaveURL(/\/search$/);
    await page.goto('/users/1/edit/');
    await expect(page).toHaveURL(/\/search$/);
  });

  test('any user may open their own record from Profile settings', async ({ page }) => {
    await signIn(page, DEMO_USERS.researcher);
    await page
      .getByRole('banner')
      .getByRole('button', { name: /Rita Researcher/ })
      .click();
    await page.getByRole('menuitem', { name: 'Profile settings' }).click();
    await expect(page).toHaveURL(/\/users\/\d+\/edit\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Profile settings' })).toBeVisible();
    const form = page.getByRole('form', { name: 'Edit user' });
    await expect(form.getByLabel('First name', { exact: true })).toHaveValue('Rita');
    // Only the fields a user may change on their own record.
    await expect(form.getByRole('combobox', { name: 'Role' })).toHaveCount(0);
    await expect(form.getByRole('checkbox', { name: 'Deleted' })).toHaveCount(0);
    await expect(form.getByRole('button', { name: 'Submit' })).toBeEnabled();
    await expectAccessible(page, 'profile settings');
  });

  test('a signed-out visitor is sent to login', async ({ page }) => {
    await page.goto('/users');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page).toHaveTitle('Login | Accord');
  });
});

test.describe('Analytics-only sections', () => {
  const sections = [
    { path: '/analytics', title: 'Advanced Analytics', section: 'Advanced Analytics' },
    { path: '/cics', title: 'CICS', section: 'CICS' },
    { path: '/studies-upload', title: 'Studies Upload', section: 'Studies Upload' },
    { path: '/statistics-generator', title: 'Statistics Generator', section: 'Statistics Generator' },
    { path: '/rdf_upload', title: 'Statistic Generator', section: 'Statistics Generator' },
    { path: '/rdf_search', title: 'Find Study', section: 'Statistics Generator' },
  ];

  for (const role of ['client', 'sales'] as const) {
    test(`a ${role} user who opens them by address sees the same No access page`, async ({ page }) => {
      await signIn(page, DEMO_USERS[role]);
      for (const { path, title, section } of sections) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
        const notice = page.getByRole('alert').filter({ hasText: 'No access' });
        await expect(notice).toContainText(
          `${section} is available to admins and users with analytics access.`,
        );
        // The screen itself is not shown, so none of its calls are made.
        await expect(page.getByRole('textbox')).toHaveCount(0);
      }
      await expectAccessible(page, `no access page of a ${role} user`);
    });
  }

  test('a researcher opens them', async ({ page }) => {
    await signIn(page, DEMO_USERS.researcher);
    for (const { path, title } of sections) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByText('No access', { exact: true })).toHaveCount(0);
    }
  });
});
