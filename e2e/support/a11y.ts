import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe-core on the screen as it is now and fails on serious or critical violations (colour
 * contrast included). Every journey calls it on every screen it visits.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await page.waitForLoadState('domcontentloaded');
  // Let the loader give way to the screen before judging it.
  await expect(page.getByRole('status').filter({ hasText: /please wait/i })).toHaveCount(0);
  // Only the violations are read: axe then keeps one node of each passed rule instead of every one.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  const blocking = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  const report = blocking
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help}\n${violation.nodes
          .slice(0, 5)
          .map((node) => `  - ${node.target.join(' ')}: ${node.failureSummary ?? ''}`)
          .join('\n')}`,
    )
    .join('\n');
  expect(blocking, `Accessibility violations on ${screen}:\n${report}`).toEqual([]);
}
