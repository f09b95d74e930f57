import { expect, test, type Request } from '@playwright/test';
import { DEMO_USERS } from '../support/env.ts';
import { signIn } from '../support/session.ts';

/** The start-up calls of document 1 section 2, by the path they ask for. */
const STEPS = [
  { name: 'API version', matches: (path: string) => path === '/api/' || path === '/api' },
  { name: 'field definitions', matches: (path: string) => path === '/api/smartsearch/fields' },
  { name: 'permissions', matches: (path: string) => path === '/api/auth/refresh' },
  { name: 'help url', matches: (path: string) => path === '/api/help-url' },
];

test('a full load asks for the API version, then the field definitions, then the permissions, then the help url, then shows the page', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.researcher);
  const seen: { name: string; started: number; ended: number }[] = [];
  const pageCalls: { path: string; started: number }[] = [];
  const startedAt = new Map<Request, number>();
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (!path.startsWith('/api')) return;
    startedAt.set(request, Date.now());
    if (!STEPS.some((step) => step.matches(path))) pageCalls.push({ path, started: Date.now() });
  });
  // A call's answer arriving (its headers) comes before anything the app does with it.
  page.on('response', (response) => {
    const request = response.request();
    const path = new URL(request.url()).pathname;
    const step = STEPS.find((entry) => entry.matches(path));
    if (step && !seen.some((entry) => entry.name === step.name))
      seen.push({ name: step.name, started: startedAt.get(request) ?? 0, ended: Date.now() });
  });

  await page.goto('/search');
  await expect(page.getByRole('heading', { level: 1, name: 'Study Search' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: /Rita Researcher/ })).toBeVisible();

  expect(seen.map((entry) => entry.name)).toEqual(STEPS.map((step) => step.name));
  // Each call starts once the one before it has answered.
  for (let index = 1; index < seen.length; index++)
    expect(
      seen[index]!.started,
      `${seen[index]!.name} after ${seen[index - 1]!.name}`,
    ).toBeGreaterThanOrEqual(seen[index - 1]!.ended);
  // The page's own calls come after the help url.
  const helpUrl = seen.at(-1)!;
  for (const call of pageCalls)
    expect(call.started, `${call.path} after the help url`).toBeGreaterThanOrEqual(helpUrl.ended);
});
