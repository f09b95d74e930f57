import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { signIn } from '../support/session.ts';

test('the Help link appears once a help url is set in site settings', async ({ page }) => {
  await signIn(page, DEMO_USERS.admin);
  const userMenu = page.getByRole('banner').getByRole('button', { name: /Ada Admin/ });

  await userMenu.click();
  await page.getByRole('menuitem', { name: 'Site settings' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page).toHaveTitle('Site settings | Accord');
  const field = page.getByRole('textbox', { name: 'Help view url' });

  // Start from no help url: no Help link.
  await field.fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The Help link is hidden.')).toBeVisible();
  await userMenu.click();
  await expect(page.getByRole('menuitem', { name: 'Profile settings' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Help' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expectAccessible(page, 'site settings');

  await field.fill('help.accord.test/guide');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The Help link now opens the new address.')).toBeVisible();

  await userMenu.click();
  const help = page.getByRole('menuitem', { name: 'Help' });
  await expect(help).toHaveAttribute('href', 'https://help.accord.test/guide');
  await expect(help).toHaveAttribute('target', '_blank');
  await expectAccessible(page, 'user menu with Help');
});
