import { MESSAGES } from '@accord/contracts';
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, createUserViaApi, submitLogin, uniqueEmail } from '../support/session.ts';

test('a user away for over 30 days must choose a new password', async ({ page, request }) => {
  const admin = await apiToken(request, DEMO_USERS.admin);
  const email = uniqueEmail('stale');
  await createUserViaApi(request, admin, { email, firstname: 'Stella', lastname: 'Stale' });
  const aged = await request.post('/api/test/age-user', { data: { email, days: 31 } });
  expect(aged.status(), await aged.text()).toBe(200);

  await page.goto('/login');
  await submitLogin(page, email);

  await expect(page).toHaveURL(/\/login\/reset\?expired=true$/);
  await expect(page.getByText(MESSAGES.resetExpired)).toBeVisible();
  await expect(page.getByText(MESSAGES.resetRequested)).toBeVisible();
  await expect(page.getByLabel('Email address')).toHaveValue(email);
  await expectAccessible(page, 'reset after 30 days');

  // The user is not signed in: home sends them back to login.
  await page.goto('/home/');
  await expect(page).toHaveURL(/\/login$/);
});
