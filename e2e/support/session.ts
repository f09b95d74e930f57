import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { DEMO_PASSWORD } from './env.ts';

/** Fills the login form; does not wait for the outcome. */
export async function submitLogin(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** Signs in through the login screen and waits for home. */
export async function signIn(
  page: Page,
  email: string,
  password = DEMO_PASSWORD,
  options: { checkA11y?: boolean } = {},
) {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: /welcome to accord/i })).toBeVisible();
  if (options.checkA11y) await expectAccessible(page, 'login');
  await submitLogin(page, email, password);
  await expect(page).toHaveURL(/\/home\/$/);
  await expect(page.getByRole('heading', { level: 1, name: /welcome/i })).toBeVisible();
}

/** Logs out through the user menu and its confirmation. */
export async function signOut(page: Page, screenname: RegExp | string) {
  await page.getByRole('banner').getByRole('button', { name: screenname }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('dialog', { name: 'Log out' }).getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** An API token for set-up steps that the journey itself is not about. */
export async function apiToken(
  request: APIRequestContext,
  email: string,
  password = DEMO_PASSWORD,
): Promise<string> {
  const response = await request.post('/api/auth/login', { data: { email, password, remember: false } });
  expect(response.status(), await response.text()).toBe(200);
  const header = response.headers()['authorization'] ?? '';
  const token = header.replace(/^Bearer\s+/i, '');
  expect(token).not.toBe('');
  return token;
}

export interface NewUser {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
}

/** Creates a user through the API as the demo admin. */
export async function createUserViaApi(
  request: APIRequestContext,
  adminToken: string,
  user: {
    email: string;
    firstname?: string;
    lastname?: string;
    password?: string;
    role_id?: number;
    clients?: string[];
  },
): Promise<NewUser> {
  const response = await request.post('/api/users/', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: {
      email: user.email,
      firstname: user.firstname ?? 'Test',
      lastname: user.lastname ?? 'User',
      password: user.password ?? DEMO_PASSWORD,
      role_id: user.role_id ?? 2,
      status: 'enabled',
      deleted: false,
      clients: JSON.stringify(user.clients ?? []),
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as NewUser;
}

/** A unique e-mail address for a journey's own user. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}@accord.test`;
}
