import { COMPANY_NAME, MESSAGES, TOKEN_REFRESH_INTERVAL_MS } from '@accord/contracts';
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { DEMO_USERS } from '../support/env.ts';
import { apiToken, signIn } from '../support/session.ts';

test.describe('Main layout', () => {
  test('the sidebar collapses and the About box shows the versions', async ({ page }) => {
    await signIn(page, DEMO_USERS.researcher);
    const navigation = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(navigation.getByRole('link', { name: 'Advanced Analytics' })).toBeVisible();

    const toggle = page.getByRole('button', { name: 'Toggle navigation' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(navigation.getByRole('link', { name: 'Home' })).not.toBeInViewport();
    await toggle.click();
    await expect(navigation.getByRole('link', { name: 'Home' })).toBeInViewport();

    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(`© ${new Date().getFullYear()} ${COMPANY_NAME}`);
    await footer.getByRole('button', { name: 'About' }).click();
    const about = page.getByRole('dialog', { name: 'About Accord' });
    await expect(about.getByRole('row', { name: /Front-end version/ })).toContainText(/\d+\.\d+\.\d+/);
    await expect(about.getByRole('row', { name: /API version/ })).toContainText(/\d+\.\d+\.\d+/);
    await expect(about.getByRole('row', { name: /Support phone/ })).toBeVisible();
    await expect(about.getByRole('link', { name: 'EMAIL SUPPORT' })).toHaveAttribute('href', /^mailto:/);
    await expectAccessible(page, 'About box');
    await about.getByRole('button', { name: 'CLOSE', exact: true }).click();
    await expect(about).toBeHidden();
  });

  test('on a phone the navigation starts closed on every full load and opens with the burger', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, DEMO_USERS.researcher);
    const navigation = page.getByRole('navigation', { name: 'Main navigation' });
    const toggle = page.getByRole('button', { name: 'Toggle navigation' }).filter({ visible: true });
    for (const path of ['/home/', '/search']) {
      await page.goto(path);
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(navigation.getByRole('link', { name: 'Home' })).not.toBeInViewport();
    }
    await expectAccessible(page, 'study search on a phone');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(navigation.getByRole('link', { name: 'Home' })).toBeInViewport();
    // Choosing a screen closes it again.
    await navigation.getByRole('link', { name: 'Home' }).click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('home offers every working section as active, and a profile keeps Search highlighted', async ({
    page,
    request,
  }) => {
    await signIn(page, DEMO_USERS.researcher);
    for (const card of [
      'Advanced Analytics',
      'CICS',
      'Studies Upload',
      'Statistics Generator',
      'Search for Study',
    ]) {
      const article = page.getByRole('article', { name: card });
      await expect(article).not.toContainText('(Inactive)');
      await expect(article.getByRole('link', { name: `Open ${card}` })).toBeVisible();
    }
    await expect(page.getByText('(Inactive)')).toHaveCount(0);
    await page.getByRole('link', { name: 'Open Studies Upload' }).click();
    await expect(page).toHaveURL(/\/studies-upload$/);

    // A profile is opened from the search results: its sidebar entry is the search, not analytics.
    const token = await apiToken(request, DEMO_USERS.researcher);
    const response = await request.post('/api/smartsearch/fragrances?per_page=1', {
      headers: { Authorization: `Bearer ${token}` },
      data: { query: {} },
    });
    expect(response.status(), await response.text()).toBe(200);
    const [fragrance] = (await response.json()) as { study_id: number; fragrance_code: string }[];
    expect(fragrance).toBeDefined();
    await page.goto(
      `/analytics/profile/${fragrance!.study_id}/${encodeURIComponent(fragrance!.fragrance_code)}`,
    );
    const navigation = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(navigation.getByRole('link', { name: 'Search for Study' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(navigation.getByRole('link', { name: 'Advanced Analytics' })).not.toHaveAttribute(
      'aria-current',
      'page',
    );
    await navigation.getByRole('link', { name: 'Advanced Analytics' }).click();
    await expect(navigation.getByRole('link', { name: 'Advanced Analytics' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('the session renews its token every minute', async ({ page }) => {
    await page.clock.install();
    await signIn(page, DEMO_USERS.researcher);
    const renewal = page.waitForRequest((request) => request.url().endsWith('/api/auth/refresh'));
    await page.clock.fastForward(TOKEN_REFRESH_INTERVAL_MS + 1_000);
    const response = await (await renewal).response();
    expect(response?.status()).toBe(200);
    // Still signed in with the renewed token.
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'CICS' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'CICS' })).toBeVisible();
  });

  test('a 400 or 503 answer raises the "Something went wrong!" box with a traceback to copy', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, DEMO_USERS.admin);
    await page.route('**/api/users/?*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          error: 'unavailable',
          message: 'The database is busy.',
          statusCode: 503,
          requestId: 'req-42',
        }),
      }),
    );
    await page.goto('/users');
    const box = page.getByRole('dialog', { name: MESSAGES.somethingWentWrongTitle });
    await expect(box.getByText(MESSAGES.somethingWentWrongBody)).toBeVisible();
    const traceback = box.getByLabel('Traceback');
    await expect(traceback).toContainText('Status: 503');
    await expect(traceback).toContainText('Request id: req-42');
    await expect(traceback).toContainText('Message: The database is busy.');
    await expectAccessible(page, 'Something went wrong box');
    await box.getByRole('button', { name: 'Copy traceback' }).click();
    await expect(box.getByRole('button', { name: 'Copied' })).toBeVisible();
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toContain('Method: GET');
    expect(copied).toContain('Request id: req-42');
    await box.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(box).toBeHidden();
  });
});
