import type { SearchCounts } from '@accord/contracts';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { showSearchFilters } from '../support/search.ts';
import { apiToken, signIn } from '../support/session.ts';

const resultTab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });

test('a client user sees the Concepts result tab, with the concepts of their own clients', async ({
  page,
  request,
}) => {
  const token = await apiToken(request, DEMO_USERS.client);
  const response = await request.post('/api/smartsearch/', {
    headers: { Authorization: `Bearer ${token}` },
    data: { query: {} },
  });
  expect(response.status(), await response.text()).toBe(200);
  const counts = (await response.json()) as SearchCounts;

  await signIn(page, DEMO_USERS.client);
  await page.goto('/search?startSearch=true');
  await expect(resultTab(page, 'Study summaries')).toContainText(String(counts.summaries), {
    timeout: 30_000,
  });
  // Only the Concept Details filter tab is for admins.
  await expect(page.getByRole('tab', { name: 'Concept Details' })).toHaveCount(0);
  await resultTab(page, 'Concepts').click();
  await expect(resultTab(page, 'Concepts')).toHaveAttribute('aria-selected', 'true');
  await expect(resultTab(page, 'Concepts')).toContainText(String(counts.concepts));
  const table = page.getByRole('table', { name: 'Concepts' });
  if (counts.concepts === 0) await expect(table).toContainText('No data');
  else await expect(table.getByRole('row')).toHaveCount(Math.min(counts.concepts, 10) + 1);
  await expectAccessible(page, 'concepts tab of a client user');
});

test('the filter panel collapses 0.8 s after the screen opens, and a search scrolls to the bottom after 1 s', async ({
  page,
}) => {
  // A short window: the page can scroll before the results arrive as well.
  await page.setViewportSize({ width: 1280, height: 420 });
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/search');
  await expect(page.getByRole('heading', { level: 1, name: 'Study Search' })).toBeVisible();
  const opened = Date.now();
  await expect(page.getByRole('button', { name: 'Show filters' })).toHaveAttribute('aria-expanded', 'false');
  expect(Date.now() - opened).toBeLessThan(5_000);
  await expect(page.getByRole('tab', { name: 'Essentials' })).toBeHidden();
  await expectAccessible(page, 'study search, filters collapsed');

  // Record where each scroll lands, and when, from the moment the search starts (the e2e code has no
  // DOM types: the page runs these scripts as text).
  await page.evaluate(`
    window.scrollMarks = [];
    window.addEventListener('scroll', () => {
      const gap = document.documentElement.scrollHeight - window.innerHeight - window.scrollY;
      window.scrollMarks.push({ at: performance.now() - (window.searchStart ?? 0), bottom: gap < 2 });
    });
  `);
  await page.getByRole('button', { name: 'Search', exact: true }).evaluate(
    // A function the page runs: its argument is the button.
    (button: { click: () => void }) => {
      (globalThis as unknown as { searchStart: number }).searchStart = (
        globalThis as unknown as { performance: { now: () => number } }
      ).performance.now();
      button.click();
    },
  );
  await expect(page.getByRole('table', { name: 'Study summaries' }).getByRole('row').nth(1)).toBeVisible();
  type Mark = { at: number; bottom: boolean };
  await expect
    .poll(() =>
      page.evaluate<Mark[]>('window.scrollMarks').then((marks) => marks.some((mark) => mark.bottom)),
    )
    .toBe(true);
  const marks = await page.evaluate<Mark[]>('window.scrollMarks');
  const first = marks.find((mark) => mark.bottom)!;
  expect(first.at).toBeGreaterThanOrEqual(950);
});

test('a free-text filter stops at its 200 characters with a hint, and nothing goes wrong', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/search');
  await showSearchFilters(page);
  const cmi = page.getByRole('textbox', { name: 'CMI #' });
  await expect(cmi).toHaveAttribute('maxlength', '200');
  await cmi.pressSequentially('C'.repeat(230), { delay: 0 });
  await expect(cmi).toHaveValue('C'.repeat(200));
  await expect(page.getByText('Limit reached: at most 200 characters.')).toBeVisible();
  await expect(cmi).toHaveAccessibleDescription('Limit reached: at most 200 characters.');
  // The option counts follow the filter without a refusal from the server.
  await expect(page.getByRole('status').filter({ hasText: 'Updating options' })).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Something went wrong!' })).toHaveCount(0);
  await expectAccessible(page, 'study search, a filter at its limit');
  await page.screenshot({ path: 'test-results/search-text-limit-1440.png' });
});
