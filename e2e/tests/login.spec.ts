import { MESSAGES } from '@accord/contracts';
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { signIn, submitLogin } from '../support/session.ts';

test.describe('Login', () => {
  test('a user signs in and lands on home', async ({ page }) => {
    await signIn(page, DEMO_USERS.researcher, undefined, { checkA11y: true });
    await expect(page).toHaveTitle('Home | Accord');
    await expect(page.getByRole('banner').getByRole('button', { name: /Rita Researcher/ })).toBeVisible();
    await expectAccessible(page, 'home');
    // The root path leads home.
    await page.goto('/');
    await expect(page).toHaveURL(/\/home\/$/);
  });

  test('wrong credentials show the 401 message', async ({ page }) => {
    await page.goto('/login');
    await submitLogin(page, DEMO_USERS.researcher, 'not-the-password');
    await expect(page.getByRole('alert').filter({ hasText: MESSAGES.loginUnauthorized })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expectAccessible(page, 'login with an error');
  });

  test('a server failure shows the failure message', async ({ page }) => {
    await page.route('**/api/auth/login', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({
          error: 'internal_error',
          message: 'boom',
          statusCode: 500,
          requestId: 'test',
        }),
      }),
    );
    await page.goto('/login');
    await submitLogin(page, DEMO_USERS.researcher);
    await expect(page.getByRole('alert').filter({ hasText: MESSAGES.loginFailure })).toBeVisible();
    await expectAccessible(page, 'login after a server failure');
  });

  test('a slow server shows the too-slow message while the login continues', async ({ page }) => {
    await page.route('**/api/auth/login', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 6_500));
      await route.continue();
    });
    await page.goto('/login');
    await submitLogin(page, DEMO_USERS.researcher);
    const slow = page.getByRole('alert').filter({ hasText: MESSAGES.loginTooSlow });
    await expect(slow).toBeVisible({ timeout: 6_000 });
    await expectAccessible(page, 'login while waiting');
    await expect(page).toHaveURL(/\/home\/$/, { timeout: 15_000 });
  });

  test.describe('in an unsupported browser', () => {
    test.use({
      userAgent:
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.112 Safari/537.36',
    });

    test('a warning shows for three seconds', async ({ page }) => {
      await page.goto('/login');
      const warning = page.getByRole('alert').filter({ hasText: MESSAGES.unsupportedBrowser });
      await expect(warning).toBeVisible();
      await expectAccessible(page, 'login with the browser warning');
      await expect(warning).toBeHidden({ timeout: 5_000 });
    });
  });
});
