import { expect, type Page } from '@playwright/test';

/**
 * Waits until the metrics tab has the rows it asked for: while a page, an order or a filter is
 * fetched, the last rows stay on screen beside a "Loading results" status, and a page of 50 rows
 * looks like the one before it (same count, same heading once the page number moved).
 */
export async function rowsSettled(page: Page, timeout = 90_000): Promise<void> {
  await expect(page.getByRole('status', { name: 'Loading results' })).toHaveCount(0, { timeout });
}
