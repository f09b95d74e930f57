import { MESSAGES } from '@accord/contracts';
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { newestResetLink } from '../support/outbox.ts';
import { apiToken, createUserViaApi, signIn, uniqueEmail } from '../support/session.ts';

test('a user resets a forgotten password with the mailed link', async ({ page, request }) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  const email = uniqueEmail('forgetful');
  await createUserViaApi(request, admin, { email, firstname: 'Fiona', lastname: 'Forgetful' });

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/login\/reset$/);
  await expect(page).toHaveTitle('Reset Password | Accord');
  await expectAccessible(page, 'reset request');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText(MESSAGES.resetRequested)).toBeVisible();
  await expectAccessible(page, 'reset requested');

  const link = await newestResetLink(email);
  const { pathname } = new URL(link);
  expect(pathname).toMatch(/^\/login\/reset\/.+/);
  await page.goto(pathname);
  await expect(page.getByLabel('New password')).toBeVisible();
  await expectAccessible(page, 'new password');

  await page.getByLabel('New password').fill('brand-new-pass-1');
  await page.getByLabel('Repeat password').fill('brand-new-pass-2');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: MESSAGES.passwordsDoNotMatch })).toBeVisible();

  await page.getByLabel('Repeat password').fill('brand-new-pass-1');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText(/your password has been changed/i)).toBeVisible();
  await expectAccessible(page, 'password changed');
  await page.getByRole('link', { name: 'Back to login' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, email, 'brand-new-pass-1');

  // The link works once only: the server's answer is shown.
  await page.goto(pathname);
  await page.getByLabel('New password').fill('another-pass-1');
  await page.getByLabel('Repeat password').fill('another-pass-1');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: MESSAGES.resetTokenInvalid })).toBeVisible();
});
