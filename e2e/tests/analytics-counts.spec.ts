import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { signIn } from '../support/session.ts';

test.describe.configure({ timeout: 240_000 });

async function choose(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });

test('every analytics tab has a count badge, and an EEG histogram has distinct bin labels and a y axis label', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.researcher);
  await page.goto('/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Advanced Analytics' })).toBeVisible();
  await choose(page, 'Metric 1', 'HFD Hedonic');
  await choose(page, 'Aggregation 1', 'M (mean)');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('table', { name: 'fragrances found' })).toBeVisible({ timeout: 90_000 });

  // Before any run the three other tabs say so with a dash, not a "0" that reads as nothing found.
  await expect(tab(page, 'Fragrances')).toContainText(/\d+/);
  await expect(tab(page, 'Fragrance Performance')).toHaveText(/Fragrance Performance\s*–not run yet$/);
  await expect(tab(page, 'Top Attributes')).toHaveText(/Top Attributes\s*–not run yet$/);
  await expect(tab(page, 'Creative & Olfactive Tendencies')).toHaveText(/Tendencies\s*–not run yet$/);

  const figure = page.getByRole('figure').filter({ hasText: 'HFD Hedonic (M) distribution' });
  await expect(figure).toBeVisible();
  await expect(figure).toContainText(/\d+ fragrances, [\d.]+ to [\d.]+/);
  await expect(figure.locator('svg')).toContainText('Number of fragrances');
  const labels = (await figure.locator('svg text').allTextContents()).filter((text) => text.includes('–'));
  expect(labels).toHaveLength(8);
  expect(new Set(labels).size).toBe(8);
  for (const label of labels) {
    const [from, to] = label.split('–');
    expect(from, label).not.toBe(to);
  }
  await expectAccessible(page, 'analytics with an EEG histogram');
  await page.screenshot({ path: 'test-results/analytics-histogram-1280.png', fullPage: true });

  // A tendencies run counts its values in the tab's badge.
  await tab(page, 'Creative & Olfactive Tendencies').click();
  await choose(page, 'Count', 'Top 5');
  await choose(page, 'Metadata Type', 'Olfactive');
  await choose(page, 'Metadata', 'Family');
  await page.getByRole('button', { name: 'Run' }).click();
  const rows = page.getByRole('table', { name: 'Fragrances by family', exact: true }).getByRole('row');
  await expect(rows.nth(1)).toBeVisible();
  const listed = (await rows.count()) - 1;
  await expect(tab(page, 'Creative & Olfactive Tendencies')).toHaveText(
    new RegExp(`Tendencies\\s*${listed}$`),
  );
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/analytics-tab-counts-390.png', fullPage: true });
});
