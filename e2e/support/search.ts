import { expect, type Page } from '@playwright/test';

/**
 * The study search collapses its filter panel 0.8 s after it opens (document 2 section 2): waits for
 * that, then opens the panel again to choose filters.
 */
export async function showSearchFilters(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Show filters' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(page.getByRole('button', { name: 'Hide filters' })).toHaveAttribute('aria-expanded', 'true');
}
