import { MESSAGES } from '@accord/contracts';
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { signIn } from '../support/session.ts';

test('logging out asks first: No keeps the session, Yes ends it', async ({ page }) => {
  await signIn(page, DEMO_USERS.researcher);
  const userMenu = page.getByRole('banner').getByRole('button', { name: /Rita Researcher/ });

  await userMenu.click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log out' });
  await expect(dialog.getByText(MESSAGES.logoutConfirm)).toBeVisible();
  await expectAccessible(page, 'logout confirmation');
  await dialog.getByRole('button', { name: 'No' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/home\/$/);

  await userMenu.click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('dialog', { name: 'Log out' }).getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expectAccessible(page, 'login after logout');

  // The session is over on the server too: a reload does not bring it back.
  await page.goto('/home/');
  await expect(page).toHaveURL(/\/login$/);
});
